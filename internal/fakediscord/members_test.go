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

// Channels' overwrites decide who sees them, in Discord's order, and the
// bot reads them, and the roles, as Discord serves them.
func TestOverwritesHideChannels(t *testing.T) {
	rec := &tbRecorder{TB: t}
	srv := fakediscord.New(rec)
	g := srv.AddGuild(fakediscord.Guild{})
	mods := srv.AddRole(g.ID, fakediscord.Role{Name: "mods", Permissions: discordgo.PermissionManageMessages})
	admins := srv.AddRole(g.ID, fakediscord.Role{Name: "admins", Permissions: discordgo.PermissionAdministrator})
	staff := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "staff"})
	thread := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Type: discordgo.ChannelTypeGuildPublicThread, ParentID: staff.ID})
	view := int64(discordgo.PermissionViewChannel)
	member := srv.AddUser(fakediscord.User{})
	mod := srv.AddUser(fakediscord.User{Roles: []string{mods.ID}})
	banned := srv.AddUser(fakediscord.User{Roles: []string{mods.ID}})
	admin := srv.AddUser(fakediscord.User{Roles: []string{admins.ID}})
	owner := srv.AddUser(fakediscord.User{})
	srv.SetOwner(g.ID, owner.ID)
	srv.SetOverwrites(staff.ID,
		fakediscord.Overwrite{ID: g.ID, Deny: view},
		fakediscord.Overwrite{ID: mods.ID, Allow: view},
		fakediscord.Overwrite{ID: banned.ID, Member: true, Deny: view})

	dg, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	dg.Dialer = loopbackDialer
	ready := make(chan *discordgo.Ready, 1)
	perms := make(chan *discordgo.InteractionCreate, 8)
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	dg.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { perms <- i })
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dg.Close() })
	receive(t, ready)

	// What the bot reads: the overwrites, and the roles with @everyone.
	c, err := dg.Channel(staff.ID)
	if err != nil || len(c.PermissionOverwrites) != 3 || c.PermissionOverwrites[2].Type != discordgo.PermissionOverwriteTypeMember ||
		c.PermissionOverwrites[0].Deny != view || c.PermissionOverwrites[1].Allow != view {
		t.Fatalf("channel %+v, %v", c, err)
	}
	guild, err := dg.Guild(g.ID)
	if err != nil || len(guild.Roles) != 3 || guild.Roles[0].ID != g.ID || guild.Roles[1].Permissions != discordgo.PermissionManageMessages || guild.OwnerID != owner.ID {
		t.Fatalf("guild %+v, %v", guild, err)
	}

	for _, tc := range []struct {
		name string
		user fakediscord.User
		sees bool
	}{
		{"a member without the role", member, false},
		{"a member whose role is allowed", mod, true},
		{"a member denied by name despite the role", banned, false},
		{"an administrator", admin, true},
		{"the owner", owner, true},
	} {
		for _, where := range []string{staff.ID, thread.ID} {
			before := len(rec.errors)
			id := srv.Command(tc.user.ID, where, "board")
			if sees := id != "" && len(rec.errors) == before; sees != tc.sees {
				t.Errorf("%s in %s: dispatched %v (errors %q), want %v", tc.name, where, sees, rec.errors[before:], tc.sees)
				continue
			}
			if !tc.sees {
				continue
			}
			i := receive(t, perms)
			if i.Member.Permissions&view == 0 || i.Member.Permissions&discordgo.PermissionManageMessages == 0 {
				t.Errorf("%s's interaction carries permissions %b", tc.name, i.Member.Permissions)
			}
		}
	}
	for _, e := range rec.errors {
		if !strings.Contains(e, "may not view it") {
			t.Errorf("unexpected error: %s", e)
		}
	}

	// A DM is its recipient's alone.
	before := len(rec.errors)
	if id := srv.Command(mod.ID, srv.DMChannel(member.ID).ID, "board"); id != "" || len(rec.errors) != before+1 {
		t.Errorf("a command in another user's DM was dispatched")
	}
}
