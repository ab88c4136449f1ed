package fakediscord_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// A command with default_member_permissions is offered to the members who
// have them, and to everyone once an admin allows it; the interaction
// carries the member's own permissions.
func TestCommandsFollowMembersPermissions(t *testing.T) {
	rec := &tbRecorder{TB: t}
	srv := fakediscord.New(rec)
	g := srv.AddGuild(fakediscord.Guild{})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID})
	admin := srv.AddUser(fakediscord.User{})
	member := srv.AddUser(fakediscord.User{})
	srv.SetMemberPermissions(g.ID, admin.ID, discordgo.PermissionManageGuild)
	dg, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	dg.Dialer = loopbackDialer
	ready := make(chan *discordgo.Ready, 1)
	perms := make(chan int64, 4)
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	dg.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { perms <- i.Member.Permissions })
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dg.Close() })
	receive(t, ready)
	manage := int64(discordgo.PermissionManageGuild)
	cmd := &discordgo.ApplicationCommand{Name: "server-settings", Description: "d", DefaultMemberPermissions: &manage}
	if _, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{cmd}); err != nil {
		t.Fatal(err)
	}
	offered := func(user string) bool {
		before := len(rec.errors)
		id := srv.Command(user, ch.ID, "server-settings")
		return id != "" && len(rec.errors) == before
	}
	if !offered(admin.ID) {
		t.Errorf("the admin was not offered the command: %q", rec.errors)
	}
	if p := receive(t, perms); p&manage == 0 {
		t.Errorf("the admin's interaction carries permissions %d", p)
	}
	if offered(member.ID) {
		t.Error("a member without Manage Server was offered the command")
	}
	srv.AllowCommand(g.ID, "server-settings")
	if !offered(member.ID) {
		t.Errorf("an allowed command was not offered: %q", rec.errors)
	}
	if p := receive(t, perms); p&manage != 0 {
		t.Errorf("the member's interaction carries Manage Server: %d", p)
	}
	for _, e := range rec.errors {
		if !strings.Contains(e, "would not offer") || !strings.Contains(e, "default_member_permissions") {
			t.Errorf("unexpected error: %s", e)
		}
	}
}
