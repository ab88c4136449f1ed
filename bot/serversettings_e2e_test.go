package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

func TestServerSettingsAreForAdminsAndRuleThePublicPosts(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US") // not a Community server: Discord says en-US
	// An admin let everyone see the command (the server's Integrations
	// settings): the bot still asks for Manage Server itself.
	w.srv.AllowCommand(w.guild.ID, "server-settings")
	got := w.command(w.alice, w.chess.ID, "server-settings", fakediscord.StringOption("language", "fr"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "manage this server") {
		t.Fatalf("a member without Manage Server was answered %q", got.Content)
	}

	w.srv.SetMemberPermissions(w.guild.ID, w.dan.ID, discordgo.PermissionManageGuild)
	shown := w.command(w.dan, w.chess.ID, "server-settings")
	if !shown.Ephemeral() || !strings.Contains(shown.Content, "Same as the server's Discord") || !strings.Contains(shown.Content, "3 days per move") {
		t.Fatalf("the settings are shown as %q", shown.Content)
	}
	saved := w.command(w.dan, w.chess.ID, "server-settings", fakediscord.StringOption("language", "fr"), fakediscord.IntOption("days", 5))
	if !saved.Ephemeral() || !strings.Contains(saved.Content, "Français") || !strings.Contains(saved.Content, "5 days per move") {
		t.Fatalf("the saved settings read %q", saved.Content)
	}

	// Alice reads English, the server is French now: the challenge, the
	// thread, the board and its description are French at once.
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	if ch, ok := w.srv.Channel(thread); !ok || !strings.Contains(ch.Name, " contre ") {
		t.Errorf("the thread is named %q", ch.Name)
	}
	if !strings.Contains(board.Content, "à toi de jouer") && !strings.Contains(board.Content, "<@"+w.alice.ID+">") {
		t.Errorf("the first board says %q", board.Content)
	}
	if desc := board.Files[0].Description; !strings.HasPrefix(desc, "Échiquier des Échecs de l'Âge de Glace. Trait aux Blancs") {
		t.Errorf("the board's description is %q", desc)
	}
	if e := board.Embeds[0]; !strings.Contains(e.Footer.Text, "5 jours") {
		t.Errorf("the default days are not the server's: %q", e.Footer.Text)
	}
	writeShot(t, "french-board.png", board.Files[0].Data)
	// Her own answers stay in her language.
	got = w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Rh5"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "The rook on h1") {
		t.Errorf("Alice's private answer is %q", got.Content)
	}
	moved := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	if desc := moved.Files[0].Description; !strings.HasPrefix(desc, "Échiquier des Échecs de l'Âge de Glace. Trait aux Noirs") {
		t.Errorf("the board after a move is described as %q", desc)
	}

	// A games channel: challenges elsewhere point there.
	w.command(w.dan, w.chess.ID, "server-settings", fakediscord.ChannelOption("games_channel", w.nothreads.ID))
	got = w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.carol.ID))
	if !got.Ephemeral() || !strings.Contains(got.Content, "<#"+w.nothreads.ID+">") {
		t.Errorf("a challenge outside the games channel was answered %q", got.Content)
	}
}

// TestHelpMentionsTheCommands: /help lists each command as a mention
// Discord makes clickable (</name:id>, the id Discord gave it), with its
// description in the reader's language.
func TestHelpMentionsTheCommands(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	reg, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindCommands && c.Err == nil })
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, c := range reg.Commands {
		ids[c.Name] = c.ID
	}
	help := w.command(w.bob, w.chess.ID, "help") // Bob reads French
	d := help.Embeds[0].Description
	for _, name := range []string{"challenge", "move", "games", "leaderboard", "rules"} {
		if !strings.Contains(d, "</"+name+":"+ids[name]+">") {
			t.Errorf("/help lacks the mention of /%s (id %s):\n%s", name, ids[name], d)
		}
	}
	if !strings.Contains(d, "**/défi** · </challenge:"+ids["challenge"]+"> — ") || strings.Contains(d, "`/") {
		t.Errorf("/help's lines: %s", d)
	}
	if !help.Ephemeral() || !strings.Contains(help.Embeds[0].Title, "Aide") && !strings.Contains(d, "coup") {
		t.Errorf("/help is not in French: %q", help.Embeds[0].Title)
	}
}
