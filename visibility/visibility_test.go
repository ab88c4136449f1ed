package visibility

import (
	"context"
	"errors"
	"testing"
)

// A server "g" with channels: #open (a thread "t-open" in it), #staff
// (thread "t-staff"), which @everyone may not view but the role "mods"
// may, less the member "banned"; and #quiet, which @everyone may view,
// the role "muted" may not, and the member "pardoned" may again.
const (
	guildID  = "g"
	owner    = "owner"
	everyone = guildID
)

type server struct {
	channels map[string]Channel
	guild    Guild
	err      error
	asked    []string
}

func (s *server) Channel(_ context.Context, id string) (Channel, error) {
	s.asked = append(s.asked, "channel "+id)
	if s.err != nil {
		return Channel{}, s.err
	}
	c, ok := s.channels[id]
	if !ok {
		return Channel{}, ErrGone
	}
	return c, nil
}

func (s *server) Guild(_ context.Context, id string) (Guild, error) {
	s.asked = append(s.asked, "guild "+id)
	if s.err != nil {
		return Guild{}, s.err
	}
	return s.guild, nil
}

func testServer() *server {
	return &server{
		guild: Guild{ID: guildID, Owner: owner, Roles: []Role{
			{ID: everyone, Permissions: ViewChannel | 1<<11},
			{ID: "mods", Permissions: 1 << 13},
			{ID: "admins", Permissions: Administrator},
			{ID: "muted"},
		}},
		channels: map[string]Channel{
			"open":    {},
			"t-open":  {Parent: "open"},
			"staff":   {Overwrites: []Overwrite{{ID: everyone, Deny: ViewChannel}, {ID: "mods", Allow: ViewChannel}, {ID: "banned", Member: true, Deny: ViewChannel}}},
			"t-staff": {Parent: "staff"},
			"quiet":   {Overwrites: []Overwrite{{ID: "muted", Deny: ViewChannel}, {ID: "pardoned", Member: true, Allow: ViewChannel}, {ID: "other", Allow: ViewChannel}}},
			"t-quiet": {Parent: "quiet"},
		},
	}
}

func TestCanSee(t *testing.T) {
	dm := Game{Channel: "dm", Players: []string{"w", "b"}}
	staff := Game{Guild: guildID, Channel: "t-staff", Players: []string{"w", "b"}}
	quiet := Game{Guild: guildID, Channel: "t-quiet", Players: []string{"w", "b"}}
	open := Game{Guild: guildID, Channel: "t-open", Players: []string{"w", "b"}}
	inChannel := Game{Guild: guildID, Channel: "staff", Players: []string{"w", "b"}}
	member := func(user string, roles ...string) Asker {
		return Asker{User: user, Guild: guildID, Channel: "open", Permissions: ViewChannel, Roles: roles}
	}
	for _, tc := range []struct {
		name  string
		a     Asker
		g     Game
		want  bool
		asked int // fetches at most
	}{
		{"a player sees their DM game from anywhere", Asker{User: "b", Guild: "x"}, dm, true, 0},
		{"a stranger does not see a DM game", Asker{User: "s", Channel: "dm2"}, dm, false, 0},
		{"a stranger does not see a DM game even in its channel", Asker{User: "s", Channel: "dm", Permissions: ViewChannel}, dm, false, 0},
		{"nobody unknown sees anything", Asker{Guild: guildID, Channel: "open", Permissions: All}, open, false, 0},
		{"a player sees their server's game from a DM", Asker{User: "w"}, staff, true, 0},
		{"a member asking from a DM is no member there", Asker{User: "m"}, open, false, 0},
		{"a member of another server does not see it", Asker{User: "m", Guild: "x", Channel: "y", Permissions: All}, open, false, 0},
		{"a member sees a game in a thread of the channel they ask in", member("m"), open, true, 1},
		{"a member sees a game of their own channel's thread from elsewhere", Asker{User: "m", Guild: guildID, Channel: "quiet", Permissions: ViewChannel}, open, true, 3},
		{"a member does not see a game in a channel hidden from everyone", member("m"), staff, false, 3},
		{"a member does not see a game played in the hidden channel itself", member("m"), inChannel, false, 2},
		{"a role's allow shows the hidden channel", member("m", "mods"), staff, true, 3},
		{"a member's deny beats their role's allow", member("banned", "mods"), staff, false, 3},
		{"a role's deny hides a channel everyone sees", member("m", "muted"), quiet, false, 3},
		{"a role's deny is beaten by another role's allow", member("m", "muted", "other"), quiet, true, 3},
		{"a member's allow beats their role's deny", member("pardoned", "muted"), quiet, true, 3},
		{"an administrator role sees everything", member("a", "admins"), staff, true, 3},
		{"Discord's administrator bit sees everything without a fetch", Asker{User: "a", Guild: guildID, Channel: "open", Permissions: Administrator}, staff, true, 0},
		{"the owner sees everything", member(owner), staff, true, 3},
		{"one in the game's thread sees it", Asker{User: "m", Guild: guildID, Channel: "t-staff", Permissions: ViewChannel}, staff, true, 0},
		{"one in the thread's channel sees it", Asker{User: "m", Guild: guildID, Channel: "staff", Permissions: ViewChannel}, staff, true, 1},
		{"a game whose channel is gone is its players' alone", member("m"), Game{Guild: guildID, Channel: "deleted", Players: []string{"w"}}, false, 1},
		{"a thread whose channel is gone is its players' alone", member("m"), Game{Guild: guildID, Channel: "t-orphan", Players: []string{"w"}}, false, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testServer()
			s.channels["t-orphan"] = Channel{Parent: "deleted"}
			got, err := CanSee(context.Background(), tc.a, tc.g, s)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("CanSee = %v, want %v (asked %v)", got, tc.want, s.asked)
			}
			if len(s.asked) > tc.asked {
				t.Errorf("asked %v, want at most %d fetches", s.asked, tc.asked)
			}
		})
	}
}

