package engine

import (
	"testing"

	"github.com/iceagechess/iceage/game"
)

// randomGame plays up to plies random legal moves from start with the
// seed and calls visit with each position before its move, the move, and
// the position after it.
func randomGame(start game.Position, seed uint64, plies int, visit func(p game.Position, m game.Move, q game.Position)) game.Position {
	r := splitmix64(seed)
	p := start
	var buf [256]game.Move
	for range plies {
		moves := p.LegalMoves(buf[:0])
		if len(moves) == 0 || p.Outcome().Over() {
			break
		}
		m := moves[r.intn(len(moves))]
		q := p.Apply(m)
		if visit != nil {
			visit(p, m, q)
		}
		p = q
	}
	return p
}

func TestChildKeyAgreesWithTheWholeKey(t *testing.T) {
	iceAges := 0
	for seed := range uint64(40) {
		randomGame(game.StartPosition(), seed, 200, func(p game.Position, m game.Move, q game.Position) {
			if p.IceAgeNow() {
				iceAges++
			}
			if got, want := childKey(zobrist(&p), &p, &q), zobrist(&q); got != want {
				t.Fatalf("after %s in %s: incremental key %x, whole key %x", m, p.FEN(), got, want)
			}
		})
	}
	if iceAges == 0 {
		t.Fatal("no random game reached an Ice Age: the test covers too little")
	}
}

func TestKeysTellTheIceAgePhaseApart(t *testing.T) {
	a, _ := game.ParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 5")
	b, _ := game.ParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 25")
	c, _ := game.ParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 6")
	if zobrist(&a) != zobrist(&b) {
		t.Error("positions one Ice Age period apart have different keys")
	}
	if zobrist(&a) == zobrist(&c) {
		t.Error("positions with a different number of Black moves to the Ice Age share a key")
	}
	d, _ := game.ParseFEN("4k3/8/8/8/8/8/8/*3K3 w - - 0 5")
	if zobrist(&a) == zobrist(&d) {
		t.Error("ice on a1 does not change the key")
	}
}
