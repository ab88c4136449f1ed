package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/schedule/clocktest"
	"github.com/iceagechess/iceage/store"
)

// corrWorld is a world whose bot runs with the scheduler, as the program
// runs them, on a fake clock that the test moves.
type corrWorld struct {
	*world
	clk  *clocktest.Clock
	opts play.Options
	svc  *play.Service
}

func newCorrWorld(t *testing.T, st play.Storage, opts play.Options) *corrWorld {
	t.Helper()
	w := &world{t: t, srv: fakediscord.New(t), st: st, clock: &clock{}}
	w.guild = w.srv.AddGuild(fakediscord.Guild{Name: "Correspondence Club", Locale: "en-US"})
	w.chess = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "chess"})
	w.alice = w.srv.AddUser(fakediscord.User{Username: "alice", GlobalName: "Alice", Locale: "en-US"})
	w.bob = w.srv.AddUser(fakediscord.User{Username: "bob", GlobalName: "Bob", Locale: "fr"})
	w.carol = w.srv.AddUser(fakediscord.User{Username: "carol", GlobalName: "Carol", Locale: "ru"})
	w.dan = w.srv.AddUser(fakediscord.User{Username: "dan", Locale: "en-GB"})
	if opts.Rand == nil {
		opts.Rand = func(int) int { return 0 } // the challenger plays White
	}
	cw := &corrWorld{world: w, clk: clocktest.New(time.Date(2027, 2, 1, 18, 0, 0, 0, time.UTC)), opts: opts}
	cw.start()
	return cw
}

