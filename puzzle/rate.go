package puzzle

import (
	"context"
	"slices"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
)

// A puzzle's first rating guesses how hard it is; the tries of players
// then move it (Glicko-2, player against puzzle). The guess grows with
// the depth at which the engine first settles on the solution's first
// move, with the solver's moves, with the forcing moves that tempt
// instead (checks and captures of men), for a quiet first move (no
// check, no capture of a man: taking ice counts as half quiet), for a
// man left where it can be taken, for the variant's own ideas (a freeze,
// a mate that the ice makes, a king to save), and with the moves there
// are to choose from.
const (
	ratingBase      = 450
	ratingPerDepth  = 120 // each ply the engine needs before it settles
	ratingPerMove   = 260 // each solver move after the first
	ratingPerDecoy  = 35  // each other check or capture of a man, up to maxDecoys
	maxDecoys       = 12
	ratingQuiet     = 240
	ratingIceTaken  = 120
	ratingSacrifice = 160
	ratingVariant   = 140 // freeze, mate through ice, save the king
	ratingPerLegal  = 3   // each legal move, up to 50
	ratingMin       = 500
	ratingMax       = 2800
	settleDepth     = 8 // the deepest search of the guess
)

// rate guesses a puzzle's first rating.
func (s *Scanner) rate(ctx context.Context, p game.Position, line []game.Move, themes []Theme, goal Goal) int {
	first := line[0]
	settled := settleDepth + 1
	for d := settleDepth; d >= 1; d-- {
		// Each depth on an empty table, so that a shallow search does
		// not borrow what a deeper one saw.
		s.judge.Reset()
		r := s.judge.Search(ctx, p, engine.Limits{Depth: d, Nodes: s.opt.DeepNodes})
		if r.Best != first {
			break
		}
		settled = d
	}
	r := ratingBase + ratingPerDepth*(settled-1) + ratingPerMove*((len(line)+1)/2-1)
	var buf [256]game.Move
	legal := p.LegalMoves(buf[:0])
	decoys := 0
	for _, m := range legal {
		if m == first {
			continue
		}
		q := p.Apply(m)
		if q.InCheck() || p.PieceAt(m.To()) != game.NoPiece {
			decoys++
		}
	}
	r += ratingPerDecoy * min(decoys, maxDecoys)
	q := p.Apply(first)
	switch {
	case q.InCheck() || p.PieceAt(first.To()) != game.NoPiece:
	case p.IsIce(first.To()):
		r += ratingIceTaken
	default:
		r += ratingQuiet
	}
	if !q.Outcome().Over() && q.Attacked(first.To(), q.Turn()) && p.PieceAt(first.From()).Kind() != game.King {
		r += ratingSacrifice
	}
	for _, t := range []Theme{FreezeKing, MateThroughIce, SaveKing} {
		if slices.Contains(themes, t) {
			r += ratingVariant
		}
	}
	r += ratingPerLegal * min(len(legal), 50)
	r = (r + 5) / 10 * 10
	return min(max(r, ratingMin), ratingMax)
}
