// Package connlimit caps how many connections a listener holds open at
// once, so that a stranger cannot make a server hold a goroutine, its
// buffers and a file descriptor for each of thousands of connections;
// and, on an HTTP listener that strangers share, how many requests and
// event streams one client holds at once (Clients), so that one cannot
// take every connection from the others.
package connlimit

import (
	"net"
	"sync"
)

// Listen returns ln, accepting at most n connections open at once: when
// n are open, Accept waits for one of them to close, and the connections
// beyond wait in the system's backlog, as they would for a busy server.
func Listen(ln net.Listener, n int) net.Listener {
	return &listener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type listener struct {
	net.Listener
	slots     chan struct{} // one value for each connection open
	done      chan struct{} // closed by Close
	closeOnce sync.Once
}

func (l *listener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &conn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *listener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// conn gives its slot back when it is closed, once however often.
type conn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
