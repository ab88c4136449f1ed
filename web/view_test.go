package web

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// TestTheViewReplaysTheIceAges: every position of the game is in the
// view, and the move that brought an Ice Age carries what it froze and
// filled, so that going back through the moves shows it.
func TestTheViewReplaysTheIceAges(t *testing.T) {
	x := newSite(t, "g1", Options{})
	var seed uint64
	for seed = 1; ; seed++ {
		if x.randomMoves(41, seed) {
			break
		}
		x = newSite(t, "g1", Options{})
	}
	resp, body := x.get(x.path()+"/view", nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("/view: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var v view
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if v.Rev != x.g.Revision || len(v.Plies) != 42 {
		t.Fatalf("the view is of revision %d with %d positions; want %d with 42", v.Rev, len(v.Plies), x.g.Revision)
	}
	m, err := x.g.Match()
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range m.IceAges() {
		p := v.Plies[i+1]
		if (e != nil) != (p.IceAge != "") {
			t.Errorf("move %d (%s): Ice Age %v, the view says %q", i+1, p.SAN, e != nil, p.IceAge)
		}
		if e != nil && (len(p.Frozen) != len(e.Frozen) || len(p.Filled) != len(e.Filled.Squares())) {
			t.Errorf("move %d: the view's Ice Age froze %v and filled %v; the game's %d and %d", i+1, p.Frozen, p.Filled, len(e.Frozen), len(e.Filled.Squares()))
		}
	}
	if v.Plies[40].IceAge == "" || !v.Plies[40].Black || v.Plies[40].Number != 20 {
		t.Errorf("Black's 20th move shows no Ice Age: %+v", v.Plies[40])
	}
	if len(v.Plies[39].Freeze) == 0 && len(v.Plies[40].Frozen) > 0 {
		t.Errorf("before the Ice Age the men that froze were not marked: %+v", v.Plies[39])
	}
	if v.Plies[0].Board != "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR" {
		t.Errorf("the start's board is %q", v.Plies[0].Board)
	}
}

// TestThePageSpeaksTheViewersLanguage: the browser's, and once signed in
// their /settings language, over the browser's.
func TestThePageSpeaksTheViewersLanguage(t *testing.T) {
	x := newSite(t, "g1", Options{Language: "nl"})
	for _, c := range []struct{ accept, want string }{{"", "nl"}, {"fr-CA,fr;q=0.9", "fr"}, {"de,nb;q=0.5", "nb"}, {"es;q=0,ru", "ru"}} {
		resp, _ := x.get(x.path(), map[string]string{"Accept-Language": c.accept})
		if got := resp.Header.Get("Content-Language"); got != c.want {
			t.Errorf("Accept-Language %q: the page is in %q, want %q", c.accept, got, c.want)
		}
	}
	if _, err := x.svc.SetPrefs(context.Background(), bob.ID, play.Prefs{Language: "es"}, t0); err != nil {
		t.Fatal(err)
	}
	cookie := sessionCookie + "=" + x.s.keys.Sign("session", bob.ID+"|"+strconv.FormatInt(t0.Add(48*time.Hour).Unix(), 10))
	resp, body := x.get(x.path(), map[string]string{"Accept-Language": "ru", "Cookie": cookie})
	if got := resp.Header.Get("Content-Language"); got != "es" || !strings.Contains(body, "Cerrar sesión") {
		t.Errorf("a signed-in viewer whose setting is Spanish gets a page in %q", got)
	}
}

// TestTheLeaderboardPage: a server's leaderboard, by its token only.
func TestTheLeaderboardPage(t *testing.T) {
	x := newSite(t, "777", Options{})
	res, err := x.svc.Start(context.Background(), play.NewGame{Guild: "777", Channel: "c2", White: ann, Black: bob, At: t0, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.svc.Resign(context.Background(), play.Act{By: bob.ID, Game: res.Game.ID, Revision: res.Game.Revision, At: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	resp, body := x.get("/lb/777/"+x.s.keys.Guild("777"), map[string]string{"Accept-Language": "en"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the leaderboard: %d", resp.StatusCode)
	}
	for _, want := range []string{"Ice Age Chess leaderboard", "<td>Ann</td>", "<td>Bob</td>", "100%"} {
		if !strings.Contains(body, want) {
			t.Errorf("the leaderboard page lacks %q", want)
		}
	}
	for _, p := range []string{"/lb/778/" + x.s.keys.Guild("777"), "/lb/777/" + x.s.keys.Guild("777") + "?page=0", "/lb/g1/" + x.s.keys.Guild("g1")} {
		if resp, _ := x.get(p, nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
}

// TestALiveGameShowsItsClocks: a game with clocks shows them, the side
// to move's running since its turn began, instead of a deadline.
func TestALiveGameShowsItsClocks(t *testing.T) {
	x := newSite(t, "777", Options{})
	res, err := x.svc.Start(context.Background(), play.NewGame{Guild: "777", Channel: "c3", White: ann, Black: bob, At: t0,
		Time: play.TimeControl{Limit: 5 * time.Minute, Increment: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	x.g, x.step = res.Game, time.Second
	x.move("b1a3")
	x.move("b8a6")
	resp, body := x.get(x.path()+"/view", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/view: %d", resp.StatusCode)
	}
	var v struct {
		view
		ClockAge *int64 `json:"clockAge"`
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Clocks) != 2 || v.ClockRuns != "w" || v.Deadline != "" {
		t.Fatalf("clocks %v running %q, deadline %q; want both clocks, White's running, no deadline", v.Clocks, v.ClockRuns, v.Deadline)
	}
	// Black moved at t0+2s; the listener's clock says t0+1h.
	if want := (time.Hour - 2*time.Second).Milliseconds(); v.ClockAge == nil || *v.ClockAge != want {
		t.Errorf("the view says the running clock ran %v ms, want %d, by the server's clock", v.ClockAge, want)
	}
	if v.Clocks[1] < 300 || v.Clocks[1] > 303 {
		t.Errorf("Black's clock after a move at once is %v s, want about 5 minutes and the increment", v.Clocks[1])
	}
}

// TestTheViewsKeptAreBounded: past maxViewedGames, the game asked for
// least lately is dropped, and the one asked for again is kept.
func TestTheViewsKeptAreBounded(t *testing.T) {
	x := newSite(t, "777", Options{})
	ctx := context.Background()
	first := x.g.ID
	if _, err := x.s.views.get(ctx, first, 1, "en"); err != nil {
		t.Fatal(err)
	}
	for i := range maxViewedGames + 10 {
		res, err := x.svc.Start(ctx, play.NewGame{Guild: "777", Channel: "c" + strconv.Itoa(i+10), White: ann, Black: bob, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := x.s.views.get(ctx, res.Game.ID, 1, "en"); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			if _, err := x.s.views.get(ctx, first, 1, "en"); err != nil { // the first stays in use
				t.Fatal(err)
			}
		}
	}
	x.s.views.mu.Lock()
	n, kept := len(x.s.views.games), x.s.views.games[first] != nil
	x.s.views.mu.Unlock()
	if n > maxViewedGames || !kept {
		t.Errorf("%d games' views kept (at most %d), the one in use kept: %v", n, maxViewedGames, kept)
	}
}

// TestAViewWithoutARunningClockHasNoAge: a correspondence game's view,
// and a live game's before its first move, are sent as made.
func TestAViewWithoutARunningClockHasNoAge(t *testing.T) {
	x := newSite(t, "777", Options{})
	_, body := x.get(x.path()+"/view", nil)
	res, err := x.svc.Start(context.Background(), play.NewGame{Guild: "777", Channel: "c3", White: ann, Black: bob, At: t0,
		Time: play.TimeControl{Limit: 5 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	x.g = res.Game
	_, live := x.get(x.path()+"/view", nil)
	for _, b := range []string{body, live} {
		if strings.Contains(b, "clockAge") || !strings.HasPrefix(b, `{"game":`) {
			t.Errorf("a view without a running clock is sent as %.80s…", b)
		}
	}
}

// TestALiveGameShowsTheRatingsOfItsSpeed: the players of a blitz game
// are shown with their blitz ratings, not their correspondence ones.
func TestALiveGameShowsTheRatingsOfItsSpeed(t *testing.T) {
	x := newSite(t, "777", Options{})
	ctx := context.Background()
	blitz := play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}
	res, err := x.svc.Start(ctx, play.NewGame{Guild: "777", Channel: "c3", White: ann, Black: bob, At: t0, Rated: true, Time: blitz})
	if err != nil {
		t.Fatal(err)
	}
	x.g, x.step = res.Game, time.Second
	x.move("b1a3")
	if _, err := x.svc.Resign(ctx, play.Act{By: bob.ID, Game: x.g.ID, Revision: x.g.Revision, At: x.at.Add(time.Second)}); err != nil {
		t.Fatal(err)
	}
	res, err = x.svc.Start(ctx, play.NewGame{Guild: "777", Channel: "c4", White: ann, Black: bob, At: t0.Add(time.Minute), Rated: true, Time: blitz})
	if err != nil {
		t.Fatal(err)
	}
	x.g = res.Game
	_, body := x.get(x.path()+"/view", nil)
	var v view
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	won, err := x.svc.Player(ctx, play.RatingScope("777", play.Blitz), ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := i18n.Decimal("en", math.Round(won.Rating.At(t0.Add(time.Hour)).Rating), 0)
	if !strings.HasPrefix(v.White.Rating, want) || strings.HasPrefix(v.White.Rating, "1,500") {
		t.Errorf("Ann, who won a blitz game, is shown at %q in the next; want her blitz rating %s", v.White.Rating, want)
	}
}

// TestWatchersShareAFrameInTheSameMillisecond: the event a watcher is
// sent is the step or the whole view as it has seen, stamped with the
// clock's age when sent, one frame shared by all sent it in the same
// millisecond of that age.
func TestWatchersShareAFrameInTheSameMillisecond(t *testing.T) {
	mv := &madeView{rev: 5, data: []byte(`{"rev":5}`), step: []byte(`{"rev":5,"base":1}`), prevRev: 4, clockSince: t0}
	at := func(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }
	a, b := mv.frame(4, at(1500.1)), mv.frame(4, at(1500.9))
	if want := "id: 5\nevent: view\ndata: {\"clockAge\":1500,\"rev\":5,\"base\":1}\n\n"; string(a) != want {
		t.Fatalf("the step's frame %q, want %q", a, want)
	}
	if &a[0] != &b[0] {
		t.Error("two watchers in one millisecond got frames of their own")
	}
	if c := mv.frame(4, at(1501)); string(c) != "id: 5\nevent: view\ndata: {\"clockAge\":1501,\"rev\":5,\"base\":1}\n\n" {
		t.Errorf("a millisecond later: %q", c)
	}
	if w := mv.frame(3, at(1501)); string(w) != "id: 5\nevent: view\ndata: {\"clockAge\":1501,\"rev\":5}\n\n" {
		t.Errorf("for a watcher further behind: %q", w)
	}
	still := &madeView{rev: 2, data: []byte(`{"rev":2}`)}
	if f := still.frame(0, at(9)); string(f) != "id: 2\nevent: view\ndata: {\"rev\":2}\n\n" || &f[0] != &still.frame(1, at(99))[0] {
		t.Errorf("without a running clock: %q, not shared", f)
	}
}

// A seat without a name is called by its colour, and the line of its
// draw offer agrees with it; a named one's reads as before.
func TestADrawOfferOfASideCalledByItsColourAgrees(t *testing.T) {
	x := newSite(t, "g1", Options{})
	for _, c := range []struct {
		name, want string
	}{{"", "Чёрные предлагают ничью"}, {"Боб", "Боб предлагает ничью"}} {
		g := x.g.Clone()
		g.Black.Name = c.name
		g.DrawOffer = &play.Offer{By: g.Black.ID}
		v, err := x.s.makeView(context.Background(), &g, i18n.Russian)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(v.Status, c.want) {
			t.Errorf("the status of %q's offer: %q, want %q", c.name, v.Status, c.want)
		}
	}
}
