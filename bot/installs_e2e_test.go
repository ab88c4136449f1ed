package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// The commands that play a game are registered for user installs and
// every context; the server's own stay in servers.
func TestRegisteredCommandsSayWhereTheyWork(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	var cmds []*discordgo.ApplicationCommand
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindCommands && c.Err == nil {
			cmds = c.Commands
		}
	}
	anywhere := []string{"challenge", "Challenge to Ice Age Chess", "move", "board", "resign", "draw", "takeback", "abort",
		"games", "premove", "pgn", "rules", "help", "settings", "learn", "puzzle"}
	seen := 0
	for _, c := range cmds {
		if c.Contexts == nil || c.IntegrationTypes == nil {
			t.Errorf("%q is registered without contexts or integration types", c.Name)
			continue
		}
		contexts, installs := fmt.Sprint(*c.Contexts), fmt.Sprint(*c.IntegrationTypes)
		if slices.Contains(anywhere, c.Name) {
			seen++
			if contexts != "[0 1 2]" || installs != "[0 1]" {
				t.Errorf("%q: contexts %s, integration types %s; want [0 1 2] and [0 1]", c.Name, contexts, installs)
			}
		} else if contexts != "[0]" || installs != "[0]" {
			t.Errorf("%q, a server's command: contexts %s, integration types %s; want [0] and [0]", c.Name, contexts, installs)
		}
	}
	if seen != len(anywhere) {
		t.Errorf("%d of the %d commands for user installs are registered", seen, len(anywhere))
	}
}

// waitAnswer waits for an answer or follow-up in channel that matches.
func (w *world) waitAnswer(channel string, match func(fakediscord.Message) bool) fakediscord.Message {
	w.t.Helper()
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return (c.Kind == fakediscord.KindResponse || c.Kind == fakediscord.KindFollowup) && c.Err == nil && c.Message.ChannelID == channel && match(c.Message)
	})
	if err != nil {
		w.t.Fatalf("no such answer in channel %s: %v", channel, err)
	}
	return c.Message
}

// dmPosts returns the messages posted in the bot's DM with user that
// contain text.
func (w *world) dmPosts(user fakediscord.User, text string) []fakediscord.Call {
	dm := w.srv.DMChannel(user.ID)
	var out []fakediscord.Call
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage && c.Err == nil && c.Message.ChannelID == dm.ID && strings.Contains(c.Message.Content, text) {
			out = append(out, c)
		}
	}
	return out
}