func TestCanSeeSaysWhenItCannotKnow(t *testing.T) {
	s := testServer()
	s.err = errors.New("discord is down")
	a := Asker{User: "m", Guild: guildID, Channel: "open", Permissions: ViewChannel}
	ok, err := CanSee(context.Background(), a, Game{Guild: guildID, Channel: "t-staff", Players: []string{"w"}}, s)
	if ok || !errors.Is(err, s.err) {
		t.Fatalf("CanSee = %v, %v; want false and the fetch's error", ok, err)
	}
}

func TestInChannel(t *testing.T) {
	g := testServer().guild
	for _, tc := range []struct {
		name       string
		user       string
		roles      []string
		overwrites []Overwrite
		want       Permissions
	}{
		{"no overwrites leave the roles' permissions", "m", []string{"mods"}, nil, ViewChannel | 1<<11 | 1<<13},
		{"everyone's overwrite applies before the roles'", "m", []string{"mods"},
			[]Overwrite{{ID: everyone, Deny: 1 << 11}, {ID: "mods", Allow: 1 << 11}}, ViewChannel | 1<<11 | 1<<13},
		{"a role's allow and another's deny: the allow wins", "m", []string{"mods", "muted"},
			[]Overwrite{{ID: "mods", Allow: 1 << 12}, {ID: "muted", Deny: 1 << 12}}, ViewChannel | 1<<11 | 1<<12 | 1<<13},
		{"an overwrite of a role one lacks does nothing", "m", nil, []Overwrite{{ID: "mods", Deny: 1 << 11}}, ViewChannel | 1<<11},
		{"an overwrite of another member does nothing", "m", nil, []Overwrite{{ID: "n", Member: true, Deny: ViewChannel}}, ViewChannel | 1<<11},
		{"a member overwrite named like a role is the member's", "mods", nil, []Overwrite{{ID: "mods", Member: true, Deny: 1 << 11}}, ViewChannel},
		{"without View Channel nothing else counts", "m", nil, []Overwrite{{ID: everyone, Deny: ViewChannel}}, 0},
		{"an administrator ignores overwrites", "m", []string{"admins"}, []Overwrite{{ID: "m", Member: true, Deny: ViewChannel}}, All},
		{"the owner ignores overwrites", owner, nil, []Overwrite{{ID: everyone, Deny: ViewChannel}}, All},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := InChannel(g, tc.user, tc.roles, tc.overwrites); got != tc.want {
				t.Errorf("InChannel = %b, want %b", got, tc.want)
			}
		})
	}
}

// BenchmarkCanSee asks about a game in a thread of a hidden channel from
// another channel: the longest way, two channels and the server, each
// fetched from memory as a caching Server gives them.
func BenchmarkCanSee(b *testing.B) {
	s := testServer()
	a := Asker{User: "m", Guild: guildID, Channel: "open", Permissions: ViewChannel, Roles: []string{"mods", "muted"}}
	g := Game{Guild: guildID, Channel: "t-staff", Players: []string{"w", "b"}}
	ctx := context.Background()
	for b.Loop() {
		s.asked = s.asked[:0]
		if ok, err := CanSee(ctx, a, g, s); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
