package ops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func writeFile(path string) (int64, error) {
	return 10, os.WriteFile(path, []byte("a database"), 0o600)
}

func TestHealthMetricsAndBackup(t *testing.T) {
	connected, dbErr := true, error(nil)
	src := Sources{
		Connected:   func() bool { return connected },
		StoreOK:     func(context.Context) error { return dbErr },
		Backup:      writeFile,
		BackupDir:   t.TempDir(),
		ActiveGames: func() float64 { return 3 },
	}
	m := NewMetrics(src)
	m.Observe("move", "ok", 4*time.Millisecond)
	m.Observe("move", "refused", time.Millisecond)
	m.Moves.Inc()
	srv := httptest.NewServer(Handler(src, m))
	defer srv.Close()
	if code, body := get(t, srv.URL+"/healthz", ""); code != 200 || !strings.Contains(body, "gateway: connected") {
		t.Errorf("healthy: %d %q", code, body)
	}
	connected = false
	if code, body := get(t, srv.URL+"/healthz", ""); code != 503 || !strings.Contains(body, "gateway: disconnected") {
		t.Errorf("without the gateway: %d %q", code, body)
	}
	connected, dbErr = true, errors.New("pq: password authentication failed for user iceage at db.internal:5432")
	if code, body := get(t, srv.URL+"/healthz", ""); code != 503 || !strings.Contains(body, "store: error") || strings.Contains(body, "db.internal") {
		t.Errorf("without the store: %d %q; want 503, an error and nothing of its text", code, body)
	}
	dbErr = nil
	code, body := get(t, srv.URL+"/metrics", "")
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
	if code, body := get(t, srv.URL+"/backup", ""); code != 200 || body != "a database" {
		t.Errorf("/backup: %d %q", code, body)
	}
	if left, _ := os.ReadDir(src.BackupDir); len(left) != 0 {
		t.Errorf("the backup left %d files behind", len(left))
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

func TestATokenGuardsOperations(t *testing.T) {
	const token = "a-long-random-secret-0123456789"
	src := Sources{Connected: func() bool { return true }, StoreOK: func(context.Context) error { return nil },
		Backup: writeFile, BackupDir: t.TempDir(), Token: token}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	for _, c := range []struct {
		name, path, token string
		code              int
		has, hasNot       string
	}{
		{"a backup without the token", "/backup", "", 401, "", "a database"},
		{"a backup with a wrong token", "/backup", token + "x", 401, "", "a database"},
		{"a backup with a prefix of the token", "/backup", token[:10], 401, "", "a database"},
		{"a backup with the token", "/backup", token, 200, "a database", ""},
		{"metrics without the token", "/metrics", "", 401, "", "go_goroutines"},
		{"metrics with the token", "/metrics", token, 200, "go_goroutines", ""},
		{"health without the token: the status alone", "/healthz", "", 200, "OK", "gateway"},
		{"health with the token: the details", "/healthz", token, 200, "gateway: connected", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := get(t, srv.URL+c.path, c.token)
			if code != c.code || c.has != "" && !strings.Contains(body, c.has) || c.hasNot != "" && strings.Contains(body, c.hasNot) {
				t.Fatalf("%d %.200q; want %d", code, body, c.code)
			}
		})
	}
}

func TestHealthSaysWhatIsWrongWithTheStore(t *testing.T) {
	for _, c := range []struct {
		name    string
		storeOK func(context.Context) error
		damage  error
		want    string
	}{
		{"a stalled database is not answering, and the check returns", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }, nil, "store: not answering"},
		{"damage seen by a transaction", func(context.Context) error { return nil }, errors.New("store: the database file is damaged: page 7"), "store: damage seen"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := Sources{Connected: func() bool { return true }, StoreOK: c.storeOK}
			if c.damage != nil {
				src.Damage = func() error { return c.damage }
			}
			srv := httptest.NewServer(Handler(src, NewMetrics(src)))
			defer srv.Close()
			code, body := get(t, srv.URL+"/healthz", "")
			if code != 503 || !strings.Contains(body, c.want) || strings.Contains(body, "page 7") {
				t.Fatalf("%d %q; want 503 and %q", code, body, c.want)
			}
		})
	}
}

func TestAFailedBackupSaysNothingOfWhy(t *testing.T) {
	src := Sources{Backup: func(string) (int64, error) { return 0, errors.New("open /srv/secret/iceage.db: permission denied") }, BackupDir: t.TempDir()}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	if code, body := get(t, srv.URL+"/backup", ""); code != 500 || strings.Contains(body, "/srv/secret") {
		t.Fatalf("%d %q", code, body)
	}
}

// A client that asks for a backup and reads nothing must not hold the
// database: the copy is finished (its read transaction over) before a
// byte is sent.
func TestABackupIsCopiedBeforeItIsSent(t *testing.T) {
	var copied atomic.Bool
	src := Sources{BackupDir: t.TempDir(), Backup: func(path string) (int64, error) {
		data := make([]byte, 16<<20) // more than the sockets between them hold
		err := os.WriteFile(path, data, 0o600)
		copied.Store(true)
		return int64(len(data)), err
	}}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(conn, "GET /backup HTTP/1.1\r\nHost: x\r\n\r\n")
	for start := time.Now(); !copied.Load(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 30*time.Second { // a bound on a hang, not a measure
			t.Fatal("the copy waits for the client to read")
		}
	}
}

func TestCopiesLeftBehindAreRemoved(t *testing.T) {
	dir := t.TempDir()
	left := filepath.Join(dir, backupPrefix+"123")
	if err := os.MkdirAll(left, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(left, "iceage-backup.db"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "iceage.db")
	if err := os.WriteFile(keep, []byte("db"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := Sources{Backup: writeFile, BackupDir: dir}
	Handler(src, NewMetrics(src))
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the copy left behind is still there: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the database went too: %v", err)
	}
}
