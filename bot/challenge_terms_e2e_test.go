package bot_test

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

// A challenge says what kind of game it offers: without time:, a
// correspondence game, "3 days per move", whose game has no clock; with
// time:5+3, "5+3 blitz", on the clock.
func TestAChallengeSaysItsTimeControl(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	var corr fakediscord.Message
	for _, m := range w.srv.Messages(w.chess.ID) {
		if len(m.Embeds) > 0 && strings.Contains(m.Content, "<@"+w.bob.ID+">") {
			corr = m
		}
	}
	if len(corr.Embeds) == 0 || !strings.Contains(corr.Embeds[0].Description, "3 days per move") {
		t.Fatalf("the correspondence challenge does not say 3 days per move: %+v", corr.Embeds)
	}
	if g := w.gameOf(thread); g.Clock != nil || g.DaysPerMove != 3 {
		t.Fatalf("the correspondence game: clock %+v, %d days per move", g.Clock, g.DaysPerMove)
	}
	live := w.command(w.carol, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID), fakediscord.StringOption("time", "5+3"))
	if live.Ephemeral() || len(live.Embeds) == 0 || !strings.Contains(live.Embeds[0].Description, "5+3 blitz") || strings.Contains(live.Embeds[0].Description, "per move") {
		t.Fatalf("the live challenge says %+v", live.Embeds)
	}
}
