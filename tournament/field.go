package tournament

import "fmt"

// Points are counted in half points, so that a draw is 1 and a win 2 and
// no score is ever rounded.
type Points int

// String writes points as a chess player does: "3½" is written "3.5".
func (p Points) String() string {
	if p%2 == 0 {
		return fmt.Sprintf("%d", p/2)
	}
	if p < 0 {
		return fmt.Sprintf("-%d.5", -p/2)
	}
	return fmt.Sprintf("%d.5", p/2)
}

// Color is a side in one game, or none for a round without a game.
type Color int8

const (
	NoColor Color = iota
	White
	Black
)

func (c Color) opposite() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// Outcome is what one round brought one player. The values are stored:
// never renumber them.
type Outcome int8

const (
	// Pending is a game paired and not yet over.
	Pending Outcome = iota
	Win
	Draw
	Loss
	// ForfeitWin and ForfeitLoss are games paired and not played: they
	// score, but the players did not meet and had no colour (C.04.2).
	ForfeitWin
	ForfeitLoss
	// Bye is the pairing-allocated bye: no opponent, a win's points.
	Bye
	// FullBye, HalfBye and ZeroBye are rounds a player sat out and was
	// given 1, ½ or 0 points for (a requested bye, a late entry, an
	// absence).
	FullBye
	HalfBye
	ZeroBye
	// HalfPointBye and ZeroPointBye are the pairing-allocated bye of a
	// tournament whose organiser gave it ½ or 0 points rather than a
	// win's: for the pairing still the bye (no second one), in a TRF
	// still "U", with the points in the scoring line (XXS PAB).
	HalfPointBye
	ZeroPointBye
	// DoubleForfeit is a board's result, from White's side, when neither
	// player came: both lose by forfeit.
	DoubleForfeit
)

// Points is what the outcome scores under the standard 1-½-0 system.
func (o Outcome) Points() Points {
	switch o {
	case Win, ForfeitWin, Bye, FullBye:
		return 2
	case Draw, HalfBye, HalfPointBye:
		return 1
	}
	return 0
}

// PairingBye tells whether the outcome is the pairing-allocated bye,
// whatever it scores.
func (o Outcome) PairingBye() bool { return o == Bye || o == HalfPointBye || o == ZeroPointBye }

// Played tells whether the players met over the board: only such games
// count for colours and for "not twice against the same opponent".
func (o Outcome) Played() bool { return o == Win || o == Draw || o == Loss || o == Pending }

// Game is one round of one player: the opponent (an index into
// Field.Players, or -1), the colour and the outcome.
type Game struct {
	Opponent int
	Color    Color
	Outcome  Outcome
}

// Entrant is one player of a tournament with the rounds played so far.
// Games has one entry per round already paired; Out marks a player who
// withdrew or sits out the round being paired.
type Entrant struct {
	Name   string
	Rating int
	Games  []Game
	Out    bool
}

// Score is the entrant's points over the rounds in Games.
func (e *Entrant) Score() Points {
	var p Points
	for _, g := range e.Games {
		p += g.Outcome.Points()
	}
	return p
}

// scoreBefore is the score over the first r rounds.
func (e *Entrant) scoreBefore(r int) Points {
	var p Points
	for i := 0; i < r && i < len(e.Games); i++ {
		p += e.Games[i].Outcome.Points()
	}
	return p
}

// Field is a Swiss tournament as the pairing sees it: the entrants in
// pairing-number order (Players[0] has TPN 1), the number of rounds the
// tournament will have, the colour drawn for the first board
// (C.04.3 5.1) and what the pairing-allocated bye scores (Bye, the
// zero value, HalfPointBye or ZeroPointBye). Every entrant has
// len(Games) == the rounds played.
type Field struct {
	Players      []Entrant
	Rounds       int
	InitialColor Color
	ByeOutcome   Outcome
}

// PairingByeOutcome is what the field's pairing-allocated bye brings.
func (f *Field) PairingByeOutcome() Outcome {
	if f.ByeOutcome.PairingBye() {
		return f.ByeOutcome
	}
	return Bye
}

// Pair is one game of a round, by index into Field.Players.
type Pair struct{ White, Black int }

// Pairing is a round: its games, board by board, and the player given the
// pairing-allocated bye (-1 when the number of players is even).
type Pairing struct {
	Pairs []Pair
	Bye   int
}

// Played is the number of rounds already paired.
func (f *Field) Played() int {
	if len(f.Players) == 0 {
		return 0
	}
	return len(f.Players[0].Games)
}

// Check reports the first inconsistency in the field: rounds of unequal
// length, an opponent out of range or oneself, games that do not mirror
// each other.
func (f *Field) Check() error {
	r := f.Played()
	for i := range f.Players {
		p := &f.Players[i]
		if len(p.Games) != r {
			return fmt.Errorf("player %d has %d rounds where player 1 has %d", i+1, len(p.Games), r)
		}
		for k, g := range p.Games {
			if g.Opponent < 0 {
				if !g.Outcome.PairingBye() && g.Outcome != FullBye && g.Outcome != HalfBye && g.Outcome != ZeroBye && g.Outcome != ForfeitWin {
					return fmt.Errorf("player %d in round %d has no opponent but a game result", i+1, k+1)
				}
				if g.Outcome.PairingBye() && g.Outcome != f.PairingByeOutcome() {
					return fmt.Errorf("player %d in round %d has a bye worth %v where the tournament's byes are worth %v", i+1, k+1, g.Outcome.Points(), f.PairingByeOutcome().Points())
				}
				continue
			}
			if g.Opponent >= len(f.Players) || g.Opponent == i {
				return fmt.Errorf("player %d in round %d has opponent %d, which is not another player", i+1, k+1, g.Opponent+1)
			}
			o := f.Players[g.Opponent].Games[k]
			if o.Opponent != i {
				return fmt.Errorf("player %d in round %d met %d, whose round %d names %d", i+1, k+1, g.Opponent+1, k+1, o.Opponent+1)
			}
			if g.Outcome.Played() && (g.Color == NoColor || o.Color != g.Color.opposite()) {
				return fmt.Errorf("players %d and %d in round %d do not have one colour each", i+1, g.Opponent+1, k+1)
			}
		}
	}
	return nil
}
