package game

// Result is who won. The numbers are stable: they are stored.
type Result uint8

const (
	NoResult  Result = 0 // the game goes on
	WhiteWins Result = 1
	BlackWins Result = 2
	Draw      Result = 3
)

// String returns the PGN result: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Reason is why a game ended. The numbers are stable: they are stored.
// The first ones follow from the position (Status); the rest come from the
// players or the clock.
type Reason uint8

const (
	NoReason        Reason = 0
	Checkmate       Reason = 1
	Stalemate       Reason = 2
	KingFrozen      Reason = 3 // one king froze in an Ice Age: its owner loses
	BothKingsFrozen Reason = 4
	FiftyMoveRule   Reason = 5
	Resignation     Reason = 6
	DrawAgreed      Reason = 7
	Timeout         Reason = 8
	Aborted         Reason = 9 // ended before it really started; no result
	// Adjudicated: ended unfinished by a rule of an event, not of the
	// board (a tournament's round that closed): a win or a draw.
	Adjudicated Reason = 10
)

// String returns a short English description, e.g. "king frozen".
func (r Reason) String() string {
	switch r {
	case Checkmate:
		return "checkmate"
	case Stalemate:
		return "stalemate"
	case KingFrozen:
		return "king frozen"
	case BothKingsFrozen:
		return "both kings frozen"
	case FiftyMoveRule:
		return "fifty-move rule"
	case Resignation:
		return "resignation"
	case DrawAgreed:
		return "draw agreed"
	case Timeout:
		return "time forfeit"
	case Aborted:
		return "aborted"
	case Adjudicated:
		return "adjudicated"
	}
	return "none"
}

// Outcome is a game's result and the reason for it. The zero Outcome means
// the game goes on.
type Outcome struct {
	Result Result
	Reason Reason
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Reason != NoReason }

// Winner returns the winning colour; ok is false for a draw or no result.
func (o Outcome) Winner() (c Color, ok bool) {
	switch o.Result {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return White, false
}

// Outcome judges the position after a move (with its Ice Age, if any), in
// the order of docs/rules.md §5: a frozen king (both frozen: draw; one: its
// owner loses), checkmate, stalemate, then the fifty-move rule (automatic
// at 100 half-moves). Resignation, agreement and time are for the game
// record to decide. The zero Outcome means the game goes on.
func (p *Position) Outcome() Outcome {
	white := p.kinds[King]&p.men[White] != 0
	black := p.kinds[King]&p.men[Black] != 0
	switch {
	case !white && !black:
		return Outcome{Draw, BothKingsFrozen}
	case !white:
		return Outcome{BlackWins, KingFrozen}
	case !black:
		return Outcome{WhiteWins, KingFrozen}
	}
	if p.countLegal() == 0 {
		if !p.InCheck() {
			return Outcome{Draw, Stalemate}
		}
		if p.turn == White {
			return Outcome{BlackWins, Checkmate}
		}
		return Outcome{WhiteWins, Checkmate}
	}
	if p.halfmove >= 100 {
		return Outcome{Draw, FiftyMoveRule}
	}
	return Outcome{}
}
