package bot

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// httpAnswerWait is how long an interaction posted over HTTP waits for
// its answer before it is deferred: Discord drops the request after
// three seconds, and the answer takes its time to get there.
const httpAnswerWait = 2500 * time.Millisecond

// httpAnswer is the first response to an interaction that came over
// HTTP: it goes back in the HTTP response instead of to the callback
// endpoint.
type httpAnswer struct {
	contentType string
	body        []byte
}

// httpWaiters maps the id of an interaction posted over HTTP, while its
// handler runs, to the request waiting for its first answer.
type httpWaiters struct{ m sync.Map }

func (h *httpWaiters) add(id string, w *httpWaiter) { h.m.Store(id, w) }
func (h *httpWaiters) drop(id string)               { h.m.Delete(id) }

func (h *httpWaiters) waiting(id string) (*httpWaiter, bool) {
	v, ok := h.m.Load(id)
	if !ok {
		return nil, false
	}
	return v.(*httpWaiter), true
}

// An httpWaiter is the HTTP request of an interaction: its first answer
// goes back in the response, or, when the handler is slow, a deferral
// went back instead and the answer follows through the webhook.
type httpWaiter struct {
	ch       chan httpAnswer
	mu       sync.Mutex
	answered bool                              // the HTTP response went, or will go, out
	deferred discordgo.InteractionResponseType // what it said when it was a deferral
}

// deferOverHTTP answers a slow interaction's HTTP request with a
// deferral, unless its answer came meanwhile; false when it cannot be
// deferred (an autocomplete).
func (w *httpWaiter) deferOverHTTP(kind discordgo.InteractionType) (httpAnswer, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.answered {
		return <-w.ch, true
	}
	switch kind {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionModalSubmit:
		w.deferred = discordgo.InteractionResponseDeferredChannelMessageWithSource
	case discordgo.InteractionMessageComponent:
		w.deferred = discordgo.InteractionResponseDeferredMessageUpdate
	default:
		return httpAnswer{}, false
	}
	w.answered = true
	body, _ := json.Marshal(discordgo.InteractionResponse{Type: w.deferred})
	return httpAnswer{contentType: "application/json", body: body}, true
}

// MaxInteractionBytes is the largest interaction body the endpoint
// reads. Discord's are a few kilobytes (a command, its options and the
// users and channels they name); a longer one is refused with 413, by
// its Content-Length before a byte of it is read.
const MaxInteractionBytes = 64 << 10

// interactionBodyWait is how long the body of an interaction may take to
// come once its headers did: Discord sends it at once, and drops the
// request after three seconds.
const interactionBodyWait = 5 * time.Second

