package bot_test

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// liveChallengeAccepted has from challenge to with time:tc in channel,
// and to accept; it returns the game's thread and the challenge.
func (w *corrWorld) liveChallengeAccepted(from, to fakediscord.User, tc string) (string, fakediscord.Message) {
	w.t.Helper()
	ch := w.command(from, w.chess.ID, "challenge", fakediscord.UserOption("opponent", to.ID), fakediscord.StringOption("time", tc))
	if ch.Ephemeral() || len(ch.Embeds) != 1 {
		w.t.Fatalf("challenge message %+v", ch)
	}
	w.click(to, ch, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Message.ID == ch.ID && c.Err == nil
	})
	if err != nil {
		w.t.Fatalf("no thread for the game: %v", err)
	}
	w.waitMessage(c.Channel.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	return c.Channel.ID, ch
}

// boardHasClocks fails unless the board shows both clocks: in its
// picture's header (taller than wide) and in its text.
func boardHasClocks(t *testing.T, m fakediscord.Message, white, black string) {
	t.Helper()
	if len(m.Embeds) == 0 || !strings.Contains(m.Embeds[0].Description, "White "+white+" · Black "+black) {
		t.Fatalf("the board's text does not show the clocks %s and %s: %+v", white, black, m.Embeds)
	}
	if len(m.Files) == 0 {
		t.Fatal("the board has no picture")
	}
	im, err := png.Decode(bytes.NewReader(m.Files[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := im.Bounds(); b.Dy() <= b.Dx() {
		t.Fatalf("the board's picture is %v: no clock strip over the board", b)
	}
}

func TestABlitzGameInDiscord(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})

	// The time: option offers the usual controls, named with their speed.
	id := w.srv.Autocomplete(w.alice.ID, w.chess.ID, "challenge", fakediscord.Focused("time", ""))
	c, err := w.srv.WaitResponse(w.ctx(), id)
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	var names []string
	for _, ch := range c.Choices {
		names = append(names, ch.Name)
	}
	if got := strings.Join(names, ", "); got != "1+0 bullet, 3+2 blitz, 5+3 blitz, 10+5 rapid, 15+10 rapid" {
		t.Fatalf("time: offers %s", got)
	}
	id = w.srv.Autocomplete(w.bob.ID, w.chess.ID, "challenge", fakediscord.Focused("time", "4+2"))
	if c, _ := w.srv.WaitResponse(w.ctx(), id); len(c.Choices) == 0 || c.Choices[0].Name != "4+2 blitz" || fmt.Sprint(c.Choices[0].Value) != "4+2" {
		t.Fatalf("4+2 completes to %+v", *c.Choices[0])
	}

	// Bad input gets a clear private answer, and changes nothing.
	for typed, want := range map[string]string{
		"soon":   "is not a time control",
		"0+5":    "each player has 1 to 180 minutes",
		"10+200": "from 0 to 180",
	} {
		m := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID), fakediscord.StringOption("time", typed))
		if !m.Ephemeral() || !strings.Contains(m.Content, want) {
			t.Errorf("time:%s answered %q (ephemeral %v)", typed, m.Content, m.Ephemeral())
		}
	}

	// /challenge time:1+0 says what it is.
	thread, ch := w.liveChallengeAccepted(w.alice, w.bob, "1+0")
	if !strings.Contains(ch.Embeds[0].Description, "1+0 bullet") {
		t.Fatalf("the challenge says %q", ch.Embeds[0].Description)
	}
	g := w.gameIn(thread)
	if g.TimeControl() != (play.TimeControl{Limit: time.Minute}) || g.Clock == nil {
		t.Fatalf("the game's clocks: %+v", g.Clock)
	}

	// Both sides move; each board shows both clocks, and the flag of
	// the player to move as a timestamp that ticks.
	start := w.clk.Now()
	w.clk.Set(start.Add(5 * time.Second))
	m := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	boardHasClocks(t, m, "1:00", "1:00")
	g = w.gameIn(thread)
	if flag := g.Clock.FlagAt(game.Black); !strings.Contains(m.Embeds[0].Description, fmt.Sprintf("<@%s>'s flag falls <t:%d:R>", w.bob.ID, flag.Unix())) {
		t.Fatalf("the board does not say when Bob's flag falls (%v): %q", flag, m.Embeds[0].Description)
	}
	w.clk.Set(start.Add(17 * time.Second)) // Bob thinks for 12 s
	m = w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	boardHasClocks(t, m, "1:00", "0:48")
	w.clk.Set(start.Add(20 * time.Second)) // Alice, 3 s
	m = w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	boardHasClocks(t, m, "0:57", "0:48")

	// Bob lets his time run out: the bot says by itself, publicly, who
	// won on time, within two seconds of the flag.
	g = w.gameIn(thread)
	flag := g.Clock.FlagAt(game.Black)
	if over := g.Deadline.Sub(flag); over < 0 || over > time.Second {
		t.Fatalf("the flag is judged %v after Bob's time ran out", over)
	}
	sent := time.Now()
	w.clk.Set(g.Deadline)
	post := w.posted(thread, "ran out of time")
	took := time.Since(sent)
	if late := g.Deadline.Sub(flag) + took; late > 2*time.Second {
		t.Fatalf("the flag was announced %v after it fell", late)
	}
	want := fmt.Sprintf("<@%s> ran out of time <t:%d:R>: <@%s> wins", w.bob.ID, g.Deadline.Unix(), w.alice.ID)
	if msg := post.Message; msg.Ephemeral() || !strings.Contains(msg.Content, want) {
		t.Fatalf("the flag's announcement says %q", msg.Content)
	}
	// A move after the flag is refused, privately.
	m = w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if !m.Ephemeral() {
		t.Fatalf("a move after the flag was answered in public: %q", m.Content)
	}
	if got := w.posts(thread, "ran out of time"); len(got) != 1 {
		t.Fatalf("%d announcements of the flag", len(got))
	}
}

