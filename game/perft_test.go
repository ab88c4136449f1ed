package game

import (
	"fmt"
	"testing"
)

// benchPositions are the positions the perft benchmarks run on, with a
// depth that takes a fraction of a second.
var benchPositions = []struct {
	name, fen string
	depth     int
}{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
	{"ice-start", StartFEN, 5},
}

// BenchmarkPerft measures perft in two ways: "bulk" counts the last ply's
// moves without playing them (Perft), "full" plays every move down to the
// leaves. Both report leaves per second and must not allocate.
func BenchmarkPerft(b *testing.B) {
	for _, c := range benchPositions {
		p := mustFEN(b, c.fen)
		for _, mode := range []struct {
			name  string
			perft func(*Position, int) uint64
		}{
			{"bulk", func(p *Position, d int) uint64 { return Perft(*p, d) }},
			{"full", perftFull},
		} {
			b.Run(fmt.Sprintf("%s/%s/depth=%d", c.name, mode.name, c.depth), func(b *testing.B) {
				b.ReportAllocs()
				var leaves uint64
				for b.Loop() {
					leaves += mode.perft(&p, c.depth)
				}
				b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
			})
		}
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	p := mustFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	var buf [256]Move
	b.ReportAllocs()
	for b.Loop() {
		_ = p.LegalMoves(buf[:0])
	}
}

func BenchmarkApply(b *testing.B) {
	p := mustFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	m := NewMove(mustSquare(b, "e5"), mustSquare(b, "f7"), NoKind)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Apply(m)
	}
}

// BenchmarkIceAgeMove measures Black's Ice-Age move: its moves are judged
// after the Ice Age, one played position each.
func BenchmarkIceAgeMove(b *testing.B) {
	p := mustFEN(b, "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20")
	var buf [256]Move
	b.ReportAllocs()
	for b.Loop() {
		_ = p.LegalMoves(buf[:0])
	}
}

func TestPerftDoesNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counting is slow under the race detector")
	}
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if n := testing.AllocsPerRun(3, func() { Perft(p, 3) }); n != 0 {
		t.Errorf("Perft allocates %v times per run, want 0", n)
	}
	ice := mustFEN(t, "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20")
	if n := testing.AllocsPerRun(3, func() { Perft(ice, 3) }); n != 0 {
		t.Errorf("Perft through an Ice Age allocates %v times per run, want 0", n)
	}
}
