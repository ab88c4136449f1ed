package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/puzzle"
)

func init() {
	register("puzzles", "export the shipped puzzles, or generate a set from self-play and finished games", runPuzzles)
}

// runPuzzles is "iceage puzzles -export FILE" and "iceage puzzles
// generate".
func runPuzzles(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "generate" {
		return runPuzzlesGenerate(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("puzzles", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage puzzles -export FILE      write the shipped puzzles as JSON lines ('-' for standard output)")
		fmt.Fprintln(stderr, "       iceage puzzles generate [flags]   find puzzles in engine self-play and finished games")
		fs.PrintDefaults()
	}
	export := fs.String("export", "", "write the shipped puzzles to this file as JSON lines ('-' for standard output)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *export == "" {
		fs.Usage()
		return 2
	}
	set := puzzle.Set()
	if err := writeTo(*export, stdout, func(w io.Writer) error { return puzzle.Export(w, set) }); err != nil {
		fmt.Fprintln(stderr, "puzzles:", err)
		return 1
	}
	fmt.Fprintf(stderr, "%d puzzles written\n", len(set))
	return 0
}

// writeTo writes with write to the file name, or to stdout for "-",
// replacing the file only once everything is written.
func writeTo(name string, stdout io.Writer, write func(io.Writer) error) error {
	if name == "-" {
		return write(stdout)
	}
	tmp := name + ".tmp"
	f, err := os.Create(tmp) // #nosec G304 -- beside the file the operator named on the command line
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		return errors.Join(err, f.Close(), os.Remove(tmp))
	}
	if err := f.Close(); err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	return os.Rename(tmp, name)
}

// runPuzzlesGenerate scans -games self-play games (seeds -seed,
// -seed+1, …) and the games of -pgn files for puzzles, -workers at a
// time. Each game's puzzles are kept in -dir as it finishes, so a run
// stopped midway resumes where it was; the set, in the games' order,
// goes to -o. The same flags give the same set.
func runPuzzlesGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("puzzles generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage puzzles generate [-seed 1] [-games 100] [-pgn games.pgn] [-workers 1] [-dir puzzles.work] [-o puzzles.jsonl]")
		fs.PrintDefaults()
	}
	seed := fs.Uint64("seed", 1, "seed of the first self-play game; game i uses seed+i")
	games := fs.Int("games", 100, "number of self-play games")
	pgns := fs.String("pgn", "", "comma-separated PGN files of finished games to search too")
	workers := fs.Int("workers", 1, "games scanned at once (each takes a core)")
	dir := fs.String("dir", "puzzles.work", "folder of each game's puzzles, for resuming")
	out := fs.String("o", "puzzles.jsonl", "the set, as JSON lines ('-' for standard output)")
	nodes := fs.Int64("nodes", 0, "engine nodes for each position scanned (0: the default)")
	deep := fs.Int64("deep", 0, "engine nodes for judging a candidate (0: the default)")
	maxPlies := fs.Int("maxplies", 0, "length of a self-play game in plies (0: the default)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "puzzles generate: unexpected argument %q\n", fs.Arg(0))
		return 2
	case *games < 0 || *workers < 1 || *nodes < 0 || *deep < 0 || *maxPlies < 0:
		fmt.Fprintln(stderr, "puzzles generate: -games, -nodes, -deep and -maxplies cannot be negative, and -workers is at least 1")
		return 2
	}
	var sources []puzzle.Source
	for i := range *games {
		sources = append(sources, puzzle.SelfPlaySource(*seed+uint64(i)))
	}
	if *pgns != "" {
		for _, name := range strings.Split(*pgns, ",") {
			found, err := pgnSources(name)
			if err != nil {
				fmt.Fprintln(stderr, "puzzles generate:", err)
				return 1
			}
			sources = append(sources, found...)
		}
	}
	if err := os.MkdirAll(*dir, 0o750); err != nil {
		fmt.Fprintln(stderr, "puzzles generate:", err)
		return 1
	}
	checkpoint := func(src puzzle.Source) string { return filepath.Join(*dir, src.Name+".jsonl") }
	var todo []puzzle.Source
	for _, src := range sources {
		if _, err := os.Stat(checkpoint(src)); err != nil {
			todo = append(todo, src)
		}
	}
	fmt.Fprintf(stderr, "%d games, %d already scanned\n", len(sources), len(sources)-len(todo))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opt := puzzle.Options{Nodes: *nodes, DeepNodes: *deep, MaxPlies: *maxPlies}
	err := puzzle.ScanAll(ctx, todo, opt, *workers, func(src puzzle.Source, found []puzzle.Puzzle) error {
		fmt.Fprintf(stderr, "%s: %d puzzles\n", src.Name, len(found))
		return writeTo(checkpoint(src), nil, func(w io.Writer) error { return puzzle.Write(w, found) })
	})
	if err != nil {
		fmt.Fprintln(stderr, "puzzles generate: stopped:", err, "(run again to resume)")
		return 1
	}
	var all [][]puzzle.Puzzle
	for _, src := range sources {
		f, err := os.Open(checkpoint(src))
		if err != nil {
			fmt.Fprintln(stderr, "puzzles generate:", err)
			return 1
		}
		found, err := puzzle.Read(f)
		err = errors.Join(err, f.Close())
		if err != nil {
			fmt.Fprintln(stderr, "puzzles generate:", checkpoint(src)+":", err)
			return 1
		}
		all = append(all, found)
	}
	set := puzzle.Collect(all...)
	puzzle.Calibrate(set)
	if err := writeTo(*out, stdout, func(w io.Writer) error { return puzzle.Write(w, set) }); err != nil {
		fmt.Fprintln(stderr, "puzzles generate:", err)
		return 1
	}
	fmt.Fprintln(stderr, puzzle.Summary(set))
	return 0
}

// pgnSources reads the games of a PGN file, one source each.
func pgnSources(name string) ([]puzzle.Source, error) {
	data, err := os.ReadFile(name) // #nosec G304 -- a PGN file the operator named on the command line
	if err != nil {
		return nil, err
	}
	var out []puzzle.Source
	for k, text := range splitPGN(string(data)) {
		m, _, err := game.ParsePGN(text)
		if err != nil {
			return nil, fmt.Errorf("%s: game %d: %w", name, k+1, err)
		}
		out = append(out, puzzle.Source{Name: fmt.Sprintf("%s-%d", strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)), k+1),
			Start: m.Start(), Moves: m.Moves()})
	}
	return out, nil
}

// splitPGN cuts a file of several games at each tag section that follows
// movetext.
func splitPGN(text string) []string {
	var games []string
	var cur strings.Builder
	inMoves := false
	for _, line := range strings.SplitAfter(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && inMoves {
			games = append(games, cur.String())
			cur.Reset()
			inMoves = false
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			inMoves = true
		}
		cur.WriteString(line)
	}
	if strings.TrimSpace(cur.String()) != "" {
		games = append(games, cur.String())
	}
	return games
}
