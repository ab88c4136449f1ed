package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/tournament"
)

// TestATournamentsPage: the standings during a round, with its games
// linked to their live pages; by its token only.
func TestATournamentsPage(t *testing.T) {
	x := newSite(t, "777", Options{})
	ctx := context.Background()
	rd, err := round.New(x.svc, round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &tournament.Runner{Round: rd, Channel: func(_ context.Context, tr *tournament.Tournament, board int) (string, error) {
		return fmt.Sprintf("t%d-r%d-b%d", tr.ID, len(tr.Played), board+1), nil
	}}
	tr, err := r.Create(ctx, tournament.Tournament{Guild: "777", Name: "Winter Swiss", Organiser: "org", System: tournament.Swiss, Rounds: 3, DaysPerMove: 3}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		m := tournament.Member{ID: strconv.Itoa(2000 + i), Name: fmt.Sprintf("Player %d", i), Rating: 1500 + i}
		if _, err := r.Do(ctx, tr.ID, t0, func(t *tournament.Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", t0); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(x.s.TournamentURL(tr.ID))
	resp, body := x.get(u.Path, map[string]string{"Accept-Language": "en"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the tournament's page: %d", resp.StatusCode)
	}
	want := []string{"Winter Swiss: standings during round 1", "Player 3", "Games of round 1"}
	for _, b := range tr.Played[0].Boards {
		gu, _ := url.Parse(x.s.GameURL(b.GameID))
		want = append(want, `href="`+gu.String()+`"`)
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	if resp, _ := x.get("/t/"+strconv.FormatUint(tr.ID, 10)+"/"+x.s.keys.Game(tr.ID), nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the tournament by its id's game token: %d, want 404", resp.StatusCode)
	}
}
