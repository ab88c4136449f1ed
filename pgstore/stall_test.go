package pgstore_test

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
)

// stallingProxy forwards TCP connections to the test cluster's socket
// until stall is called; from then on it passes nothing either way, as
// a database that hangs (or a network that drops packets) would.
type stallingProxy struct {
	addr    string
	mu      sync.Mutex
	stalled chan struct{}
}

func newStallingProxy(t *testing.T, socket string) *stallingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &stallingProxy{addr: ln.Addr().String(), stalled: make(chan struct{})}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("unix", socket)
			if err != nil {
				c.Close()
				continue
			}
			t.Cleanup(func() { c.Close(); s.Close() })
			go p.pipe(c, s)
			go p.pipe(s, c)
		}
	}()
	return p
}

// pipe copies until the proxy stalls; then it holds on to what it read.
func (p *stallingProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-p.stalled:
			<-make(chan struct{}) // hold the connection, answer nothing
		default:
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				dst.Close()
			}
			return
		}
	}
}

func (p *stallingProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	close(p.stalled)
}

// proxied rewrites the test cluster's connection string to go through
// the proxy.
func proxied(t *testing.T) (url string, p *stallingProxy) {
	t.Helper()
	url = pgtest.New(t)
	var host string
	var rest []string
	for _, kv := range strings.Fields(url) {
		if v, ok := strings.CutPrefix(kv, "host="); ok {
			host = v
			continue
		}
		if !strings.HasPrefix(kv, "port=") {
			rest = append(rest, kv)
		}
	}
	p = newStallingProxy(t, filepath.Join(host, ".s.PGSQL.5432"))
	h, port, _ := net.SplitHostPort(p.addr)
	return strings.Join(append([]string{"host=" + h, "port=" + port}, rest...), " "), p
}

func TestAStalledDatabaseFailsFastInsteadOfHanging(t *testing.T) {
	url, proxy := proxied(t)
	const limit = 500 * time.Millisecond
	s, err := pgstore.Open(ctx, url, &pgstore.Options{TxTimeout: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.View(ctx, func(play.ReadTx) error { return nil }); err != nil {
		t.Fatalf("before the stall: %v", err)
	}
	proxy.stall()
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"a read", func() error {
			return s.View(ctx, func(tx play.ReadTx) error { _, err := tx.Game(1); return err })
		}},
		{"a write", func() error {
			return s.Update(ctx, func(tx play.Tx) error { _, err := tx.Game(1); return err })
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- c.run() }()
			select {
			case err := <-done:
				if err == nil {
					t.Fatal("succeeded on a stalled database")
				}
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Logf("failed with %v", err)
				}
			case <-time.After(time.Minute): // a bound on a hang, not a measure of speed
				t.Fatal("still waiting on the stalled database after a minute")
			}
		})
	}
}

func TestConnectionsGetTheDefaultTimeouts(t *testing.T) {
	for _, c := range []struct{ name, extra, want string }{
		{"by default", "", "5s"},
		{"unless the connection string sets its own", " statement_timeout=1500", "1500ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := pgstore.Open(ctx, pgtest.New(t)+c.extra, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var got string
			if err := s.Pool().QueryRow(context.Background(), "SHOW statement_timeout").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("statement_timeout %s, want %s", got, c.want)
			}
		})
	}
}
