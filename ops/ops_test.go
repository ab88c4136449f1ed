package ops

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHealthMetricsAndBackup(t *testing.T) {
	connected, dbErr := true, error(nil)
	src := Sources{
		Connected:   func() bool { return connected },
		StoreOK:     func() error { return dbErr },
		Backup:      func(w io.Writer) (int64, error) { n, err := w.Write([]byte("a database")); return int64(n), err },
		ActiveGames: func() float64 { return 3 },
	}
	m := NewMetrics(src)
	m.Observe("move", "ok", 4*time.Millisecond)
	m.Observe("move", "refused", time.Millisecond)
	m.Moves.Inc()
	srv := httptest.NewServer(Handler(src, m))
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz"); code != 200 || !strings.Contains(body, "gateway: connected") {
		t.Errorf("healthy: %d %q", code, body)
	}
	connected = false
	if code, body := get("/healthz"); code != 503 || !strings.Contains(body, "gateway: disconnected") {
		t.Errorf("without the gateway: %d %q", code, body)
	}
	connected, dbErr = true, errors.New("closed")
	if code, body := get("/healthz"); code != 503 || !strings.Contains(body, "store: error: closed") {
		t.Errorf("without the store: %d %q", code, body)
	}
	code, body := get("/metrics")
	for _, want := range []string{
		`iceage_interactions_total{command="move",outcome="ok"} 1`,
		`iceage_interactions_total{command="move",outcome="refused"} 1`,
		`iceage_interaction_seconds_count{command="move"} 2`,
		`iceage_moves_total 1`, `iceage_active_games 3`, `go_goroutines`,
	} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, body := get("/backup"); code != 200 || !bytes.Equal([]byte(body), []byte("a database")) {
		t.Errorf("/backup: %d %q", code, body)
	}
	resp, err := http.Post(srv.URL+"/backup", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /backup: %d", resp.StatusCode)
	}
}
