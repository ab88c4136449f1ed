// Package ops is the bot's optional HTTP listener for operators:
// /healthz (is the gateway connected, is the store open), /metrics in
// Prometheus's format, and /backup, a consistent copy of the database
// taken while the bot runs.
//
// # Caveats
//
// A backup holds every server's games. The listener belongs on
// loopback; off it, the configuration demands a token, which /metrics,
// /backup and /healthz's details then check (Handler). /backup needs a
// token on loopback too: without one configured, the token kept in a
// file (LoadToken). A request whose Host is not the listener's own
// address or loopback is refused, so that a web page rebinding its
// name to 127.0.0.1 reads nothing. It is never the listener Discord's
// interactions come to.
package ops

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Sources are what the listener reports on.
type Sources struct {
	// Connected reports whether the Discord gateway is connected.
	Connected func() bool
	// StoreOK reports whether the database answers within ctx; nil
	// error if so.
	StoreOK func(ctx context.Context) error
	// Damage returns the damage the database met since it was opened,
	// nil if none (bbolt); nil if unknown.
	Damage func() error
	// Backup writes a consistent, checked copy of the database to a new
	// file at path, in BackupDir.
	Backup func(path string) (int64, error)
	// BackupDir is where backups are copied before they are sent: the
	// database's own folder, so that a full copy fits; "" means the
	// system's temporary folder.
	BackupDir string
	// Token, when set, is required for /metrics, /backup and /healthz's
	// details.
	Token string
	// BackupToken is required for /backup when Token is not set (the
	// one kept in the token file, LoadToken): a backup is never sent
	// without a token, and with neither set /backup is refused.
	BackupToken string
	// Listen is the listener's address as configured (http.listen). A
	// request is answered only if its Host names that host, the address
	// the request came to, or loopback: a web page whose name was made
	// to point at this machine (DNS rebinding) gets nothing.
	Listen string
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
	// Delivered is how long after their act the outbox's items were
	// delivered (their count is the histogram's).
	Delivered prometheus.Histogram
	Registry  *prometheus.Registry
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
	m.Delivered = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "iceage_outbox_delivery_seconds", Help: "Time from an act to the delivery of what it left to the outbox (a board its answer could not show, a direct message, an engine move's board).",
		Buckets: []float64{.01, .05, .1, .5, 1, 5, 15, 60, 300, 3600},
	})
	reg.MustRegister(m.Interactions, m.Latency, m.Moves, m.Delivered,
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

// ObserveDelivery records one item the outbox delivered, lag after its
// act.
func (m *Metrics) ObserveDelivery(lag time.Duration) { m.Delivered.Observe(lag.Seconds()) }

// Observe records one answered interaction.
func (m *Metrics) Observe(command, outcome string, latency time.Duration) {
	m.Interactions.WithLabelValues(command, outcome).Inc()
	m.Latency.WithLabelValues(command).Observe(latency.Seconds())
}

// healthWait is how long /healthz waits for the database: a stalled
// database is reported as such, at once, rather than hanging the check.
const healthWait = 2 * time.Second

// A client has backupWrite, and a second more for every backupRate
// bytes, to download a backup: a stalled one holds a temporary file (and
// the one backup at a time), not the database, but not for ever.
const (
	backupWrite = time.Minute
	backupRate  = 1 << 20 // bytes a second
)

// Handler serves /healthz, /metrics and /backup. With src.Token set,
// /metrics and /backup answer only requests that carry it
// ("Authorization: Bearer TOKEN"), and /healthz gives its details only
// to them; without it, the status code alone.
func Handler(src Sources, m *Metrics) http.Handler {
	removeLeftCopies(src)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		gw := src.Connected != nil && src.Connected()
		db := storeHealth(r.Context(), src)
		status := http.StatusOK
		if !gw || db != "ok" {
			status = http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		if !authorized(src.Token, r) {
			fmt.Fprintln(w, http.StatusText(status))
			return
		}
		fmt.Fprintf(w, "gateway: %s\nstore: %s\n", map[bool]string{true: "connected", false: "disconnected"}[gw], db)
	})
	mux.Handle("GET /metrics", guard(src.Token, promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})))
	one := make(chan struct{}, 1) // one backup at a time: each is a copy of the whole file on disk
	backupToken := src.Token
	if backupToken == "" {
		backupToken = src.BackupToken
	}
	mux.Handle("GET /backup", requireToken(backupToken, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if src.Backup == nil {
			http.Error(w, "no database to back up", http.StatusNotFound)
			return
		}
		select {
		case one <- struct{}{}:
			defer func() { <-one }()
		default:
			w.Header().Set("Retry-After", "60")
			http.Error(w, "a backup is being taken; try again in a minute", http.StatusServiceUnavailable)
			return
		}
		serveBackup(w, r, src)
	})))
	return hostGuard(src.Listen, mux)
}

