package web

import (
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/connlimit"
)

// TestOneViewerHoldsAtMostItsStreams: past its event streams a viewer
// is answered 429 with Retry-After and a sentence in its language, while
// its page's polls and other viewers (named by a trusted proxy) still
// get through; a stream closed gives its place back.
func TestOneViewerHoldsAtMostItsStreams(t *testing.T) {
	x := newSite(t, "g1", Options{PerClient: connlimit.Limits{Requests: 2, Streams: 2,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}})
	events := x.srv.URL + x.path() + "/events?after=" + strconv.Itoa(x.g.Revision)
	first := openSSE(t, events, "")
	openSSE(t, events, "")

	get := func(url, forwardedFor string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Accept-Language", "fr")
		if forwardedFor != "" {
			req.Header.Set("X-Forwarded-For", forwardedFor)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := get(events, "")
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "5" ||
		!strings.Contains(string(body), "Trop de pages") || resp.Header.Get("Content-Security-Policy") != CSP {
		t.Fatalf("a third stream from one viewer: %d, Retry-After %q, %q; want 429, 5, in French, with the headers",
			resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if resp := get(x.srv.URL+x.path()+"/view", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("the page's poll, its viewer holding its streams: %d", resp.StatusCode)
	}
	if resp := get(events, "198.51.100.7"); resp.StatusCode != http.StatusOK {
		t.Errorf("another viewer behind the trusted proxy: %d", resp.StatusCode)
	}
	if resp := get(events, "2001:db8::1, 6.6.6.6"); resp.StatusCode != http.StatusOK {
		t.Errorf("a third viewer: %d", resp.StatusCode)
	}

	first.body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp := get(events, "")
		if resp.StatusCode == http.StatusOK {
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("a stream closed did not give its place back: %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestATournamentsStreamsAreCappedAsAGamesAre: a tournament's event
// streams count among its viewer's, past which it is answered 429 and
// its page polls.
func TestATournamentsStreamsAreCappedAsAGamesAre(t *testing.T) {
	x := newSite(t, "777", Options{PerClient: connlimit.Limits{Requests: 4, Streams: 1}})
	y := newTourney(t, x, 3, 1)
	events := y.path() + "/events"
	first := openTourSSE(t, x, events, nil)
	if first.resp.StatusCode != http.StatusOK {
		t.Fatalf("the first stream: %d", first.resp.StatusCode)
	}
	if resp, _ := x.get(events, nil); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a second stream from one viewer: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := x.get(y.path()+"/view", nil); resp.StatusCode != http.StatusOK {
		t.Errorf("the page's poll, its viewer holding its stream: %d", resp.StatusCode)
	}
}
