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
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

func init() {
	register("play", "play moves (SAN, UCI or as typed) from a FEN and print the result", runPlay)
}

// The ids of the two seats of the play subcommand's game, named after
// their colours in the chosen language: the moves given take turns.
const (
	localWhite = "local-white"
	localBlack = "local-black"
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
	langFlag := fs.String("lang", "en", "the language of the status and the refusals: en, fr, ru, nb, es or nl")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage play [-fen FEN] [-lang en|fr|ru|nb|es|nl] MOVE...")
		fmt.Fprintln(stderr, "Moves may be SAN (Nf3, exd5, O-O), UCI (g1f3) or forgiving forms (nf3, e2-e4, e8Q).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lang := i18n.FromDiscord(*langFlag)
	ctx := context.Background()
	svc := play.New(memstore.New(), play.Options{})
	// The game has no time limit, so the time of its acts only dates them.
	now := time.Now()
	white := play.Seat{ID: localWhite, Name: i18n.ColorName(lang, game.White)}
	black := play.Seat{ID: localBlack, Name: i18n.ColorName(lang, game.Black)}
	r, err := svc.Start(ctx, play.NewGame{Channel: "terminal", White: white, Black: black, StartFEN: *fen, At: now})
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
			fmt.Fprintf(stderr, "%s %s: %s\n", moveNumber(&before), text, refusalText(lang, err))
			var x *play.Refusal
			if errors.As(err, &x) && len(x.Suggestions) > 0 {
				fmt.Fprintln(stderr, i18n.T(lang, "refusal.suggestions", map[string]any{"Moves": strings.Join(x.Suggestions, ", ")}))
			}
			printState(stdout, lang, &g)
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
	printState(stdout, lang, &g)
	return 0
}

// refusalText explains a refused move in lang, after the move: a move
// error in lower case, as it goes on the move's line; another refusal
// as a sentence; any other error as it is.
func refusalText(lang i18n.Lang, err error) string {
	var x *play.Refusal
	if !errors.As(err, &x) {
		return err.Error()
	}
	var me *game.MoveError
	if errors.As(x.Err, &me) {
		return i18n.MoveError(lang, me)
	}
	plain := *x
	plain.Suggestions = nil
	return i18n.Refusal(lang, &plain, i18n.Marks{Player: func(id string) string { return id },
		Time: func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }})
}

// moveNumber returns "12." for White's move and "12..." for Black's.
func moveNumber(p *game.Position) string {
	if p.Turn() == game.White {
		return fmt.Sprintf("%d.", p.FullMoveNumber())
	}
	return fmt.Sprintf("%d...", p.FullMoveNumber())
}

// sides write the players of a local game as they are called, by their
// colour alone, so that the sentences agree with the colour's noun.
func sides(lang i18n.Lang) i18n.EventMarks {
	side := func(id string) (game.Color, bool) {
		if id == localBlack {
			return game.Black, true
		}
		return game.White, true
	}
	return i18n.EventMarks{Player: func(id string) string { c, _ := side(id); return i18n.ColorName(lang, c) }, Side: side}
}

// printState writes the game's FEN and its status in lang: how it ended,
// or who is to move and when the Ice Age comes.
func printState(w io.Writer, lang i18n.Lang, g *play.Game) {
	fmt.Fprintln(w, "FEN:", g.FEN)
	status := func(text string) { fmt.Fprintln(w, i18n.T(lang, "terminal.status", map[string]any{"Status": text})) }
	if o := g.Outcome; o.Over() {
		status(i18n.T(lang, "terminal.end", map[string]any{"Outcome": i18n.Outcome(lang, o), "Result": o.Result.String()}))
		return
	}
	p, err := g.Position()
	if err != nil {
		status(err.Error())
		return
	}
	toMove := "terminal.to_move"
	if p.InCheck() {
		toMove = "terminal.to_move_in_check"
	}
	status(i18n.T(lang, "terminal.status_playing", map[string]any{
		"ToMove":    i18n.T(lang, toMove, sides(lang).PlayerData(lang, g.ToMove().ID)),
		"Countdown": i18n.IceAgeCountdown(lang, &p)}))
}
