package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/iceagechess/iceage/game"
)

func init() {
	register("fen", "check a FEN (with * for ice) and print it normalised", runFEN)
}

// runFEN parses -fen and prints it as FEN writes it, or says what is wrong
// with it (status 1).
func runFEN(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", game.StartFEN, "position in FEN, '*' for ice")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		// Without this, "iceage fen <FEN>" would check the start position
		// instead and report success.
		fmt.Fprintf(stderr, "fen: unexpected argument %q (give the position with -fen \"...\", quoted)\n", fs.Arg(0))
		return 2
	}
	p, err := game.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintln(stdout, p.FEN())
	return 0
}