// A move that arrives after the flag fell, before the scheduler has
// said so, is refused privately, and the game is lost on time all the
// same, announced once.
func TestAMoveAfterTheFlagIsRefusedPrivately(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	thread, _ := w.liveChallengeAccepted(w.alice, w.bob, "1+0")
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	g := w.gameIn(thread)
	w.clk.Set(g.Deadline)
	m := w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	if !m.Ephemeral() || m.Content == "" {
		t.Fatalf("a move after the flag: %q (ephemeral %v)", m.Content, m.Ephemeral())
	}
	w.posted(thread, "ran out of time")
	if back := finishedGame(t, w.st, thread); back.Outcome != game.WinFor(game.White, game.Timeout) || back.Ply() != 1 {
		t.Fatalf("the game: %+v after %d moves", back.Outcome, back.Ply())
	}
	if got := w.posts(thread, "ran out of time"); len(got) != 1 {
		t.Fatalf("%d announcements of the flag", len(got))
	}
}

// A rated blitz game rates its players in blitz: /leaderboard speed:blitz
// lists them, the leaderboard without speed: (correspondence) does not,
// and /stats shows the blitz rating on a line of its own.
func TestBlitzRatingsInDiscord(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID),
		fakediscord.StringOption("time", "3+2"), fakediscord.BoolOption("rated", true))
	if !strings.Contains(ch.Embeds[0].Description, "3+2 blitz") {
		t.Fatalf("the challenge says %q", ch.Embeds[0].Description)
	}
	w.click(w.bob, ch, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Message.ID == ch.ID && c.Err == nil
	})
	if err != nil {
		t.Fatal(err)
	}
	thread := c.Channel.ID
	w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	confirm := w.command(w.bob, thread, "resign")
	w.click(w.bob, confirm, "resignok")
	w.posted(thread, "resign")

	lb := w.command(w.alice, w.chess.ID, "leaderboard", fakediscord.StringOption("speed", "blitz"))
	if len(lb.Embeds) != 1 || !strings.Contains(lb.Embeds[0].Title, "blitz") ||
		!strings.Contains(lb.Embeds[0].Description, "**1.** Alice") || !strings.Contains(lb.Embeds[0].Description, "**2.** Bob") {
		t.Fatalf("/leaderboard speed:blitz: %+v", lb.Embeds)
	}
	if lb := w.command(w.alice, w.chess.ID, "leaderboard"); strings.Contains(lb.Embeds[0].Description, "Alice") {
		t.Fatalf("the correspondence leaderboard lists a blitz game: %q", lb.Embeds[0].Description)
	}
	st := w.command(w.alice, w.chess.ID, "stats")
	found := false
	for _, f := range st.Embeds[0].Fields {
		if f.Name == "Live ratings on this server" && strings.HasPrefix(f.Value, "blitz: **1662?**") {
			found = true
		}
	}
	if !found {
		t.Fatalf("/stats shows no blitz rating: %+v", st.Embeds[0].Fields)
	}
	// Her chart is the correspondence ratings' (none yet); speed:blitz
	// draws the blitz ones.
	if len(st.Files) != 0 {
		t.Fatalf("/stats draws a chart of %d files without a correspondence game", len(st.Files))
	}
	st = w.command(w.alice, w.chess.ID, "stats", fakediscord.StringOption("speed", "blitz"))
	if len(st.Files) != 1 || st.Embeds[0].Image == nil || !strings.Contains(st.Files[0].Description, "1662") {
		t.Fatalf("/stats speed:blitz: %d files, image %+v", len(st.Files), st.Embeds[0].Image)
	}
	isPNG(t, st.Files[0])
}

