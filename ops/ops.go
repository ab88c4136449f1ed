// Package ops is the bot's optional HTTP listener for operators:
// /healthz (is the gateway connected, is the store open), /metrics in
// Prometheus's format, and /backup, a consistent copy of the database
// taken while the bot runs.
//
// # Caveats
//
// Nothing here asks who is calling: the listener binds to 127.0.0.1
// unless configured otherwise, and a backup holds every game. Put it
// behind your own access control before exposing it.
package ops

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Sources are what the listener reports on.
type Sources struct {
	// Connected reports whether the Discord gateway is connected.
	Connected func() bool
	// StoreOK reports whether the database answers; nil error if so.
	StoreOK func() error
	// Backup writes a consistent copy of the database.
	Backup func(w io.Writer) (int64, error)
	// ActiveGames counts the games going on; StoreSize is the database
	// file's size in bytes; SchedulerLag how late the scheduler runs.
	ActiveGames  func() float64
	StoreSize    func() float64
	SchedulerLag func() float64
	Log          *slog.Logger
}

// Metrics are the counters the bot feeds.
type Metrics struct {
	Interactions *prometheus.CounterVec
	Latency      *prometheus.HistogramVec
	Moves        prometheus.Counter
	Registry     *prometheus.Registry
}

// NewMetrics makes the bot's metrics and a registry holding them, with
// the Go runtime's and the process's own.
func NewMetrics(src Sources) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		Interactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "iceage_interactions_total", Help: "Interactions answered, by command and outcome (ok, refused, error, panic).",
		}, []string{"command", "outcome"}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "iceage_interaction_seconds", Help: "Time from receiving an interaction to finishing its answer.",
			Buckets: []float64{.002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5},
		}, []string{"command"}),
		Moves: prometheus.NewCounter(prometheus.CounterOpts{Name: "iceage_moves_total", Help: "Moves played."}),
	}
	reg.MustRegister(m.Interactions, m.Latency, m.Moves,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	gauge := func(name, help string, f func() float64) {
		if f != nil {
			reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
		}
	}
	gauge("iceage_active_games", "Games going on.", src.ActiveGames)
	gauge("iceage_store_bytes", "Size of the database file.", src.StoreSize)
	gauge("iceage_scheduler_lag_seconds", "How late the scheduler handles what falls due.", src.SchedulerLag)
	return m
}

// Observe records one answered interaction.
func (m *Metrics) Observe(command, outcome string, latency time.Duration) {
	m.Interactions.WithLabelValues(command, outcome).Inc()
	m.Latency.WithLabelValues(command).Observe(latency.Seconds())
}

// Handler serves /healthz, /metrics and /backup.
func Handler(src Sources, m *Metrics) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		gw := src.Connected != nil && src.Connected()
		var dbErr error
		if src.StoreOK != nil {
			dbErr = src.StoreOK()
		}
		status := http.StatusOK
		if !gw || dbErr != nil {
			status = http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, "gateway: %s\nstore: %s\n", map[bool]string{true: "connected", false: "disconnected"}[gw], okOr(dbErr))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
		if src.Backup == nil {
			http.Error(w, "no database to back up", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="iceage-backup.db"`)
		n, err := src.Backup(w)
		if err != nil && src.Log != nil {
			src.Log.Error("backup over HTTP failed", "bytes", n, "err", err)
		}
		if err == nil && src.Log != nil {
			src.Log.Info("backup over HTTP", "bytes", strconv.FormatInt(n, 10))
		}
	})
	return mux
}

func okOr(err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return "ok"
}
