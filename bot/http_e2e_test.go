package bot_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// signed returns a request to the interactions endpoint, signed with key
// (unsigned when key is nil) as Discord signs: Ed25519 over the
// timestamp followed by the body.
func signed(t *testing.T, url string, key ed25519.PrivateKey, body string) *http.Request {
	t.Helper()
	return signedAt(t, url, key, body, time.Now())
}

// signedAt is signed with the timestamp at.
func signedAt(t *testing.T, url string, key ed25519.PrivateKey, body string, at time.Time) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != nil {
		ts := strconv.FormatInt(at.Unix(), 10)
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, []byte(ts+body))))
	}
	return r
}

func TestHTTPInteractions(t *testing.T) {
	st := memstore.New()
	w := newWorld(t, st, "")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	pub, priv, _ := ed25519.GenerateKey(nil)
	_, other, _ := ed25519.GenerateKey(nil)
	srv := httptest.NewServer(w.bot.InteractionsHandler(pub))
	defer srv.Close()

	ply := func() int {
		var g play.Game
		err := st.View(context.Background(), func(tx play.ReadTx) (err error) { g, err = tx.GameIn(thread); return err })
		if err != nil {
			t.Fatal(err)
		}
		return g.Ply()
	}
	moveBy := func(user, id, uci string) string {
		return fmt.Sprintf(`{"id":%q,"application_id":"1","type":2,"token":"tok%s","guild_id":%q,"channel_id":%q,`+
			`"member":{"user":{"id":%q,"username":"alice"}},"locale":"en-US",`+
			`"data":{"id":"9","name":"move","type":1,"options":[{"name":"move","type":3,"value":%q}]}}`,
			id, id, w.guild.ID, thread, user, uci)
	}
	move := func(id, uci string) string { return moveBy(w.alice.ID, id, uci) }
	post := func(r *http.Request) (int, string, string) {
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}

	t.Run("a PING is answered", func(t *testing.T) {
		code, _, body := post(signed(t, srv.URL, priv, `{"id":"1","application_id":"1","type":1,"token":"t"}`))
		if code != 200 || strings.TrimSpace(body) != `{"type":1}` {
			t.Fatalf("%d %s", code, body)
		}
	})
	for _, bad := range []struct {
		name string
		key  ed25519.PrivateKey
	}{{"a request without a signature", nil}, {"a request signed with another key", other}} {
		t.Run(bad.name+" gets 401 and changes nothing", func(t *testing.T) {
			code, _, _ := post(signed(t, srv.URL, bad.key, move("900001", "h2g3")))
			if code != http.StatusUnauthorized || ply() != 0 {
				t.Fatalf("status %d, ply %d; want 401 and no move", code, ply())
			}
		})
	}
	t.Run("a correctly signed move plays, answered in the HTTP response with the board", func(t *testing.T) {
		code, ct, body := post(signed(t, srv.URL, priv, move("900002", "h2g3")))
		if code != 200 || !strings.HasPrefix(ct, "multipart/") || !strings.Contains(body, `"type":4`) || !bytes.Contains([]byte(body), []byte("\x89PNG")) {
			t.Fatalf("status %d, %s: %.300s", code, ct, body)
		}
		if ply() != 1 {
			t.Fatalf("ply %d after the move, want 1", ply())
		}
	})
	t.Run("a captured request played again is not acted on twice", func(t *testing.T) {
		// The same signed bytes as the move above: a replay.
		code, _, _ := post(signed(t, srv.URL, priv, move("900002", "h2g3")))
		if code != http.StatusConflict || ply() != 1 {
			t.Fatalf("status %d, ply %d; want 409 and still one move", code, ply())
		}
	})
	for _, c := range []struct {
		name string
		at   time.Time
	}{{"an hour-old signed request", time.Now().Add(-time.Hour)}, {"a request signed 400 days ago", time.Now().AddDate(0, 0, -400)},
		{"a request signed an hour ahead", time.Now().Add(time.Hour)}} {
		t.Run(c.name+" gets 401 and changes nothing", func(t *testing.T) {
			code, _, _ := post(signedAt(t, srv.URL, priv, moveBy(w.bob.ID, "90001"+strconv.FormatInt(c.at.Unix(), 10), "g8f6"), c.at))
			if code != http.StatusUnauthorized || ply() != 1 {
				t.Fatalf("status %d, ply %d; want 401 and no move", code, ply())
			}
		})
	}
	t.Run("a request signed a minute ago is taken", func(t *testing.T) {
		code, _, _ := post(signedAt(t, srv.URL, priv, moveBy(w.bob.ID, "900020", "g8f6"), time.Now().Add(-time.Minute)))
		if code != 200 || ply() != 2 {
			t.Fatalf("status %d, ply %d; want 200 and the move", code, ply())
		}
	})
	t.Run("a body changed after signing gets 401", func(t *testing.T) {
		r := signed(t, srv.URL, priv, move("900003", "e2e3"))
		r.Body = io.NopCloser(strings.NewReader(move("900003", "e2e4")))
		if code, _, _ := post(r); code != http.StatusUnauthorized || ply() != 2 {
			t.Fatalf("status %d, ply %d", code, ply())
		}
	})
}
