package bot_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// A correspondence game lives for weeks, and Discord acts on its thread
// meanwhile. These tests drive the bot through each case and check that
// the game starts, goes on, or is refused privately, and that no player
// is left with a game they cannot reach.

// reachable checks that the game of the players goes on in a channel the
// fake still has, not archived and not locked, where a command reaches
// the bot, and returns the channel.
func (w *world) reachable(player fakediscord.User) string {
	w.t.Helper()
	var games []play.Game
	err := w.st.View(context.Background(), func(tx play.ReadTx) (err error) { games, err = tx.ActiveGames(player.ID); return err })
	if err != nil || len(games) != 1 {
		w.t.Fatalf("%s's games: %v, %v; want one", player.Username, games, err)
	}
	c, ok := w.srv.Channel(games[0].Channel)
	if !ok || c.Archived() || c.Locked() {
		w.t.Fatalf("%s's game is in %q, gone, archived or locked (%+v)", player.Username, games[0].Channel, c)
	}
	got := w.command(player, c.ID, "board")
	if got.Content == "" && len(got.Files) == 0 {
		w.t.Fatalf("/board in the game's channel is answered %+v", got)
	}
	return c.ID
}

// accepted is challengeAccepted where the game's place is not known in
// advance: it returns the channel the game is played in and the note of
// the accepted challenge.
func (w *world) accepted(channel string, from, to fakediscord.User) (string, string) {
	w.t.Helper()
	ch := w.command(from, channel, "challenge", fakediscord.UserOption("opponent", to.ID))
	if ch.Ephemeral() {
		w.t.Fatalf("the challenge is answered privately: %q", ch.Content)
	}
	id := w.srv.Click(to.ID, ch.ID, button(w.t, ch, "accept").CustomID)
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponseEdit && c.InteractionID == id
	})
	if err != nil || c.Err != nil {
		w.t.Fatalf("the accepted challenge was not shown: %v %v", err, c.Err)
	}
	_, rest, _ := strings.Cut(c.Message.Content, "<#")
	where, _, _ := strings.Cut(rest, ">")
	w.waitMessage(where, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	return where, c.Message.Content
}

func TestAChallengeInsideAThreadStartsTheGameInANewThreadOfTheParent(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	first, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	// Carol challenges Dan inside Alice and Bob's thread.
	where, _ := w.accepted(first, w.carol, w.dan)
	c, _ := w.srv.Channel(where)
	if where == first || c.ParentID != w.chess.ID {
		t.Fatalf("the new game is in %q (parent %q), want a new thread of #chess", where, c.ParentID)
	}
	if c.AutoArchiveMinutes() != 10080 {
		t.Errorf("the game's thread archives after %d minutes, want a week", c.AutoArchiveMinutes())
	}
	members := w.srv.ThreadMembers(where)
	for _, u := range []fakediscord.User{w.carol, w.dan} {
		if !contains(members, u.ID) {
			t.Errorf("%s is not a member of the game's thread %v", u.Username, members)
		}
	}
	if w.reachable(w.carol) != where || w.reachable(w.alice) != first {
		t.Error("a game is not where it was started")
	}

	// In a thread the members opened, which the bot never saw made: the
	// same, the bot asking Discord what the channel is rather than trying.
	chat := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "chat", Type: discordgo.ChannelTypeGuildPublicThread, ParentID: w.chess.ID})
	where, _ = w.accepted(chat.ID, w.bob, w.carol)
	if c, _ := w.srv.Channel(where); where == chat.ID || c.ParentID != w.chess.ID {
		t.Fatalf("the game challenged in a members' thread is in %q (parent %q), want a new thread of #chess", where, c.ParentID)
	}
	if n := w.srv.ThreadStartsInThreads(); n != 0 {
		t.Errorf("the bot asked Discord %d times for a thread inside a thread", n)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestWhereNoThreadCanBeOpenedTheGameIsPlayedInTheChannel(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(w *world) string
		note  string
	}{
		{"a forum post", func(w *world) string {
			forum := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "openings", Type: discordgo.ChannelTypeGuildForum})
			return w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "ice gambit", Type: discordgo.ChannelTypeGuildPublicThread, ParentID: forum.ID}).ID
		}, "may not open threads"},
		{"a voice channel's chat", func(w *world) string {
			return w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "lounge", Type: discordgo.ChannelTypeGuildVoice}).ID
		}, "may not open threads"},
		{"the server's active threads at Discord's limit", func(w *world) string {
			w.srv.SetActiveThreadLimit(w.guild.ID, 0)
			w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "busy", Type: discordgo.ChannelTypeGuildPublicThread, ParentID: w.chess.ID})
			w.srv.SetActiveThreadLimit(w.guild.ID, 1)
			return w.chess.ID
		}, "right now"},
		{"thread creation rate limited for ten minutes", func(w *world) string {
			w.srv.Refuse(fakediscord.RouteThreadFromMessage, fakediscord.Refusal{Status: 429, RetryAfter: 10 * time.Minute})
			return w.chess.ID
		}, "as soon as Discord allows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, memstore.New(), "en-US")
			channel := tc.setup(w)
			where, note := w.accepted(channel, w.alice, w.bob)
			if where != channel || !strings.Contains(note, tc.note) {
				t.Errorf("the game is in %q with %q; want %q and a note %q", where, note, channel, tc.note)
			}
			w.reachable(w.alice)
		})
	}
}

