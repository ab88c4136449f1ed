package bot_test

import (
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// A declined challenge holds its author back from the same opponent
// only until the two play: Dan's challenge, which Alice declined, does
// not stop Dan's Rematch once she has challenged him and they have
// played.
func TestAGamePlayedLiftsTheCooldownOfAnEarlierDecline(t *testing.T) {
	w := limitedWorld(t)
	ch := w.command(w.dan, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID))
	w.click(w.alice, ch, "decline")
	refusedKindly(t, w.command(w.dan, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID)), "declined, withdrawn or left unanswered", true)
	thread, board := w.challengeAccepted(w.chess, w.alice, w.dan)
	end := w.resignByClicking(w.alice, thread, board)
	if got := w.click(w.dan, end, "rematch"); got.Ephemeral() {
		t.Fatalf("Dan's Rematch after their game is refused: %q", got.Content)
	}
}
