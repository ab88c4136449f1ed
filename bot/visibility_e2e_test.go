package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

// noGameYouCanSee is the refusal of a game the asker may not see, in lang.
func noGameYouCanSee(lang string, id uint64) string {
	return i18n.T(i18n.FromDiscord(lang), "export.no_such_game", map[string]any{"ID": id})
}

// refusedPrivately checks that m is the private refusal of game id in
// lang, and shows nothing of the game.
func refusedPrivately(t *testing.T, what string, m fakediscord.Message, lang string, id uint64) {
	t.Helper()
	if !m.Ephemeral() || m.Content != noGameYouCanSee(lang, id) || len(m.Files) != 0 || len(m.Embeds) != 0 || len(m.Components) != 0 {
		t.Errorf("%s: answered %q (ephemeral %v, %d files, %d embeds); want only the private %q",
			what, m.Content, m.Ephemeral(), len(m.Files), len(m.Embeds), noGameYouCanSee(lang, id))
	}
}

// gotPGN checks that m carries game id's PGN.
func gotPGN(t *testing.T, what string, m fakediscord.Message, id uint64) {
	t.Helper()
	if len(m.Files) != 1 || m.Files[0].Name != fmt.Sprintf("iceage-%d.pgn", id) || !strings.Contains(string(m.Files[0].Data), `[Variant "Ice Age"]`) {
		t.Errorf("%s: answered %q with %d files; want the PGN of game %d", what, m.Content, len(m.Files), id)
	}
}

// The games nobody may read: one played in a DM, one in a thread of a
// channel that only its players, a member named in its overwrites and a
// role may see. Strangers are refused privately, in their language, by
// every command, menu and button that shows a game, as if the game did
// not exist; its players, and those who may see its channel, get it.
func TestNobodyReadsAGameTheyCannotSee(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	view := int64(discordgo.PermissionViewChannel)
	coaches := w.srv.AddRole(w.guild.ID, fakediscord.Role{Name: "coaches"})
	erin := w.srv.AddUser(fakediscord.User{Username: "erin", Locale: "nl", Roles: []string{coaches.ID}})
	staff := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "staff"})
	w.srv.SetOverwrites(staff.ID,
		fakediscord.Overwrite{ID: w.guild.ID, Deny: view},
		fakediscord.Overwrite{ID: coaches.ID, Allow: view},
		fakediscord.Overwrite{ID: w.alice.ID, Member: true, Allow: view},
		fakediscord.Overwrite{ID: w.bob.ID, Member: true, Allow: view},
		fakediscord.Overwrite{ID: w.dan.ID, Member: true, Allow: view})

	// The game in #staff, resigned.
	thread, board := w.challengeAccepted(staff, w.alice, w.bob)
	hidden := w.gameOf(thread).ID
	w.resignByClicking(w.bob, thread, board)

	// The game in Alice and Bob's DM, resigned.
	for _, u := range []fakediscord.User{w.alice, w.bob, w.carol} {
		w.srv.InstallApp(u.ID, true)
	}
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	ch := w.command(w.alice, dm.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.bob, ch, "accept")
	w.waitAnswer(dm.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	dmGame := w.gameOf(dm.ID).ID
	confirm := w.command(w.alice, dm.ID, "resign")
	w.answer(w.srv.Click(w.alice.ID, confirm.ID, button(t, confirm, "resignok").CustomID))
	w.waitAnswer(dm.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "resigned") })

	// A message of the bot's in #chess, for Carol's forged clicks, and
	// a game of her own, for her /history's menus.
	lobby := w.command(w.carol, w.chess.ID, "leaderboard")
	carolDM := w.srv.DMChannel(w.carol.ID).ID
	own, ownBoard := w.challengeAccepted(w.chess, w.carol, w.dan)
	w.resignByClicking(w.dan, own, ownBoard)
	hist := w.command(w.carol, w.chess.ID, "history")

	for _, tc := range []struct {
		name string
		id   uint64
	}{{"a game in a channel Carol cannot see", hidden}, {"a DM game", dmGame}} {
		{
			t.Log(tc.name)
			id := int64(tc.id)
			refusedPrivately(t, "/pgn in the server", w.command(w.carol, w.chess.ID, "pgn", fakediscord.IntOption("game", id)), "ru", tc.id)
			refusedPrivately(t, "/pgn in her DM", w.command(w.carol, carolDM, "pgn", fakediscord.IntOption("game", id)), "ru", tc.id)
			refusedPrivately(t, "/gif", w.command(w.carol, w.chess.ID, "gif", fakediscord.IntOption("game", id)), "ru", tc.id)
			refusedPrivately(t, "/analyze", w.command(w.carol, w.chess.ID, "analyze", fakediscord.IntOption("game", id)), "ru", tc.id)
			refusedPrivately(t, "Flip", w.answer(w.srv.ForgedClick(w.carol.ID, lobby.ID, fmt.Sprintf("g:flip:%d:0", tc.id))), "ru", tc.id)
			for _, menu := range []string{"rec:pgn", "rec:gif"} {
				refusedPrivately(t, "/history's "+menu, w.answer(w.srv.Select(w.carol.ID, hist.ID, menu, fmt.Sprint(tc.id))), "ru", tc.id)
			}

			// Its players get it wherever they ask.
			gotPGN(t, "Alice's /pgn in #chess", w.command(w.alice, w.chess.ID, "pgn", fakediscord.IntOption("game", id)), tc.id)
			gotPGN(t, "Bob's /pgn in his DM", w.command(w.bob, w.srv.DMChannel(w.bob.ID).ID, "pgn", fakediscord.IntOption("game", id)), tc.id)
			flip := w.answer(w.srv.ForgedClick(w.alice.ID, lobby.ID, fmt.Sprintf("g:flip:%d:0", tc.id)))
			if !flip.Ephemeral() || len(flip.Files) != 1 {
				t.Errorf("Alice's Flip of her game: %q, %d files", flip.Content, len(flip.Files))
			}
		}
	}

	// Carol's /history of Alice shows neither game; Dan's and Erin's
	// show the one of #staff, which they may see, and not the DM's.
	for _, tc := range []struct {
		user fakediscord.User
		sees bool
	}{{w.carol, false}, {w.dan, true}, {erin, true}} {
		h := w.command(tc.user, w.chess.ID, "history", fakediscord.UserOption("user", w.alice.ID))
		var text string
		if len(h.Embeds) > 0 {
			text = h.Embeds[0].Description
		}
		if !h.Ephemeral() || strings.Contains(text, fmt.Sprintf("`#%d`", dmGame)) || strings.Contains(text, fmt.Sprintf("`#%d`", hidden)) != tc.sees {
			t.Errorf("%s's /history of Alice: %s; want game %d shown: %v, game %d never", tc.user.Username, text, hidden, tc.sees, dmGame)
		}
	}

	// Those who may see #staff: Dan by name, Erin by her role.
	for _, u := range []fakediscord.User{w.dan, erin} {
		gotPGN(t, u.Username+"'s /pgn", w.command(u, w.chess.ID, "pgn", fakediscord.IntOption("game", int64(hidden))), hidden)
		refusedPrivately(t, u.Username+"'s /pgn of the DM game", w.command(u, w.chess.ID, "pgn", fakediscord.IntOption("game", int64(dmGame))), u.Locale, dmGame)
	}
	if gif := w.command(w.dan, w.chess.ID, "gif", fakediscord.IntOption("game", int64(hidden))); len(gif.Files) != 1 || !strings.HasSuffix(gif.Files[0].Name, ".gif") {
		t.Errorf("Dan's /gif: %q, %d files", gif.Content, len(gif.Files))
	}
	if a := w.command(erin, w.chess.ID, "analyze", fakediscord.IntOption("game", int64(hidden))); a.Ephemeral() || len(a.Embeds) == 0 {
		t.Errorf("Erin's /analyze: %q", a.Content)
	}

}

