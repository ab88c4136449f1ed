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

func TestBothPlayersOfAFinishedGameMayPlayTheNextAtOnce(t *testing.T) {
	w := limitedWorld(t)
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	end := w.resignByClicking(w.bob, thread, board)
	// Alice challenged first; both may ask for the rematch at once: hers
	// is a challenge, and Bob's accepts it.
	if got := w.click(w.alice, end, "rematch"); got.Ephemeral() {
		t.Fatalf("Alice's Rematch is refused: %q", got.Content)
	}
	if got := w.click(w.bob, end, "rematch"); !strings.Contains(got.Content, "avait déjà demandé la revanche") {
		t.Fatalf("Bob's Rematch is answered %q", got.Content)
	}
	// And /challenge of the same opponent after a finished game.
	thread, board = w.challengeAccepted(w.chess, w.carol, w.dan)
	w.resignByClicking(w.dan, thread, board)
	if got := w.command(w.carol, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID)); got.Ephemeral() {
		t.Fatalf("Carol's challenge to Dan after their game: %q", got.Content)
	}
	// A declined challenge still holds back the next one.
	ch := w.command(w.dan, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID))
	w.click(w.alice, ch, "decline")
	refusedKindly(t, w.command(w.dan, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID)), "declined, withdrawn or left unanswered", true)
}

func TestTheNinthEngineGameInAMinuteIsRefusedWithoutAThread(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	w.limits = bot.Limits{EngineGames: 1, PostsPerMinute: 8}
	w.restart()
	threads := func() int {
		n := 0
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindThread && c.Err == nil {
				n++
			}
		}
		return n
	}
	// The loop of the report: start a game against the engine, abort it.
	for i := range 8 {
		thread, _ := w.engineGame(w.alice, fakediscord.StringOption("color", "white"))
		board := w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
		if got := w.click(w.alice, board, "abort"); !strings.Contains(got.Content, "aborted") {
			t.Fatalf("the abort of game %d is answered %q", i+1, got.Content)
		}
		w.clock.Add(time.Second)
		if n := threads(); n != i+1 {
			t.Fatalf("%d threads after %d games", n, i+1)
		}
	}
	got := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.srv.Bot().ID))
	refusedKindly(t, got, "at most 8 new challenges, games and boards a minute", true)
	if n := threads(); n != 8 {
		t.Fatalf("the refused game opened a thread: %d threads", n)
	}
	// An open challenge and its withdrawal are two posts. Bob reads
	// French.
	for range 4 {
		ch := w.command(w.bob, w.chess.ID, "challenge")
		if ch.Ephemeral() {
			t.Fatalf("Bob's open challenge: %q", ch.Content)
		}
		w.click(w.bob, ch, "decline")
	}
	refusedKindly(t, w.command(w.bob, w.chess.ID, "challenge"), "au plus 8 défis, parties et échiquiers nouveaux par minute", true)
	// The first of Alice's games is a minute old.
	w.clock.Add(52 * time.Second)
	if _, board := w.engineGame(w.alice); board.Ephemeral() {
		t.Fatalf("a game a minute after the first is refused: %q", board.Content)
	}
}
