package game

import "math/bits"

// Attack tables. Knights, kings and pawns attack a fixed set of squares
// from each square; sliders (bishops, rooks, queens) look their attacks up
// in magic-bitboard tables indexed by the blockers on their lines. Ice is a
// blocker like any man, so every lookup takes occupancy = men | ice.
//
// All tables are filled once at package initialisation, deterministically
// and without randomness: the magic multipliers are fixed constants (see
// rookMagic and bishopMagic), so init only enumerates the 107,648 blocker
// subsets and walks their rays, which takes about a millisecond.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard // pawnAttacks[c][s]: squares a pawn of colour c on s attacks

	// between[a][b] holds the squares strictly between a and b when they
	// share a rank, file or diagonal, else nothing; line[a][b] holds the
	// whole line through both, edge to edge (with a and b), else nothing.
	between [64][64]Bitboard
	line    [64][64]Bitboard

	rookRays, bishopRays [64]Bitboard // attacks on an empty board
)

// magicEntry finds the attacks of a slider on one square: the blockers
// inside mask, multiplied by magic, give in their top bits an index into
// attacks that no other blocker set with different attacks shares.
type magicEntry struct {
	mask    Bitboard
	magic   uint64
	shift   uint8
	attacks []Bitboard // a window of sliderTable
}

var (
	rookTable, bishopTable [64]magicEntry
	// sliderTable holds every square's attacks: 102,400 rook entries and
	// 5,248 bishop entries ("fancy" magics with one index size per square).
	sliderTable [107648]Bitboard
)

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func init() {
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			knightAttacks[s] |= bitAt(f+d[0], r+d[1])
		}
		for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			kingAttacks[s] |= bitAt(f+d[0], r+d[1])
		}
		pawnAttacks[White][s] = bitAt(f-1, r+1) | bitAt(f+1, r+1)
		pawnAttacks[Black][s] = bitAt(f-1, r-1) | bitAt(f+1, r-1)
		rookRays[s] = slideAttacks(s, 0, &rookDirs)
		bishopRays[s] = slideAttacks(s, 0, &bishopDirs)
	}
	for a := Square(0); a < 64; a++ {
		for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			full := Bit(a) | ray(a, d[0], d[1]) | ray(a, -d[0], -d[1])
			var walked Bitboard
			for i := 1; ; i++ {
				b := bitAt(a.File()+d[0]*i, a.Rank()+d[1]*i)
				if b == 0 {
					break
				}
				between[a][b.First()] = walked
				line[a][b.First()] = full
				walked |= b
			}
		}
	}
	offset := 0
	offset = fillMagics(&rookTable, &rookMagic, &rookDirs, offset)
	fillMagics(&bishopTable, &bishopMagic, &bishopDirs, offset)
}

// bitAt returns the square at file f, rank r as a set, or the empty set
// when that is off the board.
func bitAt(f, r int) Bitboard {
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return 0
	}
	return Bit(SquareAt(f, r))
}

// ray returns the squares from s (excluded) to the edge in direction df, dr.
func ray(s Square, df, dr int) Bitboard {
	var b Bitboard
	for i := 1; ; i++ {
		x := bitAt(s.File()+df*i, s.Rank()+dr*i)
		if x == 0 {
			return b
		}
		b |= x
	}
}

// slideAttacks walks the rays of a slider on s in the four directions,
// each up to and including the first occupied square. It is the slow,
// obviously right definition the magic tables are filled from and tested
// against.
func slideAttacks(s Square, occ Bitboard, dirs *[4][2]int) Bitboard {
	var a Bitboard
	for _, d := range dirs {
		for i := 1; ; i++ {
			x := bitAt(s.File()+d[0]*i, s.Rank()+d[1]*i)
			if x == 0 {
				break
			}
			a |= x
			if occ&x != 0 {
				break
			}
		}
	}
	return a
}

// relevantMask returns the squares whose occupancy changes the attacks of
// a slider on s: its empty-board rays without the last square of each
// (a blocker on the edge hides nothing behind it).
func relevantMask(s Square, dirs *[4][2]int) Bitboard {
	var m Bitboard
	for _, d := range dirs {
		r := ray(s, d[0], d[1])
		for x := r; x != 0; x &= x - 1 {
			q := x.First()
			if bitAt(q.File()+d[0], q.Rank()+d[1]) != 0 {
				m |= Bit(q)
			}
		}
	}
	return m
}

