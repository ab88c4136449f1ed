package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/iceagechess/iceage/game"
)

func init() {
	register("play", "play moves (SAN, UCI or as typed) from a FEN and print the result", runPlay)
}

// runPlay plays the moves given as arguments from -fen and prints each
// move's SAN, any Ice Age, then the resulting FEN and the status. An
// illegal move stops it with the explanation and suggestions (status 1).
func runPlay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", game.StartFEN, "start position in FEN, '*' for ice")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage play [-fen FEN] MOVE...")
		fmt.Fprintln(stderr, "Moves may be SAN (Nf3, exd5, O-O), UCI (g1f3) or forgiving forms (nf3, e2-e4, e8Q).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	start, err := game.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	m := game.NewMatch(start)
	for _, text := range fs.Args() {
		before := m.Position()
		pl, err := m.Play(text)
		if err != nil {
			fmt.Fprintf(stderr, "%s %s: %v\n", moveNumber(&before), text, err)
			var me *game.MoveError
			var se *game.SyntaxError
			if errors.As(err, &me) && me.Kind != game.GameOver || errors.As(err, &se) {
				if s := game.Suggest(&before, text, 5); len(s) > 0 {
					names := make([]string, len(s))
					for i, mv := range s {
						names[i] = before.SAN(mv)
					}
					fmt.Fprintf(stderr, "did you mean: %s?\n", strings.Join(names, ", "))
				}
			}
			printState(stdout, m)
			return 1
		}
		line := moveNumber(&before) + " " + pl.SAN
		if pl.IceAge != nil {
			line += "  {" + game.IceAgeComment(pl.IceAge) + "}"
		}
		fmt.Fprintln(stdout, line)
	}
	printState(stdout, m)
	return 0
}

// moveNumber returns "12." for White's move and "12..." for Black's.
func moveNumber(p *game.Position) string {
	if p.Turn() == game.White {
		return fmt.Sprintf("%d.", p.FullMoveNumber())
	}
	return fmt.Sprintf("%d...", p.FullMoveNumber())
}

func printState(w io.Writer, m *game.Match) {
	p := m.Position()
	fmt.Fprintln(w, "FEN:", p.FEN())
	o := m.Outcome()
	switch {
	case o.Over() && o.Result == game.Draw:
		fmt.Fprintf(w, "Status: drawn (%s), %s\n", o.Reason, o.Result)
	case o.Over():
		winner, _ := o.Winner()
		fmt.Fprintf(w, "Status: %s wins (%s), %s\n", title(winner), o.Reason, o.Result)
	default:
		check := ""
		if p.InCheck() {
			check = ", in check"
		}
		fmt.Fprintf(w, "Status: %s to move%s; next Ice Age in %d Black move(s)\n", title(p.Turn()), check, p.BlackMovesToIceAge())
	}
}

func title(c game.Color) string {
	if c == game.White {
		return "White"
	}
	return "Black"
}
