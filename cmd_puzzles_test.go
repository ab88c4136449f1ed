package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/puzzle"
)

func TestPuzzlesExportWritesTheShippedSetAsJSONLines(t *testing.T) {
	out := filepath.Join(t.TempDir(), "puzzles.jsonl")
	var stdout, stderr bytes.Buffer
	if status := dispatch([]string{"puzzles", "-export", out}, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &fields); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		var keys []string
		for k := range fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if strings.Join(keys, ",") != "fen,goal,id,moves,rating,themes" {
			t.Fatalf("line %d has the keys %v", n+1, keys)
		}
		var pz puzzle.Puzzle
		json.Unmarshal(sc.Bytes(), &pz)
		if err := pz.Check(); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		if pos, _ := pz.Position(); len(pz.Moves)%2 != 1 || !strings.Contains(pz.FEN, "*") && pos.Ice() != 0 {
			t.Fatalf("line %d: %d moves, FEN %s", n+1, len(pz.Moves), pz.FEN)
		}
		n++
	}
	if n != len(puzzle.Set()) {
		t.Fatalf("%d puzzles exported, %d shipped", n, len(puzzle.Set()))
	}
}

func TestPuzzlesGenerateIsTheSameOnEveryRunAndResumes(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("puzzle", "testdata", "small-run.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := []string{"puzzles", "generate", "-seed", "9", "-games", "1", "-nodes", "4000", "-deep", "12000", "-maxplies", "48",
		"-dir", filepath.Join(dir, "work")}
	for run, want := range []string{"0 already scanned", "1 already scanned"} {
		out := filepath.Join(dir, "set.jsonl")
		var stdout, stderr bytes.Buffer
		if status := dispatch(append(args, "-o", out), &stdout, &stderr); status != 0 || !strings.Contains(stderr.String(), want) {
			t.Fatalf("run %d: status %d: %s", run+1, status, stderr.String())
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, golden) {
			t.Fatalf("run %d differs from the package's small run:\n%s", run+1, got)
		}
	}
}

func TestPuzzlesRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{}, 2, "usage: iceage puzzles -export FILE"},
		{[]string{"generate", "-workers", "0"}, 2, "-workers is at least 1"},
		{[]string{"generate", "stray"}, 2, `unexpected argument "stray"`},
		{[]string{"generate", "-games", "0", "-pgn", "/no/such.pgn"}, 1, "no such file"},
	} {
		var stdout, stderr bytes.Buffer
		if status := dispatch(append([]string{"puzzles"}, c.args...), &stdout, &stderr); status != c.status || !strings.Contains(stderr.String(), c.stderr) {
			t.Errorf("%v: status %d, stderr %q", c.args, status, stderr.String())
		}
	}
}

func TestPuzzlesGenerateReadsFinishedGamesFromPGN(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	var stdout, stderr bytes.Buffer
	if status := dispatch([]string{"selfplay", "-games", "2", "-white", "2", "-black", "6", "-nodes", "3000", "-maxplies", "40", "-o", pgn}, &stdout, &stderr); status != 0 {
		t.Fatalf("selfplay: %s", stderr.String())
	}
	stderr.Reset()
	out := filepath.Join(dir, "set.jsonl")
	args := []string{"puzzles", "generate", "-games", "0", "-pgn", pgn, "-nodes", "3000", "-deep", "6000", "-dir", filepath.Join(dir, "work"), "-o", out}
	if status := dispatch(args, &stdout, &stderr); status != 0 || !strings.Contains(stderr.String(), "2 games, 0 already scanned") {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	for _, name := range []string{"games-1.jsonl", "games-2.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, "work", name)); err != nil {
			t.Errorf("no checkpoint for a game of the PGN: %v", err)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}