// hostGuard answers 421, and nothing else, to a request whose Host is
// neither loopback, nor the listener's configured host, nor the address
// the request came to.
func hostGuard(listen string, h http.Handler) http.Handler {
	own, _, _ := net.SplitHostPort(listen)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ownHost(r, own) {
			w.Header().Set("Connection", "close")
			http.Error(w, "this listener answers only to its own address", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ownHost reports whether r's Host is loopback, own, or the address r
// came to.
func ownHost(r *http.Request, own string) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch {
	case host == "":
		return false
	case strings.EqualFold(host, "localhost"), own != "" && strings.EqualFold(host, own):
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	return ok && local.IP.Equal(ip)
}

// serveBackup copies the database to a temporary file, checked, and only
// then sends that file: the database's read transaction lasts as long as
// the copy on disk, never as long as a client takes to read, so a client
// that stops reading holds up no write.
func serveBackup(w http.ResponseWriter, r *http.Request, src Sources) {
	dir, err := os.MkdirTemp(src.BackupDir, backupPrefix)
	if err != nil {
		src.logError("backup over HTTP: no room for the copy", err)
		http.Error(w, "could not take a backup; see the bot's log", http.StatusInternalServerError)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "iceage-backup.db")
	n, err := src.Backup(path)
	if err != nil {
		src.logError("backup over HTTP failed", err)
		http.Error(w, "could not take a backup; see the bot's log", http.StatusInternalServerError)
		return
	}
	f, err := os.Open(path) // #nosec G304 -- a file this function named, in a folder it made
	if err != nil {
		src.logError("backup over HTTP: the copy vanished", err)
		http.Error(w, "could not take a backup; see the bot's log", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	// The server's write timeout suits small answers; a backup may be
	// large.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(backupWrite + time.Duration(n/backupRate)*time.Second))
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", `attachment; filename="iceage-backup.db"`)
	http.ServeContent(w, r, "", time.Time{}, f)
	if src.Log != nil {
		src.Log.Info("backup over HTTP", "bytes", strconv.FormatInt(n, 10))
	}
}

// backupPrefix names the folders backups are copied to before they are
// sent.
const backupPrefix = ".iceage-backup-"

// removeLeftCopies removes the copies a process that stopped in the
// middle of sending a backup left behind: each is as big as the
// database. The database is one process's (bbolt locks it), so a copy
// there now is no one's.
func removeLeftCopies(src Sources) {
	if src.Backup == nil || src.BackupDir == "" {
		return
	}
	left, _ := filepath.Glob(filepath.Join(src.BackupDir, backupPrefix+"*"))
	for _, dir := range left {
		if err := os.RemoveAll(dir); err != nil {
			src.logError("removing a backup copy left behind", err)
		}
	}
}

// storeHealth says how the database is, in words that give nothing of
// its errors away (those go to the log).
func storeHealth(ctx context.Context, src Sources) string {
	if src.Damage != nil {
		if err := src.Damage(); err != nil {
			src.logError("health check: the database is damaged", err)
			return "damage seen"
		}
	}
	if src.StoreOK == nil {
		return "ok"
	}
	ctx, cancel := context.WithTimeout(ctx, healthWait)
	defer cancel()
	err := src.StoreOK(ctx)
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		src.logError("health check: the database did not answer in time", err)
		return "not answering"
	default:
		src.logError("health check: the database failed", err)
		return "error"
	}
}

func (src Sources) logError(msg string, err error) {
	if src.Log != nil {
		src.Log.Error(msg, "err", err)
	}
}

// authorized reports whether r carries token; every request does when
// there is none.
func authorized(token string, r *http.Request) bool {
	if token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// requireToken answers 401 to a request without token, and to every
// request when token is empty.
func requireToken(token string, h http.Handler) http.Handler {
	if token == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "backups need a token, and this listener has none (http.token)", http.StatusForbidden)
		})
	}
	return guard(token, h)
}

// guard answers 401 to a request without the token.
func guard(token string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !authorized(token, r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="iceage"`)
			http.Error(w, "this needs the listener's token (http.token): Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
