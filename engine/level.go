package engine

import (
	"context"
	"sync"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Levels is the number of playing levels: 1 (a beginner) to Levels (full
// strength).
const Levels = 8

// DefaultMoveTime is the time budget of the strongest level: at most this
// long a move.
const DefaultMoveTime = 2 * time.Second

// levels holds each level's limits. Levels 1–4 look one or two plies
// ahead and choose at random among the moves that score near the best,
// within a margin that shrinks as the level rises: level 1 gives away a
// piece now and then, level 4 rarely more than a quarter of a pawn.
// Level 5 searches a node budget and still varies its play a little;
// levels 6–8 always play their best move within budgets that grow about
// fourfold a level (level 8's two seconds are some four million nodes).
var levels = [Levels + 1]Limits{
	1: {Depth: 1, Nodes: 20_000, Margin: 400},
	2: {Depth: 1, Nodes: 20_000, Margin: 150},
	3: {Depth: 2, Nodes: 50_000, Margin: 100},
	4: {Depth: 2, Nodes: 50_000, Margin: 25},
	5: {Nodes: 50_000, Margin: 10},
	6: {Nodes: 200_000},
	7: {Nodes: 800_000, Time: DefaultMoveTime / 2},
	8: {Time: DefaultMoveTime},
}

// Level returns the limits of playing level n, from 1 (a beginner who
// blunders on purpose) to 8 (full strength within DefaultMoveTime). A
// level below 1 is taken as 1, above 8 as 8. Set the returned Seed to vary
// the weaker levels' choices; set Time or Nodes to change the budget.
func Level(n int) Limits {
	return levels[min(max(n, 1), Levels)]
}

// pool holds engines for Choose, each reset before use, so Choose is
// deterministic and does not allocate a table per call.
var pool = sync.Pool{New: func() any { return New(Options{TableBytes: 8 << 20}) }}

// Choose returns the move a player of the given level would make in p,
// with seed for the weaker levels' choices. It is safe for concurrent use:
// each call has an Engine of its own, reset first, so the same position,
// level and seed give the same move (for levels without a time budget).
// It returns NullMove when p has no legal move.
func Choose(ctx context.Context, p game.Position, level int, seed uint64) game.Move {
	lim := Level(level)
	lim.Seed = seed
	e := pool.Get().(*Engine)
	defer pool.Put(e)
	e.Reset()
	return e.Search(ctx, p, lim).Best
}
