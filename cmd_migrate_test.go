package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/playtest"
	"github.com/iceagechess/iceage/store"
)

// TestMigrateCommand copies a bbolt file that holds every kind of record
// into PostgreSQL and back into a new bbolt file, and finds every record
// in both copies, equal.
func TestMigrateCommand(t *testing.T) {
	url := pgtest.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "iceage.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	// One record of every kind, each field set.
	err = s.Update(ctx, func(tx play.Tx) error {
		_, err := playtest.EveryKind(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// And what play writes as games are played and end: rated games
	// rate and log both players, in the guild and everywhere.
	svc := play.New(s, play.Options{Rand: func(int) int { return 0 }})
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var lastID uint64
	for i := range 30 {
		r, err := svc.Start(ctx, play.NewGame{Guild: "g2", Channel: fmt.Sprint("p", i), White: play.Seat{ID: fmt.Sprint("w", i%4)}, Black: play.Seat{ID: "b"}, Rated: i%2 == 0, DaysPerMove: 3, At: at})
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
	c, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g2", Channel: "p99", From: play.Seat{ID: "w0"}, To: play.Seat{ID: "x"}, Color: play.Random, DaysPerMove: 3, At: at})
	if err != nil {
		t.Fatal(err)
	}
	lastID = max(lastID, c.ID)
	// A game waiting for the engine is an item of the outbox: the copy
	// must keep it, or the game waits for ever. One claimed by a process
	// of the source is the copy's to deliver.
	engineTurn := play.OutboxItem{Key: fmt.Sprintf("g%d.r1.engine", lastID-1), Game: lastID - 1, Kind: "engine", Due: at, Created: at}
	err = s.Update(ctx, func(tx play.Tx) error {
		if err := tx.PutOutbox(engineTurn, play.OutboxItem{Key: "claimed", Kind: "deliver", Due: at, Created: at}); err != nil {
			return err
		}
		return tx.PutPrefs("b", play.Prefs{Language: "fr", Reminders: []int{}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if claimed, err := s.ClaimOutbox(ctx, "process-1", at, time.Minute, 1); err != nil || len(claimed) != 1 {
		t.Fatalf("claiming an outbox item: %v, %v", claimed, err)
	}
	want, schedule := playtest.Dump(t, s), playtest.Schedule(t, s)
	if len(schedule) == 0 {
		t.Fatal("the source's schedule is empty")
	}
	perKind := map[play.RecordKind]int{}
	if _, err := s.Export(ctx, func(r play.Record) error { perKind[r.Kind()]++; return nil }); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, k := range play.RecordKinds() {
		if perKind[k] == 0 {
			t.Fatalf("the source holds no %v", k)
		}
	}

	var out, errb bytes.Buffer
	if code := dispatch([]string{"migrate", "-db", db, "-url", url}, &out, &errb); code != 0 {
		t.Fatalf("migrate into PostgreSQL: exit %d: %s", code, errb.String())
	}
	// The report counts every kind, truly.
	report := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(report) != 1+len(play.RecordKinds()) || !strings.HasSuffix(report[0], "the copy holds the same records, kind by kind:") {
		t.Fatalf("the report:\n%s", out.String())
	}
	for i, k := range play.RecordKinds() {
		if line := strings.TrimSpace(report[1+i]); !strings.HasPrefix(line, k.Count(perKind[k])) {
			t.Errorf("the report says %q, the source holds %s", line, k.Count(perKind[k]))
		}
	}
	if report[1] != "  32 games (11 finished)" {
		t.Errorf("the report says %q, want 32 games, 11 finished", report[1])
	}
	pg, err := pgstore.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if d := playtest.Diff(playtest.Dump(t, pg), want); d != "" {
		t.Fatalf("PostgreSQL differs from the bbolt file:%s", d)
	}
	if got := playtest.Schedule(t, pg); !slices.Equal(got, schedule) {
		t.Errorf("PostgreSQL's schedule is\n%s\nthe bbolt file's\n%s", strings.Join(got, "\n"), strings.Join(schedule, "\n"))
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
		if d := playtest.Diff(playtest.Dump(t, b), want); d != "" {
			t.Fatalf("the copy back differs from the first bbolt file:%s", d)
		}
		if got := playtest.Schedule(t, b); !slices.Equal(got, schedule) {
			t.Errorf("the copy back's schedule is\n%s\nthe first file's\n%s", strings.Join(got, "\n"), strings.Join(schedule, "\n"))
		}
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
		// What /history and /stats read comes back too.
		err = b.View(ctx, func(tx play.ReadTx) error {
			n := 0
			if err := tx.PlayerLog("g2", "b", func(play.LogEntry) error { n++; return nil }); err != nil || n != 10 {
				return fmt.Errorf("b's log in g2 has %d entries (%v), want 10", n, err)
			}
			if games, err := tx.Finished("b", "g2", 0, 100); err != nil || len(games) != 10 {
				return fmt.Errorf("b's finished games in g2: %d (%v), want 10", len(games), err)
			}
			for _, id := range []uint64{1, 2} {
				if tid, err := tx.TournamentOf(id); err != nil || tid != 4 {
					return fmt.Errorf("the tournament of game %d: %d, %v", id, tid, err)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The claim of the source's process is not the copy's: its item
		// is anyone's to deliver once due, as the others are.
		if items, err := b.ClaimOutbox(ctx, "process-2", at.Add(2*time.Minute), time.Minute, 10); err != nil || len(items) != perKind[play.KindOutbox] {
			t.Errorf("the copy's due outbox items: %v, %v; want all %d", items, err, perKind[play.KindOutbox])
		}
	})
}