func TestTwoAcceptsAtOnceMakeOneGame(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	ch := w.command(w.alice, w.chess.ID, "challenge")
	// Both clicks reach the bot before it can answer either: neither
	// sees the challenge taken.
	ids := w.srv.ClickTogether(ch.ID, button(w.t, ch, "accept").CustomID, w.bob.ID, w.carol.ID)
	// Each is answered at last: the deferral edited, a refusal followed
	// up, or refused at once when the other's game was already made.
	for _, id := range ids {
		if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
			return c.InteractionID == id && (c.Kind == fakediscord.KindResponseEdit || c.Kind == fakediscord.KindFollowup ||
				c.Kind == fakediscord.KindResponse && c.ResponseType == discordgo.InteractionResponseChannelMessageWithSource)
		}); err != nil {
			t.Fatalf("accept %s was not answered: %v", id, err)
		}
	}
	var games []play.Game
	for _, u := range []fakediscord.User{w.bob, w.carol} {
		w.st.View(context.Background(), func(tx play.ReadTx) error {
			gs, err := tx.ActiveGames(u.ID)
			games = append(games, gs...)
			return err
		})
	}
	if len(games) != 1 {
		t.Fatalf("%d games from one open challenge, want 1", len(games))
	}
	if c, ok := w.srv.Channel(games[0].Channel); !ok || c.ParentID != w.chess.ID {
		t.Errorf("the game is in %q, not a thread of #chess", games[0].Channel)
	}
}

func TestAnArchivedThreadOfAGameIsUnarchived(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	if got := w.srv.Pass(8 * 24 * time.Hour); !contains(got, thread) {
		t.Fatalf("Discord did not archive the idle thread: %v", got)
	}
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindChannelEdit && c.Channel.ID == thread && c.Err == nil && !c.Channel.Archived()
	})
	if err != nil {
		t.Fatalf("the bot did not unarchive the game's thread: %v", err)
	}
	_ = c
	w.reachable(w.alice)
	// A thread without a game stays archived.
	other := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "chat", Type: discordgo.ChannelTypeGuildPublicThread, ParentID: w.chess.ID})
	w.srv.Archive(other.ID)
	w.command(w.alice, thread, "board") // the bot handled the events before this
	if c, _ := w.srv.Channel(other.ID); !c.Archived() {
		t.Error("the bot unarchived a thread without a game")
	}
}

