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
)

func init() {
	register("pgn", "export stored games as PGN (one by id, or a player's finished games)", runPGN)
}

// runPGN writes games of a bbolt database as PGN: the game -game, or the
// finished games of -user, newest first. It opens the file read-only, so
// it needs the bot stopped (or a backup: iceage backup -o copy.db).
func runPGN(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pgn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", config.DefaultPath, "configuration file naming the database (database.path)")
	db := fs.String("db", "", "database file (default: the one the configuration names)")
	id := fs.Uint64("game", 0, "the id of the game to export (shown under every board: #12)")
	user := fs.String("user", "", "export the finished games of this Discord user id instead")
	limit := fs.Int("n", 100, "with -user, at most this many games")
	site := fs.String("site", "Discord", "the PGN Site tag")
	out := fs.String("o", "", "file to write (default: standard output)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || (*id == 0) == (*user == "") {
		fmt.Fprintln(stderr, "usage: iceage pgn [-db iceage.db] (-game ID | -user USER_ID [-n 100]) [-o games.pgn]")
		return 2
	}
	if *db == "" {
		c, err := config.Load(*configPath, os.Getenv)
		if err != nil {
			fmt.Fprintln(stderr, "pgn:", err)
			return 1
		}
		*db = c.Database.Path
	}
	st, err := store.Open(*db, &store.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if err != nil {
		fmt.Fprintln(stderr, "pgn:", err)
		if errors.Is(err, store.ErrLocked) {
			fmt.Fprintln(stderr, "pgn: the bot holds the database; export from a backup: iceage backup -o copy.db, then iceage pgn -db copy.db …")
		}
		return 1
	}
	defer st.Close()
	var games []play.Game
	err = st.View(context.Background(), func(tx play.ReadTx) error {
		if *id != 0 {
			g, err := tx.Game(*id)
			games = []play.Game{g}
			return err
		}
		games, err = tx.Finished(*user, "", 0, *limit)
		return err
	})
	if errors.Is(err, play.ErrNotFound) {
		fmt.Fprintf(stderr, "pgn: no game has id %d in %s\n", *id, *db)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "pgn:", err)
		return 1
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "pgn:", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	for i, g := range games {
		text, err := g.PGN(*site)
		if err != nil {
			fmt.Fprintf(stderr, "pgn: game %d: %v\n", g.ID, err)
			return 1
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, text)
	}
	if f, ok := w.(*os.File); ok && w != stdout {
		if err := f.Close(); err != nil {
			fmt.Fprintln(stderr, "pgn:", err)
			return 1
		}
	}
	return 0
}
