package puzzle

import (
	"context"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
)

// A puzzle's first rating guesses how hard it is; the tries of players
// then move it (Glicko-2, player against puzzle). The guess grows with
// the depth at which the engine first settles on the solution's first
// move, with the solver's moves, for a quiet first move (no check, no
// capture of a man), for a freeze (the variant's own idea, new to most)
// and with the moves there are to choose from.
const (
	ratingBase     = 500
	ratingPerDepth = 150 // each ply the engine needs before it settles
	ratingPerMove  = 220 // each solver move after the first
	ratingQuiet    = 220
	ratingFreeze   = 120
	ratingMin      = 500
	ratingMax      = 2800
	settleDepth    = 8 // the deepest search of the guess
)

// rate guesses a puzzle's first rating.
func (s *Scanner) rate(ctx context.Context, p game.Position, line []game.Move, themes []Theme, goal Goal) int {
	first := line[0]
	settled := settleDepth + 1
	for d := settleDepth; d >= 1; d-- {
		// Deepest first, so the table helps the shallower searches no
		// more than it would a player who has looked deeper.
		s.judge.Reset()
		r := s.judge.Search(ctx, p, engine.Limits{Depth: d, Nodes: s.opt.DeepNodes})
		if r.Best != first {
			break
		}
		settled = d
	}
	r := ratingBase + ratingPerDepth*(settled-1) + ratingPerMove*((len(line)+1)/2-1)
	q := p.Apply(first)
	if !q.InCheck() && p.PieceAt(first.To()) == game.NoPiece {
		r += ratingQuiet
	}
	if goal == Freeze {
		r += ratingFreeze
	}
	var buf [256]game.Move
	r += min(len(p.LegalMoves(buf[:0])), 40) * 3
	r = (r + 5) / 10 * 10
	return min(max(r, ratingMin), ratingMax)
}
