package bot_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// endings records the challenges the bot tells the Activity ended.
type endings struct {
	mu   sync.Mutex
	seen []string
}

func (e *endings) note(c play.Challenge, how round.Answer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seen = append(e.seen, fmt.Sprint(c.From.ID, ">", c.To.ID, " ", how))
}

func (e *endings) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.seen)
}

// TestTheActivityHearsOfChallengesThatEnded: a challenge declined or
// withdrawn with its buttons in the channel, or expired, is told to the
// Activity (ActivityConfig.ChallengeEnded), whose lobby tells the other
// side; one accepted is not.
func TestTheActivityHearsOfChallengesThatEnded(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	var e endings
	w.stop()
	w.activity = bot.ActivityConfig{ChallengeEnded: e.note}
	w.start()

	declined := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.bob, declined, "decline")
	withdrawn := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.carol.ID))
	w.click(w.alice, withdrawn, "decline")
	w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.carol, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID))
	w.advance(w.clk.Now().Add(play.DefaultChallengeTTL))
	want := []string{
		w.alice.ID + ">" + w.bob.ID + " declined",
		w.alice.ID + ">" + w.carol.ID + " withdrawn",
		w.carol.ID + ">" + w.dan.ID + " expired",
	}
	if got := e.all(); !slices.Equal(got, want) {
		t.Errorf("the Activity heard %q, want %q", got, want)
	}
}
