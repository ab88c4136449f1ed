package game

import "testing"

// fuzzStarts are the positions FuzzPlay starts from; the first fuzz byte
// picks one. Some stand just before an Ice Age so that random games reach
// it within a few moves.
var fuzzStarts = []string{
	StartFEN,
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR w KQq - 3 19",
	"r3k2r/3ppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 19",
	"r1bq1bnr/pp1kp2p/*p1*2p*/***1P*1*/**p1Pp**/P*1*1P**/P1P3PP/R2QKB1R b KQ e3 0 12",
	"r*2k1*r/1P4P1/8/8/8/8/1p4p1/R1*1K2R w KQkq - 0 39",
	"4k3/3p1p2/8/4P3/8/8/5P2/4K3 w - - 90 19",
}

// FuzzPlay plays random legal games chosen by the fuzz bytes: every
// generated move is legal by the plain rule and plays without panic, the
// FEN reads back the same after each move, the position's tables agree,
// and counting moves agrees with listing them.
func FuzzPlay(f *testing.F) {
	for i := range fuzzStarts {
		f.Add([]byte{byte(i), 0, 7, 13, 2, 250, 31, 99, 5, 5, 5, 17, 1, 44, 3})
	}
	f.Fuzz(func(t *testing.T, choices []byte) {
		if len(choices) == 0 {
			return
		}
		p := mustFEN(t, fuzzStarts[int(choices[0])%len(fuzzStarts)])
		var buf [256]Move
		for _, c := range choices[1:] {
			moves := p.LegalMoves(buf[:0])
			checkMoves(t, &p, moves)
			if len(moves) == 0 {
				return
			}
			m := moves[int(c)%len(moves)]
			q, e := p.ApplyWithEvent(m)
			if plain := p.Apply(m); plain != q {
				t.Fatalf("%s after %s: Apply gives %s, ApplyWithEvent %s", p.FEN(), m, plain.FEN(), q.FEN())
			}
			if (e != nil) != p.IceAgeNow() {
				t.Fatalf("%s after %s: Ice Age event %v, want one only on Black's Ice-Age move", p.FEN(), m, e)
			}
			p = q
			checkTables(t, &p)
			again, err := ParseFEN(p.FEN())
			if err != nil {
				t.Fatalf("after %s the FEN %s does not read back: %v\n%s", m, p.FEN(), err, diagram(&p))
			}
			if again != p {
				t.Fatalf("after %s the FEN %s reads back as %s", m, p.FEN(), again.FEN())
			}
		}
	})
}

// checkMoves compares the generated moves of p with the plain definition:
// a move that obeys how men move is legal when the mover's king is not
// attacked afterwards (on the Ice-Age move: after the Ice Age, or frozen).
func checkMoves(t *testing.T, p *Position, moves []Move) {
	t.Helper()
	// Perft gives a game over by the fifty-move rule no children;
	// LegalMoves ignores that rule.
	want := uint64(len(moves))
	if p.halfmove >= 100 {
		want = 0
	}
	if got := Perft(*p, 1); got != want {
		t.Fatalf("perft(1) = %d, want %d (%d legal moves) in\n%s", got, want, len(moves), diagram(p))
	}
	legal := map[Move]bool{}
	for _, m := range moves {
		if legal[m] {
			t.Fatalf("%s listed twice in\n%s", m, diagram(p))
		}
		legal[m] = true
	}
	var g moveGen
	if !g.setup(p, true) {
		if len(moves) != 0 {
			t.Fatalf("moves %v with a king missing", moves)
		}
		return
	}
	us := p.turn
	for _, m := range p.generate(nil, &g) {
		var q Position
		if p.IceAgeNow() {
			q = p.Apply(m)
		} else {
			q = p.bare(m)
		}
		k := q.kinds[King] & q.men[us]
		want := k == 0 || !q.Attacked(k.First(), us.Other())
		if legal[m] != want {
			t.Fatalf("%s: generated legal = %v, plain rule says %v in\n%s", m, legal[m], want, diagram(p))
		}
		delete(legal, m)
	}
	for m := range legal {
		t.Fatalf("%s is listed but does not follow how men move in\n%s", m, diagram(p))
	}
}

// checkTables verifies the invariants of Position: the mailbox, the colour
// and kind bitboards describe the same men, and ice is disjoint from them.
func checkTables(t *testing.T, p *Position) {
	t.Helper()
	var men [2]Bitboard
	var kinds [7]Bitboard
	for s := Square(0); s < 64; s++ {
		if x := p.board[s]; x != NoPiece {
			men[x.Color()] |= Bit(s)
			kinds[x.Kind()] |= Bit(s)
		}
	}
	if men != p.men || kinds != p.kinds || p.ice&(men[White]|men[Black]) != 0 {
		t.Fatalf("tables disagree with the mailbox in\n%s", diagram(p))
	}
}
