package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

func init() {
	register("play", "play moves (SAN, UCI or as typed) from a FEN and print the result", runPlay)
}

// The two seats of the play subcommand's game: the moves given take turns.
var (
	localWhite = play.Seat{ID: "local-white", Name: "White"}
	localBlack = play.Seat{ID: "local-black", Name: "Black"}
)

// runPlay plays the moves given as arguments from -fen and prints each
// move's SAN, any Ice Age, then the resulting FEN and the status. The
// moves are a throwaway game between two local seats, played through
// package play on an in-memory storage, so the terminal follows the same
// rules of who may move, and when, as every other front end. A move that
// is refused stops it with the reason and suggestions (status 1).
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
	ctx := context.Background()
	svc := play.New(memstore.New(), play.Options{})
	// The game has no time limit, so the time of its acts only dates them.
	now := time.Now()
	r, err := svc.Start(ctx, play.NewGame{Channel: "terminal", White: localWhite, Black: localBlack, StartFEN: *fen, At: now})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	g := r.Game
	for _, text := range fs.Args() {
		r, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: now}, text)
		if err != nil {
			before, perr := g.Position()
			if perr != nil {
				fmt.Fprintln(stderr, perr)
				return 1
			}
			fmt.Fprintf(stderr, "%s %s: %v\n", moveNumber(&before), text, err)
			var x *play.Refusal
			if errors.As(err, &x) && len(x.Suggestions) > 0 {
				fmt.Fprintf(stderr, "did you mean: %s?\n", strings.Join(x.Suggestions, ", "))
			}
			printState(stdout, &g)
			return 1
		}
		mv := r.Move
		line := moveNumber(&mv.Before) + " " + mv.SAN
		if mv.IceAge != nil {
			line += "  {" + game.IceAgeComment(mv.IceAge) + "}"
		}
		fmt.Fprintln(stdout, line)
		g = r.Game
	}
	printState(stdout, &g)
	return 0
}

// moveNumber returns "12." for White's move and "12..." for Black's.
func moveNumber(p *game.Position) string {
	if p.Turn() == game.White {
		return fmt.Sprintf("%d.", p.FullMoveNumber())
	}
	return fmt.Sprintf("%d...", p.FullMoveNumber())
}

func printState(w io.Writer, g *play.Game) {
	fmt.Fprintln(w, "FEN:", g.FEN)
	o := g.Outcome
	switch {
	case o.Over() && o.Result == game.Draw:
		fmt.Fprintf(w, "Status: drawn (%s), %s\n", o.Reason, o.Result)
	case o.Over():
		winner, _ := o.Winner()
		fmt.Fprintf(w, "Status: %s wins (%s), %s\n", g.Seat(winner).Name, o.Reason, o.Result)
	default:
		p, err := g.Position()
		if err != nil {
			fmt.Fprintln(w, "Status:", err)
			return
		}
		check := ""
		if p.InCheck() {
			check = ", in check"
		}
		fmt.Fprintf(w, "Status: %s to move%s; next Ice Age in %d Black move(s)\n", g.ToMove().Name, check, p.BlackMovesToIceAge())
	}
}
