package engine

import (
	"context"
	"testing"

	"github.com/iceagechess/iceage/game"
)

func TestSearchExceptLeavesOutTheMoveAndScoresTheRest(t *testing.T) {
	p, err := game.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1") // Ra8# is the only mate
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{TableBytes: 1 << 20})
	best := e.Search(context.Background(), p, Limits{Depth: 4})
	if best.Best.UCI() != "a1a8" || MateIn(best.Score) != 1 {
		t.Fatalf("best %s %d", best.Best, best.Score)
	}
	alt := e.SearchExcept(context.Background(), p, Limits{Depth: 4}, best.Best)
	if alt.Best == best.Best || alt.Best == game.NullMove || MateIn(alt.Score) == 1 {
		t.Fatalf("without Ra8#: %s %d", alt.Best, alt.Score)
	}
	k, _ := game.ParseFEN("7k/8/8/8/8/8/8/K7 w - - 0 1")
	var buf [256]game.Move
	only := k.LegalMoves(buf[:0])[0]
	if r := e.SearchExcept(context.Background(), k, Limits{Depth: 2}, only); r.Best == only {
		t.Fatalf("the move left out was played: %s", r.Best)
	}
}
