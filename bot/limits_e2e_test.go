package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

// limitedWorld is a world whose bot has the limits of the program's
// defaults.
func limitedWorld(t *testing.T) *world {
	t.Helper()
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	w.limits = bot.Limits{OpenChallenges: 2, EngineGames: 1, ChallengeAgain: 10 * time.Minute, Analyze: time.Minute, GIF: 20 * time.Second}
	w.restart()
	return w
}

// refusedKindly checks that got is the private answer of a limit that
// says when to try again (a Discord timestamp that counts down) when
// when is set.
func refusedKindly(t *testing.T, got fakediscord.Message, want string, when bool) {
	t.Helper()
	if !got.Ephemeral() || !strings.Contains(got.Content, want) || when && !strings.Contains(got.Content, ":R>") {
		t.Fatalf("answered %q (ephemeral %v); want a private %q that says when", got.Content, got.Ephemeral(), want)
	}
}

func TestChallengeWithdrawChallengeDoesNotPingEachTime(t *testing.T) {
	w := limitedWorld(t)
	pings := func() int {
		n := 0
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindResponse && !c.Message.Ephemeral() && strings.Contains(c.Message.Content, "<@"+w.bob.ID+">") {
				n++
			}
		}
		return n
	}
	first := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.alice, first, "decline") // withdrawn by its author
	again := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	refusedKindly(t, again, "challenge them again", true)
	if n := pings(); n != 1 {
		t.Fatalf("Bob was pinged by %d challenges, want 1", n)
	}
	// Someone else may still challenge Bob, and Alice someone else.
	if got := w.command(w.carol, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID)); got.Ephemeral() {
		t.Fatalf("Carol's challenge to Bob: %q", got.Content)
	}
	if got := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID)); got.Ephemeral() {
		t.Fatalf("Alice's challenge to Dan: %q", got.Content)
	}
	w.clock.Add(11 * time.Minute)
	if got := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID)); got.Ephemeral() {
		t.Fatalf("Alice's challenge to Bob after the cooldown: %q", got.Content)
	}
}

func TestAUserOverAQuotaGetsAFriendlyRefusal(t *testing.T) {
	w := limitedWorld(t)
	t.Run("open challenges", func(t *testing.T) {
		if got := w.command(w.dan, w.chess.ID, "challenge"); got.Ephemeral() {
			t.Fatalf("an open challenge within the cap: %q", got.Content)
		}
		if got := w.command(w.dan, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID)); got.Ephemeral() {
			t.Fatalf("a challenge within the cap: %q", got.Content)
		}
		refusedKindly(t, w.command(w.dan, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.carol.ID)), "at most 2 at once", true)
	})
	t.Run("games against the engine", func(t *testing.T) {
		w.engineGame(w.carol)
		got := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.srv.Bot().ID))
		if got.Ephemeral() {
			t.Fatalf("Alice's first engine game: %q", got.Content)
		}
		// Carol reads Russian.
		refusedKindly(t, w.command(w.carol, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.srv.Bot().ID)), "против движка", false)
	})
	t.Run("analyses and replays", func(t *testing.T) {
		thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
		w.playAlternately(thread, w.alice, w.bob, referenceGame(t, "checkmate", 37))
		if got := w.command(w.bob, thread, "analyze"); got.Ephemeral() {
			t.Fatalf("the first /analyze: %q", got.Content)
		}
		refusedKindly(t, w.command(w.bob, thread, "analyze"), "Réessaie /analyser", true) // Bob reads French
		if got := w.command(w.alice, thread, "gif"); got.Ephemeral() {
			t.Fatalf("the first /gif: %q", got.Content)
		}
		refusedKindly(t, w.command(w.alice, thread, "gif"), "Try /gif again", true)
		w.clock.Add(time.Minute)
		if got := w.command(w.alice, thread, "gif"); got.Ephemeral() {
			t.Fatalf("/gif after its cooldown: %q", got.Content)
		}
	})
}
