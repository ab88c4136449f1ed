package activity_test

import (
	"context"
	"testing"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// TestBothPressingRematchInTheLobbyStartOneGame: after their game, Alice
// presses the lobby's Rematch, then Bob does: his press accepts her
// challenge, and the lobby answers with the game, played in the channel,
// and why, in his language.
func TestBothPressingRematchInTheLobbyStartOneGame(t *testing.T) {
	w := newWorld(t)
	in := w.srv.LaunchActivity(w.lobby.ID, w.alice.ID, w.bob.ID).ID
	alice, bob := w.signIn(t, w.alice), w.signIn(t, w.bob)
	w.lobbyOf(t, in, alice)
	w.lobbyOf(t, in, bob)
	status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.bob.ID, "1+0", "white"))
	if status != 200 {
		t.Fatalf("Alice's challenge: %d %v", status, got)
	}
	if status, got := w.call(t, "POST", "/api/answer", bob, answerBody(in, uint64(got["challenge"].(float64)), true)); status != 200 {
		t.Fatalf("Bob's accept: %d %v", status, got)
	}
	first, err := w.round.Service().GameIn(context.Background(), w.lobby.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.round.Do(context.Background(), round.Act{Act: play.Act{By: w.bob.ID, Game: first.ID, Revision: first.Revision, At: t0}, Kind: round.Resign}); err != nil {
		t.Fatal(err)
	}
	var asks [2]map[string]any
	for i, who := range []struct {
		token, to string
	}{{alice, w.bob.ID}, {bob, w.alice.ID}} {
		re, ok := w.lobbyOf(t, in, who.token)["rematch"].(map[string]any)
		if !ok {
			t.Fatalf("no rematch in the lobby of press %d", i)
		}
		status, got := w.call(t, "POST", "/api/challenge", who.token, challengeBody(in, who.to, re["time"].(string), re["color"].(string)))
		if status != 200 {
			t.Fatalf("press %d: %d %v", i, status, got)
		}
		asks[i] = got
	}
	if asks[0]["challenge"] == nil || asks[1]["game"] == nil || asks[1]["challenge"] != nil {
		t.Fatalf("the presses are answered %v and %v: want a challenge, then the game", asks[0], asks[1])
	}
	// Bob alone is told why, in French.
	if got := asks[1]["note"]; got != "Alice t'avait déjà lancé un défi aux mêmes conditions\u00a0: il est accepté, la partie commence." {
		t.Errorf("Bob's note: %q", got)
	}
	g, err := w.round.Service().GameIn(context.Background(), w.lobby.ID)
	if err != nil || g.ID != uint64(asks[1]["game"].(float64)) || g.White.ID != w.bob.ID || g.Black.ID != w.alice.ID {
		t.Fatalf("the rematch in #lobby: %+v, %v; want Bob's game with White", g, err)
	}
	if cs, err := w.round.Service().Challenges(context.Background(), w.alice.ID); err != nil || len(cs) != 0 {
		t.Errorf("challenges left: %+v, %v", cs, err)
	}
	status, got = w.call(t, "GET", "/api/game?instance="+in, bob, "")
	if status != 200 || got["game"] != float64(g.ID) || got["color"] != "w" {
		t.Errorf("Bob's page: %d %v, want the rematch with White", status, got)
	}
}
