package bot_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/play/memstore"
)

// spyBody is a request body that counts the bytes read from it.
type spyBody struct {
	r    io.Reader
	read int
}

func (b *spyBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}

func (b *spyBody) Close() error { return nil }

// TestTheInteractionsEndpointRefusesBeforeReading: a request whose
// signature headers are malformed or stale, or whose declared length is
// over the limit, is refused without a byte of its body read, and the
// connection is closed after the answer.
func TestTheInteractionsEndpointRefusesBeforeReading(t *testing.T) {
	w := newWorld(t, memstore.New(), "")
	pub, priv, _ := ed25519.GenerateKey(nil)
	h := w.bot.InteractionsHandler(pub)
	const ping = `{"id":"1","application_id":"1","type":1,"token":"t"}`
	now := strconv.FormatInt(time.Now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(priv, []byte(now+ping)))
	cases := []struct {
		name, sig, ts string
		length        int64
		want          int
	}{
		{"no signature", "", now, -1, http.StatusUnauthorized},
		{"a signature too short", sig[:126], now, -1, http.StatusUnauthorized},
		{"a signature too long", sig + "00", now, -1, http.StatusUnauthorized},
		{"a signature not in hex", "zz" + sig[2:], now, -1, http.StatusUnauthorized},
		{"no timestamp", sig, "", -1, http.StatusUnauthorized},
		{"a timestamp with a sign", sig, "+" + now, -1, http.StatusUnauthorized},
		{"a timestamp with spaces", sig, " " + now, -1, http.StatusUnauthorized},
		{"a timestamp of 30 digits", sig, strings.Repeat("1", 30), -1, http.StatusUnauthorized},
		{"a timestamp an hour old", sig, strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10), -1, http.StatusUnauthorized},
		{"a declared length over the limit", sig, now, bot.MaxInteractionBytes + 1, http.StatusRequestEntityTooLarge},
		{"a declared length of 1 MiB", sig, now, 1 << 20, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := &spyBody{r: strings.NewReader(ping)}
			r := httptest.NewRequest(http.MethodPost, "/interactions", nil)
			r.Body, r.ContentLength = body, c.length
			r.Header.Set("X-Signature-Ed25519", c.sig)
			r.Header.Set("X-Signature-Timestamp", c.ts)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code != c.want || body.read != 0 || rec.Header().Get("Connection") != "close" {
				t.Errorf("status %d, %d bytes of the body read, Connection %q; want %d, none read, close",
					rec.Code, body.read, rec.Header().Get("Connection"), c.want)
			}
		})
	}
	t.Run("the signed PING itself is answered", func(t *testing.T) {
		r := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(ping))
		r.Header.Set("X-Signature-Ed25519", sig)
		r.Header.Set("X-Signature-Timestamp", now)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK || rec.Header().Get("Connection") == "close" {
			t.Errorf("status %d, Connection %q", rec.Code, rec.Header().Get("Connection"))
		}
	})
}

// TestTheInteractionsEndpointTakesBodiesUpToTheLimit: a signed PING
// padded to exactly MaxInteractionBytes is answered; one byte more is
// refused, whether its length was declared or not.
func TestTheInteractionsEndpointTakesBodiesUpToTheLimit(t *testing.T) {
	w := newWorld(t, memstore.New(), "")
	pub, priv, _ := ed25519.GenerateKey(nil)
	h := w.bot.InteractionsHandler(pub)
	const ping = `{"id":"1","application_id":"1","type":1,"token":"t"}`
	for _, c := range []struct {
		name     string
		size     int
		declared bool
		want     int
	}{
		{"at the limit, declared", bot.MaxInteractionBytes, true, http.StatusOK},
		{"at the limit, chunked", bot.MaxInteractionBytes, false, http.StatusOK},
		{"a byte over, declared", bot.MaxInteractionBytes + 1, true, http.StatusRequestEntityTooLarge},
		{"a byte over, chunked", bot.MaxInteractionBytes + 1, false, http.StatusRequestEntityTooLarge},
		{"1 MiB, chunked", 1 << 20, false, http.StatusRequestEntityTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := ping + strings.Repeat(" ", c.size-len(ping))
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			spy := &spyBody{r: strings.NewReader(body)}
			r := httptest.NewRequest(http.MethodPost, "/interactions", nil)
			r.Body, r.ContentLength = spy, -1
			if c.declared {
				r.ContentLength = int64(len(body))
			}
			r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, []byte(ts+body))))
			r.Header.Set("X-Signature-Timestamp", ts)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code != c.want {
				t.Errorf("status %d, want %d", rec.Code, c.want)
			}
			if spy.read > bot.MaxInteractionBytes+1 {
				t.Errorf("%d bytes read, more than the limit", spy.read)
			}
			if c.want != http.StatusOK && rec.Header().Get("Connection") != "close" {
				t.Errorf("refused without closing the connection")
			}
		})
	}
}

// TestTheInteractionsEndpointBuffersABodyOnce: checking a bogus
// signature on a body near the limit allocates about the body once,
// not twice as a copy for the check and another for the handler would.
func TestTheInteractionsEndpointBuffersABodyOnce(t *testing.T) {
	w := newWorld(t, memstore.New(), "")
	pub, _, _ := ed25519.GenerateKey(nil)
	h := w.bot.InteractionsHandler(pub)
	body := strings.Repeat("x", 60<<10)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	bogus := strings.Repeat("ab", ed25519.SignatureSize)
	const runs = 50
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		r := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(body))
		r.Header.Set("X-Signature-Ed25519", bogus)
		r.Header.Set("X-Signature-Timestamp", ts)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("a bogus signature: %d, want 401", rec.Code)
		}
	}
	runtime.ReadMemStats(&after)
	perRequest := (after.TotalAlloc - before.TotalAlloc) / runs
	t.Logf("%d bytes allocated a request for a body of %d", perRequest, len(body))
	if perRequest > uint64(len(body))*3/2 {
		t.Errorf("%d bytes allocated a request for a body of %d: more than one copy", perRequest, len(body))
	}
}
