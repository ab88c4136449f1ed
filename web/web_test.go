package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/stream"
)

var (
	t0  = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ann = play.Seat{ID: "1001", Name: "Ann"}
	bob = play.Seat{ID: "1002", Name: "Bob"}
)

// site is a web listener on an in-memory storage, with a game.
type site struct {
	t   testing.TB
	svc *play.Service
	hub *stream.Hub
	s   *Server
	srv *httptest.Server
	g   play.Game
	at  time.Time
	// step is the time between two moves (a minute unless set).
	step time.Duration
}

func newSite(t testing.TB, guild string, opts Options) *site {
	t.Helper()
	return newSiteWith(t, guild, opts, ann.ID)
}

// newSiteWith is newSite with White played by white.
func newSiteWith(t testing.TB, guild string, opts Options, white string) *site {
	t.Helper()
	i18n.SetReporter(func(l i18n.Lang, id string, err error) { t.Errorf("i18n %s %s: %v", l, id, err) })
	t.Cleanup(func() { i18n.SetReporter(nil) })
	st := memstore.New()
	hub, err := stream.New(st, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	svc := play.New(st, play.Options{})
	res, err := svc.Start(context.Background(), play.NewGame{Guild: guild, Channel: "c1", White: play.Seat{ID: white, Name: ann.Name}, Black: bob, At: t0, DaysPerMove: 3})
	if err != nil {
		t.Fatal(err)
	}
	opts.Play, opts.Hub = svc, hub
	if opts.Secret == nil {
		opts.Secret = []byte("0123456789abcdef0123456789abcdef")
	}
	if opts.PublicURL == "" {
		opts.PublicURL = "http://127.0.0.1/"
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return t0.Add(time.Hour) }
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(func() {
		srv.CloseClientConnections() // a browser's event stream stays open
		srv.Close()
	})
	return &site{t: t, svc: svc, hub: hub, s: s, srv: srv, g: res.Game, at: t0}
}

// path is the game's page's path.
func (x *site) path() string {
	u, _ := url.Parse(x.s.GameURL(x.g.ID))
	return u.Path
}

// move plays uci for the side to move, through play as any front end.
func (x *site) move(uci string) {
	x.t.Helper()
	if x.step == 0 {
		x.step = time.Minute
	}
	x.at = x.at.Add(x.step)
	res, err := x.svc.Move(context.Background(), play.Act{By: x.g.ToMove().ID, Game: x.g.ID, Revision: x.g.Revision, At: x.at}, uci)
	if err != nil {
		x.t.Fatalf("move %s: %v", uci, err)
	}
	x.g = res.Game
}

// randomMoves plays n legal moves chosen by a generator of seed; false
// if the game ended before.
func (x *site) randomMoves(n int, seed uint64) bool {
	x.t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		pos, err := x.g.Position()
		if err != nil {
			x.t.Fatal(err)
		}
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 || x.g.Over() {
			return false
		}
		x.move(legal[rng.IntN(len(legal))].UCI())
	}
	return !x.g.Over()
}

func (x *site) get(path string, header map[string]string) (*http.Response, string) {
	x.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, x.srv.URL+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		x.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestAGamesPageShowsItWithItsIce(t *testing.T) {
	x := newSite(t, "g1", Options{})
	x.move("e2d3")
	resp, body := x.get(x.path(), map[string]string{"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if got := resp.Header.Get("Content-Security-Policy"); got != CSP {
		t.Errorf("Content-Security-Policy %q, want %q", got, CSP)
	}
	if resp.Header.Get("Content-Language") != "ru" {
		t.Errorf("Content-Language %q, want ru", resp.Header.Get("Content-Language"))
	}
	for _, want := range []string{`lang="ru"`, "Ann", "Bob", "/static/game.js", "exd3"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "style=") {
		t.Error("the page has an inline script or style, which its policy forbids")
	}
}

func TestAPageOfAnotherTokenOrGameIsNotFound(t *testing.T) {
	x := newSite(t, "g1", Options{})
	id := strconv.FormatUint(x.g.ID, 10)
	other := x.s.keys.Game(x.g.ID + 1)
	for _, p := range []string{"/g/" + id + "/" + strings.Repeat("A", tokenLen), "/g/" + id + "/" + other, "/g/" + id + "/short",
		"/g/0" + id + "/" + x.s.keys.Game(x.g.ID), "/g/" + strconv.FormatUint(x.g.ID+1, 10) + "/" + other,
		"/g/" + id + "/" + strings.Repeat("A", tokenLen) + "/events", "/g/" + id + "/" + other + "/view", "/lb/g1/" + x.s.keys.Guild("g1")} {
		resp, _ := x.get(p, nil)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
	}
}

func TestADMGameIsItsPlayersAlone(t *testing.T) {
	x := newSite(t, "", Options{ClientID: "42", ClientSecret: "s"})
	resp, body := x.get(x.path(), nil)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "/signin?next=") {
		t.Fatalf("a stranger: status %d, want 403 with a sign-in link: %s", resp.StatusCode, body)
	}
	for _, p := range []string{"/events", "/view"} {
		if resp, _ := x.get(x.path()+p, nil); resp.StatusCode != http.StatusForbidden {
			t.Errorf("a stranger's %s: status %d, want 403", p, resp.StatusCode)
		}
	}
	session := func(user string) map[string]string {
		v := x.s.keys.Sign("session", user+"|"+strconv.FormatInt(t0.Add(48*time.Hour).Unix(), 10))
		return map[string]string{"Cookie": sessionCookie + "=" + v}
	}
	if resp, body := x.get(x.path(), session("999")); resp.StatusCode != http.StatusForbidden || strings.Contains(body, "/signin?next=") {
		t.Errorf("a signed-in stranger: status %d, want 403 without a sign-in link", resp.StatusCode)
	}
	if resp, _ := x.get(x.path(), session(bob.ID)); resp.StatusCode != http.StatusOK {
		t.Errorf("a player: status %d, want 200", resp.StatusCode)
	}
	expired := map[string]string{"Cookie": sessionCookie + "=" + x.s.keys.Sign("session", bob.ID+"|"+strconv.FormatInt(t0.Unix(), 10))}
	if resp, _ := x.get(x.path(), expired); resp.StatusCode != http.StatusForbidden {
		t.Errorf("an expired sign-in: status %d, want 403", resp.StatusCode)
	}
	forged := map[string]string{"Cookie": sessionCookie + "=" + bob.ID + "|9999999999." + strings.Repeat("A", tokenLen)}
	if resp, _ := x.get(x.path(), forged); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a forged sign-in: status %d, want 403", resp.StatusCode)
	}
}