// The time control follows a game everywhere a game begins: an open
// challenge, its Rematch, and a game against the engine, whose own
// clock runs while it thinks.
func TestLiveTimeControlsInOpenChallengesRematchesAndEngineGames(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	open := w.command(w.alice, w.chess.ID, "challenge", fakediscord.StringOption("time", "5+3"))
	if open.Ephemeral() || !strings.Contains(open.Embeds[0].Description, "5+3 blitz") {
		t.Fatalf("the open challenge: %q, %+v", open.Content, open.Embeds)
	}
	w.click(w.dan, open, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Message.ID == open.ID && c.Err == nil
	})
	if err != nil {
		t.Fatal(err)
	}
	thread := c.Channel.ID
	board := w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	if g := w.gameOf(thread); g.TimeControl() != (play.TimeControl{Limit: 5 * time.Minute, Increment: 3 * time.Second}) {
		t.Fatalf("the open challenge's game has %+v", g.Clock)
	}
	boardHasClocks(t, board, "5:00", "5:00")
	end := w.resignByClicking(w.dan, thread, board)
	again := w.click(w.alice, end, "rematch")
	if !strings.Contains(again.Embeds[0].Description, "5+3 blitz") {
		t.Fatalf("the rematch says %q", again.Embeds[0].Description)
	}

	eg, _ := w.engineGame(w.bob, fakediscord.StringOption("time", "1+0"), fakediscord.StringOption("color", "white"), fakediscord.IntOption("level", 2))
	w.waitMessage(eg, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	w.command(w.bob, eg, "move", fakediscord.StringOption("move", "hxg3"))
	w.engineReply(eg)
	g := w.gameOf(eg)
	if g.Clock == nil || g.Ply() != 2 || !g.Clock.Running() || g.Clock.Left[game.Black] > time.Minute {
		t.Fatalf("the engine's game: %d plies, clocks %+v", g.Ply(), g.Clock)
	}
}

// A Swiss with a time control: its sign-up post says which, the
// autocomplete of /tournament create offers the controls, and its games
// are played on the clock.
func TestATournamentWithATimeControl(t *testing.T) {
	w := newTournamentWorld(t)
	id := w.srv.Autocomplete(w.org.ID, w.chess.ID, "tournament", fakediscord.SubCommand("create", fakediscord.Focused("time", "10")))
	if c, err := w.srv.WaitResponse(w.ctx(), id); err != nil || c.Err != nil || len(c.Choices) == 0 || c.Choices[0].Name != "10+0 rapid" {
		t.Fatalf("time: in /tournament create completes to %+v (%v)", c.Choices, err)
	}
	bad := w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("create", fakediscord.StringOption("system", "swiss"), fakediscord.StringOption("time", "3 minutes")))
	if !bad.Ephemeral() || !strings.Contains(bad.Content, "is not a time control") {
		t.Fatalf("a bad time control: %q", bad.Content)
	}
	post := w.create(fakediscord.StringOption("system", "swiss"), fakediscord.IntOption("rounds", 1), fakediscord.StringOption("time", "3+2"))
	if !strings.Contains(embedAll(post), "3+2 blitz") {
		t.Fatalf("the sign-up post says %q", embedAll(post))
	}
	for _, p := range []fakediscord.User{w.alice, w.bob, w.carol, w.dan} {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	rk := w.roundPost(1)
	th := threadRef.FindStringSubmatch(rk.Content)
	if th == nil {
		t.Fatalf("round 1: %q", rk.Content)
	}
	board := w.waitMessage(th[1], func(m fakediscord.Message) bool { return len(m.Files) > 0 && len(m.Buttons()) > 0 })
	g := w.gameOf(th[1])
	if g.TimeControl() != (play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}) || !g.Clock.Running() {
		t.Fatalf("the tournament's game has clocks %+v", g.Clock)
	}
	boardHasClocks(t, board, "3:00", "3:00")
}