// A whole game in a DM between two users who installed the app: the
// challenge and every board are answers to their acts there, the bot
// posts nothing of its own in the DM, Alice is told her turn and
// reminded by DM, Bob, whose DMs are closed, sees the board when he asks
// for it, and the game counts for the global rating.
func TestAWholeGameInADMBetweenTwoUsers(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	w.srv.InstallApp(w.alice.ID, true)
	w.srv.InstallApp(w.bob.ID, true)
	w.srv.SetDMsClosed(w.bob.ID, true)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)

	ch := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID), fakediscord.BoolOption("rated", true))
	if ch.Ephemeral() || !strings.Contains(ch.Content, "<@"+w.bob.ID+">") || ch.ChannelID != dm.ID {
		t.Fatalf("the challenge in the DM: %+v", ch)
	}
	click := w.srv.Click(w.bob.ID, ch.ID, button(t, ch, "accept").CustomID)
	w.answer(click)
	follow, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindFollowup && c.InteractionID == click && len(c.Message.Files) > 0
	})
	if err != nil || follow.Err != nil || follow.Message.ChannelID != dm.ID {
		t.Fatalf("the first board is no follow-up of the accept in the DM: %v %v", follow, err)
	}
	if accepted, _ := w.srv.Message(ch.ID); !strings.Contains(accepted.Content, "ici même") || len(accepted.Buttons()) != 0 {
		t.Errorf("the accepted challenge reads %q, buttons %v", accepted.Content, accepted.Buttons())
	}
	g := w.gameIn(dm.ID)
	if !g.Private || g.Guild != "" || !g.Rated || g.White.ID != w.alice.ID {
		t.Fatalf("the DM's game: %+v", g)
	}

	// The game is one that ends in mate.
	sans := referenceGame(t, "checkmate", 37)

	// Alice moves; Bob is told by DM, which Discord refuses: nothing is
	// posted anywhere else, and his next command shows him the board.
	if m := w.command(w.alice, dm.ID, "move", fakediscord.StringOption("move", sans[0])); m.Ephemeral() || len(m.Files) == 0 {
		t.Fatalf("Alice's move was answered %q", m.Content)
	}
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Err != nil && c.Err.Code == discordgo.ErrCodeCannotSendMessagesToThisUser
	}); err != nil {
		t.Fatalf("no DM was tried to Bob: %v", err)
	}
	if b := w.command(w.bob, dm.ID, "board"); len(b.Files) == 0 || !strings.Contains(b.Content+b.Embeds[0].Description, "<@"+w.bob.ID+">") {
		t.Errorf("Bob's /board shows %q", b.Content)
	}

	// Bob moves; Alice hears it by DM, with a link to the game.
	w.command(w.bob, dm.ID, "move", fakediscord.StringOption("move", sans[1]))
	turn := w.waitMessage(w.srv.DMChannel(w.alice.ID).ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "your move") })
	if !strings.Contains(turn.Content, "https://discord.com/channels/@me/"+dm.ID) {
		t.Errorf("Alice's DM says %q", turn.Content)
	}

	// /help in the DM lists what works there, not a server's commands.
	help := w.command(w.alice, dm.ID, "help")
	if d := help.Embeds[0].Description; !strings.Contains(d, "</move:") || strings.Contains(d, "</leaderboard:") {
		t.Errorf("/help in the DM lists %q", d)
	}
	// It says how to move by clicking.
	if d := help.Embeds[0].Description; !strings.Contains(d, "choose a man in the menu under the board") {
		t.Errorf("/help does not say how to move: %q", d)
	}

	// /games in the DM lists it, with its link.
	dash := w.command(w.alice, dm.ID, "games")
	if !dash.Ephemeral() || !strings.Contains(dash.Embeds[0].Title, "DMs") || !strings.Contains(dash.Embeds[0].Description, "https://discord.com/channels/@me/"+dm.ID) {
		t.Errorf("/games in the DM: %+v", dash.Embeds[0])
	}
	opened := w.answer(w.srv.Select(w.alice.ID, dash.ID, "gs:open", fmt.Sprint(g.ID)))
	if !opened.Ephemeral() || len(opened.Files) == 0 || !strings.Contains(opened.Content, dm.ID) {
		t.Errorf("opening the DM's game from /games: %q", opened.Content)
	}

	// Her reminder comes by DM, six hours before her deadline.
	g = w.gameIn(dm.ID)
	w.advance(g.Deadline.Add(-6 * time.Hour))
	if rem := w.dmPosts(w.alice, "A reminder"); len(rem) != 1 || !strings.Contains(rem[0].Message.Content, "https://discord.com/channels/@me/"+dm.ID) {
		t.Fatalf("Alice's reminders by DM: %v", rem)
	}

	// The game to mate, every move an answer in the DM.
	last := w.playAlternately(dm.ID, w.alice, w.bob, sans[2:])
	if !strings.Contains(last.Content, "White wins by checkmate") || last.ChannelID != dm.ID {
		t.Errorf("the mating move's answer says %q", last.Content)
	}
	end := finishedGame(t, w.st, dm.ID)
	if len(end.Ratings) == 0 {
		t.Errorf("the rated DM game changed no rating")
	}
	for _, r := range end.Ratings {
		if r.Scope != "" {
			t.Errorf("a DM game rated in scope %q, want only the global rating", r.Scope)
		}
	}
	for _, c := range w.srv.Calls() {
		if (c.Kind == fakediscord.KindMessage || c.Kind == fakediscord.KindThread) && (c.Message.ChannelID == dm.ID || c.Err != nil && c.Err.Code == discordgo.ErrCodeMissingAccess) {
			t.Errorf("the bot tried a post of its own in the DM: %s", c)
		}
	}
}