func TestALockedOrDeletedThreadMovesTheGameToANewThread(t *testing.T) {
	for _, tc := range []struct {
		name string
		act  func(w *world, thread string)
	}{
		{"locked", func(w *world, thread string) { w.srv.Lock(thread, false) }},
		{"locked and archived", func(w *world, thread string) { w.srv.Lock(thread, true) }},
		{"deleted", func(w *world, thread string) { w.srv.DeleteChannel(thread) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, memstore.New(), "en-US")
			thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
			w.command(w.alice, thread, "move", fakediscord.StringOption("move", "h2g3"))
			tc.act(w, thread)
			moved := w.srv.WaitFor
			c, err := moved(w.ctx(), func(c fakediscord.Call) bool {
				return c.Kind == fakediscord.KindMessage && c.Err == nil && c.Message.ChannelID != thread &&
					strings.Contains(c.Message.Content, "<@"+w.alice.ID+">") && strings.Contains(c.Message.Content, "<@"+w.bob.ID+">") && len(c.Message.Files) > 0
			})
			if err != nil {
				t.Fatalf("the game's board was not posted elsewhere: %v", err)
			}
			where := c.Message.ChannelID
			if ch, _ := w.srv.Channel(where); ch.ParentID != w.chess.ID {
				t.Errorf("the game moved to %q, not a thread of #chess", where)
			}
			if got := w.reachable(w.bob); got != where {
				t.Errorf("Bob's game is in %q, want %q", got, where)
			}
			if g := w.gameOf(where); g.Ply() != 1 {
				t.Errorf("the moved game has %d plies, want 1", g.Ply())
			}
			// The game goes on there.
			got := w.command(w.bob, where, "move", fakediscord.StringOption("move", "g8f6"))
			if got.Ephemeral() {
				t.Errorf("Bob's move in the new thread is refused: %q", got.Content)
			}
			games := w.command(w.bob, where, "games")
			if !strings.Contains(games.Content+embedText(games), where) {
				t.Errorf("/games does not link to %s: %q", where, games.Content+embedText(games))
			}
		})
	}
}

func embedText(m fakediscord.Message) string {
	var b strings.Builder
	for _, e := range m.Embeds {
		b.WriteString(e.Title + e.Description)
		for _, f := range e.Fields {
			b.WriteString(f.Name + f.Value)
		}
	}
	return b.String()
}

func TestAChallengeWhereTheBotLacksPermissionsIsRefusedPrivately(t *testing.T) {
	for _, tc := range []struct {
		deny int64
		name string
	}{
		{discordgo.PermissionAttachFiles, "Attach Files"},
		{discordgo.PermissionEmbedLinks, "Embed Links"},
		{discordgo.PermissionSendMessages, "Send Messages"},
		{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, memstore.New(), "en-US")
			ch := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "strict", Deny: tc.deny})
			for _, opponent := range []string{w.bob.ID, w.srv.Bot().ID} {
				got := w.command(w.alice, ch.ID, "challenge", fakediscord.UserOption("opponent", opponent))
				if !got.Ephemeral() || !strings.Contains(got.Content, tc.name) {
					t.Errorf("the challenge is answered %q, want a private refusal naming %s", got.Content, tc.name)
				}
			}
			var cs []play.Challenge
			w.st.View(context.Background(), func(tx play.ReadTx) (err error) { cs, err = tx.Challenges(w.alice.ID); return err })
			if len(cs) != 0 {
				t.Errorf("%d challenges saved", len(cs))
			}
		})
	}
}

func TestAChallengeToTheBotIsAcknowledgedBeforeItsThreadIsOpened(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	w.srv.SetLatency(300 * time.Millisecond)
	id := w.srv.Command(w.alice.ID, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.srv.Bot().ID))
	resp, err := w.srv.WaitResponse(w.ctx(), id)
	if err != nil || resp.Err != nil {
		t.Fatalf("no acknowledgement: %v %v", err, resp.Err)
	}
	for _, c := range w.srv.Calls() {
		if c.Seq < resp.Seq && c.Kind == fakediscord.KindThread {
			t.Errorf("a thread was opened before the interaction was acknowledged: %v", c)
		}
	}
	w.answer(id)
}

