package play_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// BenchmarkMoveMemory is the cost of one move through play on the
// in-memory storage: the transaction, the checks, parsing and playing the
// move, and writing the game back. It plays the reference games one after
// another, each on a fresh storage (set up outside the timer), so that it
// measures a move and not the storage's size.
func BenchmarkMoveMemory(b *testing.B) {
	refs := loadRefGames(b)
	var (
		svc   *play.Service
		g     play.Game
		round int
		at    = t0
	)
	newGame := func() {
		round++
		svc = play.New(memstore.New(), play.Options{})
		var err error
		r, err := svc.Start(ctx, play.NewGame{Channel: fmt.Sprint("c", round), White: ann, Black: bob, DaysPerMove: 3, At: at})
		if err != nil {
			b.Fatal(err)
		}
		g = r.Game
	}
	newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ref := refs[round%len(refs)]
		if g.Over() || g.Ply() >= len(ref.moves) {
			b.StopTimer()
			newGame()
			ref = refs[round%len(refs)]
			b.StartTimer()
		}
		at = at.Add(time.Minute)
		r, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: at}, ref.moves[g.Ply()])
		if err != nil {
			b.Fatal(err)
		}
		g = r.Game
	}
}
