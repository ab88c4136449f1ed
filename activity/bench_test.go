package activity_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/activity"
	"github.com/iceagechess/iceage/play"
)

// BenchmarkMove is a move through the Activity, its asker already known
// (identity and instance remembered): parsing, the checks, the round's
// act and its outbox, on memstore. A new game starts when one ends.
func BenchmarkMove(b *testing.B) {
	w := newWorld(b)
	in := w.srv.LaunchActivity(w.chess.ID, w.alice.ID, w.bob.ID)
	tokens := map[string]string{w.alice.ID: w.signIn(b, w.alice), w.bob.ID: w.signIn(b, w.bob)}
	ctx := context.Background()
	g := w.game
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if g.Over() {
			// The game's channel is free again: the next one starts there.
			out, err := w.round.Start(ctx, play.NewGame{Guild: w.guild.ID, Channel: w.chess.ID, White: g.White, Black: g.Black, At: t0})
			if err != nil {
				b.Fatal(err)
			}
			g = out.Game
		}
		pos, err := g.Position()
		if err != nil {
			b.Fatal(err)
		}
		m := pos.LegalMoves(nil)[0].UCI()
		body := move(in.ID, g.ID, g.Revision, m)
		req, _ := http.NewRequest("POST", w.web.URL+"/activity/api/move", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tokens[g.ToMove().ID])
		b.StartTimer()
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("%s: %v %v", m, resp.Status, err)
		}
		resp.Body.Close()
		b.StopTimer()
		if g, err = w.round.Service().Game(ctx, g.ID); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

func BenchmarkParseMoveRequest(b *testing.B) {
	body := []byte(move("i-1276580072400224306-gc-912952092627435520-912954213460484116", 123456, 42, "e7e8q"))
	for b.Loop() {
		if _, err := activity.ParseMoveRequest(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLobbyPoll is one poll of the lobby, which each window in a
// channel without a game makes every two seconds: its asker known, three
// people in the instance, a challenge waiting, on memstore.
func BenchmarkLobbyPoll(b *testing.B) {
	w := newWorld(b)
	in := w.srv.LaunchActivity(w.lobby.ID, w.alice.ID, w.bob.ID, w.carol.ID)
	alice, bob := w.signIn(b, w.alice), w.signIn(b, w.bob)
	w.call(b, "GET", "/api/game?instance="+in.ID, bob, "")
	if status, got := w.call(b, "POST", "/api/challenge", alice, challengeBody(in.ID, w.bob.ID, "3+2", "random")); status != 200 {
		b.Fatalf("the challenge: %d %v", status, got)
	}
	req, _ := http.NewRequest("GET", w.web.URL+"/activity/api/game?instance="+in.ID, nil)
	req.Header.Set("Authorization", "Bearer "+bob)
	for b.Loop() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("a poll: %v %v", resp, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
