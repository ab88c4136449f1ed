package connlimit

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestAClientIsItsAddressOrItsIPv6Slash64 and what a proxy says is
// believed only from a trusted proxy, from the right.
func TestAClientIsItsAddressOrItsIPv6Slash64(t *testing.T) {
	trusted, bad, ok := ParsePrefixes([]string{"10.0.0.0/8", "192.168.1.1", "fd00::/8"})
	if !ok {
		t.Fatalf("ParsePrefixes refused %q", bad)
	}
	c := NewClients(Limits{TrustedProxies: trusted})
	for _, tc := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"IPv4", "203.0.113.7:4321", nil, "203.0.113.7/32"},
		{"IPv6, its /64", "[2001:db8:1:2:3:4:5:6]:443", nil, "2001:db8:1:2::/64"},
		{"IPv4 in IPv6", "[::ffff:203.0.113.7]:1", nil, "203.0.113.7/32"},
		{"IPv6 with a zone", "[fe80::1%eth0]:1", nil, "fe80::/64"},
		{"no port", "203.0.113.7", nil, "203.0.113.7/32"},
		{"nonsense", "pipe", nil, "0.0.0.0/32"},
		{"a stranger's X-Forwarded-For is ignored", "203.0.113.7:1", []string{"198.51.100.1"}, "203.0.113.7/32"},
		{"a trusted proxy's is read", "10.1.2.3:1", []string{"198.51.100.1"}, "198.51.100.1/32"},
		{"from the right, past the proxies", "10.1.2.3:1", []string{"6.6.6.6, 198.51.100.1, 192.168.1.1"}, "198.51.100.1/32"},
		{"over several headers", "10.1.2.3:1", []string{"6.6.6.6", "198.51.100.1", "10.9.9.9"}, "198.51.100.1/32"},
		{"an IPv6 client behind the proxy", "[fd00::1]:1", []string{"2001:db8::1"}, "2001:db8::/64"},
		{"no header: the proxy", "10.1.2.3:1", nil, "10.1.2.3/32"},
		{"garbage: the last proxy", "10.1.2.3:1", []string{"198.51.100.1, nonsense, 10.4.4.4"}, "10.4.4.4/32"},
		{"only proxies: the left-most", "10.1.2.3:1", []string{"10.5.5.5, 10.4.4.4"}, "10.5.5.5/32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.remote
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := c.Client(r); got.String() != tc.want {
				t.Errorf("Client = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestParsePrefixesRefusesWhatIsNoAddress(t *testing.T) {
	for _, s := range []string{"", "10.0.0.0/33", "example.org", "fe80::1%eth0", "1.2.3.4:80"} {
		if _, bad, ok := ParsePrefixes([]string{"10.0.0.1", s}); ok || bad != s {
			t.Errorf("ParsePrefixes(%q) = %q, %v; want it refused", s, bad, ok)
		}
	}
	got, _, ok := ParsePrefixes([]string{"10.1.2.3/8", "::ffff:1.2.3.4", "2001:db8::1"})
	if !ok || got[0].String() != "10.0.0.0/8" || got[1].String() != "1.2.3.4/32" || got[2].String() != "2001:db8::1/128" {
		t.Errorf("ParsePrefixes = %v, %v", got, ok)
	}
}

// TestAClientHoldsAtMostItsRequestsAndStreams: past its caps a client
// is refused, others are not; a stream stops counting as a request; a
// request served again inside is counted once; everything is given
// back when served.
func TestAClientHoldsAtMostItsRequestsAndStreams(t *testing.T) {
	c := NewClients(Limits{Requests: 2, Streams: 1})
	release := make(chan struct{})
	entered := make(chan string, 10)
	var inner http.Handler
	inner = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/again" {
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/stream"
			inner.ServeHTTP(w, r2)
			return
		}
		if r.URL.Path == "/stream" && !Stream(r) {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		entered <- r.URL.Path
		<-release
	})
	refused := func(w http.ResponseWriter, r *http.Request, why Refusal) {
		w.Header().Set("X-Why", map[Refusal]string{TooManyRequests: "requests", TooManyStreams: "streams"}[why])
		w.WriteHeader(http.StatusTooManyRequests)
	}
	h := c.Handler(inner, refused)
	serve := func(path, from string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		r.RemoteAddr = from
		h.ServeHTTP(w, r)
		return w
	}
	a, b := "[2001:db8::1]:1", "[2001:db8::2]:2" // one /64: one client
	client := netip.MustParsePrefix("2001:db8::/64")
	done := make(chan *httptest.ResponseRecorder, 10)
	go func() { done <- serve("/again", a) }() // a stream, counted once
	<-entered
	if r, s := c.held(client); r != 0 || s != 1 {
		t.Fatalf("with one stream open the client holds %d requests, %d streams", r, s)
	}
	if w := serve("/stream", b); w.Code != http.StatusTooManyRequests {
		t.Errorf("a second stream: %d, want 429", w.Code)
	}
	go func() { done <- serve("/", a) }()
	go func() { done <- serve("/", b) }()
	<-entered
	<-entered
	if w := serve("/", a); w.Code != http.StatusTooManyRequests || w.Header().Get("X-Why") != "requests" {
		t.Errorf("a third request: %d %q, want 429 for requests", w.Code, w.Header().Get("X-Why"))
	}
	go func() { done <- serve("/", "203.0.113.9:1") }() // another client
	if got := <-entered; got != "/" {
		t.Errorf("another client entered %q", got)
	}
	close(release)
	for range 4 {
		if w := <-done; w.Code != http.StatusOK {
			t.Errorf("a request let in: %d", w.Code)
		}
	}
	if r, s := c.held(client); r != 0 || s != 0 || len(c.holding) != 0 {
		t.Errorf("all served, the client holds %d requests, %d streams; %d clients held", r, s, len(c.holding))
	}
}

// FuzzClient: no X-Forwarded-For or remote address makes Client panic,
// and a stranger's header is never believed.
func FuzzClient(f *testing.F) {
	f.Add("10.1.2.3:1", "198.51.100.1, 10.4.4.4")
	f.Add("[2001:db8::1]:1", ",,, ::1%x")
	f.Add("203.0.113.7:1", "1.1.1.1")
	trusted, _, _ := ParsePrefixes([]string{"10.0.0.0/8"})
	c := NewClients(Limits{TrustedProxies: trusted})
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-Forwarded-For", xff)
		got := c.Client(r)
		if !got.IsValid() {
			t.Fatalf("Client(%q, %q) = %v", remote, xff, got)
		}
		r.Header.Del("X-Forwarded-For")
		if a := remoteAddr(remote); !c.trusted(a) && got != c.Client(r) {
			t.Fatalf("a stranger's X-Forwarded-For %q moved %q to %v", xff, remote, got)
		}
	})
}
