package engine

import "github.com/iceagechess/iceage/game"

// Zobrist keys. A position's key is the XOR of one random number for every
// man on its square, one for every iced square, one for Black to move, one
// for the castling rights, one for the en-passant square and one for the
// Ice Age phase (how many Black moves remain until the next Ice Age, 1 to
// 20): two positions that differ only in how close the Ice Age is are
// different positions, since the Ice Age may decide the game. The
// fifty-move clock is not in the key (as in every chess program), so a
// score stored for a position may be reused when its clock differs.
//
// The numbers come from splitmix64 with a fixed seed, so keys, and with
// them every search, are the same on every run and machine.

var (
	keyMan      [16][64]uint64 // by game.Piece (colour bit 3, kind bits 0–2)
	keyIce      [64]uint64
	keyBlack    uint64
	keyCastling [16]uint64
	keyEP       [65]uint64 // by square; keyEP[game.NoSquare] is 0
	keyPhase    [game.IceAgePeriod + 1]uint64
)

// zobristSeed fixes the key numbers; any value does, as long as it never
// changes between two runs that should agree.
const zobristSeed = 0x1CEA6EC4E55

// splitmix64 is a small, well-mixed generator (Steele, Lea and Flood,
// 2014), also used for the seeded choices of the weaker levels.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n) for n > 0.
func (s *splitmix64) intn(n int) int {
	return int(s.next() % uint64(n))
}

func init() {
	r := splitmix64(zobristSeed)
	for c := game.White; c <= game.Black; c++ {
		for k := game.Pawn; k <= game.King; k++ {
			for s := range 64 {
				keyMan[game.MakePiece(c, k)][s] = r.next()
			}
		}
	}
	for s := range 64 {
		keyIce[s] = r.next()
		keyEP[s] = r.next()
	}
	keyBlack = r.next()
	for i := range keyCastling {
		keyCastling[i] = r.next()
	}
	for i := 1; i <= game.IceAgePeriod; i++ {
		keyPhase[i] = r.next()
	}
}

// squareKey returns the key of what stands on s: a man, ice or nothing.
func squareKey(p *game.Position, s game.Square) uint64 {
	if x := p.PieceAt(s); x != game.NoPiece {
		return keyMan[x][s]
	}
	if p.IsIce(s) {
		return keyIce[s]
	}
	return 0
}

// stateKey is the part of the key that is not the board.
func stateKey(p *game.Position) uint64 {
	k := keyCastling[p.CastlingRights()&15] ^ keyEP[p.EnPassant()] ^ keyPhase[p.BlackMovesToIceAge()]
	if p.Turn() == game.Black {
		k ^= keyBlack
	}
	return k
}

// zobrist returns the Zobrist key of p: men, ice, side to move, castling, the
// en-passant square and the Ice Age phase. Equal positions (the move
// counters aside) have equal keys.
func zobrist(p *game.Position) uint64 {
	k := stateKey(p)
	for b := p.Occupied(); b != 0; b &= b - 1 {
		k ^= squareKey(p, b.First())
	}
	return k
}

// childKey returns the key of q, a position reached from p (whose key is
// k) by one move and its Ice Age, if any. Only squares whose occupant
// changed are visited: a move changes two to four squares' occupancy, and
// no man changes kind without its square changing hands too (a promotion
// moves the pawn), so comparing the colour and ice sets finds them all.
func childKey(k uint64, p, q *game.Position) uint64 {
	changed := (p.Men(game.White) ^ q.Men(game.White)) |
		(p.Men(game.Black) ^ q.Men(game.Black)) | (p.Ice() ^ q.Ice())
	for ; changed != 0; changed &= changed - 1 {
		s := changed.First()
		k ^= squareKey(p, s) ^ squareKey(q, s)
	}
	return k ^ stateKey(p) ^ stateKey(q)
}
