package bot

import (
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
// its answer: Discord drops the request after three seconds.
const httpAnswerWait = 2900 * time.Millisecond

// httpAnswer is the first response to an interaction that came over
// HTTP: it goes back in the HTTP response instead of to the callback
// endpoint.
type httpAnswer struct {
	contentType string
	body        []byte
}

// httpWaiters maps the id of an interaction posted over HTTP to the
// channel its first answer goes to.
type httpWaiters struct{ m sync.Map }

// answerOverHTTP hands the first response to an interaction to the HTTP
// request that brought it, if one waits; ok is false otherwise, and the
// caller sends it to Discord's callback endpoint.
func (b *Bot) answerOverHTTP(i *discordgo.Interaction, payload any, m *message) (ok bool, err error) {
	v, found := b.http.m.LoadAndDelete(i.ID)
	if !found {
		return false, nil
	}
	ch := v.(chan httpAnswer)
	var a httpAnswer
	if m != nil && len(m.images) > 0 {
		files := make([]*discordgo.File, len(m.images))
		for k, img := range m.images {
			files[k] = &discordgo.File{Name: img.name, ContentType: "image/png", Reader: bytesReader(img.data)}
		}
		a.contentType, a.body, err = discordgo.MultipartBodyWithJSON(payload, files)
	} else {
		a.contentType = "application/json"
		a.body, err = json.Marshal(payload)
	}
	if err != nil {
		return true, fmt.Errorf("bot: encoding an answer: %w", err)
	}
	ch <- a
	return true, nil
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
		if !b.seen.first(i.ID, time.Now()) {
			b.log.Warn("an interaction over HTTP came again; not acted on twice", "id", i.ID)
			http.Error(w, "interaction already received", http.StatusConflict)
			return
		}
		ch := make(chan httpAnswer, 1)
		b.http.m.Store(i.ID, ch)
		done := make(chan struct{})
		go func() {
			defer close(done)
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
				b.http.m.Delete(i.ID)
				b.log.Warn("an interaction over HTTP got no answer", "id", i.ID)
				http.Error(w, "no answer", http.StatusInternalServerError)
				return
			}
		case <-timeout.C:
			b.http.m.Delete(i.ID)
			b.log.Warn("an interaction over HTTP was not answered in time", "id", i.ID)
			http.Error(w, "no answer in time", http.StatusServiceUnavailable)
			return
		case <-r.Context().Done():
			b.http.m.Delete(i.ID)
			return
		}
		w.Header().Set("Content-Type", a.contentType)
		_, _ = w.Write(a.body) // a client gone is nothing to tell
	})
}
