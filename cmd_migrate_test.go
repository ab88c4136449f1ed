package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// dumpAll lists every record of a storage as sorted JSON lines.
func dumpAll(t *testing.T, st play.Exporter) []string {
	t.Helper()
	var out []string
	add := func(kind string, v any) error {
		b, err := json.Marshal(v)
		out = append(out, kind+" "+string(b))
		return err
	}
	err := st.Export(context.Background(), play.Walk{
		Game:      func(g play.Game) error { return add("game", g) },
		Challenge: func(c play.Challenge) error { return add("challenge", c) },
		Player:    func(p play.Player) error { return add("player", p) },
		Stats:     func(s play.Stats) error { return add("stats", s) },
		Prefs:     func(u string, p play.Prefs) error { return add("prefs "+u, p) },
		Outbox:    func(it play.OutboxItem) error { return add("outbox", it) },
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestMigrateCommand(t *testing.T) {
	url := pgtest.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "iceage.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := play.New(s, play.Options{Rand: func(int) int { return 0 }})
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var lastID uint64
	for i := range 30 {
		r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: fmt.Sprint("c", i), White: play.Seat{ID: fmt.Sprint("w", i%4)}, Black: play.Seat{ID: "b"}, DaysPerMove: 3, At: at})
		if err != nil {
			t.Fatal(err)
		}
		lastID = r.Game.ID
		if i%3 == 0 {
			if _, err := svc.Resign(ctx, play.Act{By: "b", Game: r.Game.ID, Revision: r.Game.Revision, At: at.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	c, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c99", From: play.Seat{ID: "w0"}, To: play.Seat{ID: "x"}, Color: play.Random, DaysPerMove: 3, At: at})
	if err != nil {
		t.Fatal(err)
	}
	lastID = max(lastID, c.ID)
	// A game waiting for the engine is an item of the outbox: the copy
	// must keep it, or the game waits for ever.
	engineTurn := play.OutboxItem{Key: fmt.Sprintf("g%d.r1.engine", lastID), Game: lastID, Kind: "engine", Due: at, Created: at}
	err = s.Update(ctx, func(tx play.Tx) error {
		if err := tx.PutOutbox(engineTurn); err != nil {
			return err
		}
		return tx.PutPrefs("b", play.Prefs{Language: "fr", Reminders: []int{}})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := dumpAll(t, s)
	s.Close()

	var out, errb bytes.Buffer
	if code := dispatch([]string{"migrate", "-db", db, "-url", url}, &out, &errb); code != 0 {
		t.Fatalf("migrate into PostgreSQL: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "30 games (10 finished), 1 challenges") || !strings.Contains(out.String(), "1 outbox items") {
		t.Errorf("the report: %s", out.String())
	}
	pg, err := pgstore.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if got := dumpAll(t, pg); !slices.Equal(got, want) {
		t.Fatalf("PostgreSQL holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	err = pg.Update(ctx, func(tx play.Tx) error {
		id, err := tx.NextID()
		if err == nil && id <= lastID {
			err = fmt.Errorf("NextID gave %d after the copy of ids up to %d", id, lastID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a second copy into a database that holds records is refused", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := dispatch([]string{"migrate", "-db", db, "-url", url}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "not empty") {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
	})
	t.Run("and back into a new bbolt file, equal", func(t *testing.T) {
		back := filepath.Join(dir, "back.db")
		var out, errb bytes.Buffer
		if code := dispatch([]string{"migrate", "-to", "bbolt", "-db", back, "-url", url}, &out, &errb); code != 0 {
			t.Fatalf("migrate into bbolt: exit %d: %s", code, errb.String())
		}
		b, err := store.Open(back, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if got := dumpAll(t, b); !slices.Equal(got, want) {
			t.Fatalf("the copy back holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
	})
}
