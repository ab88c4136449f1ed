package game

import "fmt"

// Match is the record of one game: the start position, every move with its
// SAN and its Ice Age (if any), the current position and the outcome. It
// checks every move it is given and refuses moves once the game is over.
// The zero Match is not usable; create one with NewMatch, ReplayUCI or
// ParsePGN. A Match is not safe for concurrent use.
type Match struct {
	start   Position
	pos     Position
	moves   []Move
	sans    []string
	iceAges []*IceAge // one per move, nil where the move brought no Ice Age
	outcome Outcome
}

// Played is what one move did.
type Played struct {
	Move    Move
	SAN     string
	UCI     string
	IceAge  *IceAge // nil unless the move was Black's Ice-Age move
	Outcome Outcome // the outcome after the move (zero while the game goes on)
}

// NewMatch starts a record from start. If start is already a finished
// position (a frozen king, checkmate, stalemate, fifty moves), the match is
// over from the beginning.
func NewMatch(start Position) *Match {
	return &Match{start: start, pos: start, outcome: start.Outcome()}
}

// Start returns the position the match started from.
func (m *Match) Start() Position { return m.start }

// Position returns the current position.
func (m *Match) Position() Position { return m.pos }

// FEN returns the current position in FEN.
func (m *Match) FEN() string { return m.pos.FEN() }

// Outcome returns the outcome so far; the zero Outcome while the game goes
// on.
func (m *Match) Outcome() Outcome { return m.outcome }

// Moves returns the moves played, in order. The slice is the caller's.
func (m *Match) Moves() []Move { return append([]Move(nil), m.moves...) }

// SANs returns the SAN of every move played, in order.
func (m *Match) SANs() []string { return append([]string(nil), m.sans...) }

// IceAges returns, for every move played, the Ice Age it brought or nil.
// The Ice Ages are copies: changing them does not change the record.
func (m *Match) IceAges() []*IceAge {
	out := make([]*IceAge, len(m.iceAges))
	for i, e := range m.iceAges {
		out[i] = e.clone()
	}
	return out
}

// clone returns a copy of e that shares nothing with it, or nil for nil.
func (e *IceAge) clone() *IceAge {
	if e == nil {
		return nil
	}
	c := *e
	c.Frozen = append([]Placement(nil), e.Frozen...)
	return &c
}

// UCIs returns the moves in UCI form, the compact form for storage that
// ReplayUCI reads back.
func (m *Match) UCIs() []string {
	out := make([]string, len(m.moves))
	for i, x := range m.moves {
		out[i] = x.UCI()
	}
	return out
}

// Play reads a move in any notation ParseMove accepts and plays it. Errors
// are *SyntaxError or *MoveError (Kind GameOver once the game has ended).
func (m *Match) Play(text string) (Played, error) {
	if err := m.refuseIfOver(text); err != nil {
		return Played{}, err
	}
	var buf [maxMoves]Move
	legal := m.pos.LegalMoves(buf[:0])
	mv, err := parseMove(&m.pos, text, legal)
	if err != nil {
		return Played{}, err
	}
	return m.play(mv, legal), nil
}

// PlayMove plays a move given as a Move, e.g. one chosen from LegalMoves.
// Errors are *MoveError: GameOver, or the reason the move is not legal.
func (m *Match) PlayMove(mv Move) (Played, error) {
	if err := m.refuseIfOver(mv.UCI()); err != nil {
		return Played{}, err
	}
	var buf [maxMoves]Move
	legal := m.pos.LegalMoves(buf[:0])
	if !contains(legal, mv) {
		if mv.From() == mv.To() {
			e := NewMoveError(CannotMoveThatWay, DetailSameSquare, mv.UCI(), "a move must go from one square to another")
			e.Move, e.From, e.To = mv, mv.From(), mv.To()
			return Played{}, e
		}
		spec := moveSpec{text: mv.UCI(), piece: NoKind, fromFile: mv.From().File(), fromRank: mv.From().Rank(), to: mv.To(), promo: mv.Promotion()}
		return Played{}, m.pos.explain(&spec, legal)
	}
	return m.play(mv, legal), nil
}

