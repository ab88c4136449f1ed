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
		BackupToken: "a-token-from-the-token-file",
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
	if code, body := get(t, srv.URL+"/backup", ""); code != http.StatusUnauthorized || body == "a database" {
		t.Errorf("/backup without the token file's token: %d %q; want 401", code, body)
	}
	if code, body := get(t, srv.URL+"/backup", src.BackupToken); code != 200 || body != "a database" {
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
	src := Sources{Backup: func(string) (int64, error) { return 0, errors.New("open /srv/secret/iceage.db: permission denied") }, BackupDir: t.TempDir(),
		BackupToken: "the-token-file-token-0123"}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	if code, body := get(t, srv.URL+"/backup", src.BackupToken); code != 500 || strings.Contains(body, "/srv/secret") {
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
	}, BackupToken: "the-token-file-token-0123"}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(conn, "GET /backup HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer %s\r\n\r\n", src.BackupToken)
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

// TestABackupAlwaysNeedsAToken: with no token at all, /backup is
// refused to everyone; the configured token wins over the token file's.
func TestABackupAlwaysNeedsAToken(t *testing.T) {
	src := Sources{Backup: writeFile, BackupDir: t.TempDir()}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	if code, body := get(t, srv.URL+"/backup", ""); code != http.StatusForbidden || body == "a database" {
		t.Errorf("/backup on a listener without a token: %d %q; want 403", code, body)
	}
	src.Token, src.BackupToken = "the-configured-token-0123", "the-token-file-token-0123"
	srv2 := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv2.Close()
	if code, _ := get(t, srv2.URL+"/backup", src.BackupToken); code != http.StatusUnauthorized {
		t.Errorf("/backup with the file's token while http.token is set: %d, want 401", code)
	}
	if code, body := get(t, srv2.URL+"/backup", src.Token); code != 200 || body != "a database" {
		t.Errorf("/backup with http.token: %d %q", code, body)
	}
}

// TestAForeignHostGetsNothing: a request whose Host is some other name,
// as a web page's is after it rebinds its name to 127.0.0.1, gets 421
// and nothing of the listener's, on every path; loopback names, the
// configured host and the address the request came to are answered.
func TestAForeignHostGetsNothing(t *testing.T) {
	const token = "the-token-file-token-0123"
	src := Sources{Connected: func() bool { return true }, Backup: writeFile, BackupDir: t.TempDir(), BackupToken: token,
		Listen: "ops.internal:8080"}
	srv := httptest.NewServer(Handler(src, NewMetrics(src)))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	ask := func(path, host string) (int, string) {
		r, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		r.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, host := range []string{"attacker.example", "attacker.example:" + port, "127.0.0.1.attacker.example", "localhost.attacker.example:" + port,
		"10.1.2.3:" + port, "[::2]:" + port, "ops.internal.attacker.example", "x"} {
		for _, path := range []string{"/backup", "/metrics", "/healthz", "/nothing"} {
			code, body := ask(path, host)
			if code != http.StatusMisdirectedRequest || strings.Contains(body, "a database") || strings.Contains(body, "go_goroutines") || strings.Contains(body, "OK") {
				t.Errorf("GET %s with Host %q: %d %.80q; want 421 and nothing", path, host, code, body)
			}
		}
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST", "127.0.0.2", "[::1]:" + port, "ops.internal:8080", "ops.internal"} {
		if code, body := ask("/backup", host); code != 200 || body != "a database" {
			t.Errorf("GET /backup with Host %q: %d %.80q; want the backup", host, code, body)
		}
	}
}

func TestTheTokenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "iceage-http.token")
	token, created, err := LoadToken(path)
	if err != nil || !created || len(token) != 64 {
		t.Fatalf("first start: %q, created %v, %v; want a new token of 64 hex digits", token, created, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the token file: %v, %v; want mode 0600", fi, err)
	}
	again, created, err := LoadToken(path)
	if err != nil || created || again != token {
		t.Errorf("second start: %q, created %v, %v; want the same token", again, created, err)
	}
	if read, err := ReadToken(path); err != nil || read != token {
		t.Errorf("ReadToken: %q, %v", read, err)
	}
	if _, err := ReadToken(filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadToken of no file: %v, want ErrNotExist", err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadToken(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a token file others may read: %v, want the advice to chmod it", err)
	}
	short := filepath.Join(dir, "short")
	if err := os.WriteFile(short, []byte("abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadToken(short); err == nil || !strings.Contains(err.Error(), "remove it") {
		t.Errorf("a token file with a short token: %v", err)
	}
}
