package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// A panic raised in a caller's callback is the caller's bug, not damage
// to the file: it goes on up as it is, and the store still writes. (This
// test lives outside the package: the guard tells the two apart by the
// package that panicked.)
func TestCallerPanicsAreNotDamage(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r, err := play.New(s, play.Options{}).Start(ctx, play.NewGame{Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, At: at})
	if err != nil {
		t.Fatal(err)
	}
	panics := func(name string, call func()) {
		t.Helper()
		defer func() {
			t.Helper()
			if r := recover(); r != "the caller's own" {
				t.Fatalf("%s: recovered %v, want the caller's panic", name, r)
			}
		}()
		call()
		t.Fatalf("%s returned", name)
	}
	panics("Update", func() {
		s.Update(ctx, func(tx play.Tx) error {
			g, err := tx.Game(r.Game.ID)
			if err != nil {
				return err
			}
			g.Revision++
			if err := tx.PutGame(g); err != nil {
				return err
			}
			panic("the caller's own")
		})
	})
	panics("View", func() {
		s.View(ctx, func(tx play.ReadTx) error {
			if _, err := tx.GameIn("c"); err != nil {
				return err
			}
			panic("the caller's own")
		})
	})
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("w", play.Prefs{}) }); err != nil {
		t.Fatalf("after the caller's panic the store refuses to write: %v", err)
	}
	err = s.View(ctx, func(tx play.ReadTx) error {
		g, err := tx.Game(r.Game.ID)
		if err == nil && g.Revision != r.Game.Revision {
			t.Errorf("the write of the transaction that panicked was kept: revision %d, want %d", g.Revision, r.Game.Revision)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
