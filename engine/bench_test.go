package engine

import (
	"context"
	"testing"

	"github.com/iceagechess/iceage/game"
)

// middlegameFEN is the position after 15... bxc5 of one of the engine's
// self-play games: queens, rooks and minor men still on, ice on eleven
// squares, both kings uncastled and the Ice Age five Black moves away.
const middlegameFEN = "r2qkb1r/3bpp1p/p2p1n*1/n*p**Np*/**3***/2PPN1P*/P2PPPB1/RQB1K2R w KQkq - 0 16"

// benchSearch searches p to depth from a cleared table every iteration and
// reports nodes per second.
func benchSearch(b *testing.B, fen string, depth int) {
	p, err := game.ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	e := New(Options{})
	var nodes int64
	b.ResetTimer()
	for range b.N {
		e.Reset()
		nodes += e.Search(context.Background(), p, Limits{Depth: depth}).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkDepth6Start is the time to depth 6 from the ice start.
func BenchmarkDepth6Start(b *testing.B) { benchSearch(b, game.StartFEN, 6) }

// BenchmarkDepth6Middlegame is the time to depth 6 from a middlegame.
func BenchmarkDepth6Middlegame(b *testing.B) { benchSearch(b, middlegameFEN, 6) }

// BenchmarkNodesPerSecond searches a middlegame for a fixed 200,000 nodes.
func BenchmarkNodesPerSecond(b *testing.B) {
	p, err := game.ParseFEN(middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	e := New(Options{})
	var nodes int64
	for range b.N {
		e.Reset()
		nodes += e.Search(context.Background(), p, Limits{Nodes: 200_000}).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkEvaluate is the static evaluation of a middlegame.
func BenchmarkEvaluate(b *testing.B) {
	p, err := game.ParseFEN(middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	s := 0
	for range b.N {
		s += evaluate(&p)
	}
	_ = s
}
