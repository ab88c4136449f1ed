package engine

import "github.com/iceagechess/iceage/game"

// The evaluation, in centipawns from the side to move's point of view. It
// knows the variant:
//
//   - Material: ice is worth nothing in itself; a man that would freeze is
//     worth less the nearer the Ice Age.
//   - Mobility through ice: ice blocks lines like a man, so a bishop behind
//     ice sees nothing. Squares a man could take ice on count a little
//     (they are moves, but taking ice costs a tempo and wins nothing).
//   - King safety: the enemy's attacks on the squares around the king, the
//     open lines that lead to it, and the shield in front of it, where ice
//     shields as a pawn does (it blocks lines and cannot be pushed away).
//   - The coming Ice Age: the men that would freeze if it came now
//     (game.Position.WouldFreeze), the kings first, weighted by how many
//     plies remain; a king with a single neighbour is at risk too, since
//     that neighbour may leave or be taken; and sheltered squares (empty
//     squares the Ice Age would leave free) beside a king count as room
//     to breathe after it.
//
// The search sees an Ice Age inside its horizon exactly (game.Apply plays
// it as part of Black's move and Position.Outcome judges frozen kings);
// the evaluation is what guides it before the Ice Age comes into view.

// Value of each kind in centipawns, by game.Kind. Ice is not a man and has
// no value.
var pieceValue = [7]int{game.Pawn: 100, game.Knight: 320, game.Bishop: 330, game.Rook: 500, game.Queen: 950}

// Weights. They were set by hand, not tuned; the comments say what each
// is for.
const (
	tempoBonus = 10 // the side to move can act first

	// Mobility per square a man can move to that is empty or an enemy man,
	// by kind; and per iced square it could take.
	mobKnight, mobBishop, mobRook, mobQueen = 4, 5, 3, 2
	mobIce                                  = 1

	pawnShield = 10 // an own pawn next to the king
	iceShield  = 6  // ice next to the king: it blocks lines but also the king
	openLine   = 3  // per square a queen on the king's square would see

	// Ice Age weights, at one ply from the Ice Age; they fall off with
	// distance (iceAgeWeight).
	isolatedKing = 480 // the king would freeze: the game would be lost
	loneKing     = 120 // the king has one neighbour only
	shelterRoom  = 12  // a sheltered empty square next to the king
)

// pawnAdvance rewards a pawn for each rank it has gone forward, by rank
// from its own side.
var pawnAdvance = [8]int{0, 0, 4, 10, 20, 36, 64, 0}

// centre[s] is 0 on the edge to 3 in the four centre squares.
var centre [64]int

func init() {
	for s := range 64 {
		f, r := s&7, s>>3
		centre[s] = min(f, 7-f, r, 7-r)
	}
}

// pliesToIceAge returns how many plies remain until the Ice Age: 1 when
// Black is to make the Ice-Age move, 2 when White moves before it.
func pliesToIceAge(p *game.Position) int {
	m := p.BlackMovesToIceAge()
	if p.Turn() == game.Black {
		return 2*m - 1
	}
	return 2 * m
}

// iceAgeWeight scales the Ice Age terms by distance in plies: 1 at one
// ply, 1/2 at four, falling to about a tenth one Ice Age period away. The
// curve is in 64ths.
func iceAgeWeight(plies int) int {
	return 64 * 4 / (plies + 3)
}

// evalEntry caches one static score. The key includes everything the
// evaluation reads (men, ice, side, the Ice Age phase), so a hit is exact.
type evalEntry struct {
	key   uint64
	score int32
	ok    bool
}

// evaluate returns the static evaluation of the position at ply, through
// the engine's cache.
func (e *Engine) evaluate(ply int) int {
	key := e.keys[ply]
	c := &e.evals[key&uint64(len(e.evals)-1)]
	if c.ok && c.key == key {
		return int(c.score)
	}
	s := evaluate(&e.pos[ply])
	*c = evalEntry{key: key, score: int32(s), ok: true}
	return s
}

// evaluate returns the static evaluation of p for the side to move.
func evaluate(p *game.Position) int {
	s := evalSide(p, game.White) - evalSide(p, game.Black)
	if p.Turn() == game.Black {
		s = -s
	}
	return s + tempoBonus
}

// evalSide returns the terms of colour c's men and king.
func evalSide(p *game.Position, c game.Color) int {
	them := c.Other()
	own, enemy, ice := p.Men(c), p.Men(them), p.Ice()
	occ := own | enemy | ice
	men := own | enemy
	score := 0

	// Material and placement.
	pawns := p.Pieces(c, game.Pawn)
	score += pawns.Count() * pieceValue[game.Pawn]
	for b := pawns; b != 0; b &= b - 1 {
		s := b.First()
		r := s.Rank()
		if c == game.Black {
			r = 7 - r
		}
		score += pawnAdvance[r]
	}

	// Enemy king zone, for attack counting.
	zone := bitboard(0)
	if ks, ok := p.KingSquare(them); ok {
		zone = kingAttacks[ks] | game.Bit(ks)
	}
	attackUnits, attackers := 0, 0
	for k := game.Knight; k <= game.Queen; k++ {
		n := 0
		for b := p.Pieces(c, k); b != 0; b &= b - 1 {
			s := b.First()
			n++
			a := attacks(k, c, s, occ)
			mob := popcount(a &^ own &^ ice)
			iced := popcount(a & ice)
			switch k {
			case game.Knight:
				score += mobKnight*mob + 2*centre[s]
			case game.Bishop:
				score += mobBishop * mob
			case game.Rook:
				score += mobRook * mob
			case game.Queen:
				score += mobQueen * mob
			}
			score += mobIce * iced
			if z := a & zone; z != 0 {
				attackers++
				attackUnits += popcount(z) * [...]int{game.Knight: 2, game.Bishop: 2, game.Rook: 3, game.Queen: 5}[k]
			}
		}
		score += n * pieceValue[k]
	}
	if p.Pieces(c, game.Bishop).Count() >= 2 {
		score += 30
	}
	if attackers >= 2 || attackers == 1 && p.Pieces(c, game.Queen) != 0 {
		score += min(attackUnits*attackUnits/2, 600)
	}

	ks, ok := p.KingSquare(c)
	if !ok {
		return score
	}
	// King safety: open lines to the king matter while the enemy has heavy
	// men; the shield, pawns or ice, stands next to the king.
	if p.Pieces(them, game.Queen)|p.Pieces(them, game.Rook) != 0 {
		open := (rookAttacks(ks, occ) | bishopAttacks(ks, occ)) &^ occ
		score -= openLine * popcount(open)
		near := kingAttacks[ks]
		score += pawnShield*popcount(near&pawns) + iceShield*popcount(near&ice)
	}

	// The coming Ice Age.
	w := iceAgeWeight(pliesToIceAge(p))
	isolated := p.WouldFreeze()
	company := popcount(kingAttacks[ks] & men)
	switch {
	case company == 0:
		score -= isolatedKing * w / 64
	case company == 1:
		score -= loneKing * w / 64
	}
	if plies := pliesToIceAge(p); plies <= 12 {
		// A man that would freeze is lost: count part of its value, more as
		// the Ice Age nears (a half at one ply, nothing at thirteen).
		lost := 0
		for b := isolated & own &^ p.Pieces(c, game.King); b != 0; b &= b - 1 {
			lost += pieceValue[p.PieceAt(b.First()).Kind()]
		}
		score -= lost * (13 - plies) / 26
	}
	room := kingAttacks[ks] & sheltered(men) &^ occ
	score += shelterRoom * popcount(room) * w / 64
	return score
}