// sse reads a server-sent event stream's events.
type sse struct {
	r    *bufio.Reader
	body io.Closer
}

type sseEventRead struct {
	id   int
	data string
}

func openSSE(t *testing.T, url string, lastID string) *sse {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("the event stream: status %d, %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &sse{r: bufio.NewReader(resp.Body), body: resp.Body}
}

// next returns the next event with data, skipping comments.
func (s *sse) next(t *testing.T) sseEventRead {
	t.Helper()
	var ev sseEventRead
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" && ev.data != "":
			return ev
		case strings.HasPrefix(line, "id: "):
			ev.id, _ = strconv.Atoi(line[4:])
		case strings.HasPrefix(line, "data: "):
			ev.data = line[6:]
		}
	}
}

func TestTheStreamSendsEachMoveAndResumes(t *testing.T) {
	x := newSite(t, "g1", Options{})
	s := openSSE(t, x.srv.URL+x.path()+"/events?after="+strconv.Itoa(x.g.Revision), "")
	x.move("e2d3")
	ev := s.next(t)
	var v view
	if err := json.Unmarshal([]byte(ev.data), &v); err != nil {
		t.Fatal(err)
	}
	if ev.id != x.g.Revision || v.Rev != x.g.Revision || len(v.Plies) != 2 || v.Plies[1].SAN != "exd3" {
		t.Fatalf("event %d: rev %d, %d plies, want the move exd3 at revision %d", ev.id, v.Rev, len(v.Plies), x.g.Revision)
	}
	// A page that lost its stream after that move resumes after it, each
	// event a step from the revision before it (the game may have moved
	// on by more than one when a revision's view was made).
	seen := x.g.Revision
	x.move("g7f6")
	x.move("d3c4")
	r := openSSE(t, x.srv.URL+x.path()+"/events", strconv.Itoa(seen))
	for v.Rev < x.g.Revision {
		ev = r.next(t)
		var step view
		if err := json.Unmarshal([]byte(ev.data), &step); err != nil {
			t.Fatal(err)
		}
		if step.Base == 0 || step.Prev != v.Rev || step.Base > len(v.Plies) {
			t.Fatalf("revision %d comes as %d positions after %d of revision %d; want a step from %d", step.Rev, len(step.Plies), step.Base, step.Prev, v.Rev)
		}
		step.Plies = append(v.Plies[:step.Base:step.Base], step.Plies...)
		v = step
	}
	if len(v.Plies) != 4 || v.Plies[3].SAN != "dxc4" {
		t.Fatalf("after resuming: %d plies, want 4 ending with dxc4", len(v.Plies))
	}
	// A page that saw a revision no longer kept gets the whole view.
	old := openSSE(t, x.srv.URL+x.path()+"/events", "1")
	for ev = old.next(t); ev.id < x.g.Revision; ev = old.next(t) {
	}
	var whole view
	if err := json.Unmarshal([]byte(ev.data), &whole); err != nil {
		t.Fatal(err)
	}
	if whole.Base != 0 || len(whole.Plies) != 4 {
		t.Fatalf("a page far behind gets %d positions after %d; want the whole view", len(whole.Plies), whole.Base)
	}
}
