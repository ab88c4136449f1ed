package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/store"
	"github.com/iceagechess/iceage/tournament"
)

// A tournament played through play and stored is exported as TRF that
// reads back, and that "iceage pairings" pairs as we did.
func TestTournamentCommandExportsTRF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc := play.New(st, play.Options{OnEnd: []func(play.Tx, *play.Game) error{tournament.OnEnd}})
	rd, err := round.New(svc, round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &tournament.Runner{Round: rd, Channel: func(_ context.Context, tr *tournament.Tournament, board int) (string, error) {
		return fmt.Sprintf("r%d-b%d", len(tr.Played), board), nil
	}}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, tournament.Tournament{Guild: "g", Name: "Club Swiss", Organiser: "org", System: tournament.Swiss, Rounds: 4, DaysPerMove: 3}, at)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		m := tournament.Member{ID: fmt.Sprint(100 + i), Name: fmt.Sprintf("Player %c", 'A'+i), Rating: 1600 - 10*i}
		if _, err := r.Do(ctx, tr.ID, at, func(t *tournament.Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", at); err != nil {
		t.Fatal(err)
	}
	for _, b := range tr.Played[0].Boards {
		g, _ := svc.Game(ctx, b.GameID)
		if _, err := svc.Resign(ctx, play.Act{By: g.Black.ID, Game: g.ID, Revision: g.Revision, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	if tr, _, err = r.Advance(ctx, tr.ID, at); err != nil {
		t.Fatal(err)
	}
	// Round 2 is under way: the export holds round 1 only.
	st.Close()

	var out, errs bytes.Buffer
	if code := dispatch([]string{"tournament", "-db", path, "-id", fmt.Sprint(tr.ID), "-trf"}, &out, &errs); code != 0 {
		t.Fatalf("status %d: %s", code, errs.String())
	}
	back, err := tournament.ReadTRF(strings.NewReader(out.String()))
	if err != nil {
		t.Fatalf("the exported TRF does not read back: %v\n%s", err, out.String())
	}
	if back.Name != "Club Swiss" || len(back.Field.Players) != 5 || back.Field.Rounds != 4 || back.Field.Played() != 1 {
		t.Fatalf("read back %q, %d players, %d of %d rounds:\n%s", back.Name, len(back.Field.Players), back.Field.Played(), back.Field.Rounds, out.String())
	}
	// The first day is written (042); the last (052) only once it is over.
	if !back.Start.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) || !back.End.IsZero() {
		t.Fatalf("days read back as %v to %v, want 2026/12/01 and no end:\n%s", back.Start, back.End, out.String())
	}
	// The pairing program pairs round 2 as the tournament did.
	trf := filepath.Join(t.TempDir(), "club.trf")
	if err := os.WriteFile(trf, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var pairs bytes.Buffer
	if code := dispatch([]string{"pairings", "-dutch", trf}, &pairs, &errs); code != 0 {
		t.Fatalf("pairings: status %d: %s", code, errs.String())
	}
	want := fmt.Sprintf("%d\n", len(tr.Played[1].Boards)+1)
	for _, b := range tr.Played[1].Boards {
		want += fmt.Sprintf("%d %d\n", b.White+1, b.Black+1)
	}
	want += fmt.Sprintf("%d 0\n", tr.Played[1].Bye+1)
	if pairs.String() != want {
		t.Errorf("iceage pairings gives\n%s, the tournament paired\n%s", pairs.String(), want)
	}

	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"tournament", "-db", path, "-id", "999", "-trf"}, 1, "no tournament has id 999"},
		{[]string{"tournament", "-db", path, "-trf"}, 2, "usage"},
		{[]string{"tournament", "-db", path, "-id", "1"}, 2, "usage"},
	} {
		errs.Reset()
		if code := dispatch(c.args, &out, &errs); code != c.code || !strings.Contains(errs.String(), c.says) {
			t.Errorf("%v: status %d, %q; want %d saying %q", c.args, code, errs.String(), c.code, c.says)
		}
	}
}