// In a server that did not add the bot, a user who installed it is told
// how to add it, or to play in a DM; nothing is challenged or posted.
func TestAChallengeInAServerWithoutTheBot(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.srv.InstallApp(w.carol.ID, true)
	elsewhere := w.srv.AddGuild(fakediscord.Guild{Name: "Elsewhere", WithoutBot: true})
	general := w.srv.AddChannel(fakediscord.Channel{GuildID: elsewhere.ID, Name: "general"})
	m := w.command(w.carol, general.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID))
	if !m.Ephemeral() || !strings.Contains(m.Content, "https://discord.com/oauth2/authorize?client_id="+w.srv.AppID()) {
		t.Fatalf("a challenge in a server without the bot was answered %q", m.Content)
	}
	if !strings.Contains(m.Content, "Меня нет на этом сервере") {
		t.Errorf("Carol is not answered in Russian: %q", m.Content)
	}
	if cs, err := play.New(w.st, play.Options{}).Challenges(w.ctx(), w.dan.ID); err != nil || len(cs) != 0 {
		t.Errorf("challenges for Dan: %v, %v", cs, err)
	}
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage || c.Kind == fakediscord.KindThread {
			t.Errorf("the bot posted: %s", c)
		}
	}
}

// Where nobody else can see (the bot's own DM) only the engine can be
// challenged, and it plays there; in a DM between users it cannot.
func TestTheEngineInTheBotsDMAndNotInOthers(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.srv.InstallApp(w.alice.ID, true)
	own := w.srv.DMChannel(w.alice.ID)
	if m := w.command(w.alice, own.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID)); !m.Ephemeral() || !strings.Contains(m.Content, "Only you and I") {
		t.Errorf("a challenge to Bob in the bot's DM was answered %q", m.Content)
	}
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	if m := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.srv.Bot().ID)); !m.Ephemeral() || !strings.Contains(m.Content, "our DM") {
		t.Errorf("a challenge to the engine in a DM without the bot was answered %q", m.Content)
	}
	w.command(w.alice, own.ID, "challenge", fakediscord.UserOption("opponent", w.srv.Bot().ID), fakediscord.StringOption("color", "white"))
	board := w.waitMessage(own.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	if !strings.Contains(board.Content, "<@"+w.alice.ID+">") {
		t.Errorf("the engine game's first board: %q", board.Content)
	}
	w.command(w.alice, own.ID, "move", fakediscord.StringOption("move", "hxg3"))
	w.engineReply(own.ID)
}

// A resignation's board, which no answer shows, follows up in the DM on
// the click that resigned; after a restart, with no token left, it comes
// by direct message.
func TestAResignationInADMFollowsUpThere(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.srv.InstallApp(w.alice.ID, true)
	w.srv.InstallApp(w.bob.ID, true)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	ch := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.bob, ch, "accept")
	board := w.waitAnswer(dm.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	confirm := w.click(w.alice, board, "resign")
	if !confirm.Ephemeral() {
		t.Fatalf("the resignation's confirmation is public: %q", confirm.Content)
	}
	click := w.srv.Click(w.alice.ID, confirm.ID, button(t, confirm, "resignok").CustomID)
	w.answer(click)
	end, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindFollowup && c.InteractionID == click && strings.Contains(c.Message.Content, "resigned")
	})
	if err != nil || end.Err != nil || end.Message.ChannelID != dm.ID || end.Message.Ephemeral() {
		t.Fatalf("the resignation's board in the DM: %v %v", end, err)
	}

	// A second game; Bob resigns while the bot is stopped, so no token
	// of the DM is known when it starts: Alice hears it by DM.
	ch = w.command(w.bob, dm.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID))
	w.click(w.alice, ch, "accept")
	w.waitAnswer(dm.ID, func(m fakediscord.Message) bool {
		return len(m.Files) > 0 && m.ID != board.ID && !strings.Contains(m.Content, "resigned")
	})
	w.stop()
	w.stop = nil
	svc := play.New(w.st, play.Options{})
	g, err := svc.GameIn(w.ctx(), dm.ID)
	if err != nil {
		t.Fatal(err)
	}
	r, err := round.New(svc, round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Do(w.ctx(), round.Act{Act: play.Act{By: w.bob.ID, Game: g.ID, Revision: g.Revision, At: w.clock.Now()}, Kind: round.Resign}); err != nil {
		t.Fatal(err)
	}
	w.start()
	told := w.waitMessage(w.srv.DMChannel(w.alice.ID).ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "resigned") })
	if len(told.Files) == 0 || !strings.Contains(told.Content, "<@"+w.bob.ID+">") {
		t.Errorf("Alice's DM of the resignation: %q", told.Content)
	}
}

