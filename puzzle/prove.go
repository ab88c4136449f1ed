package puzzle

import "github.com/iceagechess/iceage/game"

// A proof is exhaustive: every move of the solver and every defence,
// with no evaluation and no pruning but the logic of "some move of mine,
// against every reply". A win is the game's own: the opponent checkmated,
// or the opponent's king frozen alone by an Ice Age, whether that Ice Age
// comes with the solver's move (Black's 20th, 40th, …) or with the
// opponent's reply, whatever the reply is.

// Forces reports whether m, played by the side to move in p, wins within
// n moves of that side (m the first) against every defence. m must be
// legal in p.
func Forces(p *game.Position, m game.Move, n int) bool {
	if n < 1 {
		return false
	}
	mover := p.Turn()
	q := p.Apply(m)
	if n == 1 && !q.InCheck() && !p.IceAgeNow() && !q.IceAgeNow() {
		// No mate (no check), no Ice Age on this move or the reply: no
		// win within one move. This cut keeps proofs of two moves fast.
		return false
	}
	if o := q.Outcome(); o.Over() {
		w, ok := o.Winner()
		return ok && w == mover
	}
	var buf [256]game.Move
	for _, r := range q.LegalMoves(buf[:0]) {
		s := q.Apply(r)
		if o := s.Outcome(); o.Over() {
			if w, ok := o.Winner(); ok && w == mover {
				continue // the reply's Ice Age froze the defender's king
			}
			return false
		}
		if n == 1 || !WinsWithin(&s, n-1) {
			return false
		}
	}
	return true
}

// WinsWithin reports whether the side to move in p forces a win within n
// of its moves.
func WinsWithin(p *game.Position, n int) bool {
	var buf [256]game.Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if Forces(p, m, n) {
			return true
		}
	}
	return false
}

// Winners returns every move of the side to move in p that forces a win
// within n moves, in the order of p.LegalMoves.
func Winners(p *game.Position, n int) []game.Move {
	var buf [256]game.Move
	var out []game.Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if Forces(p, m, n) {
			out = append(out, m)
		}
	}
	return out
}

// ProofError says why a puzzle's proof failed.
type ProofError struct {
	ID  string
	Msg string
}

func (e *ProofError) Error() string { return "puzzle " + e.ID + ": " + e.Msg }

// Prove re-runs the proof of a proven puzzle: its first move forces the
// win within the puzzle's number of solver moves against every defence,
// no other first move does, and no win is shorter. Every line the
// puzzle shows is legal and its last move wins (Check).
func (pz *Puzzle) Prove() error {
	if err := pz.Check(); err != nil {
		return err
	}
	p, line, _ := pz.parse()
	n := pz.SolverMoves()
	if n > MaxProvenMoves {
		return &ProofError{pz.ID, "too long to prove"}
	}
	if n > 1 && WinsWithin(&p, n-1) {
		return &ProofError{pz.ID, "a shorter win exists"}
	}
	w := Winners(&p, n)
	if len(w) != 1 || w[0] != line[0] {
		return &ProofError{pz.ID, "the first move is not the only one that forces the win"}
	}
	return nil
}
