package main

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// discordTournament plays a Swiss of three in a club through the fake
// Discord, as its players and organiser would: the tests of the
// tournament's page open it meanwhile.
type discordTournament struct {
	t       *testing.T
	ctx     context.Context
	srv     *fakediscord.Server
	channel string
	org     fakediscord.User
	players map[string]fakediscord.User
	// Link is the tournament's page, from its sign-up post.
	Link string
}

var (
	threadRef = regexp.MustCompile(`<#(\d+)>`)
	userRef   = regexp.MustCompile(`<@(\d+)>`)
)

// newDiscordTournament has an organiser open a Swiss of two rounds in
// channel, and players join it.
func newDiscordTournament(ctx context.Context, t *testing.T, srv *fakediscord.Server, guild, channel string, players ...fakediscord.User) *discordTournament {
	t.Helper()
	d := &discordTournament{t: t, ctx: ctx, srv: srv, channel: channel, players: map[string]fakediscord.User{}}
	d.org = srv.AddUser(fakediscord.User{Username: "olga", Locale: "en-US"})
	srv.SetMemberPermissions(guild, d.org.ID, discordgo.PermissionManageGuild)
	d.answer(srv.Command(d.org.ID, channel, "tournament", fakediscord.SubCommand("create", fakediscord.StringOption("system", "swiss"),
		fakediscord.IntOption("rounds", 2), fakediscord.IntOption("days", 3), fakediscord.StringOption("title", "Winter Swiss"))))
	post := d.waitMessage(channel, func(m fakediscord.Message) bool {
		for _, b := range m.Buttons() {
			if strings.HasPrefix(b.CustomID, "tn:join:") {
				return true
			}
		}
		return false
	})
	for _, b := range post.Buttons() {
		if b.Style == discordgo.LinkButton && strings.Contains(b.URL, "/t/") {
			d.Link = b.URL
		}
	}
	if d.Link == "" {
		t.Fatalf("the sign-up post links to no page: %v", post.Buttons())
	}
	for _, p := range players {
		d.players[p.ID] = p
		d.answer(srv.Click(p.ID, post.ID, d.button(post, "tn:join:")))
	}
	return d
}

// start has the organiser start the tournament.
func (d *discordTournament) start() {
	d.t.Helper()
	d.answer(d.srv.Command(d.org.ID, d.channel, "tournament", fakediscord.SubCommand("start")))
}

// roundPost waits for the pairings of round k.
func (d *discordTournament) roundPost(k int) fakediscord.Message {
	d.t.Helper()
	return d.waitMessage(d.channel, func(m fakediscord.Message) bool { return strings.Contains(m.Content, ": round "+strconv.Itoa(k)+" of") })
}

// withdraw has u withdraw from the tournament.
func (d *discordTournament) withdraw(u fakediscord.User) {
	d.t.Helper()
	if got := d.answer(d.srv.Command(u.ID, d.channel, "tournament", fakediscord.SubCommand("withdraw"))); !strings.Contains(got.Content, "withdrawn") {
		d.t.Fatalf("%s's withdrawal is answered %q", u.Username, got.Content)
	}
}

// resignRound has White resign each game of round k in its thread,
// through /resign and its confirmation, and returns the winners.
func (d *discordTournament) resignRound(k int) (winners []fakediscord.User) {
	d.t.Helper()
	post := d.roundPost(k)
	for _, line := range strings.Split(post.Content, "\n") {
		th := threadRef.FindStringSubmatch(line)
		if th == nil {
			continue
		}
		users := userRef.FindAllStringSubmatch(line, 2)
		white, black := d.players[users[0][1]], d.players[users[1][1]]
		winners = append(winners, black)
		confirm := d.answer(d.srv.Command(white.ID, th[1], "resign"))
		d.answer(d.srv.Click(white.ID, confirm.ID, d.button(confirm, "resignok")))
	}
	return winners
}

// answer waits for the answer to an interaction, after its deferral if
// it was deferred.
func (d *discordTournament) answer(id string) fakediscord.Message {
	d.t.Helper()
	r, err := d.srv.WaitResponse(d.ctx, id)
	if err != nil || r.Err != nil {
		d.t.Fatalf("the answer to %s: %v %v", id, err, r.Err)
	}
	if r.ResponseType != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return r.Message
	}
	r, err = d.srv.WaitFor(d.ctx, func(x fakediscord.Call) bool {
		return x.InteractionID == id && (x.Kind == fakediscord.KindResponseEdit || x.Kind == fakediscord.KindFollowup)
	})
	if err != nil || r.Err != nil {
		d.t.Fatalf("the answer after the deferral of %s: %v %v", id, err, r.Err)
	}
	return r.Message
}

func (d *discordTournament) waitMessage(channel string, match func(fakediscord.Message) bool) fakediscord.Message {
	d.t.Helper()
	m, err := d.srv.WaitFor(d.ctx, func(x fakediscord.Call) bool {
		return x.Kind == fakediscord.KindMessage && x.Message.ChannelID == channel && match(x.Message)
	})
	if err != nil {
		d.t.Fatalf("no such message in %s: %v", channel, err)
	}
	return m.Message
}

// button returns the custom id of m's button that starts with prefix,
// or has it as its verb.
func (d *discordTournament) button(m fakediscord.Message, prefix string) string {
	d.t.Helper()
	for _, b := range m.Buttons() {
		if strings.HasPrefix(b.CustomID, prefix) || strings.Contains(b.CustomID, ":"+prefix+":") {
			return b.CustomID
		}
	}
	d.t.Fatalf("no %s button on %q: %v", prefix, m.Content, m.Buttons())
	return ""
}
