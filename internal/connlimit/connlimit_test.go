package connlimit

import (
	"errors"
	"net"
	"testing"
	"time"
)

// TestAtMostNConnectionsAreOpen: with n connections accepted and open,
// the next waits until one closes, and closing one twice frees one slot.
func TestAtMostNConnectionsAreOpen(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Listen(inner, 2)
	defer ln.Close()
	accepted := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	for range 4 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	next := func(wait time.Duration) net.Conn {
		select {
		case c := <-accepted:
			return c
		case <-time.After(wait):
			return nil
		}
	}
	a, b := next(5*time.Second), next(5*time.Second)
	if a == nil || b == nil {
		t.Fatal("the first two connections were not accepted")
	}
	if c := next(200 * time.Millisecond); c != nil {
		t.Fatal("a third connection was accepted while two were open")
	}
	a.Close()
	a.Close() // a second close frees nothing more
	c := next(5 * time.Second)
	if c == nil {
		t.Fatal("no connection was accepted after one closed")
	}
	if d := next(200 * time.Millisecond); d != nil {
		t.Fatal("a fourth connection was accepted: a double close freed two slots")
	}
	b.Close()
	if d := next(5 * time.Second); d == nil {
		t.Fatal("the fourth connection was not accepted after another closed")
	}
}

// TestCloseEndsAWaitingAccept: an Accept waiting for a slot returns
// net.ErrClosed when the listener is closed.
func TestCloseEndsAWaitingAccept(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Listen(inner, 1)
	d, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	errs := make(chan error)
	go func() { _, err := ln.Accept(); errs <- err }()
	time.Sleep(50 * time.Millisecond)
	ln.Close()
	select {
	case err := <-errs:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Accept still waits after Close")
	}
}
