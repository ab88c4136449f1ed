package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
	"github.com/iceagechess/iceage/tournament"
)

func init() {
	register("tournament", "export a stored tournament as TRF, for arbiters' programs", runTournament)
}

// runTournament writes the tournament -id of a bbolt database as TRF
// (-trf), so that an arbiter's program (JaVaFo, bbpPairings, or
// "iceage pairings") can check its pairings: the rounds that are over,
// without the one under way, which such a program pairs again. It opens the file
// read-only, so it needs the bot stopped (or a backup).
func runTournament(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tournament", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", config.DefaultPath, "configuration file naming the database (database.path)")
	db := fs.String("db", "", "database file (default: the one the configuration names)")
	id := fs.Uint64("id", 0, "the id of the tournament (shown on its sign-up post)")
	trf := fs.Bool("trf", false, "write it as TRF-2016 with XXR and XXC")
	out := fs.String("o", "", "file to write (default: standard output)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *id == 0 || !*trf {
		fmt.Fprintln(stderr, "usage: iceage tournament [-db iceage.db] -id N -trf [-o event.trf]")
		return 2
	}
	if *db == "" {
		c, err := config.Load(*configPath, os.Getenv)
		if err != nil {
			fmt.Fprintln(stderr, "tournament:", err)
			return 1
		}
		*db = c.Database.Path
	}
	st, err := store.Open(*db, &store.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if err != nil {
		fmt.Fprintln(stderr, "tournament:", err)
		if errors.Is(err, store.ErrLocked) {
			fmt.Fprintln(stderr, "tournament: the bot holds the database; export from a backup: iceage backup -o copy.db, then iceage tournament -db copy.db …")
		}
		return 1
	}
	defer st.Close()
	var t *tournament.Tournament
	err = st.View(context.Background(), func(tx play.ReadTx) error {
		rec, err := tx.Tournament(*id)
		if err != nil {
			return err
		}
		t, err = tournament.FromRecord(rec)
		return err
	})
	if errors.Is(err, play.ErrNotFound) {
		fmt.Fprintf(stderr, "tournament: no tournament has id %d in %s\n", *id, *db)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "tournament:", err)
		return 1
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "tournament:", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	if err := tournament.WriteTRF(w, t.TRF()); err != nil {
		fmt.Fprintln(stderr, "tournament:", err)
		return 1
	}
	if f, ok := w.(*os.File); ok && w != stdout {
		if err := f.Close(); err != nil {
			fmt.Fprintln(stderr, "tournament:", err)
			return 1
		}
	}
	return 0
}