// play plays the legal move mv; legal holds all legal moves of m.pos.
func (m *Match) play(mv Move, legal []Move) Played {
	q, ev := m.pos.ApplyWithEvent(mv)
	out := q.Outcome()
	san := m.pos.san(mv, legal, suffix(&q, out.Reason == Checkmate))
	m.pos = q
	m.moves = append(m.moves, mv)
	m.sans = append(m.sans, san)
	m.iceAges = append(m.iceAges, ev)
	m.outcome = out
	return Played{Move: mv, SAN: san, UCI: mv.UCI(), IceAge: ev.clone(), Outcome: out}
}

func (m *Match) refuseIfOver(text string) error {
	if !m.outcome.Over() {
		return nil
	}
	e := NewMoveError(GameOver, DetailGameOver, text, "the game is over ("+describeOutcome(m.outcome)+"): no more moves")
	e.Outcome = m.outcome
	return e
}

// End records an outcome decided outside the board — a resignation, an
// agreed draw, a timeout, an abort — as package play or a PGN decides it.
// It fails with a *MoveError of Kind GameOver when the game has already
// ended, and with one of Kind NoKind when o is no end of a game or gives a
// result the reason cannot have.
func (m *Match) End(o Outcome) error {
	if m.outcome.Over() {
		e := NewMoveError(GameOver, DetailGameOver, o.Reason.String(), "cannot end the game: it is already over ("+describeOutcome(m.outcome)+")")
		e.Outcome = m.outcome
		return e
	}
	if !o.Valid() {
		return NewMoveError(0, 0, o.Reason.String(), "not a possible end of a game: "+describeOutcome(o))
	}
	m.outcome = o
	return nil
}

// Valid reports whether o is a possible end of a game: an abort without a
// result, or a reason with a result it can give.
func (o Outcome) Valid() bool {
	switch o.Reason {
	case Aborted:
		return o.Result == NoResult
	case Checkmate, KingFrozen, Resignation:
		return o.Result == WhiteWins || o.Result == BlackWins
	case Stalemate, BothKingsFrozen, FiftyMoveRule, DrawAgreed:
		return o.Result == Draw
	case Adjudicated, Timeout:
		// A flag is drawn when the opponent could not have won
		// (Position.CouldWin).
		return o.Result == WhiteWins || o.Result == BlackWins || o.Result == Draw
	}
	return false
}

// WinFor returns the outcome in which c wins for reason r.
func WinFor(c Color, r Reason) Outcome { return Outcome{Result: winnerResult(c), Reason: r} }

func winnerResult(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// describeOutcome says how a game ended, e.g. "White won by checkmate" or
// "drawn: both kings frozen".
func describeOutcome(o Outcome) string {
	switch o.Result {
	case WhiteWins:
		return "White won: " + o.Reason.String()
	case BlackWins:
		return "Black won: " + o.Reason.String()
	case Draw:
		return "drawn: " + o.Reason.String()
	}
	return o.Reason.String()
}

// ReplayUCI rebuilds a match from a start FEN and moves in UCI form, as
// stored by UCIs. Errors say which move failed and why; a *FENError comes
// back as is.
func ReplayUCI(startFEN string, ucis []string) (*Match, error) {
	start, err := ParseFEN(startFEN)
	if err != nil {
		return nil, err
	}
	m := NewMatch(start)
	for i, u := range ucis {
		mv, err := ParseUCI(u)
		if err != nil {
			return nil, fmt.Errorf("replaying move %d: %w", i+1, err)
		}
		if _, err := m.PlayMove(mv); err != nil {
			return nil, fmt.Errorf("replaying move %d (%s): %w", i+1, u, err)
		}
	}
	return m, nil
}
