package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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

// An httpWaiter is the HTTP request of an interaction: its first answer
// goes back in the response, or, when the handler is slow, a deferral
// went back instead and the answer follows through the webhook.
type httpWaiter struct {
	ch       chan httpAnswer
	mu       sync.Mutex
	answered bool                              // the HTTP response went, or will go, out
	deferred discordgo.InteractionResponseType // what it said when it was a deferral
}

// answerOverHTTP hands the first response to an interaction to the HTTP
// request that brought it, if one waits: ok is true. When that request
// was answered with a deferral meanwhile, deferred says which, and the
// caller turns its answer into an edit or a follow-up (afterDeferral);
// otherwise the caller sends it to Discord's callback endpoint.
func (b *Bot) answerOverHTTP(i *discordgo.Interaction, payload any, m *message) (ok bool, deferred discordgo.InteractionResponseType, err error) {
	v, found := b.http.m.Load(i.ID)
	if !found {
		return false, 0, nil
	}
	w := v.(*httpWaiter)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.answered {
		return false, w.deferred, nil
	}
	var a httpAnswer
	if m != nil && len(m.images) > 0 {
		a.contentType, a.body, err = discordgo.MultipartBodyWithJSON(payload, m.files())
	} else {
		a.contentType = "application/json"
		a.body, err = json.Marshal(payload)
	}
	if err != nil {
		return true, 0, fmt.Errorf("bot: encoding an answer: %w", err)
	}
	w.answered = true
	w.ch <- a
	return true, 0, nil
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

// afterDeferral sends an answer of typ to an interaction whose HTTP
// request was answered with a deferral: the deferred message is edited,
// or, for what it cannot become (a private answer after a public
// deferral, a new message after a click's), replaced by a follow-up.
func (b *Bot) afterDeferral(ctx context.Context, i *discordgo.Interaction, deferred, typ discordgo.InteractionResponseType, m *message) error {
	switch {
	case typ == discordgo.InteractionResponseUpdateMessage:
		return b.editResponse(ctx, i, m)
	case typ != discordgo.InteractionResponseChannelMessageWithSource:
		return fmt.Errorf("bot: an answer of type %d after a deferral over HTTP", typ)
	case deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource && m.Flags&discordgo.MessageFlagsEphemeral == 0:
		return b.editResponse(ctx, i, m)
	case deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		if err := b.followUp(ctx, i, m); err != nil {
			return err
		}
		return b.deleteResponse(ctx, i)
	default:
		return b.followUp(ctx, i, m)
	}
}

// InteractionsHandler returns the handler of the interactions endpoint
// that Discord posts to when the application's Interactions Endpoint URL
// is set: it verifies each request's Ed25519 signature with the
// application's public key (discordgo.VerifyInteraction), answers a
// PING, and runs any other interaction as one from the gateway would
// run, sending its first answer back in the HTTP response. A request
// without a valid signature, or signed more than a few minutes off now,
// gets 401 and changes nothing; an interaction id that came before gets
// 409 and is not acted on again (replay.go). Any number of
// identical processes may serve the endpoint behind a load balancer.
func (b *Bot) InteractionsHandler(key ed25519.PublicKey) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if !discordgo.VerifyInteraction(r, key) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		// The timestamp is signed: an old one is a replay (replay.go).
		if !freshTimestamp(r, time.Now()) {
			http.Error(w, "request signed too long ago", http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
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
		b.http.m.Store(i.ID, waiter)
		ch := waiter.ch
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer b.http.m.Delete(i.ID)
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