// puts lists the command overwrites since call seq, as "guild:count"
// ("global" for the global set).
func (w *world) puts(since int) []string {
	var got []string
	for _, c := range w.srv.Calls() {
		if c.Seq > since && c.Kind == fakediscord.KindCommands && c.Err == nil {
			scope := c.GuildID
			if scope == "" {
				scope = "global"
			}
			got = append(got, fmt.Sprintf("%s:%d", scope, len(c.Commands)))
		}
	}
	return got
}

func (w *world) lastSeq() int {
	calls := w.srv.Calls()
	return calls[len(calls)-1].Seq
}

func TestCommandsAreRegisteredOnceAndOnlyWhereTheyBelong(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	first := w.puts(0)
	if len(first) != 1 || !strings.HasPrefix(first[0], "global:") || first[0] == "global:0" {
		t.Fatalf("the first start put %v, want the global set only", first)
	}
	n := first[0]
	seq := w.lastSeq()
	w.restart()
	w.command(w.alice, w.chess.ID, "help")
	again := w.lastSeq()
	w.srv.Disconnect(false) // a new READY in the same process
	w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Seq > again && c.Kind == fakediscord.KindIdentify })
	w.command(w.alice, w.chess.ID, "help")
	if got := w.puts(seq); len(got) != 0 {
		t.Errorf("unchanged commands were put again: %v", got)
	}

	// Development guilds: their sets, and the global set emptied.
	w.guildIDs = []string{w.guild.ID}
	seq = w.lastSeq()
	w.restart()
	w.command(w.alice, w.chess.ID, "help")
	got := w.puts(seq)
	want := []string{"global:0", w.guild.ID + ":" + strings.TrimPrefix(n, "global:")}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("with guild_ids: put %v, want %v", got, want)
	}
	// And back: the global set, and the guild's emptied.
	w.guildIDs = nil
	seq = w.lastSeq()
	w.restart()
	w.command(w.alice, w.chess.ID, "help")
	if got := w.puts(seq); fmt.Sprint(got) != fmt.Sprint([]string{n, w.guild.ID + ":0"}) {
		t.Errorf("back to global: put %v, want %v", got, []string{n, w.guild.ID + ":0"})
	}
}

