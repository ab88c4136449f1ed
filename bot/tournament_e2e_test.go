package bot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

var (
	threadRef = regexp.MustCompile(`<#(\d+)>`)
	userRef   = regexp.MustCompile(`<@(\d+)>`)
)

// tournamentWorld is the fake with an organiser (Manage Server) and a
// fifth player.
type tournamentWorld struct {
	*world
	org, eve fakediscord.User
}

func newTournamentWorld(t *testing.T) *tournamentWorld {
	w := newWorld(t, memstore.New(), "en-US")
	tw := &tournamentWorld{world: w}
	tw.org = w.srv.AddUser(fakediscord.User{Username: "olga", GlobalName: "Olga"})
	w.srv.SetMemberPermissions(w.guild.ID, tw.org.ID, discordgo.PermissionManageGuild)
	tw.eve = w.srv.AddUser(fakediscord.User{Username: "eve", GlobalName: "Eve", Locale: "nl"})
	return tw
}

func embedAll(m fakediscord.Message) string {
	var b strings.Builder
	for _, e := range m.Embeds {
		b.WriteString(e.Title + "\n" + e.Description + "\n")
		for _, f := range e.Fields {
			b.WriteString(f.Name + ": " + f.Value + "\n")
		}
	}
	return b.String()
}

// create opens a tournament and returns its sign-up post.
func (w *tournamentWorld) create(opts ...*fakediscord.Option) fakediscord.Message {
	w.t.Helper()
	got := w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("create", opts...))
	if !got.Ephemeral() || !strings.Contains(got.Content, "open for sign-up") {
		w.t.Fatalf("create answered %+v", got)
	}
	return w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool {
		for _, b := range m.Buttons() {
			if strings.HasPrefix(b.CustomID, "tn:join:") {
				return true
			}
		}
		return false
	})
}

// roundPost waits for the pairings of round k.
func (w *tournamentWorld) roundPost(k int) fakediscord.Message {
	w.t.Helper()
	return w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool {
		return strings.Contains(m.Content, fmt.Sprintf(": round %d of", k))
	})
}

// playRound ends every game of a round's post: White resigns in each
// thread, through the board's Resign button and its confirmation.
func (w *tournamentWorld) playRound(post fakediscord.Message, users map[string]fakediscord.User) (boards int) {
	w.t.Helper()
	for _, line := range strings.Split(post.Content, "\n") {
		th := threadRef.FindStringSubmatch(line)
		if th == nil {
			continue
		}
		boards++
		white := users[userRef.FindStringSubmatch(line)[1]]
		board := w.waitMessage(th[1], func(m fakediscord.Message) bool { return len(m.Files) > 0 && len(m.Buttons()) > 0 })
		confirm := w.click(white, board, "resign")
		w.click(white, confirm, "resignok")
		w.waitMessage(th[1], func(m fakediscord.Message) bool { return strings.Contains(m.Content, "resigned") })
	}
	return boards
}

