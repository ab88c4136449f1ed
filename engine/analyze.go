package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/iceagechess/iceage/game"
)

// AnalysisNodes is the node budget Analyze gives each position when its
// Limits are zero: enough to see the tactics of a few moves, about a
// twentieth of a second a position.
const AnalysisNodes = 50_000

// MistakeDrop is the smallest drop, in centipawns, that Analyze counts as
// a mistake: half a pawn.
const MistakeDrop = 50

// clampScore bounds the scores Analyze compares: a forced win counts as
// 20 pawns, so that a missed mate weighs like a lost queen and more, but
// mates in 3 and in 5 do not differ by a pawn's worth of "drop".
const clampScore = 2000

// Analysis is a game's evaluation, position by position.
type Analysis struct {
	// Scores[i] is the score of the position before move i, and the last
	// one of the final position, in centipawns for White (positive when
	// White stands better; mates as in Result, but for White).
	Scores []int
	// Best[i] is the move the engine prefers before move i; NullMove in
	// the final position when the game is over.
	Best []game.Move
	// Mistakes are the moves that lost at least MistakeDrop, the worst
	// first.
	Mistakes []Mistake
}

// Mistake is one move that lost ground.
type Mistake struct {
	Ply  int       // the index of the move, from 0
	Move game.Move // the move played
	Best game.Move // the move the engine preferred
	Drop int       // how much the mover's score fell, in centipawns (wins count as 20 pawns)
}

// IllegalMoveError is returned by Analyze for a move that is not legal
// where it stands.
type IllegalMoveError struct {
	Ply  int
	Move game.Move
	FEN  string // the position it was tried in
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("engine: move %d (%s) is not legal in %s", e.Ply+1, e.Move, e.FEN)
}

// Analyze evaluates every position of a game, from start through each of
// moves, within lim each (zero Limits mean AnalysisNodes nodes; Margin is
// ignored), and lists the moves whose score fell most for their player.
// It returns an *IllegalMoveError for a move not legal where it stands,
// and stops with ctx, returning what it has and ctx's error. It is
// deterministic for node limits.
func Analyze(ctx context.Context, start game.Position, moves []game.Move, lim Limits) (Analysis, error) {
	if lim == (Limits{}) {
		lim.Nodes = AnalysisNodes
	}
	lim.Margin = 0
	e := New(Options{TableBytes: 8 << 20})
	var a Analysis
	p := start
	for i := 0; i <= len(moves); i++ {
		if err := ctx.Err(); err != nil {
			return a, err
		}
		r := e.Search(ctx, p, lim)
		score := r.Score
		if p.Turn() == game.Black {
			score = -score
		}
		a.Scores = append(a.Scores, score)
		a.Best = append(a.Best, r.Best)
		if i == len(moves) {
			break
		}
		m := moves[i]
		if !p.IsLegal(m) {
			return a, &IllegalMoveError{Ply: i, Move: m, FEN: p.FEN()}
		}
		p = p.Apply(m)
	}
	for i, m := range moves {
		before := clamp(a.Scores[i])
		after := clamp(a.Scores[i+1])
		drop := before - after
		mover := start.Turn()
		if i%2 == 1 {
			mover = mover.Other()
		}
		if mover == game.Black {
			drop = -drop // scores are White's: Black loses when they rise
		}
		if drop >= MistakeDrop && m != a.Best[i] {
			a.Mistakes = append(a.Mistakes, Mistake{Ply: i, Move: m, Best: a.Best[i], Drop: drop})
		}
	}
	slices.SortStableFunc(a.Mistakes, func(x, y Mistake) int { return y.Drop - x.Drop })
	return a, nil
}

func clamp(score int) int { return min(max(score, -clampScore), clampScore) }
