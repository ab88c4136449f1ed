package engine

import "github.com/iceagechess/iceage/game"

// An exhaustive solver, independent of the engine's search, that checks
// the tactics tests' positions: it tries every line.

// wonBy reports whether the game in q is over and won by c.
func wonBy(q *game.Position, c game.Color) bool {
	o := q.Outcome()
	w, ok := o.Winner()
	return o.Over() && ok && w == c
}

// winningMoves returns the moves of the side to move in p after which it
// wins (checkmate or a frozen enemy king) within n of its own moves
// whatever the opponent does, n counting the first.
func winningMoves(p game.Position, n int) []game.Move {
	var out []game.Move
	for _, m := range p.LegalMoves(nil) {
		if forcesWin(p, m, n) {
			out = append(out, m)
		}
	}
	return out
}

// forcesWin reports whether the move m in p wins within n moves of the
// mover.
func forcesWin(p game.Position, m game.Move, n int) bool {
	us := p.Turn()
	q := p.Apply(m)
	if wonBy(&q, us) {
		return true
	}
	if n <= 1 || q.Outcome().Over() {
		return false
	}
	var buf [256]game.Move
	for _, r := range q.LegalMoves(buf[:0]) {
		q2 := q.Apply(r)
		if q2.Outcome().Over() {
			if wonBy(&q2, us) {
				continue
			}
			return false
		}
		if !canWin(q2, n-1) {
			return false
		}
	}
	return true
}

// canWin reports whether the side to move in p wins within n moves.
func canWin(p game.Position, n int) bool {
	var buf [256]game.Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if forcesWin(p, m, n) {
			return true
		}
	}
	return false
}
