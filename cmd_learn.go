package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/store"
	"github.com/iceagechess/iceage/tui"
)

func init() {
	register("learn", "learn Ice Age Chess in the terminal: ten short lessons you play", runLearn)
}

// runLearn runs the lessons of /learn in the terminal, one move or
// command a line. The stars earned last as long as the session, or are
// kept in a database file with -db (the bot's own file works too: the
// terminal's player is the user "terminal").
func runLearn(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("learn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "en", "the language of the lessons: en, fr, ru, nb, es or nl")
	db := fs.String("db", "", "keep the stars earned in this database file (default: for the session only)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage learn [-lang en|fr|ru|nb|es|nl] [-db FILE]")
		fmt.Fprintln(stderr, "Ten short lessons, each a few positions with a goal. Type a lesson's number, then moves in any notation")
		fmt.Fprintln(stderr, "(Nf3, g1f3); commands: hint, again, next, lessons, quit, or their words in the lessons' language.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "learn: unexpected argument %q: lessons and moves are typed once it has started\n", fs.Arg(0))
		return 2
	}
	ctx := context.Background()
	var st play.Storage = memstore.New()
	if *db != "" {
		s, err := store.Open(*db, nil)
		if err != nil {
			fmt.Fprintln(stderr, "learn:", err)
			return 1
		}
		defer s.Close()
		st = s
	}
	svc := play.New(st, play.Options{})
	l := tui.NewLearner(ctx, svc, "terminal", i18n.FromDiscord(*lang), nil)
	if err := tui.RunLessons(l, localInput, stdout); err != nil {
		fmt.Fprintln(stderr, "learn:", err)
		return 1
	}
	return 0
}