func TestTournamentSwissOfFiveWithAByeAndAWithdrawal(t *testing.T) {
	w := newTournamentWorld(t)
	players := []fakediscord.User{w.alice, w.bob, w.carol, w.dan, w.eve}
	users := map[string]fakediscord.User{}
	for _, p := range players {
		users[p.ID] = p
	}

	// Opening a tournament needs Manage Server.
	if got := w.command(w.dan, w.chess.ID, "tournament", fakediscord.SubCommand("create", fakediscord.StringOption("system", "swiss"))); !got.Ephemeral() || !strings.Contains(got.Content, "Manage Server") {
		t.Fatalf("a member without Manage Server opened a tournament: %+v", got)
	}
	post := w.create(fakediscord.StringOption("system", "swiss"), fakediscord.IntOption("rounds", 3), fakediscord.IntOption("days", 3),
		fakediscord.StringOption("title", "Winter Swiss"))
	if !strings.Contains(embedAll(post), "Winter Swiss") || !strings.Contains(embedAll(post), "3 rounds") {
		t.Fatalf("sign-up post: %s", embedAll(post))
	}
	for _, p := range players {
		w.click(p, post, "join")
	}
	// Bob reads French: the refusal is his alone, in his language.
	again := w.click(w.bob, post, "join")
	if !again.Ephemeral() || !strings.Contains(again.Content, "déjà inscrit") {
		t.Fatalf("joining twice: %+v", again)
	}
	now, _ := w.srv.Message(post.ID)
	for _, p := range players {
		if !strings.Contains(embedAll(now), "<@"+p.ID+">") {
			t.Fatalf("the sign-up post does not list %s: %s", p.Username, embedAll(now))
		}
	}
	if !strings.Contains(embedAll(now), "5 players") {
		t.Fatalf("the sign-up post does not count 5 players: %s", embedAll(now))
	}

	// A number that is no tournament of this server finds none.
	other := w.srv.AddGuild(fakediscord.Guild{Name: "Elsewhere"})
	elsewhere := w.srv.AddChannel(fakediscord.Channel{GuildID: other.ID, Name: "chess"})
	if got := w.command(w.dan, elsewhere.ID, "tournament", fakediscord.SubCommand("standings")); !got.Ephemeral() || !strings.Contains(got.Content, "no tournament here") {
		t.Fatalf("another server's channel: %+v", got)
	}
	var id int64
	if _, err := fmt.Sscanf(post.Embeds[0].Footer.Text, "Tournament no. %d", &id); err != nil {
		t.Fatalf("the sign-up post's footer %q has no number", post.Embeds[0].Footer.Text)
	}
	if got := w.command(w.dan, elsewhere.ID, "tournament", fakediscord.SubCommand("join", fakediscord.IntOption("number", id))); !got.Ephemeral() || !strings.Contains(got.Content, "no tournament here") {
		t.Fatalf("joining this server's tournament from another server: %+v", got)
	}
	for _, n := range []int64{-1, 0, 999999} {
		if got := w.command(w.dan, w.chess.ID, "tournament", fakediscord.SubCommand("join", fakediscord.IntOption("number", n))); !got.Ephemeral() || !strings.Contains(got.Content, "no tournament here") {
			t.Fatalf("joining tournament %d: %+v", n, got)
		}
	}

	// Only an organiser starts it.
	if got := w.command(w.carol, w.chess.ID, "tournament", fakediscord.SubCommand("start")); !got.Ephemeral() || !strings.Contains(got.Content, "организатор") {
		t.Fatalf("a player started the tournament: %+v", got)
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	r1 := w.roundPost(1)
	if !strings.Contains(r1.Content, "Bye: <@") {
		t.Fatalf("round 1 of five players has no bye:\n%s", r1.Content)
	}
	byeLine := r1.Content[strings.Index(r1.Content, "Bye: "):]
	byePlayer := userRef.FindStringSubmatch(byeLine)[1]

	// A player withdraws during round 1: their game counts, they are not
	// paired again.
	var leaver fakediscord.User
	for _, p := range players {
		if p.ID != byePlayer {
			leaver = p
			break
		}
	}
	if got := w.command(leaver, w.chess.ID, "tournament", fakediscord.SubCommand("withdraw")); !got.Ephemeral() || !strings.Contains(got.Content, "withdrawn") {
		t.Fatalf("withdrawal answered %+v", got)
	}
	if n := w.playRound(r1, users); n != 2 {
		t.Fatalf("round 1 had %d games", n)
	}
	for k := 2; k <= 3; k++ {
		rk := w.roundPost(k)
		if strings.Contains(rk.Content, "<@"+leaver.ID+">") || strings.Contains(rk.Content, "Bye:") {
			t.Fatalf("round %d pairs the withdrawn player or gives a bye to four:\n%s", k, rk.Content)
		}
		if k == 2 {
			st := w.command(w.dan, w.chess.ID, "tournament", fakediscord.SubCommand("standings"))
			if len(st.Files) != 1 || !strings.Contains(embedAll(st), "after round 1") {
				t.Fatalf("standings after round 1: %s, %d files", embedAll(st), len(st.Files))
			}
			isPNG(t, st.Files[0])
		}
		if n := w.playRound(rk, users); n != 2 {
			t.Fatalf("round %d had %d games", k, n)
		}
	}
	final := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "is over") })
	if len(final.Files) != 1 || !strings.Contains(final.Content, "🥇") || !strings.Contains(embedAll(final), "final standings") {
		t.Fatalf("the final post: %q %s, %d files", final.Content, embedAll(final), len(final.Files))
	}
	isPNG(t, final.Files[0])
	if dir := os.Getenv("ICEAGE_TOURNAMENT_PNG"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "final.png"), final.Files[0].Data, 0o600)
	}
	// Each player's /stats tells the tournament and the place.
	stats := w.command(w.alice, w.chess.ID, "stats")
	if !strings.Contains(embedAll(stats), "Winter Swiss: place 5 of 5") {
		t.Errorf("/stats lacks the tournament: %s", embedAll(stats))
	}
	// The sign-up post says it is over and takes no more joins.
	now, _ = w.srv.Message(post.ID)
	if !strings.Contains(embedAll(now), "Finished") || len(now.Buttons()) != 0 {
		t.Fatalf("the sign-up post after the end: %s, buttons %v", embedAll(now), now.Buttons())
	}
}

