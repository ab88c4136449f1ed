package web

import (
	"context"
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

// A tournament's page shows every round's pairings with their results,
// the latest first, and who had the bye, in the reader's language; its
// script follows it while it runs, and not once it is over.
func TestATournamentsPageShowsEveryRoundsResults(t *testing.T) {
	x := newSite(t, "777", Options{})
	ctx := context.Background()
	rd, err := round.New(x.svc, round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &tournament.Runner{Round: rd, Channel: func(_ context.Context, tr *tournament.Tournament, board int) (string, error) {
		return fmt.Sprintf("t%d-r%d-b%d", tr.ID, len(tr.Played), board+1), nil
	}}
	tr, err := r.Create(ctx, tournament.Tournament{Guild: "777", Name: "Coupe d'hiver", Organiser: "org", System: tournament.Swiss, Rounds: 2,
		DaysPerMove: 3, ByeScore: tournament.ByeHalfPoint}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		m := tournament.Member{ID: strconv.Itoa(3000 + i), Name: fmt.Sprintf("Joueur %d", i), Rating: 1600 - 10*i}
		if _, err := r.Do(ctx, tr.ID, t0, func(t *tournament.Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", t0); err != nil {
		t.Fatal(err)
	}
	results := []tournament.Outcome{tournament.Win, tournament.Draw}
	play := func(at time.Time) {
		t.Helper()
		var err error
		tr, err = r.Do(ctx, tr.ID, at, func(t *tournament.Tournament) error {
			for b := range t.Played[len(t.Played)-1].Boards {
				if err := t.Record(b, results[b%2]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if tr, _, err = r.Advance(ctx, tr.ID, at); err != nil {
			t.Fatal(err)
		}
	}
	play(t0.Add(time.Hour))
	if len(tr.Played) != 2 {
		t.Fatalf("%d rounds paired, want 2", len(tr.Played))
	}
	u, _ := url.Parse(x.s.TournamentURL(tr.ID))
	page := func() string {
		t.Helper()
		resp, body := x.get(u.Path, map[string]string{"Accept-Language": "fr"})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the tournament's page: %d", resp.StatusCode)
		}
		return body
	}
	body := page()
	second, first := strings.Index(body, "Parties de la ronde 2"), strings.Index(body, "Parties de la ronde 1")
	if second < 0 || first < second {
		t.Fatalf("the rounds are not listed latest first:\n%s", body)
	}
	r1 := body[first:]
	bye := tr.Members[tr.Played[0].Bye].Name
	for _, want := range []string{"1–0", "½–½", i18n.T(i18n.French, "tournament.round.bye_half", map[string]any{"Player": bye})} {
		if !strings.Contains(r1, want) {
			t.Errorf("round 1 lacks %q:\n%s", want, r1)
		}
	}
	playing := i18n.T(i18n.French, "tournament.standings.playing", nil)
	if r2 := body[second:first]; strings.Count(r2, playing) != len(tr.Played[1].Boards) || strings.Contains(r2, "1–0") {
		t.Errorf("round 2's %d games are not all marked %q:\n%s", len(tr.Played[1].Boards), playing, r2)
	}
	for _, b := range tr.Played[1].Boards {
		gu, _ := url.Parse(x.s.GameURL(b.GameID))
		if !strings.Contains(body, `href="`+gu.String()+`"`) {
			t.Errorf("round 2's game %d is not linked to its page", b.GameID)
		}
	}
	if !strings.Contains(body, `data-over="false"`) || !strings.Contains(body, `/static/tournament.js`) || strings.Contains(body, `http-equiv="refresh"`) {
		t.Errorf("the page of a running tournament does not follow it by its script, without a reload")
	}

	play(t0.Add(2 * time.Hour))
	if tr.Status != tournament.Finished {
		t.Fatalf("after the last round: %v", tr.Status)
	}
	body = page()
	if !strings.Contains(body, `data-over="true"`) || !strings.Contains(body, "Classement final") || strings.Contains(body, playing) {
		t.Errorf("the page of a finished tournament:\n%s", body)
	}
}
