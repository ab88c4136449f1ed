package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/iceagechess/iceage/tournament"
)

func init() {
	register("pairings", "pair the next round of a tournament in TRF by the FIDE Dutch system", runPairings)
}

// runPairings reads a tournament in TRF (-dutch IN.trf) and writes the
// next round as the pairing programs do (-p OUT, or standard output
// without a file name): the number of pairs, then "WHITE BLACK" by
// starting rank for each, the bye as "N 0".
func runPairings(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pairings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("dutch", "", "the tournament, a TRF file (TRF-2016 with XXR, as JaVaFo reads it)")
	out := fs.String("p", "", "where to write the pairings (standard output when empty or \"-\")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pairings: unexpected argument %q (usage: iceage pairings -dutch IN.trf -p OUT)\n", fs.Arg(0))
		return 2
	}
	if *in == "" {
		fmt.Fprintln(stderr, "pairings: give the tournament with -dutch IN.trf")
		return 2
	}
	file, err := os.Open(*in)
	if err != nil {
		fmt.Fprintf(stderr, "pairings: %v\n", err)
		return 1
	}
	defer file.Close()
	t, err := tournament.ReadTRF(file)
	if err != nil {
		fmt.Fprintf(stderr, "pairings: %s: %v\n", *in, err)
		return 1
	}
	if played := t.Field.Played(); played >= t.Field.Rounds {
		fmt.Fprintf(stderr, "pairings: %s: all %d rounds (XXR) are played: there is no round to pair\n", *in, played)
		return 1
	}
	p, err := tournament.PairDutch(&t.Field)
	if err != nil {
		if errors.Is(err, tournament.ErrNoPairing) {
			fmt.Fprintf(stderr, "pairings: %s: round %d: %v; the arbiter must pair it by hand\n", *in, t.Field.Played()+1, err)
		} else {
			fmt.Fprintf(stderr, "pairings: %s: %v\n", *in, err)
		}
		return 1
	}
	w := stdout
	if *out != "" && *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "pairings: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	n := len(p.Pairs)
	if p.Bye >= 0 {
		n++
	}
	fmt.Fprintln(w, n)
	for _, pr := range p.Pairs {
		fmt.Fprintf(w, "%d %d\n", pr.White+1, pr.Black+1)
	}
	if p.Bye >= 0 {
		fmt.Fprintf(w, "%d 0\n", p.Bye+1)
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "pairings: %v\n", err)
			return 1
		}
	}
	return 0
}
