package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/render"
)

func init() {
	register("render", "draw a position as a PNG, or a game (moves as arguments) as an animated GIF", runRender)
}

func runRender(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage render [-fen FEN] [-flip] [-last e2e4] [-size 512] [-theme classic] -o board.png")
		fmt.Fprintln(stderr, "       iceage render -gif [-fen FEN] -o game.gif hxg3 Nxf6 ... (moves as typed: SAN or UCI)")
		fs.PrintDefaults()
	}
	fen := fs.String("fen", game.StartFEN, "position in FEN, '*' for ice (with -gif: the start of the game)")
	flip := fs.Bool("flip", false, "show the board from the other side (by default the side to move is at the bottom; a GIF shows White at the bottom)")
	last := fs.String("last", "", "highlight this move, in UCI form (e.g. e2e4)")
	size := fs.Int("size", render.DefaultSize, fmt.Sprintf("board side in pixels, a multiple of 8 from %d to %d", render.MinSize, render.MaxSize))
	themeName := fs.String("theme", "classic", "colours: classic or colorblind")
	out := fs.String("o", "", "output file ('-' for standard output)")
	anim := fs.Bool("gif", false, "draw the game of the moves given as arguments as an animated GIF")
	alt := fs.Bool("alt", false, "also print the image's text description (alt text) on standard error")
	frames := fs.Int("frames", render.DefaultMaxFrames, "with -gif: the most frames; a longer game is sampled, keeping every Ice Age and the final position")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "render: say where to write the image with -o FILE (or -o - for standard output)")
		return 2
	}
	if !*anim && fs.NArg() > 0 {
		fmt.Fprintf(stderr, "render: unexpected arguments %q: moves are read only with -gif\n", fs.Args())
		return 2
	}
	// The renderer clamps and rounds any size; from a shell, a size it
	// would change is a typo, and is said so rather than drawn otherwise.
	if *size < render.MinSize || *size > render.MaxSize || *size%8 != 0 {
		fmt.Fprintf(stderr, "render: -size %d: the board side is a multiple of 8 from %d to %d pixels\n", *size, render.MinSize, render.MaxSize)
		return 2
	}
	p, err := game.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintln(stderr, "render:", err)
		return 1
	}
	theme, err := render.ParseTheme(*themeName)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *frames < 1 {
		fmt.Fprintf(stderr, "render: -frames %d: want at least 1\n", *frames)
		return 2
	}
	opt := render.Options{Size: *size, Theme: theme, MaxFrames: *frames, Words: i18n.BoardWords{Lang: i18n.English}}
	if *last != "" {
		if opt.LastMove, err = game.ParseUCI(*last); err != nil {
			fmt.Fprintln(stderr, "render: -last:", err)
			return 2
		}
	}
	var moves []game.Move
	if *anim {
		// Moves in any notation a player types, each read in the position
		// it is played in.
		pos := p
		for i, a := range fs.Args() {
			m, err := game.ParseMove(&pos, a)
			if err != nil {
				fmt.Fprintf(stderr, "render: move %d (%s): %v\n", i+1, a, err)
				return 1
			}
			moves = append(moves, m)
			pos = pos.Apply(m)
		}
	}
	switch {
	case *anim && *flip:
		opt.Orientation = render.BlackBottom
	case *anim:
		opt.Orientation = render.WhiteBottom
	case *flip && p.Turn() == game.White:
		opt.Orientation = render.BlackBottom
	case *flip:
		opt.Orientation = render.WhiteBottom
	}

	w := stdout
	var f *os.File
	if *out != "-" {
		if f, err = os.Create(*out); err != nil {
			fmt.Fprintln(stderr, "render:", err)
			return 1
		}
		w = f
	}
	var info render.GIFInfo
	if *anim {
		info, err = render.WriteGIF(w, p, moves, opt)
	} else {
		err = render.PNG(w, &p, opt)
	}
	if f != nil {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("render: %w", cerr)
		}
	}
	if err != nil {
		// The package's errors begin with "render:" already, as the
		// command's own do.
		fmt.Fprintln(stderr, err)
		return 1
	}
	if info.Sampled() {
		fmt.Fprintf(stderr, "render: the game has %d plies, more than %d frames hold: the GIF shows %d of them in %d frames, every Ice Age and the final position among them (-frames changes the cap)\n",
			info.Plies, *frames, info.Shown, info.Frames)
	}
	if *alt && !*anim {
		fmt.Fprintln(stderr, i18n.BoardDescription(i18n.English, &p))
	}
	return 0
}
