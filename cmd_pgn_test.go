package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

func TestPGNCommandExportsAStoredGameThatReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	svc := play.New(st, play.Options{})
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: "c", White: play.Seat{ID: "1", Name: "Ann"}, Black: play.Seat{ID: "2", Name: "Bo"}, At: at})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game
	for i, mv := range []string{"hxg3", "Nxf6", "Nxf3"} {
		by := []string{"1", "2"}[i%2]
		if r, err = svc.Move(ctx, play.Act{By: by, Game: g.ID, Revision: g.Revision, At: at}, mv); err != nil {
			t.Fatal(err)
		}
		g = r.Game
	}
	if _, err := svc.Resign(ctx, play.Act{By: "2", Game: g.ID, Revision: g.Revision, At: at}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	var out, errs bytes.Buffer
	if code := dispatch([]string{"pgn", "-db", path, "-game", "1"}, &out, &errs); code != 0 {
		t.Fatalf("status %d: %s", code, errs.String())
	}
	m, tags, err := game.ParsePGN(out.String())
	if err != nil {
		t.Fatalf("the exported PGN does not read back: %v\n%s", err, out.String())
	}
	if len(m.SANs()) != 3 || m.Outcome() != game.WinFor(game.White, game.Resignation) || tags.White != "Ann" {
		t.Errorf("read back %v, %v, %+v from\n%s", m.SANs(), m.Outcome(), tags, out.String())
	}
	out.Reset()
	if code := dispatch([]string{"pgn", "-db", path, "-user", "2"}, &out, &errs); code != 0 || !strings.Contains(out.String(), `[Black "Bo"]`) {
		t.Errorf("a player's games: status %d, %s", code, out.String())
	}
	if code := dispatch([]string{"pgn", "-db", path, "-game", "99"}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "no game has id 99") {
		t.Errorf("an unknown game: status %d, %q", code, errs.String())
	}
	if code := dispatch([]string{"pgn", "-db", path}, &out, &errs); code != 2 {
		t.Errorf("neither -game nor -user: status %d", code)
	}
}
