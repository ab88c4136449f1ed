package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// The store is play's storage on disk: two clicks on the same move, one
// plays and is on disk when Move returns; the other is refused as stale.
func Example() {
	dir, _ := os.MkdirTemp("", "iceage")
	defer os.RemoveAll(dir)
	s, err := store.Open(filepath.Join(dir, "iceage.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	games := play.New(s, play.Options{})

	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r, err := games.Start(ctx, play.NewGame{
		Guild: "guild", Channel: "thread",
		White: play.Seat{ID: "111", Name: "Ada"}, Black: play.Seat{ID: "222", Name: "Bo"},
		DaysPerMove: 2, At: now,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	click := play.Act{By: "111", Game: r.Game.ID, Revision: r.Game.Revision, At: now.Add(time.Minute)}
	r, err = games.Move(ctx, click, "e2d3")
	fmt.Println(r.Move.SAN, r.Game.Ply(), err)
	_, err = games.Move(ctx, click, "e2d3")
	var refusal *play.Refusal
	fmt.Println(errors.As(err, &refusal) && refusal.Kind == play.Stale)
	fmt.Println("deadline", r.Game.Deadline.Format(time.RFC3339))
	// Output:
	// exd3 1 <nil>
	// true
	// deadline 2026-12-02T12:01:00Z
}