// start runs a bot and a scheduler on the world's storage, and returns
// once the scheduler has caught up and sleeps.
func (w *corrWorld) start() {
	w.t.Helper()
	logger := slog.New(slog.NewTextHandler(testWriter{w.t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	sch := schedule.New(schedule.Options{Clock: w.clk, Logger: logger, MaxSleep: 30 * 24 * time.Hour})
	w.svc = play.New(sch.Watch(w.st), w.opts)
	b, err := bot.New(bot.Config{Token: w.srv.Token(), Now: w.clk.Now, DefaultDays: 1, VacationDays: 14, Logger: logger, Activity: w.activity}, w.svc)
	if err != nil {
		w.t.Fatal(err)
	}
	b.Session().Dialer = fakediscord.Dialer
	ctx, cancel := context.WithCancel(context.Background())
	botDone, schedDone := make(chan error, 1), make(chan error, 1)
	go func() { botDone <- b.Run(ctx) }()
	select {
	case <-b.Ready():
	case err := <-botDone:
		w.t.Fatalf("the bot stopped before it was ready: %v", err)
	case <-time.After(patience(10 * time.Second)):
		w.t.Fatal("the bot did not get ready")
	}
	timers := w.clk.Timers()
	go func() { schedDone <- sch.Run(ctx, b.Round(), b) }()
	w.bot = b
	w.stop = func() {
		cancel()
		if err := <-schedDone; err != nil {
			w.t.Errorf("stopping the scheduler: %v", err)
		}
		if err := <-botDone; err != nil {
			w.t.Errorf("stopping the bot: %v", err)
		}
	}
	w.t.Cleanup(func() {
		if w.stop != nil {
			w.stop()
			w.stop = nil
		}
	})
	w.asleep(timers)
}

// asleep waits until the scheduler has made a timer after the first
// timers, and so has handled all that was due then.
func (w *corrWorld) asleep(timers int) time.Time {
	w.t.Helper()
	at, err := w.clk.AwaitTimer(w.ctx(), timers+1)
	if err != nil {
		w.t.Fatalf("the scheduler did not go to sleep: %v", err)
	}
	return at
}

// advance moves the clock to at and waits until the scheduler has
// handled what fell due.
//
// The first timer made after Set does not prove that: a pass woken by a
// change just before (noting a challenge's message wakes the scheduler)
// may have read the clock before Set, passed over what falls due at at,
// and gone to sleep until at, that is at once. Only a pass that read a
// time at or after at sleeps until later than at, since it handled all
// that was due then (or sleeps for a retry, whose error is logged).
func (w *corrWorld) advance(at time.Time) {
	w.t.Helper()
	n := w.clk.Timers() + 1
	w.clk.Set(at)
	ctx := w.ctx()
	for {
		due, err := w.clk.AwaitTimer(ctx, n)
		if err != nil {
			w.t.Fatalf("the scheduler did not go to sleep after %v: %v", at, err)
		}
		if due.After(at) {
			return
		}
		n++
	}
}

func (w *corrWorld) gameIn(channel string) play.Game {
	w.t.Helper()
	g, err := w.svc.GameIn(context.Background(), channel)
	if err != nil {
		w.t.Fatalf("no game in %s: %v", channel, err)
	}
	return g
}

// posts returns the messages the bot posted in channel (not answers to
// interactions) whose content has text. A post that repeated the
// enforced nonce of an earlier one posted nothing (Discord answered it
// with the first message) and is left out.
func (w *corrWorld) posts(channel, text string) []fakediscord.Call {
	var out []fakediscord.Call
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage && !c.Repeated && c.Message.ChannelID == channel && strings.Contains(c.Message.Content, text) {
			out = append(out, c)
		}
	}
	return out
}

// pinged returns the users a call's message may ping.
func pinged(t *testing.T, c fakediscord.Call) []string {
	t.Helper()
	type mentions struct {
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	}
	var payload struct {
		mentions
		Data *mentions `json:"data"` // an interaction's response
	}
	if err := json.Unmarshal(c.JSON, &payload); err != nil {
		t.Fatalf("reading %s: %v", c, err)
	}
	am := payload.AllowedMentions
	if payload.Data != nil {
		am = payload.Data.AllowedMentions
	}
	if am == nil {
		t.Fatalf("%s lets every mention ping", c)
	}
	return am.Users
}

func TestATimeoutWhileTheBotIsStoppedIsAnnouncedOnceWhenItStarts(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // after the bot stops: cleanups run last first
	w := newCorrWorld(t, st, play.Options{})
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	deadline := w.gameIn(thread).Deadline // Bob's, a day from now

	w.stop()
	w.stop = nil
	w.clk.Set(deadline.Add(30 * time.Hour)) // the program was down meanwhile
	w.start()

	w.posted(thread, "ran out of time") // by the outbox, written with the timeout
	got := w.posts(thread, "ran out of time")
	if len(got) != 1 {
		t.Fatalf("%d announcements of the timeout: %v", len(got), got)
	}
	m := got[0].Message
	switch {
	case !strings.Contains(m.Content, fmt.Sprintf("<@%s> ran out of time <t:%d:R>: <@%s> wins", w.bob.ID, deadline.Unix(), w.alice.ID)):
		t.Errorf("the announcement says %q", m.Content)
	case !strings.Contains(m.Content, fmt.Sprintf("The deadline passed on <t:%d:f>, while I was offline", deadline.Unix())):
		t.Errorf("the late announcement does not say so: %q", m.Content)
	case len(m.Files) != 1 || !onlyRematch(m):
		t.Errorf("the announcement has %d files and buttons %v; want the final board with Rematch alone", len(m.Files), m.Buttons())
	case !slices.Contains(pinged(t, got[0]), w.bob.ID):
		t.Errorf("the announcement does not ping the player out of time")
	}
	isPNG(t, m.Files[0])
	if g := finishedGame(t, st, thread); !g.Ended.Equal(deadline) || g.Outcome.Reason.String() != "time forfeit" {
		t.Errorf("stored game ended %v by %v; want time forfeit at %v", g.Ended, g.Outcome, deadline)
	}

	// Another restart has nothing more to say. Stopping may cancel the
	// announcement's post after Discord took it but before the bot read
	// the answer: the item is not marked done, and the next start posts
	// it again under its nonce, which Discord answers with the first
	// message; that is no second announcement.
	w.stop()
	w.stop = nil
	w.clk.Advance(time.Hour)
	w.start()
	if got := w.posts(thread, "ran out of time"); len(got) != 1 {
		t.Fatalf("after another restart, %d announcements", len(got))
	}
}

func TestClosedDMsFallBackToTheMentionAndAreNotRetriedAtEveryMove(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	w.srv.SetDMsClosed(w.carol.ID, true)
	for _, u := range []fakediscord.User{w.carol, w.bob} {
		if m := w.command(u, w.chess.ID, "settings", fakediscord.StringOption("notifications", "dm")); !m.Ephemeral() {
			t.Fatalf("/settings answered in public: %q", m.Content)
		}
	}
	carolsGame, _ := w.challengeAccepted(w.chess, w.alice, w.carol)
	bobsGame, _ := w.challengeAccepted(w.chess, w.alice, w.bob)

	// Carol's DMs are closed: the board does not ping her, the DM fails,
	// and she is mentioned in the thread instead.
	w.command(w.alice, carolsGame, "move", fakediscord.StringOption("move", "hxg3"))
	fallback := w.waitMessage(carolsGame, func(m fakediscord.Message) bool {
		return m.Content == fmt.Sprintf("<@%s>, your move.", w.carol.ID)
	})
	dms := func(user fakediscord.User) []fakediscord.Call {
		dm := w.srv.DMChannel(user.ID)
		var out []fakediscord.Call
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindMessage && c.Message.ChannelID == dm.ID || c.Kind == fakediscord.KindMessage && c.Err != nil && c.Err.Code == 50007 {
				out = append(out, c)
			}
		}
		return out
	}
	if got := dms(w.carol); len(got) != 1 || got[0].Err == nil || got[0].Err.Code != 50007 {
		t.Fatalf("DMs to Carol: %v; want one, refused with 50007", got)
	}
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage && c.Message.ID == fallback.ID && !slices.Contains(pinged(t, c), w.carol.ID) {
			t.Errorf("the fallback mention does not ping Carol")
		}
	}

	// The refusal is remembered: the next board pings her, and no DM is
	// tried.
	w.command(w.carol, carolsGame, "move", fakediscord.StringOption("move", "Nxf6"))
	w.command(w.alice, carolsGame, "move", fakediscord.StringOption("move", "Nxf3"))
	if got := dms(w.carol); len(got) != 1 {
		t.Fatalf("%d DMs tried to Carol after the first was refused", len(got))
	}
	var last fakediscord.Call
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindResponse && c.Message.ChannelID == carolsGame && len(c.Message.Files) > 0 {
			last = c
		}
	}
	if !slices.Contains(pinged(t, last), w.carol.ID) {
		t.Errorf("the board after the refused DM does not ping Carol: %s", last)
	}

	// Bob's DMs are open: he gets his turn there, in French, with a link,
	// and the board does not ping him.
	w.command(w.alice, bobsGame, "move", fakediscord.StringOption("move", "hxg3"))
	dm := w.waitMessage(w.srv.DMChannel(w.bob.ID).ID, func(fakediscord.Message) bool { return true })
	if !strings.Contains(dm.Content, "C'est à toi de jouer contre <@"+w.alice.ID+">") || !strings.Contains(dm.Content, bobsGame) {
		t.Errorf("Bob's DM says %q", dm.Content)
	}
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindResponse && c.Message.ChannelID == bobsGame && len(c.Message.Files) > 0 && slices.Contains(pinged(t, c), w.bob.ID) {
			t.Errorf("a board pings Bob, who asked for DMs")
		}
	}
}

