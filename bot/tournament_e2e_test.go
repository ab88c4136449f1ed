package bot_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/render"
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
	// The lot gives the top seed Black.
	w.lot = func() bool { return true }
	w.restart()
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
		fakediscord.StringOption("title", "Winter Swiss"), fakediscord.StringOption("bye", "bye_half"))
	if !strings.Contains(embedAll(post), "Winter Swiss") || !strings.Contains(embedAll(post), "3 rounds") || !strings.Contains(embedAll(post), "bye: ½ point") {
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

	// Before the start: the players by starting number, unranked.
	before := w.command(w.dan, w.chess.ID, "tournament", fakediscord.SubCommand("standings"))
	if text := embedAll(before); !strings.Contains(text, "players by starting number") || strings.Contains(text, "after round") ||
		strings.Contains(text, "🥇") || !strings.Contains(text, "` 1` <@"+w.alice.ID+">") || len(before.Files) != 1 {
		t.Fatalf("standings before the start: %s, %d files", text, len(before.Files))
	}
	isPNG(t, before.Files[0])
	savePNG(before.Files[0], "before.png")

	// Only an organiser starts it.
	if got := w.command(w.carol, w.chess.ID, "tournament", fakediscord.SubCommand("start")); !got.Ephemeral() || !strings.Contains(got.Content, "организатор") {
		t.Fatalf("a player started the tournament: %+v", got)
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	r1 := w.roundPost(1)
	if !strings.Contains(r1.Content, "Bye: <@") || !strings.Contains(r1.Content, "scores half a point without playing") {
		t.Fatalf("round 1 of five players has no half-point bye:\n%s", r1.Content)
	}
	// Alice, the top seed (all are unrated, she joined first), has Black
	// on board 1 as the lot drew.
	if !strings.Contains(r1.Content, "Board 1: <@") || !strings.Contains(r1.Content, "against <@"+w.alice.ID+"> (Black)") {
		t.Fatalf("the top seed does not have Black on board 1:\n%s", r1.Content)
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
			// During round 2: the bye's half point counts, those still
			// playing are marked, the tie-breaks explained.
			st := w.command(w.dan, w.chess.ID, "tournament", fakediscord.SubCommand("standings"))
			text := embedAll(st)
			if len(st.Files) != 1 || !strings.Contains(text, "standings during round 2") || strings.Count(text, "*playing*") != 4 ||
				!strings.Contains(text, "<@"+byePlayer+"> — **0.5**") || !strings.Contains(text, "BH-1: Buchholz cut 1") || strings.Contains(text, "🥇") {
				t.Fatalf("standings during round 2: %s, %d files", text, len(st.Files))
			}
			isPNG(t, st.Files[0])
			savePNG(st.Files[0], "during.png")
		}
		if n := w.playRound(rk, users); n != 2 {
			t.Fatalf("round %d had %d games", k, n)
		}
	}
	final := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "is over") })
	checkFinalPost(t, final)
	savePNG(final.Files[0], "podium.png")
	savePNG(final.Files[1], "final.png")
	// Each player's /stats tells the tournament and the place.
	stats := w.command(w.alice, w.chess.ID, "stats")
	if !regexp.MustCompile(`Winter Swiss: place \d of 5 \(`).MatchString(embedAll(stats)) {
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
	checkFinalPost(t, final)
}

// checkFinalPost: the final post names the winners, shows the podium's
// picture (640×420) and the final table beside it.
func checkFinalPost(t *testing.T, final fakediscord.Message) {
	t.Helper()
	if len(final.Files) != 2 || final.Files[0].Name != "podium.png" || final.Files[1].Name != "standings.png" ||
		!strings.Contains(final.Content, "🥇") || !strings.Contains(embedAll(final), "Final standings") || len(final.Embeds) != 2 ||
		final.Embeds[0].Image == nil || final.Embeds[0].Image.URL != "attachment://podium.png" {
		t.Fatalf("the final post: %q %s, %d files", final.Content, embedAll(final), len(final.Files))
	}
	for _, f := range final.Files {
		isPNG(t, f)
	}
	im, err := png.Decode(bytes.NewReader(final.Files[0].Data))
	if err != nil || im.Bounds().Dx() != render.PodiumWidth || im.Bounds().Dy() != render.PodiumHeight {
		t.Fatalf("the podium's picture: %v, %v", im.Bounds(), err)
	}
}

// savePNG keeps a picture of the tests where ICEAGE_TOURNAMENT_PNG says,
// to look at.
func savePNG(f fakediscord.File, name string) {
	if dir := os.Getenv("ICEAGE_TOURNAMENT_PNG"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, name), f.Data, 0o600)
	}
}

// A round-robin of three: each round one player is free, announced as
// sitting out, and scores nothing for it.
func TestTournamentRoundRobinOfThreeSitsOneOut(t *testing.T) {
	w := newTournamentWorld(t)
	players := []fakediscord.User{w.alice, w.bob, w.carol}
	users := map[string]fakediscord.User{}
	for _, p := range players {
		users[p.ID] = p
	}
	post := w.create(fakediscord.StringOption("system", "roundrobin"))
	for _, p := range players {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	free := map[string]bool{}
	for k := 1; k <= 3; k++ {
		rk := w.roundPost(k)
		i := strings.Index(rk.Content, "Free this round: <@")
		if i < 0 || strings.Contains(rk.Content, "scores a point") {
			t.Fatalf("round %d does not say who sits out:\n%s", k, rk.Content)
		}
		free[userRef.FindStringSubmatch(rk.Content[i:])[1]] = true
		if n := w.playRound(rk, users); n != 1 {
			t.Fatalf("round %d had %d games", k, n)
		}
	}
	if len(free) != 3 {
		t.Fatalf("%d players sat out, want each once", len(free))
	}
	final := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "is over") })
	checkFinalPost(t, final)
	// Three games, each a win: 3 points in all, none for sitting out.
	total := 0.0
	for _, m := range regexp.MustCompile(`— \*\*([0-9.]+)\*\*`).FindAllStringSubmatch(embedAll(final), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		total += v
	}
	if total != 3 {
		t.Fatalf("%v points in the final table, want 3:\n%s", total, embedAll(final))
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