// Discord at 150 ms a request: /analyze without a game looks for the last
// game finished in the channel's threads, one request a thread, after its
// acknowledgement and outside any storage transaction.
func TestAnalyzeWithoutAGameAcknowledgesBeforeAskingDiscord(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	other := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "elsewhere"})
	svc := play.New(w.st, play.Options{})
	for i := range 25 {
		th := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: fmt.Sprint("game ", i), Type: discordgo.ChannelTypeGuildPublicThread, ParentID: other.ID})
		r, err := svc.Start(context.Background(), play.NewGame{Guild: w.guild.ID, Channel: th.ID, White: play.Seat{ID: w.alice.ID, Name: "Alice"},
			Black: play.Seat{ID: w.bob.ID, Name: "Bob"}, DaysPerMove: 3, At: w.clock.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Resign(context.Background(), play.Act{Game: r.Game.ID, By: w.alice.ID, Revision: r.Game.Revision, At: w.clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	w.srv.SetLatency(150 * time.Millisecond)
	got := w.command(w.alice, w.chess.ID, "analyze")
	if !got.Ephemeral() || !strings.Contains(got.Content, "No game has finished here yet") {
		t.Errorf("/analyze is answered %+v", got)
	}
}

// /games' menu reads the game's thread for its board, and posts one when
// none is left: both wait on Discord, after the choice is acknowledged.
func TestGamesMenuAcknowledgesBeforePosting(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	menu := w.command(w.alice, w.chess.ID, "games")
	var custom, value string
	for _, row := range menu.Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range r.Components {
				if s, ok := c.(*discordgo.SelectMenu); ok && len(s.Options) > 0 {
					custom, value = s.CustomID, s.Options[0].Value
				}
			}
		}
	}
	if custom == "" {
		t.Fatalf("/games has no menu: %+v", menu)
	}
	w.srv.SetLatency(100 * time.Millisecond)
	id := w.srv.Select(w.alice.ID, menu.ID, custom, value)
	resp, err := w.srv.WaitResponse(w.ctx(), id)
	if err != nil || resp.Err != nil || resp.ResponseType != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("the choice is not acknowledged first: %v %v %v", err, resp.Err, resp.ResponseType)
	}
	if got := w.answer(id); !strings.Contains(got.Content, thread+"/"+board.ID) {
		t.Errorf("the answer %q does not link to the board", got.Content)
	}

	w.srv.DeleteMessage(board.ID)
	before := w.lastSeq()
	id = w.srv.Select(w.alice.ID, menu.ID, custom, value)
	resp, err = w.srv.WaitResponse(w.ctx(), id)
	if err != nil || resp.Err != nil {
		t.Fatalf("the choice is not acknowledged: %v %v", err, resp.Err)
	}
	post, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Seq > before && c.Kind == fakediscord.KindMessage && c.Message.ChannelID == thread && c.Err == nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if post.Seq < resp.Seq {
		t.Errorf("the board was posted (#%d) before the choice was acknowledged (#%d)", post.Seq, resp.Seq)
	}
	if got := w.answer(id); !strings.Contains(got.Content, thread) {
		t.Errorf("the answer %q does not say where the board is", got.Content)
	}
}

// A player who shares no server with the bot any more (50278) is told as
// one whose DMs are closed (50007): mentioned in the thread, and not sent
// a DM again at every move. The DM channel of a player whose DMs work is
// asked of Discord once.
func TestNoMutualServerCountsAsClosedDMsAndDMChannelsAreKept(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	w.srv.SetNoMutualGuild(w.carol.ID, true)
	for _, u := range []fakediscord.User{w.carol, w.bob} {
		w.command(u, w.chess.ID, "settings", fakediscord.StringOption("notifications", "dm"))
	}
	carolsGame, _ := w.challengeAccepted(w.chess, w.alice, w.carol)
	bobsGame, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	refused := func() int {
		n := 0
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindMessage && c.Err != nil && c.Err.Code == 50278 {
				n++
			}
		}
		return n
	}
	w.command(w.alice, carolsGame, "move", fakediscord.StringOption("move", "hxg3"))
	w.waitMessage(carolsGame, func(m fakediscord.Message) bool { return m.Content == fmt.Sprintf("<@%s>, your move.", w.carol.ID) })
	if n := refused(); n != 1 {
		t.Fatalf("%d DMs to Carol refused with 50278, want 1", n)
	}
	w.command(w.carol, carolsGame, "move", fakediscord.StringOption("move", "g8f6"))
	before := w.lastSeq()
	w.command(w.alice, carolsGame, "move", fakediscord.StringOption("move", "gxh4"))
	w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Seq > before && c.Kind == fakediscord.KindMessage && c.Message.ChannelID == carolsGame && c.Message.Content == fmt.Sprintf("<@%s>, your move.", w.carol.ID)
	})
	if n := refused(); n != 1 {
		t.Errorf("%d DMs to Carol refused: the refusal was not remembered", n)
	}

	// Bob's DMs work: three notices, one DM channel.
	bobDM := w.srv.DMChannel(w.bob.ID)
	for _, mv := range [][2]string{{"hxg3", ""}, {"", "g8f6"}, {"gxh4", ""}} {
		if mv[0] != "" {
			w.command(w.alice, bobsGame, "move", fakediscord.StringOption("move", mv[0]))
		} else {
			w.command(w.bob, bobsGame, "move", fakediscord.StringOption("move", mv[1]))
		}
	}
	w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == bobDM.ID && strings.Contains(c.Message.Content, "gxh4")
	})
	opened := 0
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindDMChannel && c.Channel.RecipientID == w.bob.ID {
			opened++
		}
	}
	if opened != 1 {
		t.Errorf("Bob's DM channel was asked for %d times, want once", opened)
	}
}