// A non-player's /board in a game's thread is theirs alone: no public
// board, and the players' board keeps its buttons.
func TestANonPlayersBoardIsPrivate(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	public := func() (n int) {
		for _, m := range w.srv.Messages(thread) {
			if !m.Ephemeral() {
				n++
			}
		}
		return n
	}
	before := public()
	got := w.command(w.carol, thread, "board")
	if !got.Ephemeral() || len(got.Files) != 1 || len(got.Buttons()) != 0 {
		t.Fatalf("Carol's /board: ephemeral %v, %d files, buttons %v; want a private board without buttons", got.Ephemeral(), len(got.Files), got.Buttons())
	}
	if after := public(); after != before {
		t.Errorf("Carol's /board posted %d public messages in the thread", after-before)
	}
	if m, _ := w.srv.Message(board.ID); len(m.Buttons()) == 0 {
		t.Error("Carol's /board took the buttons off the players' board")
	}
	// A player's /board is public, as before, and takes over the buttons.
	if mine := w.command(w.alice, thread, "board"); mine.Ephemeral() || len(mine.Buttons()) == 0 {
		t.Errorf("Alice's /board: ephemeral %v, buttons %v", mine.Ephemeral(), mine.Buttons())
	}
}

// A group DM's game is its players' alone: a third member of the group
// gets no board of it, only a private word that none is here for them.
func TestAGroupDMsGameIsItsPlayers(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	for _, u := range []fakediscord.User{w.alice, w.bob, w.carol} {
		w.srv.InstallApp(u.ID, true)
	}
	group := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID, w.carol.ID)
	ch := w.command(w.alice, group.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.click(w.bob, ch, "accept")
	w.waitAnswer(group.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	got := w.command(w.carol, group.ID, "board")
	if want := i18n.T(i18n.FromDiscord(w.carol.Locale), "error.no_game_here", nil); !got.Ephemeral() || got.Content != want || len(got.Files) != 0 {
		t.Errorf("Carol's /board in the group: %q (ephemeral %v, %d files); want only %q", got.Content, got.Ephemeral(), len(got.Files), want)
	}
	if got := w.command(w.carol, group.ID, "pgn"); !got.Ephemeral() || len(got.Files) != 0 {
		t.Errorf("Carol's /pgn in the group: %q, %d files", got.Content, len(got.Files))
	}
	if got := w.command(w.bob, group.ID, "board"); got.Ephemeral() || len(got.Files) != 1 {
		t.Errorf("Bob's /board in the group: %q (ephemeral %v)", got.Content, got.Ephemeral())
	}
}