// fillMagics sets up one slider's entries from its magic constants,
// placing each square's attacks at offset in sliderTable, and returns the
// offset after them. Every subset of the mask is enumerated with the
// carry-rippler trick (sub = (sub - mask) & mask).
func fillMagics(table *[64]magicEntry, magics *[64]uint64, dirs *[4][2]int, offset int) int {
	for s := Square(0); s < 64; s++ {
		mask := relevantMask(s, dirs)
		n := mask.Count()
		e := &table[s]
		e.mask, e.magic, e.shift = mask, magics[s], uint8(64-n)
		e.attacks = sliderTable[offset : offset+1<<n : offset+1<<n]
		var sub Bitboard
		for {
			e.attacks[uint64(sub)*e.magic>>e.shift] = slideAttacks(s, sub, dirs)
			sub = (sub - mask) & mask
			if sub == 0 {
				break
			}
		}
		offset += 1 << n
	}
	return offset
}

// rookAttacks returns the squares a rook on s attacks when occ is occupied.
func rookAttacks(s Square, occ Bitboard) Bitboard {
	e := &rookTable[s&63]
	return e.attacks[uint64(occ&e.mask)*e.magic>>e.shift]
}

// bishopAttacks returns the squares a bishop on s attacks when occ is
// occupied.
func bishopAttacks(s Square, occ Bitboard) Bitboard {
	e := &bishopTable[s&63]
	return e.attacks[uint64(occ&e.mask)*e.magic>>e.shift]
}

// attackersOf returns c's men that attack s when occ (men and ice) is
// occupied.
func (p *Position) attackersOf(s Square, c Color, occ Bitboard) Bitboard {
	s &= 63
	k := &p.kinds
	return p.men[c] & (knightAttacks[s]&k[Knight] |
		kingAttacks[s]&k[King] |
		pawnAttacks[c^1][s]&k[Pawn] |
		bishopAttacks(s, occ)&(k[Bishop]|k[Queen]) |
		rookAttacks(s, occ)&(k[Rook]|k[Queen]))
}

// attackedBy returns every square a man of colour c attacks when occ is
// occupied.
func (p *Position) attackedBy(c Color, occ Bitboard) Bitboard {
	men := p.men[c]
	pawns := p.kinds[Pawn] & men
	var a Bitboard
	if c == White {
		a = (pawns&^fileA)<<7 | (pawns&^fileH)<<9
	} else {
		a = (pawns&^fileA)>>9 | (pawns&^fileH)>>7
	}
	for b := p.kinds[Knight] & men; b != 0; b &= b - 1 {
		a |= knightAttacks[b.First()]
	}
	for b := (p.kinds[Bishop] | p.kinds[Queen]) & men; b != 0; b &= b - 1 {
		a |= bishopAttacks(b.First(), occ)
	}
	for b := (p.kinds[Rook] | p.kinds[Queen]) & men; b != 0; b &= b - 1 {
		a |= rookAttacks(b.First(), occ)
	}
	if k := p.kinds[King] & men; k != 0 {
		a |= kingAttacks[k.First()]
	}
	return a
}

// Attacked reports whether a man of colour by attacks s. Men and ice block
// lines; ice itself attacks nothing.
func (p *Position) Attacked(s Square, by Color) bool {
	return p.attackersOf(s, by, p.Occupied()) != 0
}

// InCheck reports whether the side to move's king is attacked. It is false
// when that king has frozen.
func (p *Position) InCheck() bool {
	k := p.kinds[King] & p.men[p.turn]
	return k != 0 && p.Attacked(k.First(), p.turn.Other())
}

// single reports whether b holds exactly one square.
func single(b Bitboard) bool { return b != 0 && b&(b-1) == 0 }

// popcount is Count for the hot paths, spelled out so that it inlines.
func popcount(b Bitboard) int { return bits.OnesCount64(uint64(b)) }