func TestRemindersExpiriesDashboardAndConditionalMoves(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	g := w.gameIn(thread)

	// Alice queues a reply to Bob's expected move, privately.
	q := w.command(w.alice, thread, "premove", fakediscord.StringOption("line", "Nxf6 Nxf3; Nxh6 Nxh3"))
	if !q.Ephemeral() || !strings.Contains(q.Content, "Nxf6 → **Nxf3**") || !strings.Contains(q.Content, "Nxh6 → **Nxh3**") {
		t.Fatalf("/premove answered %q", q.Content)
	}
	if m := w.command(w.bob, thread, "premove"); !strings.Contains(m.Content, "aucun coup conditionnel") {
		t.Fatalf("Bob sees %q", m.Content)
	}

	// Bob's reminders come in the thread, pinging him: 6 hours and an
	// hour before his deadline, a day per move being too short for 24.
	w.advance(g.Deadline.Add(-6 * time.Hour))
	rem := w.posts(thread, "a reminder")
	if len(rem) != 1 || !strings.Contains(rem[0].Message.Content, fmt.Sprintf("<@%s>, a reminder: your move is due <t:%d:R>", w.bob.ID, g.Deadline.Unix())) ||
		!slices.Contains(pinged(t, rem[0]), w.bob.ID) {
		t.Fatalf("reminders %v", rem)
	}

	// /games: Bob's move first, with the time left, and a menu that links,
	// privately, to the game's current board in the thread.
	dash := w.command(w.bob, w.chess.ID, "games")
	if !dash.Ephemeral() || len(dash.Embeds) != 1 || !strings.Contains(dash.Embeds[0].Description, fmt.Sprintf("<t:%d:R>", g.Deadline.Unix())) ||
		!strings.Contains(dash.Embeds[0].Description, "<#"+thread+">") {
		t.Fatalf("/games: %+v", dash.Embeds)
	}
	public := func() (n, live int, board fakediscord.Message) {
		for _, m := range w.srv.Messages(thread) {
			if m.Ephemeral() {
				continue
			}
			n++
			if len(m.Files) > 0 && len(m.Components) > 0 {
				live, board = live+1, m
			}
		}
		return n, live, board
	}
	// The earlier boards lose their buttons in the background.
	before, live, board := public()
	for deadline := time.Now().Add(patience(5 * time.Second)); live != 1 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		before, live, board = public()
	}
	if live != 1 {
		t.Fatalf("%d boards with buttons in the thread, want 1", live)
	}
	opened := w.answer(w.srv.Select(w.bob.ID, dash.ID, "gs:open", fmt.Sprint(g.ID)))
	link := fmt.Sprintf("https://discord.com/channels/%s/%s/%s", board.GuildID, thread, board.ID)
	if n, _, _ := public(); !opened.Ephemeral() || !strings.Contains(opened.Content, link) || n != before {
		t.Fatalf("opening the game from /games: %q (want a link to %s), %d messages in the thread (was %d)", opened.Content, link, n, before)
	}
	// With its board deleted, the game gets a new one, and Bob is told where.
	w.srv.DeleteMessage(board.ID)
	reopened := w.answer(w.srv.Select(w.bob.ID, dash.ID, "gs:open", fmt.Sprint(g.ID)))
	if n, _, fresh := public(); !reopened.Ephemeral() || !strings.Contains(reopened.Content, "<#"+thread+">") || n != before || fresh.ID == board.ID || fresh.ID == "" {
		t.Fatalf("opening the game whose board is gone: %q, %d messages in the thread (was %d)", reopened.Content, n, before)
	}

	// Bob plays the expected move: Alice's reply comes at once.
	after := w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	if !strings.Contains(after.Content, "answered at once with **Nxf3**") {
		t.Fatalf("the board after the expected move says %q", after.Content)
	}
	if g := w.gameIn(thread); g.Ply() != 3 || g.Premoves != nil {
		t.Fatalf("after the reply: %d plies, queue %+v", g.Ply(), g.Premoves)
	}

	// A vacation: Bob's clock stands still, and the thread says so.
	if m := w.command(w.bob, w.chess.ID, "vacation", fakediscord.IntOption("days", 3)); !m.Ephemeral() || !strings.Contains(m.Content, "Bonnes vacances") {
		t.Fatalf("/vacation answered %q", m.Content)
	}
	w.waitMessage(thread, func(m fakediscord.Message) bool {
		return strings.Contains(m.Content, "<@"+w.bob.ID+"> is on vacation until")
	})

	// A challenge nobody answers expires, and its message says so.
	ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID))
	// The bot notes the challenge's message just after answering.
	for deadline := time.Now().Add(patience(5 * time.Second)); ; time.Sleep(time.Millisecond) {
		mine, err := w.svc.Challenges(context.Background(), w.dan.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) == 1 && mine[0].Message == ch.ID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot did not note the challenge's message")
		}
	}
	w.advance(w.clk.Now().Add(play.DefaultChallengeTTL))
	edited, ok := w.srv.Message(ch.ID)
	if !ok || !strings.Contains(edited.Content, "expired without an answer") || len(edited.Buttons()) != 0 {
		t.Fatalf("the expired challenge reads %q with buttons %v", edited.Content, edited.Buttons())
	}
	// Three days on, Bob's game goes on: his vacation moved his deadline.
	w.gameIn(thread)
}

func TestTheOpponentChoosesWithButtons(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{OpponentChooses: true, Reminders: []int{}})
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	g := w.gameIn(thread) // Alice (White) never moves
	w.advance(g.Deadline)
	choice := w.waitMessage(thread, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "you choose") })
	if strings.Contains(w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3")).Content, "played") {
		t.Fatal("the player out of time could still move")
	}
	if got := w.click(w.alice, choice, "cwin"); !got.Ephemeral() {
		t.Fatalf("the player out of time could claim: %q", got.Content)
	}
	end := w.click(w.bob, choice, "cdraw")
	if !strings.Contains(end.Content, "chose a draw") {
		t.Fatalf("the draw chosen reads %q", end.Content)
	}
	if fg := finishedGame(t, w.st, thread); fg.Outcome.Result.String() != "1/2-1/2" {
		t.Fatalf("stored outcome %v", fg.Outcome)
	}
}
