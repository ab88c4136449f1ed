package store_test

import (
	"path/filepath"
	"testing"
	"time"

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
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if _, err := s.CreateGame(store.NewGame{Channel: "c", White: store.Seat{ID: "w"}, Black: store.Seat{ID: "b"}, At: at}); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != "the caller's own" {
				t.Fatalf("recovered %v, want the caller's panic", r)
			}
		}()
		s.UpdateGame("c", store.AnyPly, func(g *store.Game) error { panic("the caller's own") })
		t.Fatal("UpdateGame returned")
	}()
	if _, err := s.SetPrefs("w", func(p *store.Prefs) error { return nil }); err != nil {
		t.Fatalf("after the caller's panic the store refuses to write: %v", err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