// slowStore is a storage whose writes take delay, as a loaded database's
// may.
type slowStore struct {
	*memstore.Memory
	delay atomic.Int64
}

func (s *slowStore) Update(ctx context.Context, fn func(tx play.Tx) error) error {
	time.Sleep(time.Duration(s.delay.Load()))
	return s.Memory.Update(ctx, fn)
}

// An interaction over HTTP whose answer takes longer than Discord waits
// is deferred in the HTTP response, then answered through the webhook,
// and files go with their real content types.
func TestASlowAnswerOverHTTPIsDeferredThenEdited(t *testing.T) {
	st := &slowStore{Memory: memstore.New()}
	w := newWorld(t, st, "")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	pub, priv, _ := ed25519.GenerateKey(nil)
	srv := httptest.NewServer(w.bot.InteractionsHandler(pub))
	defer srv.Close()
	id, body := w.srv.HTTPCommand(w.alice.ID, thread, "move", fakediscord.StringOption("move", "h2g3"))
	st.delay.Store(int64(4 * time.Second))
	resp, err := http.DefaultClient.Do(signed(t, srv.URL, priv, string(body)))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(got), `"type":5`) {
		t.Fatalf("the slow answer over HTTP: %d %s; want a deferral", resp.StatusCode, got)
	}
	if err := w.srv.AnswerOverHTTP(id, resp.Header.Get("Content-Type"), got); err != nil {
		t.Fatalf("Discord refused the deferral: %v", err)
	}
	// The answer follows as an edit of the deferral, with the board.
	edit, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponseEdit && c.InteractionID == id
	})
	if err != nil || edit.Err != nil {
		t.Fatalf("no edit after the deferral: %v %v", err, edit.Err)
	}
	if !strings.Contains(edit.Message.Content, "hxg3") || len(edit.Message.Files) == 0 || edit.Message.Files[0].ContentType != "image/png" {
		t.Errorf("the edit is %q with %d files", edit.Message.Content, len(edit.Message.Files))
	}
}

func TestFilesCarryTheirContentTypes(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.alice, thread, "resign")
	for _, c := range []struct{ command, ext, mime string }{{"pgn", ".pgn", "application/vnd.chess-pgn"}, {"gif", ".gif", "image/gif"}} {
		got := w.command(w.alice, thread, c.command)
		found := false
		for _, f := range got.Files {
			if strings.HasSuffix(f.Name, c.ext) {
				found = true
				if !strings.HasPrefix(f.ContentType, c.mime) {
					t.Errorf("/%s: %s is sent as %q, want %s", c.command, f.Name, f.ContentType, c.mime)
				}
			}
		}
		if !found {
			t.Errorf("/%s answered without a %s file: %+v", c.command, c.ext, got)
		}
	}
}