// A private game lost on time is announced to its players by DM, each in
// their language; a player whose DMs are closed is not told twice.
func TestATimeoutInADMComesByDM(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	w.srv.InstallApp(w.alice.ID, true)
	w.srv.InstallApp(w.bob.ID, true)
	w.srv.SetDMsClosed(w.alice.ID, true)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	ch := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.bob, ch, "accept")
	w.waitAnswer(dm.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	g := w.gameIn(dm.ID)
	w.advance(g.Deadline.Add(time.Minute))
	lost := w.waitMessage(w.srv.DMChannel(w.bob.ID).ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	if !strings.Contains(lost.Content, "Le temps de <@"+w.alice.ID+">") || !strings.Contains(lost.Content, "<@"+w.bob.ID+"> gagne") {
		t.Errorf("Bob's DM of the timeout: %q", lost.Content)
	}
	if end := finishedGame(t, w.st, dm.ID); end.Outcome.Reason != game.Timeout {
		t.Errorf("the game ended by %v", end.Outcome)
	}
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage && (c.Message.ChannelID == dm.ID || c.Err != nil && c.Err.Code == discordgo.ErrCodeMissingAccess) {
			t.Errorf("the bot tried a post of its own in the DM: %s", c)
		}
	}
}

// When the opponent chooses on a timeout, the choice's buttons come by
// DM, and the player out of time hears the choice the same way; a
// challenge nobody answered in a DM is told its challenger by DM.
func TestAChoiceOnTimeAndAnExpiredChallengeInADM(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{OpponentChooses: true})
	w.srv.InstallApp(w.alice.ID, true)
	w.srv.InstallApp(w.bob.ID, true)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	ch := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.bob, ch, "accept")
	w.waitAnswer(dm.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	g := w.gameIn(dm.ID)
	w.advance(g.Deadline.Add(time.Minute))
	choice := w.waitMessage(w.srv.DMChannel(w.bob.ID).ID, func(m fakediscord.Message) bool { return len(m.Buttons()) > 0 })
	claimed := w.click(w.bob, choice, "cwin")
	if !strings.Contains(claimed.Content+fmt.Sprint(claimed.Embeds), "revendique la victoire") {
		t.Errorf("Bob's claim was answered %q", claimed.Content)
	}
	told := w.waitMessage(w.srv.DMChannel(w.alice.ID).ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "claimed the win") })
	if !strings.Contains(told.Content, dm.ID) {
		t.Errorf("Alice's DM of the claim: %q", told.Content)
	}
	if end := finishedGame(t, w.st, dm.ID); end.Outcome.Reason != game.Timeout {
		t.Errorf("the game ended by %v", end.Outcome)
	}

	w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.advance(w.clk.Now().Add(play.DefaultChallengeTTL))
	w.waitMessage(w.srv.DMChannel(w.alice.ID).ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "expired without an answer") })
}

// In a DM, a friend who did not install the app plays all the same, by
// clicking: the challenge's Accept and the board's Move are buttons.
func TestAFriendWithoutTheAppPlaysADMGameByClicking(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.srv.InstallApp(w.alice.ID, true)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	ch := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID), fakediscord.StringOption("color", "black"))
	w.click(w.bob, ch, "accept")
	board := w.waitAnswer(dm.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	played := w.clickMove(w.bob, board, "♘ Cavalier g1", "Nxf3")
	if played.ChannelID != dm.ID || !strings.Contains(played.Content, "**Nxf3**") {
		t.Errorf("Bob's clicked move answered %q in %s", played.Content, played.ChannelID)
	}
	if m := w.command(w.alice, dm.ID, "move", fakediscord.StringOption("move", "Nxf6")); m.Ephemeral() || m.ChannelID != dm.ID {
		t.Errorf("Alice's answer: %q", m.Content)
	}
}
