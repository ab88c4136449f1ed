package fakediscord_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// A command from a user's own install, in a DM between two users where
// the bot is not: context 2, authorized by the user, answerable only
// through the interaction; the bot's own post there is refused.
func TestUserInstallInAPrivateChannel(t *testing.T) {
	w := newWorld(t)
	w.srv.InstallApp(w.alice.ID, true)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	id := w.srv.Command(w.alice.ID, dm.ID, "board")
	i := w.interaction(t, id)
	switch {
	case i.Context != discordgo.InteractionContextPrivateChannel:
		t.Errorf("context %d, want 2", i.Context)
	case i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != w.alice.ID:
		t.Errorf("owners %v, want the user's install", i.AuthorizingIntegrationOwners)
	case len(i.AuthorizingIntegrationOwners) != 1:
		t.Errorf("owners %v, want only the user's install", i.AuthorizingIntegrationOwners)
	case i.User == nil || i.User.ID != w.alice.ID || i.Member != nil || i.GuildID != "":
		t.Errorf("user %v, member %v, guild %q: want the user, outside any guild", i.User, i.Member, i.GuildID)
	case i.AppPermissions&discordgo.PermissionSendMessages != 0 || i.AppPermissions&discordgo.PermissionAttachFiles == 0:
		t.Errorf("app permissions %b, want files and embeds but no messages of its own", i.AppPermissions)
	}
	if err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "the board"}}); err != nil {
		t.Fatalf("the answer was refused: %v", err)
	}
	if _, err := w.dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "and more"}); err != nil {
		t.Fatalf("the follow-up was refused: %v", err)
	}
	_, err := w.dg.ChannelMessageSend(dm.ID, "a post of the bot's own")
	restError(t, err, http.StatusForbidden, discordgo.ErrCodeMissingAccess)
	_, err = w.dg.Channel(dm.ID)
	restError(t, err, http.StatusForbidden, discordgo.ErrCodeMissingAccess)
	_, err = w.dg.ThreadStart(dm.ID, "a thread", discordgo.ChannelTypeGuildPublicThread, 60)
	restError(t, err, http.StatusForbidden, discordgo.ErrCodeMissingAccess)
	if got := len(w.srv.Messages(dm.ID)); got != 2 {
		t.Errorf("%d messages in the DM, want the answer and its follow-up", got)
	}

	// Bob, who has not installed the app, may still click its buttons.
	m, err := w.dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "click",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Go", CustomID: "go", Style: discordgo.PrimaryButton}}}}})
	if err != nil {
		t.Fatal(err)
	}
	// A user's install has five follow-ups per interaction.
	for n := 3; n <= 5; n++ {
		if _, err := w.dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "more"}); err != nil {
			t.Fatalf("follow-up %d was refused: %v", n, err)
		}
	}
	_, err = w.dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "one too many"})
	restError(t, err, http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody)

	click := w.interaction(t, w.srv.Click(w.bob.ID, m.ID, "go"))
	if click.Context != discordgo.InteractionContextPrivateChannel || click.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != w.alice.ID {
		t.Errorf("a click on the answer: context %d, owners %v; want 2, Alice's install", click.Context, click.AuthorizingIntegrationOwners)
	}

	group := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID, w.srv.AddUser(fakediscord.User{}).ID)
	if group.Type != discordgo.ChannelTypeGroupDM {
		t.Errorf("three users make a channel of type %d, want a group DM", group.Type)
	}
	if i := w.interaction(t, w.srv.Command(w.alice.ID, group.ID, "board")); i.Context != discordgo.InteractionContextPrivateChannel || i.ChannelID != group.ID {
		t.Errorf("a group DM's command: context %d in %s", i.Context, i.ChannelID)
	}
}

