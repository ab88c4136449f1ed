package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/tournament"
)

// tourney is a Swiss of the site's storage, run as the bot runs it.
type tourney struct {
	x  *site
	r  *tournament.Runner
	tr *tournament.Tournament
	at time.Time
}

// newTourney starts a Swiss of players and rounds on x's storage.
func newTourney(t testing.TB, x *site, players, rounds int) *tourney {
	t.Helper()
	ctx := context.Background()
	rd, err := round.New(x.svc, round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &tournament.Runner{Round: rd, Channel: func(_ context.Context, tr *tournament.Tournament, board int) (string, error) {
		return fmt.Sprintf("t%d-r%d-b%d", tr.ID, len(tr.Played), board+1), nil
	}}
	tr, err := r.Create(ctx, tournament.Tournament{Guild: "777", Name: "Winter Swiss", Organiser: "org", System: tournament.Swiss, Rounds: rounds,
		DaysPerMove: 3}, t0)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ann", "Bob", "Carol", "Dan", "Eve", "Fay"}
	for i := range players {
		m := tournament.Member{ID: strconv.Itoa(3000 + i), Name: names[i%len(names)], Rating: 1600 - 10*i}
		if _, err := r.Do(ctx, tr.ID, t0, func(t *tournament.Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", t0); err != nil {
		t.Fatal(err)
	}
	return &tourney{x: x, r: r, tr: tr, at: t0}
}

// path is the tournament's page's path.
func (y *tourney) path() string {
	u, _ := url.Parse(y.x.s.TournamentURL(y.tr.ID))
	return u.Path
}

// do changes the tournament in one transaction, as the bot's acts do.
func (y *tourney) do(t testing.TB, fn func(t *tournament.Tournament) error) error {
	t.Helper()
	y.at = y.at.Add(time.Minute)
	tr, err := y.r.Do(context.Background(), y.tr.ID, y.at, fn)
	if err == nil {
		y.tr = tr
	}
	return err
}

// result records board's result in the current round.
func (y *tourney) result(t testing.TB, board int, o tournament.Outcome) {
	t.Helper()
	if err := y.do(t, func(t *tournament.Tournament) error { return t.Record(board, o) }); err != nil {
		t.Fatal(err)
	}
}

// next pairs the next round, or ends the tournament after its last.
func (y *tourney) next(t testing.TB) {
	t.Helper()
	y.at = y.at.Add(time.Minute)
	tr, _, err := y.r.Advance(context.Background(), y.tr.ID, y.at)
	if err != nil {
		t.Fatal(err)
	}
	y.tr = tr
}

// tourSSE reads one event stream's frames.
type tourSSE struct {
	resp *http.Response
	sc   *bufio.Scanner
}

type sseFrameRead struct{ id, event, data string }

func openTourSSE(t *testing.T, x *site, path string, header map[string]string) *tourSSE {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, x.srv.URL+path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return &tourSSE{resp: resp, sc: scanner(resp)}
}

// next returns the next event, or fails after 10 s; ok is false at the
// stream's end.
func (s *tourSSE) next(t *testing.T) (f sseFrameRead, ok bool) {
	t.Helper()
	got := make(chan bool, 1)
	go func() {
		var seen bool
		for s.sc.Scan() {
			line := s.sc.Text()
			switch {
			case line == "":
				if seen {
					got <- true
					return
				}
			case strings.HasPrefix(line, "id: "):
				f.id, seen = line[4:], true
			case strings.HasPrefix(line, "event: "):
				f.event, seen = line[7:], true
			case strings.HasPrefix(line, "data: "):
				f.data, seen = line[6:], true
			}
		}
		got <- false
	}()
	select {
	case ok = <-got:
		return f, ok
	case <-time.After(10 * time.Second):
		t.Fatal("no event in 10 s")
		return f, false
	}
}

// A tournament's event stream sends its page at once, then each state a
// commit makes — a result, a withdrawal, the next round — and never a
// write rolled back; it ends with the final standings, after which a
// page that has them is told there is nothing more (204). A stranger's
// token, or a Last-Event-ID that is no version, is refused first.
func TestATournamentsEventsFollowItsCommits(t *testing.T) {
	x := newSite(t, "777", Options{})
	y := newTourney(t, x, 3, 2)
	events := y.path() + "/events"
	for _, bad := range []struct {
		path   string
		header map[string]string
		status int
	}{
		{strings.Replace(events, "/t/", "/t/9", 1), nil, http.StatusNotFound},
		{events[:len(events)-len("/events")-2] + "xx/events", nil, http.StatusNotFound},
		{events, map[string]string{"Last-Event-ID": "not-a-version"}, http.StatusBadRequest},
		{events + "?after=0123456789abcdef0", nil, http.StatusBadRequest},
	} {
		if resp, _ := x.get(bad.path, bad.header); resp.StatusCode != bad.status {
			t.Errorf("%s %v: %d, want %d", bad.path, bad.header, resp.StatusCode, bad.status)
		}
	}
	s := openTourSSE(t, x, events, map[string]string{"Accept-Language": "fr"})
	if ct := s.resp.Header.Get("Content-Type"); s.resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("the stream answers %d %s", s.resp.StatusCode, ct)
	}
	first, _ := s.next(t)
	if first.event != "view" || first.id == "" || !strings.Contains(first.data, "Parties de la ronde 1") {
		t.Fatalf("the first event: %+v", first)
	}
	// A write rolled back is never sent; the result committed after it is.
	oops := errors.New("rolled back")
	if err := y.do(t, func(t *tournament.Tournament) error { _ = t.Record(0, tournament.Win); return oops }); !errors.Is(err, oops) {
		t.Fatal(err)
	}
	y.result(t, 0, tournament.Loss)
	res, _ := s.next(t)
	if res.id == first.id || !strings.Contains(res.data, "0–1") || strings.Contains(res.data, "1–0") {
		t.Fatalf("after Black's win on board 1: %+v", res)
	}
	// A withdrawal, in the standings' words.
	leaver := y.tr.Members[y.tr.Played[0].Boards[0].White]
	if err := y.do(t, func(t *tournament.Tournament) error { return t.Withdraw(leaver.ID) }); err != nil {
		t.Fatal(err)
	}
	wd, _ := s.next(t)
	if name := i18n.T(i18n.French, "tournament.withdrawn", map[string]any{"Player": leaver.Name}); !strings.Contains(wd.data, jsonText(name)) {
		t.Fatalf("the withdrawal is not shown as %q: %s", name, wd.data)
	}
	// A page that reconnects with the state it has is sent nothing
	// until the next round is paired.
	again := openTourSSE(t, x, events, map[string]string{"Last-Event-ID": wd.id, "Accept-Language": "en"})
	y.next(t)
	r2, _ := again.next(t)
	if !strings.Contains(r2.data, "Games of round 2") || r2.id == wd.id {
		t.Fatalf("after the reconnection, the first event is %+v, want round 2's pairings", r2)
	}
	if fr, _ := s.next(t); fr.id != r2.id || !strings.Contains(fr.data, "Parties de la ronde 2") {
		t.Fatalf("the other page's event of round 2: %+v", fr)
	}
	for b := range y.tr.Played[1].Boards {
		y.result(t, b, tournament.Draw)
	}
	y.next(t)
	if y.tr.Status != tournament.Finished {
		t.Fatalf("after the last round: %v", y.tr.Status)
	}
	var final sseFrameRead
	for final.id == "" || !strings.Contains(final.data, `"over":true`) {
		f, ok := again.next(t)
		if !ok {
			t.Fatalf("the stream ended before the final standings, after %+v", final)
		}
		final = f
	}
	if !strings.Contains(final.data, "Final standings") {
		t.Fatalf("the last event: %s", final.data)
	}
	if _, ok := again.next(t); ok {
		t.Fatal("the stream goes on after the final standings")
	}
	if resp, _ := x.get(events+"?after="+final.id, nil); resp.StatusCode != http.StatusNoContent {
		t.Errorf("a page with the final standings reconnects: %d, want 204", resp.StatusCode)
	}
	// The view polled is the same page.
	resp, body := x.get(y.path()+"/view", nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(body, `"v":"`+final.id+`"`) {
		t.Errorf("the view: %d %s", resp.StatusCode, body)
	}
	// Nothing is followed once the pages are gone.
	s.resp.Body.Close()
	again.resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for x.s.tours.count() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := x.s.tours.count(); n > 0 {
		t.Errorf("%d tournaments still followed with no page open", n)
	}
}

// jsonText is s as encoding/json writes it inside a string.
func jsonText(s string) string {
	r := strings.NewReplacer(`"`, `\"`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "'", `\u0026#39;`)
	return r.Replace(s)
}

func scanner(resp *http.Response) *bufio.Scanner {
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	return sc
}
