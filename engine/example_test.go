package engine_test

import (
	"context"
	"fmt"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
)

func ExampleEngine_Search() {
	// Ice walls the black king in and the bishops guard the ice, so the
	// rook mates on the back rank.
	p, err := game.ParseFEN("7k/6**/8/8/8/8/1B6/RB4K1 w - - 0 1")
	if err != nil {
		panic(err)
	}
	e := engine.New(engine.Options{})
	r := e.Search(context.Background(), p, engine.Limits{Nodes: 10_000})
	fmt.Println(p.SAN(r.Best), "mates in", engine.MateIn(r.Score))
	// Output: Ra8# mates in 1
}

func ExampleChoose() {
	// Black's 20th move brings the Ice Age, and Black's king on a8 stands
	// alone: only Ra7 gives it company and keeps it from freezing.
	p, err := game.ParseFEN("k7/8/8/8/3PP3/8/7K/r6R b - - 0 20")
	if err != nil {
		panic(err)
	}
	m := engine.Choose(context.Background(), p, 6, 1)
	fmt.Println(p.SAN(m))
	// Output: Ra7
}

func ExampleAnalyze() {
	// White lets the mate on the back rank go with Kh2.
	start, err := game.ParseFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	if err != nil {
		panic(err)
	}
	var moves []game.Move
	for _, u := range []string{"g1h2", "g8f8", "a1a8"} {
		m, err := game.ParseUCI(u)
		if err != nil {
			panic(err)
		}
		moves = append(moves, m)
	}
	a, err := engine.Analyze(context.Background(), start, moves, engine.Limits{Nodes: 20_000})
	if err != nil {
		panic(err)
	}
	worst := a.Mistakes[0]
	fmt.Printf("move %d, %s instead of %s\n", worst.Ply+1, worst.Move, worst.Best)
	// Output: move 1, g1h2 instead of a1a8
}