func TestTournamentRoundRobinOfFour(t *testing.T) {
	w := newTournamentWorld(t)
	players := []fakediscord.User{w.alice, w.bob, w.carol, w.dan}
	users := map[string]fakediscord.User{}
	for _, p := range players {
		users[p.ID] = p
	}
	post := w.create(fakediscord.StringOption("system", "roundrobin"), fakediscord.BoolOption("rated", true))
	for _, p := range players {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	met := map[string]bool{}
	for k := 1; k <= 3; k++ {
		rk := w.roundPost(k)
		for _, line := range strings.Split(rk.Content, "\n") {
			if us := userRef.FindAllStringSubmatch(line, -1); len(us) == 2 {
				a, b := us[0][1], us[1][1]
				if a > b {
					a, b = b, a
				}
				if met[a+b] {
					t.Fatalf("round %d repeats a pairing:\n%s", k, rk.Content)
				}
				met[a+b] = true
			}
		}
		if n := w.playRound(rk, users); n != 2 {
			t.Fatalf("round %d had %d games", k, n)
		}
	}
	if len(met) != 6 {
		t.Fatalf("%d pairings in a round-robin of four", len(met))
	}
	final := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "is over") })
	if len(final.Files) != 1 {
		t.Fatalf("no standings picture in %q", final.Content)
	}
}

// A round whose threads Discord refuses at first still starts: the
// tournament's task starts its games a little later and posts the round.
func TestTournamentRoundStartsAfterThreadsFailed(t *testing.T) {
	w := newTournamentWorld(t)
	post := w.create(fakediscord.StringOption("system", "swiss"), fakediscord.IntOption("rounds", 2))
	for _, p := range []fakediscord.User{w.alice, w.bob, w.carol, w.dan} {
		w.click(p, post, "join")
	}
	w.srv.Refuse(fakediscord.RouteThreads, fakediscord.Refusal{Status: 403, Times: 1})
	w.srv.Command(w.org.ID, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread && c.Refused != nil }); err != nil {
		t.Fatalf("the thread was not refused: %v", err)
	}
	w.clock.Add(3 * time.Minute)
	r1 := w.roundPost(1)
	if n := len(threadRef.FindAllString(r1.Content, -1)); n != 2 {
		t.Fatalf("round 1 links %d games:\n%s", n, r1.Content)
	}
}

