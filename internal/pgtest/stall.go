package pgtest

import (
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy is a TCP proxy in front of the test cluster that stalls on
// demand.
type Proxy struct{ stalled atomic.Bool }

// Stall makes the proxy pass nothing either way, holding every
// connection open, as a database that hangs or a network that drops
// packets would: only timeouts end a wait.
func (p *Proxy) Stall() { p.stalled.Store(true) }

// Resume passes bytes again. Connections that lost bytes meanwhile are
// out of step with the server and fail; new ones work.
func (p *Proxy) Resume() { p.stalled.Store(false) }

// Stalling returns the connection string of a new, empty schema (as New
// does) reached through a Proxy on 127.0.0.1, and the proxy.
func Stalling(t testing.TB) (url string, p *Proxy) {
	t.Helper()
	url = New(t)
	var socket string
	var rest []string
	for _, kv := range strings.Fields(url) {
		switch {
		case strings.HasPrefix(kv, "host="):
			socket = filepath.Join(strings.TrimPrefix(kv, "host="), ".s.PGSQL.5432")
		case strings.HasPrefix(kv, "port="):
		default:
			rest = append(rest, kv)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p = &Proxy{}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
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
			mu.Lock()
			conns = append(conns, c, s)
			mu.Unlock()
			go pipe(c, s, &p.stalled)
			go pipe(s, c, &p.stalled)
		}
	}()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	url = strings.Join(append([]string{"host=" + host, "port=" + port}, rest...), " ")
	return url, p
}

// pipe copies src to dst, dropping what it reads while the proxy is
// stalled.
func pipe(dst, src net.Conn, stalled *atomic.Bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if stalled.Load() {
			n = 0
		}
		if n > 0 {
			if _, err := dst.Write(buf[:n]); err != nil {
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
