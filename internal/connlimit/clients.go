package connlimit

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"sync"
)

// Clients caps what one client holds at once on an HTTP listener: its
// requests in flight, and its long-lived streams (server-sent events),
// which would otherwise let one holder of a link take every connection
// Listen allows. A client is a remote address, an IPv6 one grouped by
// its /64 (one household's or one server's share, which its holder can
// spread requests over at will).
type Clients struct {
	limits  Limits
	mu      sync.Mutex
	holding map[netip.Prefix]*[2]int // by client: requests, streams
}

// Limits are what one client may hold at once, and whose word on the
// client's address the listener takes.
type Limits struct {
	// Requests is how many requests one client may have in flight at
	// once, streams aside.
	Requests int
	// Streams is how many event streams one client may hold open at once.
	Streams int
	// TrustedProxies are the reverse proxies in front of the listener:
	// only from them is X-Forwarded-For read. Behind a proxy left out,
	// every viewer is the proxy, one client.
	TrustedProxies []netip.Prefix
}

const (
	requests = iota
	streams
)

// NewClients returns the per-client caps of limits.
func NewClients(limits Limits) *Clients {
	return &Clients{limits: limits, holding: map[netip.Prefix]*[2]int{}}
}

// Refusal says what a client was refused: too many requests in flight,
// or too many streams open.
type Refusal int

const (
	// TooManyRequests: the client has Requests in flight.
	TooManyRequests Refusal = iota + 1
	// TooManyStreams: the client holds Streams open.
	TooManyStreams
)

// Handler serves h, each request counted against its client's
// Requests; a client with as many in flight gets refuse instead. A
// request served again by a handler inside h (a prefix mounted on the
// same handler) is counted once.
func (c *Clients) Handler(h http.Handler, refuse func(http.ResponseWriter, *http.Request, Refusal)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := r.Context().Value(ticketKey{}).(*ticket); ok {
			h.ServeHTTP(w, r)
			return
		}
		t := &ticket{clients: c, client: c.Client(r), kind: requests}
		if !c.take(t.client, requests) {
			refuse(w, r, TooManyRequests)
			return
		}
		defer func() { c.give(t.client, t.kind) }()
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ticketKey{}, t)))
	})
}

// Stream turns the request r, served by a Clients' Handler, into an
// event stream: counted against its client's Streams from now on, and
// no longer against its Requests. It reports false, and the request
// stays a request, when the client holds as many streams as it may.
// A request no Handler serves is not counted, and becomes a stream.
func Stream(r *http.Request) bool {
	t, ok := r.Context().Value(ticketKey{}).(*ticket)
	if !ok || t.kind == streams {
		return true
	}
	if !t.clients.take(t.client, streams) {
		return false
	}
	t.clients.give(t.client, requests)
	t.kind = streams
	return true
}

type ticketKey struct{}

// ticket is what one request holds, given back when it is served.
// Only the request's own goroutine changes it.
type ticket struct {
	clients *Clients
	client  netip.Prefix
	kind    int
}

func (c *Clients) take(client netip.Prefix, kind int) bool {
	limit := c.limits.Requests
	if kind == streams {
		limit = c.limits.Streams
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.holding[client]
	if n == nil {
		n = new([2]int)
		c.holding[client] = n
	}
	if limit > 0 && n[kind] >= limit {
		return false
	}
	n[kind]++
	return true
}

func (c *Clients) give(client netip.Prefix, kind int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.holding[client]
	n[kind]--
	if *n == [2]int{} {
		delete(c.holding, client) // a client gone holds no memory
	}
}

// held returns what client holds: for tests.
func (c *Clients) held(client netip.Prefix) (requests, streams int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.holding[client]; n != nil {
		return n[0], n[1]
	}
	return 0, 0
}

// Client returns whom r is counted against: its remote address, or,
// when that is a trusted proxy's, the address the proxies say they
// forward for (the right-most of X-Forwarded-For that is not itself a
// trusted proxy's; what a client writes there itself is further left,
// and ignored). An IPv6 address stands for its /64.
func (c *Clients) Client(r *http.Request) netip.Prefix {
	addr := remoteAddr(r.RemoteAddr)
	if c.trusted(addr) {
		addr = c.forwardedFor(r.Header.Values("X-Forwarded-For"), addr)
	}
	return clientOf(addr)
}

// forwardedFor walks the X-Forwarded-For chain from the right, past the
// trusted proxies, to the first address they did not add themselves.
// Something there that is not an address ends the walk at the last
// proxy that wrote it.
func (c *Clients) forwardedFor(values []string, proxy netip.Addr) netip.Addr {
	for i := len(values) - 1; i >= 0; i-- {
		hops := strings.Split(values[i], ",")
		for j := len(hops) - 1; j >= 0; j-- {
			a, err := netip.ParseAddr(strings.TrimSpace(hops[j]))
			if err != nil {
				return proxy
			}
			a = a.Unmap().WithZone("")
			if !c.trusted(a) {
				return a
			}
			proxy = a
		}
	}
	return proxy
}

func (c *Clients) trusted(a netip.Addr) bool {
	for _, p := range c.limits.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// remoteAddr reads the address of an http.Request's RemoteAddr
// (host:port); anything else, as from a test's request, is the
// unspecified address, one client.
func remoteAddr(s string) netip.Addr {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap().WithZone("")
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap().WithZone("")
	}
	return netip.IPv4Unspecified()
}

// clientOf is the prefix a client's address stands for: an IPv4 address
// itself, an IPv6 one its /64.
func clientOf(a netip.Addr) netip.Prefix {
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

// ParsePrefixes reads addresses and networks (CIDR) as prefixes, an
// address being the network of itself alone; it returns the first
// that is neither.
func ParsePrefixes(list []string) ([]netip.Prefix, string, bool) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return nil, s, false
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, "", true
}