// InteractionsHandler returns the handler of the interactions endpoint
// that Discord posts to when the application's Interactions Endpoint URL
// is set: it verifies each request's Ed25519 signature with the
// application's public key, answers a PING, and runs any other
// interaction as one from the gateway would run, sending its first
// answer back in the HTTP response.
//
// A stranger can make it do little: a request whose signature headers
// are malformed, or whose timestamp is more than a few minutes off now,
// gets 401 before its body is read; a body over MaxInteractionBytes gets
// 413, one that does not come within interactionBodyWait 408; each of
// these, and a bad signature, closes the connection, so that nothing the
// client sends after is read as a next request. The body is read once,
// into the one buffer the signature is checked on. An interaction id
// that came before gets 409 and is not acted on again (replay.go). Any
// number of identical processes may serve the endpoint behind a load
// balancer.
func (b *Bot) InteractionsHandler(key ed25519.PublicKey) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			refuse(w, http.StatusMethodNotAllowed, "POST only")
			return
		}
		sig, ts, ok := signatureHeaders(r)
		if !ok {
			refuse(w, http.StatusUnauthorized, "invalid request signature")
			return
		}
		// The timestamp is signed: an old one is a replay (replay.go).
		if !freshTimestamp(r, time.Now()) {
			refuse(w, http.StatusUnauthorized, "request signed too long ago")
			return
		}
		if r.ContentLength > MaxInteractionBytes {
			refuse(w, http.StatusRequestEntityTooLarge, "interaction too large")
			return
		}
		signed, err := readSigned(w, r, ts)
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			refuse(w, http.StatusRequestEntityTooLarge, "interaction too large")
			return
		case errors.Is(err, os.ErrDeadlineExceeded):
			refuse(w, http.StatusRequestTimeout, "the body came too slowly")
			return
		case err != nil:
			refuse(w, http.StatusBadRequest, "unreadable body")
			return
		}
		if !ed25519.Verify(key, signed, sig) {
			refuse(w, http.StatusUnauthorized, "invalid request signature")
			return
		}
		body := signed[len(ts):]
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil || i.ID == "" {
			http.Error(w, "not an interaction", http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":1}`)) // a client gone is nothing to tell
			return
		}
		if !b.firstTime(r.Context(), i.ID) {
			b.log.Warn("an interaction over HTTP came again; not acted on twice", "id", i.ID)
			http.Error(w, "interaction already received", http.StatusConflict)
			return
		}
		waiter := &httpWaiter{ch: make(chan httpAnswer, 1)}
		b.http.add(i.ID, waiter)
		ch := waiter.ch
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer b.http.drop(i.ID)
			b.onInteraction(b.s, &discordgo.InteractionCreate{Interaction: &i})
		}()
		timeout := time.NewTimer(httpAnswerWait)
		defer timeout.Stop()
		var a httpAnswer
		select {
		case a = <-ch:
		case <-done:
			select {
			case a = <-ch:
			default:
				b.log.Warn("an interaction over HTTP got no answer", "id", i.ID)
				http.Error(w, "no answer", http.StatusInternalServerError)
				return
			}
		case <-timeout.C:
			var ok bool
			if a, ok = waiter.deferOverHTTP(i.Type); !ok {
				b.log.Warn("an interaction over HTTP was not answered in time", "id", i.ID)
				http.Error(w, "no answer in time", http.StatusServiceUnavailable)
				return
			}
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", a.contentType)
		_, _ = w.Write(a.body) // a client gone is nothing to tell
	})
}

// refuse answers a request with status and closes its connection after
// the answer: what the client sent and was not read is not read as a
// next request.
func refuse(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Connection", "close")
	http.Error(w, why, status)
}

// signatureHeaders returns the signature and the timestamp of r, ok only
// when their shape is right: 64 bytes in hex, and Unix seconds in
// decimal digits.
func signatureHeaders(r *http.Request) (sig []byte, ts string, ok bool) {
	h, ts := r.Header.Get("X-Signature-Ed25519"), r.Header.Get("X-Signature-Timestamp")
	if len(h) != 2*ed25519.SignatureSize || ts == "" || len(ts) > 12 {
		return nil, "", false
	}
	for i := 0; i < len(ts); i++ {
		if ts[i] < '0' || ts[i] > '9' {
			return nil, "", false
		}
	}
	sig, err := hex.DecodeString(h)
	return sig, ts, err == nil
}

// readSigned reads r's body, at most MaxInteractionBytes of it within
// interactionBodyWait, after the timestamp ts in one buffer: what the
// signature signs.
func readSigned(w http.ResponseWriter, r *http.Request, ts string) ([]byte, error) {
	// A server that cannot set the deadline (a test's recorder) keeps its
	// own read timeout.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(interactionBodyWait))
	size := 4 << 10 // grown as needed when the length is not given
	if r.ContentLength >= 0 {
		size = int(r.ContentLength)
	}
	// One byte more, so that the read that finds the end needs no room.
	buf := make([]byte, len(ts), len(ts)+size+1)
	copy(buf, ts)
	body := http.MaxBytesReader(w, r.Body, MaxInteractionBytes)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
