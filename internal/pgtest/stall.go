package pgtest

import (
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Stalling returns the connection string of a new, empty schema (as New
// does) reached through a TCP proxy on 127.0.0.1, and a function that
// stalls the proxy: from then on it passes nothing either way and holds
// every connection open, as a database that hangs or a network that
// drops packets would. Nothing is closed, so only timeouts end a wait.
func Stalling(t testing.TB) (url string, stall func()) {
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
	stalled := make(chan struct{})
	var once sync.Once
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
			go pipe(c, s, stalled)
			go pipe(s, c, stalled)
		}
	}()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	url = strings.Join(append([]string{"host=" + host, "port=" + port}, rest...), " ")
	return url, func() { once.Do(func() { close(stalled) }) }
}

// pipe copies src to dst until the proxy stalls; then it drops what it
// reads and writes nothing more.
func pipe(dst, src net.Conn, stalled <-chan struct{}) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-stalled:
			n = 0
		default:
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
