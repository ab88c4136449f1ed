package store_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/iceagechess/iceage/store"
)

// Two clicks on the same move: one plays, the other learns that the
// position changed.
func Example() {
	dir, _ := os.MkdirTemp("", "iceage")
	defer os.RemoveAll(dir)
	s, err := store.Open(filepath.Join(dir, "iceage.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	g, err := s.CreateGame(store.NewGame{
		Guild: "guild", Channel: "thread",
		White: store.Seat{ID: "111", Name: "Ada"}, Black: store.Seat{ID: "222", Name: "Bo"},
		DaysPerMove: 2, At: now,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	seen := g.Ply()
	g, err = s.PlayMove("thread", seen, "e2d3", "111", now.Add(time.Minute))
	fmt.Println(g.Ply(), g.Moves[0].UCI, err)
	_, err = s.PlayMove("thread", seen, "e2d3", "111", now.Add(time.Minute))
	fmt.Println(errors.Is(err, store.ErrConflict))
	fmt.Println("deadline", g.Deadline.Format(time.RFC3339))
	// Output:
	// 1 e2d3 <nil>
	// true
	// deadline 2026-12-02T12:01:00Z
}