// A server that did not add the bot: its members who installed the app
// use its commands there (context 0, authorized by the user alone); the
// bot knows nothing of the server and may post nothing of its own.
func TestUserInstallInAServerWithoutTheBot(t *testing.T) {
	w := newWorld(t)
	w.srv.InstallApp(w.bob.ID, true)
	other := w.srv.AddGuild(fakediscord.Guild{Name: "Elsewhere", WithoutBot: true})
	general := w.srv.AddChannel(fakediscord.Channel{GuildID: other.ID, Name: "general"})
	select {
	case g := <-w.guildCreate:
		if g.ID == other.ID {
			t.Errorf("a GUILD_CREATE for a server without the bot")
		}
	default:
	}
	i := w.interaction(t, w.srv.Command(w.bob.ID, general.ID, "challenge"))
	if i.Context != discordgo.InteractionContextGuild || i.GuildID != other.ID || i.Member == nil {
		t.Errorf("context %d, guild %q, member %v: want a guild interaction", i.Context, i.GuildID, i.Member)
	}
	if _, ok := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]; ok || i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != w.bob.ID {
		t.Errorf("owners %v, want Bob's install and no server install", i.AuthorizingIntegrationOwners)
	}
	_, err := w.dg.ChannelMessageSend(general.ID, "hello")
	restError(t, err, http.StatusForbidden, discordgo.ErrCodeMissingAccess)
	_, err = w.dg.Guild(other.ID)
	restError(t, err, http.StatusForbidden, discordgo.ErrCodeMissingAccess)

	// In the bot's own server the same user's interactions name both installs.
	i = w.interaction(t, w.srv.Command(w.bob.ID, w.chess.ID, "board"))
	if i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall] != w.guild.ID {
		t.Errorf("owners %v in the bot's server, want the server's install", i.AuthorizingIntegrationOwners)
	}
}

// Where a command appears is up to its contexts and integration types, as
// registered: Discord offers no command where they leave it out, nor any
// command of a user's install to a user who did not install the app.
func TestCommandsAppearWhereTheirContextsSay(t *testing.T) {
	t.Parallel()
	rec := &tbRecorder{TB: t}
	srv := fakediscord.New(rec)
	g := srv.AddGuild(fakediscord.Guild{})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID})
	alice := srv.AddUser(fakediscord.User{Installed: true})
	bob := srv.AddUser(fakediscord.User{})
	dm := srv.AddPrivateChannel(alice.ID, bob.ID)
	dg, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	dg.Dialer = loopbackDialer
	ready := make(chan *discordgo.Ready, 1)
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dg.Close() })
	receive(t, ready)
	desc := func(name string) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Name: name, Description: "d"}
	}
	anywhere, server := desc("move"), desc("leaderboard")
	anywhere.Contexts = &[]discordgo.InteractionContextType{0, 1, 2}
	anywhere.IntegrationTypes = &[]discordgo.ApplicationIntegrationType{0, 1}
	server.Contexts = &[]discordgo.InteractionContextType{0}
	server.IntegrationTypes = &[]discordgo.ApplicationIntegrationType{0}
	if _, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{anywhere, server}); err != nil {
		t.Fatal(err)
	}
	bad := desc("bad")
	bad.Contexts = &[]discordgo.InteractionContextType{0, 3}
	_, err = dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{bad})
	restError(t, err, http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody)
	bad.Contexts, bad.IntegrationTypes = nil, &[]discordgo.ApplicationIntegrationType{1, 1}
	_, err = dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{bad})
	restError(t, err, http.StatusBadRequest, discordgo.ErrCodeInvalidFormBody)

	for _, tt := range []struct {
		user, channel, command string
		offered                bool
	}{
		{alice.ID, ch.ID, "move", true},
		{alice.ID, ch.ID, "leaderboard", true},
		{bob.ID, ch.ID, "leaderboard", true},
		{alice.ID, dm.ID, "move", true},
		{alice.ID, dm.ID, "leaderboard", false}, // a server's command, not in a DM
		{bob.ID, dm.ID, "move", false},          // Bob did not install the app
	} {
		before := len(rec.errors)
		id := srv.Command(tt.user, tt.channel, tt.command)
		if offered := id != "" && len(rec.errors) == before; offered != tt.offered {
			t.Errorf("/%s by %s in %s: offered %v, want %v (%q)", tt.command, tt.user, tt.channel, offered, tt.offered, rec.errors[before:])
		}
	}
	for _, e := range rec.errors {
		if !strings.Contains(e, "would not offer") {
			t.Errorf("unexpected error: %s", e)
		}
	}
}
