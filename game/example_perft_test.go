package game_test

import (
	"fmt"

	"github.com/iceagechess/iceage/game"
)

func ExamplePerft() {
	p := game.StartPosition()
	for depth := 1; depth <= 3; depth++ {
		fmt.Println(depth, game.Perft(p, depth))
	}
	// Output:
	// 1 18
	// 2 324
	// 3 6264
}

func ExamplePosition_ApplyWithEvent() {
	// Black's 20th move brings the Ice Age: the lone rook on h1 freezes,
	// taking White's kingside castling right with it.
	p, err := game.ParseFEN("4k3/3p4/8/8/8/8/PP2P3/R3K2R b KQ - 0 20")
	if err != nil {
		panic(err)
	}
	var buf [256]game.Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if m.UCI() != "e8e7" {
			continue
		}
		after, ice := p.ApplyWithEvent(m)
		for _, f := range ice.Frozen {
			fmt.Println("frozen:", f.Piece, "on", f.Square)
		}
		fmt.Println("squares iced:", ice.Iced().Count())
		fmt.Println(after.FEN())
		fmt.Println("outcome:", after.Outcome().Reason)
	}
	// Output:
	// frozen: white rook on h1
	// squares iced: 57
	// ********/***pk***/********/********/********/********/PP**P***/R***K*** w Q - 1 21
	// outcome: none
}
