package bot_test

import (
	"crypto/ed25519"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/play/memstore"
)

// FuzzSignedInteractions posts any body, signed with the application's
// key, to the interactions endpoint of a running bot: whatever Discord
// (or whoever holds a captured signature) sends, the endpoint answers
// with a status and no handler panics.
func FuzzSignedInteractions(f *testing.F) {
	// The bot logs from its own goroutines while inputs run, where the
	// fuzz engine forbids f.Log: its log is dropped, its panics counted.
	var panicked atomic.Pointer[string]
	w := newWorld(quiet{f, &panicked}, memstore.New(), "en-US")
	pub, priv, _ := ed25519.GenerateKey(nil)
	h := w.bot.InteractionsHandler(pub)
	var panics atomic.Int64
	w.bot.Metrics.Observe = func(command, outcome string, _ time.Duration) {
		if outcome == "panic" {
			panics.Add(1)
		}
	}
	member := fmt.Sprintf(`"guild_id":%q,"channel_id":%q,"member":{"user":{"id":%q,"username":"alice"}}`, w.guild.ID, w.chess.ID, w.alice.ID)
	for _, seed := range []string{
		`{"id":"1","application_id":"1","type":1,"token":"t"}`,
		`{"id":"2","application_id":"1","type":2,"token":"t",` + member + `,"data":{"id":"9","name":"help","type":1}}`,
		`{"id":"3","application_id":"1","type":2,"token":"t",` + member + `,"data":{"id":"9","name":"move","type":1,"options":[{"name":"move","type":3,"value":"Nxf3"}]}}`,
		`{"id":"4","application_id":"1","type":3,"token":"t",` + member + `,"data":{"custom_id":"g:flip:1:0","component_type":2}}`,
		`{"id":"5","application_id":"1","type":3,"token":"t",` + member + `,"data":{"custom_id":"ch:accept:99","component_type":2}}`,
		`{"id":"6","application_id":"1","type":4,"token":"t",` + member + `,"data":{"id":"9","name":"move","type":1,"options":[{"name":"move","type":3,"value":"N","focused":true}]}}`,
		// Options whose values are not of their kind, which discordgo's
		// StringValue and IntValue would panic on.
		`{"id":"10","application_id":"1","type":4,"token":"t",` + member + `,"data":{"id":"9","name":"move","type":1,"options":[{"name":"move","type":0,"value":"N","focused":true}]}}`,
		`{"id":"11","application_id":"1","type":2,"token":"t",` + member + `,"data":{"id":"9","name":"move","type":1,"options":[{"name":"move","type":3,"value":7}]}}`,
		`{"id":"12","application_id":"1","type":2,"token":"t",` + member + `,"data":{"id":"9","name":"board","type":1,"options":[{"name":"flip","type":5,"value":"yes"}]}}`,
		`{"id":"7","type":2}`,
		`{"id":"8","type":3,"data":{}}`,
		`{"id":"9","type":5,"data":{"custom_id":"x","components":[]}}`,
		`[]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ts := fmt.Sprint(time.Now().Unix())
		r := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(body))
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", fmt.Sprintf("%x", ed25519.Sign(priv, []byte(ts+body))))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		switch {
		case rec.Code == http.StatusOK, rec.Code == http.StatusBadRequest, rec.Code == http.StatusConflict,
			rec.Code == http.StatusInternalServerError, rec.Code == http.StatusServiceUnavailable:
		case rec.Code == http.StatusRequestEntityTooLarge && len(body) > bot.MaxInteractionBytes:
		default:
			t.Fatalf("status %d for %.200q", rec.Code, body)
		}
		if n := panics.Load(); n > 0 {
			// Handlers may finish after their answer: the panic may be an
			// earlier input's, so its own log line, stack and all, is shown.
			log := "(not logged)"
			if p := panicked.Load(); p != nil {
				log = *p
			}
			t.Fatalf("%d handlers panicked, found after %.200q:\n%s", n, body, log)
		}
	})
}

// quiet is a testing.TB that drops what is logged, but for the line of a
// handler's panic, which it keeps in panicked.
type quiet struct {
	testing.TB
	panicked *atomic.Pointer[string]
}

func (q quiet) Log(a ...any) {
	if s := fmt.Sprint(a...); strings.Contains(s, "handler panicked") {
		q.panicked.Store(&s)
	}
}

func (q quiet) Logf(format string, a ...any) { q.Log(fmt.Sprintf(format, a...)) }
