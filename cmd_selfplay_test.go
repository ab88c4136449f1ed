package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/game"
)

func TestSelfplayCommandRefusesBadFlags(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"-h prints the usage", []string{"-h"}, 2, "usage: iceage selfplay"},
		{"a level above 8 is refused", []string{"-white", "9"}, 2, "-white 9: levels run from 1 to 8"},
		{"a level below 1 is refused", []string{"-black", "0"}, 2, "-black 0: levels run from 1 to 8"},
		{"no games is refused", []string{"-games", "0"}, 2, "-games 0: want at least 1"},
		{"a negative budget is refused", []string{"-nodes", "-5"}, 2, "cannot be negative"},
		{"a stray argument is refused", []string{"8"}, 2, `unexpected argument "8"`},
		{"a bad FEN says what is wrong", []string{"-fen", "8/8 w"}, 1, "invalid FEN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := dispatch(append([]string{"selfplay"}, c.args...), &stdout, &stderr)
			if status != c.status || !strings.Contains(stderr.String(), c.stderr) {
				t.Fatalf("status %d, stderr %q; want status %d and %q", status, stderr.String(), c.status, c.stderr)
			}
		})
	}
}

// readGames splits a multi-game PGN and reads every game back.
func readGames(t *testing.T, pgn string) []*game.Match {
	t.Helper()
	var out []*game.Match
	for _, text := range strings.Split(strings.TrimSpace(pgn), "\n\n[Event") {
		if !strings.HasPrefix(text, "[Event") {
			text = "[Event" + text
		}
		m, _, err := game.ParsePGN(text)
		if err != nil {
			t.Fatalf("the PGN does not read back: %v\n%s", err, text)
		}
		out = append(out, m)
	}
	return out
}

func TestSelfplayCommandWritesReproducibleGames(t *testing.T) {
	args := []string{"selfplay", "-white", "2", "-black", "1", "-games", "2", "-swap", "-nodes", "500", "-seed", "7", "-maxplies", "120"}
	var first, stderr bytes.Buffer
	if status := dispatch(args, &first, &stderr); status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	games := readGames(t, first.String())
	if len(games) != 2 {
		t.Fatalf("%d games in the PGN, want 2", len(games))
	}
	for i, m := range games {
		if !m.Outcome().Over() {
			t.Errorf("game %d has no result", i+1)
		}
		if n := len(m.Moves()); n > 120 {
			t.Errorf("game %d has %d plies, more than -maxplies", i+1, n)
		}
	}
	if !strings.Contains(first.String(), `[White "engine level 2"]`) || !strings.Contains(first.String(), `[White "engine level 1"]`) {
		t.Error("-swap did not swap the colours in the second game")
	}
	if !strings.Contains(stderr.String(), "2 games: White won") {
		t.Errorf("no totals on standard error: %q", stderr.String())
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "games.pgn")
	var stdout bytes.Buffer
	stderr.Reset()
	if status := dispatch(append(args, "-o", file), &stdout, &stderr); status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	again, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != first.String() {
		t.Error("the same seed and node budget gave different games")
	}
	if stdout.Len() != 0 {
		t.Errorf("with -o the PGN also went to standard output: %q", stdout.String())
	}
}