// discordgo keeps a rate limit bucket for every key it is given, for
// good; the bot's keys are routes (bucketOf), never an interaction's
// token, so interactions leave a bounded number behind.
func TestInteractionsLeaveNoRateLimitBuckets(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	keys := func() []string {
		rl := w.bot.Session().Ratelimiter
		rl.Lock()
		defer rl.Unlock()
		var out []string
		for _, k := range reflect.ValueOf(rl).Elem().FieldByName("buckets").MapKeys() {
			out = append(out, k.String())
		}
		return out
	}
	for range 100 {
		w.command(w.alice, thread, "board")
	}
	routes := map[string]bool{}
	for _, k := range keys() {
		if !strings.Contains(k, "/interactions/") && !strings.Contains(k, "/webhooks/") {
			continue
		}
		route, _, _ := strings.Cut(k, "#")
		if !strings.Contains(route, ":id/:token") {
			t.Errorf("a rate limit bucket is keyed by an interaction's own URL: %s", k)
		}
		routes[route] = true
	}
	if len(routes) == 0 {
		t.Fatal("no interaction left a rate limit bucket: the test sees none of them")
	}
	if n := len(keys()); n > len(routes)*bot.BucketStripes+64 {
		t.Errorf("%d rate limit buckets for %d interaction routes", n, len(routes))
	}
}

// One live board: when a new board is posted, the earlier ones lose their
// buttons.
func TestOnlyTheNewestBoardKeepsItsButtons(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "h2g3"))
	w.command(w.bob, thread, "move", fakediscord.StringOption("move", "g8f6"))
	last := w.command(w.alice, thread, "board")
	live := func() []fakediscord.Message {
		var out []fakediscord.Message
		for _, m := range w.srv.Messages(thread) {
			if len(m.Files) > 0 && len(m.Buttons()) > 0 {
				out = append(out, m)
			}
		}
		return out
	}
	for {
		seq := w.lastSeq()
		got := live()
		if len(got) == 1 {
			if got[0].ID != last.ID {
				t.Errorf("the live board is %s, want the newest, %s", got[0].ID, last.ID)
			}
			break
		}
		if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Seq > seq && c.Kind == fakediscord.KindMessageEdit }); err != nil {
			t.Fatalf("%d boards keep their buttons: %v", len(got), err)
		}
	}
	// The newest board's buttons work.
	w.click(w.bob, last, "flip")
}

// While the bot was away, Discord archived one game's thread and a
// moderator locked another's: at its return the first is unarchived and
// the second game moves to a new thread.
func TestThreadsChangedWhileTheBotWasAwayAreCaughtUp(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	archived, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	locked, _ := w.challengeAccepted(w.chess, w.carol, w.dan)
	w.stop()
	w.stop = nil
	w.srv.Archive(archived)
	w.srv.Lock(locked, false)
	seq := w.lastSeq()
	w.start()
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Seq > seq && c.Kind == fakediscord.KindChannelEdit && c.Channel.ID == archived && !c.Channel.Archived()
	}); err != nil {
		t.Fatalf("the archived thread was not unarchived: %v", err)
	}
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Seq > seq && c.Kind == fakediscord.KindMessage && c.Err == nil && c.Message.ChannelID != locked &&
			strings.Contains(c.Message.Content, "<@"+w.dan.ID+">") && len(c.Message.Files) > 0
	}); err != nil {
		t.Fatalf("the game of the locked thread did not move: %v", err)
	}
	if w.reachable(w.alice) != archived {
		t.Error("Alice's game moved")
	}
	if w.reachable(w.dan) == locked {
		t.Error("Dan's game is still in the locked thread")
	}
}

