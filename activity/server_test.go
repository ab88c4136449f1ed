package activity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/activity"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/web"
)

func TestMain(m *testing.M) { os.Exit(fakediscord.Main(m)) }

// world is a fake Discord with a server, its channel #chess where Alice
// (White) and Bob play, and the Activity's server in front of a round.
type world struct {
	srv                    *fakediscord.Server
	web                    *httptest.Server
	round                  *round.Round
	guild                  fakediscord.Guild
	chess, lobby           fakediscord.Channel
	alice, bob, carol, dan fakediscord.User
	game                   play.Game
	act                    *activity.Server
	now                    atomic.Int64 // the Activity's clock, in Unix seconds
	// engineOn lets the engine play in the lobby.
	engineOn atomic.Bool
}

// engineID is the engine's user in the world.
const engineID = "999"

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{srv: fakediscord.New(t)}
	w.now.Store(t0.Unix())
	w.srv.EnableActivities()
	w.guild = w.srv.AddGuild(fakediscord.Guild{Name: "Club"})
	w.chess = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "chess"})
	w.lobby = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "lobby"})
	w.alice = w.srv.AddUser(fakediscord.User{Username: "alice", GlobalName: "Alice"})
	w.bob = w.srv.AddUser(fakediscord.User{Username: "bob", GlobalName: "Bob", Locale: "fr"})
	w.carol = w.srv.AddUser(fakediscord.User{Username: "carol", GlobalName: "Carol", Locale: "ru"})
	w.dan = w.srv.AddUser(fakediscord.User{Username: "dan"})
	st := memstore.New()
	hub, err := stream.New(st, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	svc := play.New(st, play.Options{Rand: func(int) int { return 0 }})
	r, err := round.New(svc, round.Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	w.round = r
	out, err := r.Start(context.Background(), play.NewGame{Guild: w.guild.ID, Channel: w.chess.ID,
		White: play.Seat{ID: w.alice.ID, Name: "Alice"}, Black: play.Seat{ID: w.bob.ID, Name: "Bob"}, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	w.game = out.Game
	site, err := web.New(web.Options{Play: svc, Hub: hub, Secret: []byte("0123456789abcdef0123456789abcdef"), PublicURL: "http://127.0.0.1/",
		Now: func() time.Time { return time.Unix(w.now.Load(), 0) }})
	if err != nil {
		t.Fatal(err)
	}
	w.act, err = activity.New(activity.Options{ClientID: w.srv.AppID(), ClientSecret: w.srv.ClientSecret(), BotToken: w.srv.Token(),
		DiscordURL: w.srv.URL(), Round: r, Web: site, Now: func() time.Time { return time.Unix(w.now.Load(), 0) },
		Engine: func(_ context.Context, _ string, level int) (play.Seat, int, bool, bool) {
			if level == 0 {
				level = 4
			}
			return play.Seat{ID: engineID, Name: fmt.Sprintf("Ice Age Engine (level %d)", level)}, level, false, w.engineOn.Load()
		}})
	if err != nil {
		t.Fatal(err)
	}
	w.act.Mount()
	w.web = httptest.NewServer(site)
	t.Cleanup(func() {
		w.web.CloseClientConnections()
		w.web.Close()
	})
	return w
}

// call sends a request to the Activity's server and decodes its JSON.
func (w *world) call(t testing.TB, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, w.web.URL+activity.Prefix+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return resp.StatusCode, m
}

// signIn is the page's sign-in: the SDK's code, traded at /api/token.
func (w *world) signIn(t testing.TB, u fakediscord.User) string {
	t.Helper()
	status, got := w.call(t, "POST", "/api/token", "", `{"code":"`+w.srv.Authorize(u.ID)+`"}`)
	token, _ := got["access_token"].(string)
	if status != 200 || token == "" {
		t.Fatalf("sign-in of %s: %d %v", u.Username, status, got)
	}
	return token
}

func move(in string, game uint64, rev int, m string) string {
	return fmt.Sprintf(`{"instance":%q,"game":%d,"rev":%d,"move":%q}`, in, game, rev, m)
}

func TestSignIn(t *testing.T) {
	w := newWorld(t)
	code := w.srv.Authorize(w.alice.ID)
	status, got := w.call(t, "POST", "/api/token", "", `{"code":"`+code+`"}`)
	if status != 200 || got["access_token"] == "" {
		t.Fatalf("exchange: %d %v", status, got)
	}
	for name, c := range map[string]struct {
		body   string
		status int
	}{
		"the same code again":    {`{"code":"` + code + `"}`, 401},
		"a made-up code":         {`{"code":"nope"}`, 401},
		"no code":                {`{}`, 400},
		"a code of quotes":       {`{"code":"\"\""}`, 400},
		"another field":          {`{"code":"abc","secret":"x"}`, 400},
		"two objects":            {`{"code":"abc"}{"code":"abc"}`, 400},
		"not JSON":               {`code=abc`, 400},
		"a code of 10,000 bytes": {`{"code":"` + strings.Repeat("a", 10000) + `"}`, 413},
	} {
		status, got := w.call(t, "POST", "/api/token", "", c.body)
		if status != c.status || got["error"] == nil && status != 413 {
			t.Errorf("%s: %d %v, want %d and a sentence", name, status, got, c.status)
		}
	}
	// Only the good code and the two made-up or used ones reached Discord.
	if tokens, _ := w.srv.Exchanges(); tokens != 3 {
		t.Errorf("%d requests reached the token endpoint, want 3", tokens)
	}
}

func TestTheGameAndItsMoves(t *testing.T) {
	w := newWorld(t)
	in := w.srv.LaunchActivity(w.chess.ID, w.alice.ID, w.carol.ID)
	alice, carol, bob := w.signIn(t, w.alice), w.signIn(t, w.carol), w.signIn(t, w.bob)

	status, got := w.call(t, "GET", "/api/game?instance="+in.ID, alice, "")
	if status != 200 || got["game"] != float64(w.game.ID) || got["color"] != "w" || !strings.HasPrefix(fmt.Sprint(got["path"]), "api/watch/") {
		t.Fatalf("Alice's game: %d %v", status, got)
	}
	// The page follows the game with the path it was given.
	path := "/" + fmt.Sprint(got["path"])
	if status, view := w.call(t, "GET", path+"/view", "", ""); status != 200 || view["game"] != float64(w.game.ID) {
		t.Errorf("the game's view: %d %v", status, view)
	}
	for _, bad := range []string{path + "x/view", path + "/board", "/api/watch/1-2-3.AAAAAAAAAAAAAAAAAAAAAA/view"} {
		if status, _ := w.call(t, "GET", bad, "", ""); status != 404 {
			t.Errorf("%s: %d, want 404", bad, status)
		}
	}
	status, got = w.call(t, "GET", "/api/game?instance="+in.ID, carol, "")
	if status != 200 || got["color"] != "" || got["lang"] != "ru" {
		t.Errorf("Carol's game: %d %v, want to watch it in Russian", status, got)
	}
	// Bob plays in the game but is not in the Activity.
	status, got = w.call(t, "GET", "/api/game?instance="+in.ID, bob, "")
	if status != 403 || !strings.Contains(fmt.Sprint(got["error"]), "Activité") {
		t.Errorf("Bob outside the Activity: %d %v, want 403 in French", status, got)
	}

	// Carol, a spectator, may not move: play's refusal, in Russian.
	status, got = w.call(t, "POST", "/api/move", carol, move(in.ID, w.game.ID, w.game.Revision, "h2g3"))
	if status != 409 || got["error"] == nil || !strings.ContainsAny(fmt.Sprint(got["error"]), "абвгдеж") {
		t.Errorf("Carol's move: %d %v, want 409 in Russian", status, got)
	}
	// A move the rules refuse changes nothing.
	status, got = w.call(t, "POST", "/api/move", alice, move(in.ID, w.game.ID, w.game.Revision, "e2e4"))
	if status != 409 || got["error"] == nil {
		t.Errorf("a move into the ice: %d %v, want 409", status, got)
	}
	if g, _ := w.round.Service().Game(context.Background(), w.game.ID); g.Revision != w.game.Revision {
		t.Fatalf("refused moves changed the game: revision %d, was %d", g.Revision, w.game.Revision)
	}
	status, got = w.call(t, "POST", "/api/move", alice, move(in.ID, w.game.ID, w.game.Revision, "h2g3"))
	if status != 200 || got["rev"] != float64(w.game.Revision+1) {
		t.Fatalf("Alice's move: %d %v", status, got)
	}
	// The same move at the revision it was made on is stale now.
	status, got = w.call(t, "POST", "/api/move", alice, move(in.ID, w.game.ID, w.game.Revision, "h2g3"))
	if status != 409 || got["error"] == nil {
		t.Errorf("a stale revision: %d %v, want 409", status, got)
	}
	// Bob joins the Activity; once the server's memory of who is in it
	// (seconds) has lapsed, he plays there.
	w.srv.JoinActivity(in.ID, w.bob.ID)
	if status, _ := w.call(t, "POST", "/api/move", bob, move(in.ID, w.game.ID, w.game.Revision+1, "g7g6")); status != 403 {
		t.Errorf("Bob as he joins: %d, want 403 until the instance is read again", status)
	}
	w.now.Add(11)
	status, got = w.call(t, "GET", "/api/game?instance="+in.ID, bob, "")
	if status != 200 || got["color"] != "b" || got["lang"] != "fr" {
		t.Errorf("Bob's game: %d %v, want Black in French", status, got)
	}
}

func TestStrangersCostNothing(t *testing.T) {
	w := newWorld(t)
	in := w.srv.LaunchActivity(w.chess.ID, w.alice.ID)
	alice := w.signIn(t, w.alice)
	other := w.srv.LaunchActivity(w.lobby.ID, w.dan.ID)
	_, before := w.srv.Exchanges()
	for name, c := range map[string]struct {
		method, path, token, body string
		status                    int
	}{
		"no token":                  {"GET", "/api/game?instance=" + in.ID, "", "", 401},
		"a token of spaces":         {"GET", "/api/game?instance=" + in.ID, "a b", "", 401},
		"no instance":               {"GET", "/api/game", alice, "", 401},
		"a made-up instance":        {"GET", "/api/game?instance=i-x", alice, "", 401},
		"a move without a token":    {"POST", "/api/move", "", move(in.ID, w.game.ID, 1, "h2g3"), 401},
		"a move of three letters":   {"POST", "/api/move", alice, move(in.ID, w.game.ID, 1, "h2g"), 400},
		"a move off the board":      {"POST", "/api/move", alice, move(in.ID, w.game.ID, 1, "h2g9"), 400},
		"a promotion to a king":     {"POST", "/api/move", alice, move(in.ID, w.game.ID, 1, "h7h8k"), 400},
		"game zero":                 {"POST", "/api/move", alice, move(in.ID, 0, 1, "h2g3"), 400},
		"a negative revision":       {"POST", "/api/move", alice, move(in.ID, w.game.ID, -1, "h2g3"), 400},
		"a move of 10,000 bytes":    {"POST", "/api/move", alice, move(in.ID, w.game.ID, 1, strings.Repeat("e", 10000)), 413},
		"a move with another field": {"POST", "/api/move", alice, `{"instance":"` + in.ID + `","game":1,"rev":1,"move":"h2g3","as":"x"}`, 400},
	} {
		status, got := w.call(t, c.method, c.path, c.token, c.body)
		if status != c.status || got["error"] == nil && status != 413 {
			t.Errorf("%s: %d %v, want %d and a sentence", name, status, got, c.status)
		}
	}
	if _, after := w.srv.Exchanges(); after != before {
		t.Errorf("malformed requests asked Discord who they were %d times", after-before)
	}
	if g, _ := w.round.Service().Game(context.Background(), w.game.ID); g.Revision != w.game.Revision || len(g.Moves) != 0 {
		t.Errorf("malformed requests changed the game: revision %d, moves %v", g.Revision, g.Moves)
	}
	// A game of another channel is none of this instance's.
	status, _ := w.call(t, "POST", "/api/move", alice, move(other.ID, w.game.ID, w.game.Revision, "h2g3"))
	if status != 403 {
		t.Errorf("Alice in another channel's instance: %d, want 403", status)
	}
	// A user's identity is asked once, then remembered.
	_, before = w.srv.Exchanges()
	for range 3 {
		w.call(t, "GET", "/api/game?instance="+in.ID, alice, "")
	}
	if _, after := w.srv.Exchanges(); after != before {
		t.Errorf("three reads asked Discord %d more times who Alice is", after-before)
	}
}

func TestThePageMayBeFramed(t *testing.T) {
	w := newWorld(t)
	resp, err := http.Get(w.web.URL + activity.Prefix + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if resp.StatusCode != 200 || csp != web.CSPSources+"; form-action 'none'" || strings.Contains(csp, "data:") || strings.Contains(csp, "frame-ancestors") || strings.Contains(csp, "'unsafe-inline'") ||
		resp.Header.Get("X-Frame-Options") != "" || !strings.Contains(string(body), `data-client-id="`+w.srv.AppID()+`"`) {
		t.Errorf("page %d, CSP %q, X-Frame-Options %q", resp.StatusCode, csp, resp.Header.Get("X-Frame-Options"))
	}
	if resp, err := http.Get(w.web.URL + activity.Prefix + "/app/"); err != nil || resp.StatusCode != 404 {
		t.Errorf("the files' folder is listed: %v %v", resp.Status, err)
	} else {
		resp.Body.Close()
	}
	for _, f := range []string{"/app/activity.js", "/app/activity.css", "/app/THIRD_PARTY_LICENSES.txt"} {
		resp, err := http.Get(w.web.URL + activity.Prefix + f)
		if err != nil || resp.StatusCode != 200 {
			t.Errorf("%s: %v %v", f, resp.Status, err)
		}
		resp.Body.Close()
	}
}

// A DM's game is its players' alone, in the Activity as on its live page:
// a third user in the group DM's Activity is told there is none.
func TestADMsGameIsItsPlayers(t *testing.T) {
	w := newWorld(t)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID, w.carol.ID)
	out, err := w.round.Start(context.Background(), play.NewGame{Channel: dm.ID,
		White: play.Seat{ID: w.bob.ID, Name: "Bob"}, Black: play.Seat{ID: w.alice.ID, Name: "Alice"}, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	in := w.srv.LaunchActivity(dm.ID, w.alice.ID, w.carol.ID)
	if !strings.Contains(in.ID, "-pc-") {
		t.Fatalf("a group DM's instance %q", in.ID)
	}
	status, got := w.call(t, "GET", "/api/game?instance="+in.ID, w.signIn(t, w.alice), "")
	if status != 200 || got["game"] != float64(out.Game.ID) || got["color"] != "b" {
		t.Fatalf("Alice's DM game: %d %v", status, got)
	}
	if status, view := w.call(t, "GET", "/"+fmt.Sprint(got["path"])+"/view", "", ""); status != 200 || view["game"] != float64(out.Game.ID) {
		t.Errorf("the DM game's view through Alice's ticket: %d %v", status, view)
	}
	if status, got := w.call(t, "GET", "/api/game?instance="+in.ID, w.signIn(t, w.carol), ""); status != 404 || got["error"] == nil {
		t.Errorf("Carol and the DM's game: %d %v, want 404", status, got)
	}
}

// A flood of sign-ins holds no more than a few requests to Discord: the
// rest are turned away at once, asking Discord nothing.
func TestAFloodIsTurnedAway(t *testing.T) {
	w := newWorld(t)
	release := make(chan struct{})
	var asked atomic.Int64
	slow := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		<-release
		http.Error(rw, `{"error":"invalid_grant"}`, http.StatusBadRequest)
	}))
	defer slow.Close()
	site, err := web.New(web.Options{Play: w.round.Service(), Hub: nil, Secret: []byte("0123456789abcdef0123456789abcdef"), PublicURL: "http://127.0.0.1/"})
	if err != nil {
		t.Fatal(err)
	}
	act, err := activity.New(activity.Options{ClientID: w.srv.AppID(), ClientSecret: "s", BotToken: "b", DiscordURL: slow.URL, Round: w.round, Web: site})
	if err != nil {
		t.Fatal(err)
	}
	act.Mount()
	front := httptest.NewServer(site)
	defer front.Close()
	const n = 40
	statuses := make(chan int, n)
	for range n {
		go func() {
			resp, err := http.Post(front.URL+activity.Prefix+"/api/token", "application/json", strings.NewReader(`{"code":"abc"}`))
			if err != nil {
				statuses <- 0
				return
			}
			resp.Body.Close()
			statuses <- resp.StatusCode
		}()
	}
	busy := 0
	for busy < n-16 {
		select {
		case s := <-statuses:
			if s != http.StatusServiceUnavailable {
				t.Fatalf("a sign-in of the flood answered %d before Discord did, want 503", s)
			}
			busy++
		case <-time.After(10 * time.Second):
			t.Fatalf("%d sign-ins turned away, want %d", busy, n-16)
		}
	}
	close(release)
	for range 16 {
		if s := <-statuses; s != http.StatusUnauthorized {
			t.Errorf("a sign-in Discord refused answered %d, want 401", s)
		}
	}
	if got := asked.Load(); got != 16 {
		t.Errorf("Discord was asked %d times, want 16", got)
	}
}
