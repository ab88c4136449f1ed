package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/iceagechess/iceage/game"
)

func init() {
	register("perft", "count the move paths of a given depth (checks the move generator)", runPerft)
}

// maxPerftDepth is the deepest perft run without -force. Perft visits
// every path, about 300 million a second here, and their number grows by
// the branching factor every ply (perftGrowth is a typical middlegame
// one): Kiwipete has 8 billion paths at depth 6 (half a minute), 15
// trillion at depth 8 (half a day), and depth 9 would take weeks. The ice
// start, with its few first moves, gets to depth 8 in under a minute, and
// no published count goes deeper.
const (
	maxPerftDepth = 8
	perftGrowth   = 30
)

// runPerft prints the leaf count of a position at a depth; with -divide it
// first prints the count below each root move ("e2e4: 20"), a blank line,
// then the total, as chess engines do, so the figures can be compared with
// another program move by move.
func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", game.StartFEN, "position in FEN, '*' for ice")
	depth := fs.Int("depth", 1, "number of plies to count")
	divide := fs.Bool("divide", false, "print the count below each root move")
	force := fs.Bool("force", false, fmt.Sprintf("allow a -depth above %d, which may run for hours or days", maxPerftDepth))
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "perft: unexpected argument %q (quote the FEN: -fen \"...\")\n", fs.Arg(0))
		return 2
	}
	if *depth < 0 {
		fmt.Fprintf(stderr, "perft: -depth %d: want 0 or more plies\n", *depth)
		return 2
	}
	if *depth > maxPerftDepth && !*force {
		fmt.Fprintf(stderr, "perft: -depth %d: at most %d without -force, because the count grows about %d-fold a ply and a deeper one can run for hours or days; add -force to run it anyway\n", *depth, maxPerftDepth, perftGrowth)
		return 2
	}
	p, err := game.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintln(stderr, "perft:", err)
		return 1
	}
	if !*divide {
		fmt.Fprintln(stdout, game.Perft(p, *depth))
		return 0
	}
	var total uint64
	for _, c := range game.PerftDivide(p, *depth) {
		fmt.Fprintf(stdout, "%s: %d\n", c.Move.UCI(), c.Nodes)
		total += c.Nodes
	}
	if *depth == 0 {
		total = 1
	}
	fmt.Fprintf(stdout, "\n%d\n", total)
	return 0
}
