package bot_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// A tournament's round tells each player of their game as their
// /settings say, like any other game: the first board in the game's
// thread mentions those who asked for mentions, those who asked for
// direct messages get one, and those who asked for nothing are named
// but not notified; the pairings notify nobody. A tournament's game
// offers no Abort, and /abort is refused there: a player who never
// moves loses on time.
func TestATournamentRoundFollowsEachPlayersSettings(t *testing.T) {
	w := newTournamentWorld(t)
	how := map[string]string{w.alice.ID: "mention", w.bob.ID: "dm", w.carol.ID: "none", w.dan.ID: ""}
	players := []fakediscord.User{w.alice, w.bob, w.carol, w.dan}
	for _, p := range players {
		if how[p.ID] == "" {
			continue // the default: a mention
		}
		if m := w.command(p, w.chess.ID, "settings", fakediscord.StringOption("notifications", how[p.ID])); !m.Ephemeral() {
			t.Fatalf("/settings answered in public: %q", m.Content)
		}
	}
	post := w.create(fakediscord.StringOption("system", "swiss"), fakediscord.IntOption("rounds", 1), fakediscord.IntOption("days", 3),
		fakediscord.StringOption("title", "Quiet Swiss"))
	for _, p := range players {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	r1 := w.roundPost(1)
	var pairings fakediscord.Call
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage && c.Message.ID == r1.ID {
			pairings = c
		}
	}
	if got := mentions(t, pairings); len(got) != 0 {
		t.Errorf("the pairings notify %v; each game's first board tells its players", got)
	}
	games := 0
	for _, line := range strings.Split(r1.Content, "\n") {
		th := threadRef.FindStringSubmatch(line)
		if th == nil {
			continue
		}
		games++
		thread := th[1]
		board := w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 && len(m.Buttons()) > 0 })
		for _, b := range board.Buttons() {
			if strings.Contains(b.CustomID, "abort") {
				t.Errorf("a tournament game's board offers Abort (%s)", b.CustomID)
			}
		}
		var call fakediscord.Call
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindMessage && c.Message.ID == board.ID {
				call = c
			}
		}
		g := w.gameOf(thread)
		pinged := mentions(t, call)
		for _, id := range []string{g.White.ID, g.Black.ID} {
			mentioned := slices.Contains(pinged, id)
			if want := how[id] == "mention" || how[id] == ""; mentioned != want {
				t.Errorf("the first board of game %d mentions %s (%q): %v, want %v", g.ID, id, how[id], mentioned, want)
			}
		}
		// The player to move aborts: refused, privately, saying why.
		white := userByID(players, g.White.ID)
		got := w.command(white, thread, "abort")
		if !got.Ephemeral() || !strings.Contains(got.Content, "tournament game can't be aborted") {
			t.Errorf("/abort in a tournament game answered %+v", got)
		}
		if g := w.gameOf(thread); g.Over() {
			t.Errorf("the tournament game %d was aborted", g.ID)
		}
	}
	if games != 2 {
		t.Fatalf("round 1 of four has %d games:\n%s", games, r1.Content)
	}
	// Bob asked for direct messages: one tells him of his game.
	bobsGame, bobsDM := "", w.srv.DMChannel(w.bob.ID).ID
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		if c.Kind != fakediscord.KindMessage || c.Err != nil || c.Message.ChannelID != bobsDM {
			return false
		}
		bobsGame = c.Message.Content
		return true
	}); err != nil {
		t.Fatalf("Bob, who asked for direct messages, got none: %v", err)
	}
	if !strings.Contains(bobsGame, "https://discord.com/channels/") {
		t.Errorf("Bob's DM does not link his game: %q", bobsGame)
	}
	// Carol asked for nothing, and the others for mentions: no DM.
	for _, p := range []fakediscord.User{w.alice, w.carol, w.dan} {
		if got := w.dmPosts(p, ""); len(got) != 0 {
			t.Errorf("%s (%q) got a direct message: %s", p.Username, how[p.ID], got[0].Message.Content)
		}
	}
}

func userByID(us []fakediscord.User, id string) fakediscord.User {
	for _, u := range us {
		if u.ID == id {
			return u
		}
	}
	return fakediscord.User{ID: id}
}

// A challenge's acceptance is an act of the round: its first board is
// in the outbox with the game, so that when Discord refuses its post the
// outbox posts it in the thread all the same, pinging the player to
// move, once.
func TestAnAcceptedChallengesBoardReachesTheThreadWhenDiscordRefusesIt(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID), fakediscord.StringOption("color", "white"))
	// The next post fails: the first board's, in the thread the
	// acceptance opens.
	w.srv.Refuse(fakediscord.RouteMessages, fakediscord.Refusal{Status: http.StatusServiceUnavailable})
	w.click(w.bob, ch, "accept")
	opened, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread && c.Err == nil })
	if err != nil {
		t.Fatalf("the acceptance opened no thread: %v", err)
	}
	thread := opened.Channel.ID
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindMessage && c.Refused != nil }); err != nil {
		t.Fatalf("Discord refused no post of the first board: %v", err)
	}
	c := w.posted(thread, "The game begins", "<@"+w.alice.ID+">, your move")
	if len(c.Message.Files) == 0 || !slices.Contains(mentions(t, c), w.alice.ID) {
		t.Errorf("the first board, posted by the outbox: %d files, mentions %v", len(c.Message.Files), mentions(t, c))
	}
	if n := w.count(thread, "The game begins"); n != 1 {
		t.Errorf("the first board is in the thread %d times", n)
	}
}

// A scheduler's timeout is an act of the round: the board that says so
// is in the outbox with the timeout, and reaches the thread although
// Discord refuses its first post.
func TestATimeoutsBoardReachesTheThreadWhenDiscordRefusesIt(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	g := w.gameIn(thread)
	deadline := g.Deadline
	w.srv.Refuse(fakediscord.RouteMessages, fakediscord.Refusal{Status: http.StatusServiceUnavailable, Where: map[string]string{"channel": thread}})
	w.advance(deadline.Add(time.Minute))
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Refused != nil
	}); err != nil {
		t.Fatalf("Discord refused no post of the timeout: %v", err)
	}
	if g, err := w.svc.Game(w.ctx(), g.ID); err != nil || !g.Over() {
		t.Fatalf("the game is not over: %+v, %v", g.Outcome, err)
	}
	// The outbox tries again once its backoff has passed.
	var got fakediscord.Call
	for until := time.Now().Add(patience(10 * time.Second)); ; {
		w.clk.Advance(2 * time.Second)
		if calls := w.posts(thread, "ran out of time"); len(calls) > 0 {
			got = calls[0]
			break
		}
		if time.Now().After(until) {
			t.Fatal("the timeout's board never reached the thread")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(got.Message.Content, fmt.Sprintf("<@%s> ran out of time", w.bob.ID)) || len(got.Message.Files) == 0 {
		t.Errorf("the timeout's board: %q, %d files", got.Message.Content, len(got.Message.Files))
	}
	if !slices.Contains(mentions(t, got), w.bob.ID) || !slices.Contains(mentions(t, got), w.alice.ID) {
		t.Errorf("the timeout's board notifies %v, want both players", mentions(t, got))
	}
}
