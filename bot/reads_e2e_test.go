package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// counting is a storage that counts the games and settings its
// transactions read, and the transactions.
type counting struct {
	round.Storage
	mu             sync.Mutex
	views, updates int
	games          int
	prefs          map[string]int
}

func (c *counting) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.views, c.updates, c.games, c.prefs = 0, 0, 0, map[string]int{}
}

func (c *counting) View(ctx context.Context, fn func(play.ReadTx) error) error {
	c.mu.Lock()
	c.views++
	c.mu.Unlock()
	return c.Storage.View(ctx, func(tx play.ReadTx) error { return fn(countingRead{tx, c}) })
}

func (c *counting) Update(ctx context.Context, fn func(play.Tx) error) error {
	c.mu.Lock()
	c.updates++
	c.mu.Unlock()
	return c.Storage.Update(ctx, func(tx play.Tx) error { return fn(countingTx{tx, c}) })
}

func (c *counting) game() {
	c.mu.Lock()
	c.games++
	c.mu.Unlock()
}

func (c *counting) pref(user string) {
	c.mu.Lock()
	if c.prefs == nil {
		c.prefs = map[string]int{}
	}
	c.prefs[user]++
	c.mu.Unlock()
}

type countingRead struct {
	play.ReadTx
	c *counting
}

func (t countingRead) Game(id uint64) (play.Game, error)   { t.c.game(); return t.ReadTx.Game(id) }
func (t countingRead) GameIn(ch string) (play.Game, error) { t.c.game(); return t.ReadTx.GameIn(ch) }
func (t countingRead) Prefs(user string) (play.Prefs, error) {
	t.c.pref(user)
	return t.ReadTx.Prefs(user)
}

type countingTx struct {
	play.Tx
	c *counting
}

func (t countingTx) Game(id uint64) (play.Game, error)   { t.c.game(); return t.Tx.Game(id) }
func (t countingTx) GameIn(ch string) (play.Game, error) { t.c.game(); return t.Tx.GameIn(ch) }
func (t countingTx) Prefs(user string) (play.Prefs, error) {
	t.c.pref(user)
	return t.Tx.Prefs(user)
}

// movesField is the move list of a board's message.
func movesField(m fakediscord.Message) string {
	for _, e := range m.Embeds {
		for _, f := range e.Fields {
			if f.Name == "Moves" {
				return f.Value
			}
		}
	}
	return ""
}

// One /move reads the game once — the act finds it by its channel — and
// each player's settings at most once, in the act's transaction, where
// whom to tell and how is decided: the answer's board is drawn from the
// act's events, and its move list from the SANs the moves carry, so
// that nothing replays the game (play.Replays counts every replay).
func TestAMoveReadsTheGameOnceAndEachPlayersSettingsAtMostOnce(t *testing.T) {
	st := &counting{Storage: memstore.New()}
	w := newWorld(t, st, "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	if g := w.gameOf(thread); g.White.ID != w.alice.ID {
		t.Fatalf("Alice does not have White: %+v", g.White)
	}
	// A few moves first, so that the board's move list has some to show.
	for _, mv := range []struct {
		by  fakediscord.User
		san string
	}{{w.alice, "hxg3"}, {w.bob, "Nxf6"}} {
		if got := w.command(mv.by, thread, "move", fakediscord.StringOption("move", mv.san)); got.Ephemeral() {
			t.Fatalf("%s is refused: %q", mv.san, got.Content)
		}
	}
	time.Sleep(patience(200 * time.Millisecond)) // the acceptance's outbox settles
	st.reset()
	replays := play.Replays()
	got := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "gxh4"))
	if got.Ephemeral() || !strings.Contains(got.Content, "gxh4") || len(got.Files) == 0 {
		t.Fatalf("the move is answered %q", got.Content)
	}
	if list := movesField(got); !strings.Contains(list, "1. hxg3 Nxf6 2. gxh4") {
		t.Errorf("the board's move list is %q", list)
	}
	time.Sleep(patience(200 * time.Millisecond)) // what follows the answer: the outbox marks the board shown
	if n := play.Replays() - replays; n != 0 {
		t.Errorf("one /move replayed the game %d times, want none", n)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.games != 1 {
		t.Errorf("one /move read the game %d times, want once", st.games)
	}
	for user, n := range st.prefs {
		if n > 1 {
			t.Errorf("one /move read the settings of %s %d times, want once at most", user, n)
		}
	}
	if st.updates < 1 {
		t.Errorf("the move wrote nothing")
	}
	if st.views > 1 {
		// The mover's settings and the server's are read together
		// before the act (play.Service.Settings), the rest in the act.
		t.Errorf("one /move read in %d transactions, want one", st.views)
	}
	t.Logf("one /move: %d read and %d write transactions, %d game reads, settings read %v", st.views, st.updates, st.games, st.prefs)
}