func TestAFinishedGamesThreadIsArchived(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	going, _ := w.challengeAccepted(w.chess, w.carol, w.dan)
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	end := w.resignByClicking(w.bob, thread, board)
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindChannelEdit && c.Channel.ID == thread && c.Err == nil && c.Channel.AutoArchiveMinutes() == 60
	}); err != nil {
		t.Fatalf("the finished game's thread keeps its week: %v", err)
	}
	// Within the hour the players may still ask for the next game.
	if got := w.click(w.alice, end, "rematch"); got.Ephemeral() {
		t.Fatalf("Rematch after the final board: %q", got.Content)
	}
	archived := w.srv.Pass(time.Hour)
	if !slices.Contains(archived, thread) {
		t.Fatalf("an hour after the game, archived %v, not its thread %s", archived, thread)
	}
	if slices.Contains(archived, going) {
		t.Fatalf("the thread of a game going on was archived")
	}
	// Archived, it leaves the server's active threads; anyone who writes
	// there opens it again.
	if err := w.srv.Say(w.alice.ID, thread); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.srv.Channel(thread); c.Archived() {
		t.Fatalf("a message left the thread archived")
	}

	// An aborted game's thread has no Rematch to keep: it is archived
	// at once.
	aborted, board := w.challengeAccepted(w.chess, w.alice, w.dan)
	if got := w.click(w.dan, board, "abort"); !strings.Contains(got.Content, "aborted") {
		t.Fatalf("the abort is answered %q", got.Content)
	}
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindChannelEdit && c.Channel.ID == aborted && c.Err == nil && c.Channel.Archived()
	}); err != nil {
		t.Fatalf("the aborted game's thread was not archived: %v", err)
	}
}

func TestAFiveSecond429OnThreadCreationStillGivesTheGameItsThread(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	w.srv.Refuse(fakediscord.RouteThreadFromMessage, fakediscord.Refusal{Status: 429, RetryAfter: 5 * time.Second})
	where, note := w.accepted(w.chess.ID, w.alice, w.bob)
	if c, ok := w.srv.Channel(where); !ok || c.ParentID != w.chess.ID || strings.Contains(note, "Discord") {
		t.Fatalf("the game is in %+v, with %q; want a thread of #chess", c, note)
	}
	// A game against the engine opens its thread on its own: the same.
	w.srv.Refuse(fakediscord.RouteThreads, fakediscord.Refusal{Status: 429, RetryAfter: 2 * time.Second})
	thread, got := w.engineGame(w.carol)
	if strings.Contains(got.Content, "Discord") {
		t.Errorf("the game against the engine in %s says %q", thread, got.Content)
	}
}

func TestALongRateLimitOnThreadsMovesTheGameToItsThreadWhenDiscordAllows(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.threadWait = time.Second
	w.restart()
	w.srv.Refuse(fakediscord.RouteThreadFromMessage, fakediscord.Refusal{Status: 429, RetryAfter: 3 * time.Second})
	where, note := w.accepted(w.chess.ID, w.alice, w.bob)
	if where != w.chess.ID || !strings.Contains(note, "as soon as Discord allows") {
		t.Fatalf("the game is in %s with %q; want #chess and a note that it moves", where, note)
	}
	started := w.gameOf(w.chess.ID)
	// The outbox moves it once the limit is over, whichever process is
	// running then.
	w.restart()
	moved := make(chan struct{})
	go func() {
		for {
			select {
			case <-moved:
				return
			case <-time.After(100 * time.Millisecond):
				w.clock.Add(time.Second)
			}
		}
	}()
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Err == nil && c.Channel.ParentID == w.chess.ID
	})
	close(moved)
	if err != nil {
		t.Fatalf("the game never got its thread: %v", err)
	}
	thread := c.Channel.ID
	board := w.waitMessage(thread, func(m fakediscord.Message) bool {
		return len(m.Files) > 0 && strings.Contains(m.Content, "thread of its own")
	})
	link := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "<#"+thread+">") })
	if strings.Contains(link.Content, "<@") {
		t.Errorf("the link pings: %q", link.Content)
	}
	if g := w.gameOf(thread); g.ID != started.ID {
		t.Fatalf("game %d moved to the thread, want %d", g.ID, started.ID)
	}
	if got := w.srv.ThreadMembers(thread); !slices.Contains(got, w.alice.ID) || !slices.Contains(got, w.bob.ID) {
		t.Errorf("the thread's members are %v", got)
	}
	if len(board.Buttons()) == 0 {
		t.Errorf("the board in the new thread has no buttons")
	}
	// The game goes on in its thread.
	if got := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3")); got.Ephemeral() {
		t.Fatalf("a move in the new thread: %q", got.Content)
	}
}