// TestTournamentOrganisersRoleIsTheServers: the server's admins name a
// role in /server-settings; a member with it opens and starts tournaments
// without Manage Server, one without it still may not, and no member can
// name a role for themselves.
func TestTournamentOrganisersRoleIsTheServers(t *testing.T) {
	w := newTournamentWorld(t)
	arbiter := w.srv.AddUser(fakediscord.User{Username: "ana", GlobalName: "Ana", Roles: []string{"777"}})
	other := w.srv.AddUser(fakediscord.User{Username: "otto", GlobalName: "Otto", Roles: []string{"778"}})
	create := func(u fakediscord.User) fakediscord.Message {
		return w.command(u, w.chess.ID, "tournament", fakediscord.SubCommand("create", fakediscord.StringOption("system", "swiss")))
	}
	role := func(id string) *fakediscord.Option {
		return &fakediscord.Option{Name: "organiser_role", Type: discordgo.ApplicationCommandOptionRole, Value: id}
	}
	if got := create(arbiter); !got.Ephemeral() || !strings.Contains(got.Content, "organisers' role") {
		t.Fatalf("a member of a role the server never chose opened a tournament: %+v", got)
	}
	// Only an admin sets the role: Ana cannot give her own role the power.
	w.srv.AllowCommand(w.guild.ID, "server-settings")
	if got := w.command(arbiter, w.chess.ID, "server-settings", role("777")); !got.Ephemeral() || !strings.Contains(got.Content, "manage this server") {
		t.Fatalf("a member without Manage Server chose the organisers' role: %+v", got)
	}
	if got := create(arbiter); strings.Contains(got.Content, "open for sign-up") {
		t.Fatalf("a refused /server-settings still made Ana an organiser: %+v", got)
	}
	saved := w.command(w.org, w.chess.ID, "server-settings", role("777"))
	if !saved.Ephemeral() || !strings.Contains(saved.Content, "Role of tournament organisers: <@&777>") {
		t.Fatalf("the saved settings read %q", saved.Content)
	}
	if got := create(other); !got.Ephemeral() || !strings.Contains(got.Content, "organisers' role") {
		t.Fatalf("a member of another role opened a tournament: %+v", got)
	}
	got := create(arbiter)
	if !got.Ephemeral() || !strings.Contains(got.Content, "open for sign-up") {
		t.Fatalf("a member of the organisers' role was answered %+v", got)
	}
	post := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(embedAll(m), "Ana") })
	for _, p := range []fakediscord.User{w.alice, w.bob, w.carol} {
		w.click(p, post, "join")
	}
	if got := w.command(other, w.chess.ID, "tournament", fakediscord.SubCommand("start")); !got.Ephemeral() || strings.Contains(got.Content, "started") {
		t.Fatalf("a member without the role started the tournament: %+v", got)
	}

	// The admins take the power back: Ana may open no more tournaments,
	// but the one she opened stays hers to run.
	cleared := w.command(w.org, w.chess.ID, "server-settings", fakediscord.BoolOption("no_organiser_role", true))
	if !strings.Contains(cleared.Content, "none (Manage Server only)") {
		t.Fatalf("clearing the role: %q", cleared.Content)
	}
	if got := create(arbiter); !got.Ephemeral() || !strings.Contains(got.Content, "organisers' role") {
		t.Fatalf("a member of a role no longer chosen opened a tournament: %+v", got)
	}
	if got := w.command(arbiter, w.chess.ID, "tournament", fakediscord.SubCommand("start")); !got.Ephemeral() || !strings.Contains(got.Content, "has started") {
		t.Fatalf("the organiser could not start her own tournament: %+v", got)
	}
}

func TestATournamentTakesNoMorePlayersThanItsCap(t *testing.T) {
	w := newTournamentWorld(t)
	w.limits = bot.Limits{TournamentPlayers: 3}
	w.restart()
	post := w.create(fakediscord.StringOption("system", "swiss"), fakediscord.IntOption("rounds", 3))
	for _, p := range []fakediscord.User{w.alice, w.bob, w.carol} {
		if got := w.click(p, post, "join"); got.Ephemeral() && strings.Contains(got.Content, "full") {
			t.Fatalf("%s could not join: %q", p.Username, got.Content)
		}
	}
	// Eve reads Dutch.
	got := w.click(w.eve, post, "join")
	if !got.Ephemeral() || !strings.Contains(got.Content, "is vol") || !strings.Contains(got.Content, "3 spelers") {
		t.Fatalf("a fourth player of three: %+v", got)
	}
	// A place freed is a place taken.
	w.click(w.bob, post, "leave")
	if got := w.click(w.eve, post, "join"); strings.Contains(got.Content, "vol") {
		t.Fatalf("Eve in Bob's place: %q", got.Content)
	}
}
