package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/tui"
)

func init() {
	register("local", "play Ice Age Chess in the terminal against a friend at the same keyboard", runLocal)
}

// localInput is where local reads the players' keys and lines; tests
// replace it.
var localInput io.Reader = os.Stdin

// localEngineNodes, when above 0, bounds the engine's moves by nodes
// instead of time; tests set it so that games replay exactly.
var localEngineNodes int64

// runLocal plays one game between two players at the keyboard, through
// play.Service on an in-memory storage: on a terminal with the board
// drawn in colour, otherwise (or with -plain) one move or command per
// line of standard input.
func runLocal(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", game.StartFEN, "start position in FEN, '*' for ice")
	white := fs.String("white", "", "the name of the player of White (default: the colour's name)")
	black := fs.String("black", "", "the name of the player of Black (default: the colour's name)")
	lang := fs.String("lang", "en", "the language of the game's texts: en, fr, ru, nb, es or nl")
	level := fs.Int("engine", 0, "play against the computer at this level, 1 (beginner) to 8 (full strength); 0: two players")
	engineColor := fs.String("engine-color", "black", "the colour the computer plays: white or black")
	plain := fs.Bool("plain", false, "read one move or command per line and print the board as text, even on a terminal")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage local [-fen FEN] [-white NAME] [-black NAME] [-engine LEVEL [-engine-color white|black]] [-lang en|fr|ru|nb|es|nl] [-plain]")
		fmt.Fprintln(stderr, "Play against a friend at the same keyboard, or against the computer with -engine. Type moves in any notation (Nxf3, hxg3, g1f3);")
		fmt.Fprintln(stderr, "Tab completes them. Commands: resign, draw, takeback, moves, flip, png FILE, fen, new, help, quit.")
		fmt.Fprintln(stderr, "When standard input is not a terminal, or with -plain, moves are read one a line.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "local: unexpected argument %q: moves are typed once the game has started (give a position with -fen \"...\", quoted)\n", fs.Arg(0))
		return 2
	}
	if *level < 0 || *level > engine.Levels {
		fmt.Fprintf(stderr, "local: -engine %d: the levels are 1 (beginner) to %d (full strength), or 0 for two players\n", *level, engine.Levels)
		return 2
	}
	opt := tui.Options{FEN: *fen, White: *white, Black: *black, Engine: *level, Lang: i18n.FromDiscord(*lang)}
	switch *engineColor {
	case "white":
		opt.EngineColor = game.White
	case "black":
		opt.EngineColor = game.Black
	default:
		fmt.Fprintf(stderr, "local: -engine-color %q: want white or black\n", *engineColor)
		return 2
	}
	opt.EngineNodes = localEngineNodes
	ctx := context.Background()
	svc := play.New(memstore.New(), play.Options{})
	s, err := tui.NewSession(ctx, svc, opt)
	if err != nil {
		fmt.Fprintln(stderr, "local: -fen:", err)
		return 2
	}
	if *plain || !isTerminal(localInput) || !isTerminal(stdout) {
		err = tui.RunPlain(s, localInput, stdout)
	} else {
		err = tui.Run(s, localInput, stdout)
		if err == nil {
			fmt.Fprintln(stdout, "FEN:", s.Game().FEN)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "local:", err)
		return 1
	}
	return 0
}

// isTerminal reports whether x is a terminal.
func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
