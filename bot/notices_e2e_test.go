package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// settings sets a user's notifications through /settings.
func (w *world) settings(u fakediscord.User, notifications string) {
	w.t.Helper()
	if m := w.command(u, w.chess.ID, "settings", fakediscord.StringOption("notifications", notifications)); !m.Ephemeral() {
		w.t.Fatalf("/settings answered in public: %q", m.Content)
	}
}

// A reminder follows its player's settings, as the round decided them
// when it claimed the reminder: by DM for Bob, who asked for DMs, and not
// at all for Carol, who asked for nothing.
func TestAReminderHonoursTheSettings(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	w.settings(w.bob, play.NotifyDM)
	w.settings(w.carol, play.NotifyNone)
	bobsGame, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	carolsGame, _ := w.challengeAccepted(w.chess, w.alice, w.carol)
	w.command(w.alice, bobsGame, "move", fakediscord.StringOption("move", "hxg3"))
	w.command(w.alice, carolsGame, "move", fakediscord.StringOption("move", "hxg3"))
	g := w.gameIn(bobsGame)

	w.advance(g.Deadline.Add(-6 * time.Hour))
	dm := w.waitMessage(w.srv.DMChannel(w.bob.ID).ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "⏳") })
	if !strings.Contains(dm.Content, bobsGame) || !strings.Contains(dm.Content, "<@"+w.alice.ID+">") {
		t.Errorf("Bob's reminder says %q", dm.Content)
	}
	if got := w.posts(bobsGame, "⏳"); len(got) != 0 {
		t.Errorf("Bob, who asked for DMs, is reminded in the thread too: %v", got)
	}
	if got := w.posts(carolsGame, "⏳"); len(got) != 0 {
		t.Errorf("Carol, who asked for nothing, is reminded in the thread: %v", got)
	}
	if got := w.dmPosts(w.carol, "⏳"); len(got) != 0 {
		t.Errorf("Carol, who asked for nothing, is reminded by DM: %v", got)
	}
}

// A tournament's bye follows its player's settings, as the pairing
// decided them: Alice, who asked for DMs, hears of it by DM and is not
// pinged in the pairings; Bob, who asked for nothing, is named without
// a ping; Carol, by default, is pinged where the pairings are posted.
func TestATournamentByeHonoursTheSettings(t *testing.T) {
	w := newTournamentWorld(t)
	w.settings(w.alice, play.NotifyDM)
	w.settings(w.bob, play.NotifyNone)
	players := []fakediscord.User{w.alice, w.bob, w.carol}
	users := map[string]fakediscord.User{}
	for _, p := range players {
		users[p.ID] = p
	}
	post := w.create(fakediscord.StringOption("system", "roundrobin"))
	for _, p := range players {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	seen := map[string]bool{}
	for k := 1; k <= 3; k++ {
		rk := w.roundPost(k)
		i := strings.Index(rk.Content, "Free this round: <@")
		if i < 0 {
			t.Fatalf("round %d does not say who sits out:\n%s", k, rk.Content)
		}
		free := userRef.FindStringSubmatch(rk.Content[i:])[1]
		seen[free] = true
		var call fakediscord.Call
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindMessage && c.Err == nil && c.Message.ID == rk.ID {
				call = c
			}
		}
		pings := pinged(t, call)
		dms := len(w.dmPosts(users[free], fmt.Sprintf("round %d of", k)))
		switch free {
		case w.alice.ID:
			if slices.Contains(pings, free) {
				t.Errorf("round %d pings Alice, who asked for DMs", k)
			}
			if dms != 1 {
				w.waitMessage(w.srv.DMChannel(w.alice.ID).ID, func(m fakediscord.Message) bool {
					return strings.Contains(m.Content, fmt.Sprintf("round %d of", k)) && strings.Contains(m.Content, "<@"+free+">")
				})
			}
		case w.bob.ID:
			if slices.Contains(pings, free) || dms != 0 {
				t.Errorf("round %d tells Bob, who asked for nothing: pings %v, %d DMs", k, pings, dms)
			}
		case w.carol.ID:
			if !slices.Contains(pings, free) || dms != 0 {
				t.Errorf("round %d does not ping Carol where it is posted: pings %v, %d DMs", k, pings, dms)
			}
		}
		if n := w.playRound(rk, users); n != 1 {
			t.Fatalf("round %d had %d games", k, n)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("%d players sat out, want each once", len(seen))
	}
}

// A round that closes ends its unfinished games as acts of the round:
// each game's board, posted in its thread by the outbox, says it was
// adjudicated (here lost by the player to move, as the organiser chose)
// and names both players, and the next round is paired.
func TestATournamentRoundThatClosesAdjudicatesItsGames(t *testing.T) {
	w := newTournamentWorld(t)
	players := []fakediscord.User{w.alice, w.bob, w.carol}
	post := w.create(fakediscord.StringOption("system", "roundrobin"), fakediscord.IntOption("round_days", 7),
		fakediscord.StringOption("adjudicate", "loss_to_move"))
	for _, p := range players {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	r1 := w.roundPost(1)
	th := threadRef.FindStringSubmatch(r1.Content)
	if th == nil {
		t.Fatalf("round 1 has no game's thread:\n%s", r1.Content)
	}
	white := userRef.FindStringSubmatch(r1.Content)[1]
	w.waitMessage(th[1], func(m fakediscord.Message) bool { return len(m.Files) > 0 })

	w.clock.Add(7*24*time.Hour + time.Minute)
	board := w.posted(th[1], "Black wins by adjudication")
	if !slices.Contains(pinged(t, board), white) || len(board.Message.Files) == 0 {
		t.Errorf("the adjudication's board pings %v, with %d files; want White, who was to move, and the board", pinged(t, board), len(board.Message.Files))
	}
	w.roundPost(2)
}
