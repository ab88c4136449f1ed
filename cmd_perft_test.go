package main

import (
	"bytes"
	"strings"
	"testing"
)

// foolsMate is the position after 1. f3 e5 2. g4 Qh4#.
const foolsMate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"

func TestPerftCommand(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		status int
		out    string // wanted stdout, or a part of stderr when status != 0
	}{
		{"the ice start position has 324 paths of two plies", []string{"-depth", "2"}, 0, "324\n"},
		{"depth zero counts the position itself", []string{"-depth", "0"}, 0, "1\n"},
		{"divide splits Kiwipete's 2039 paths by root move",
			[]string{"-fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "-depth", "2", "-divide"},
			0, "e1g1: 43\n"},
		{"a bad FEN says what is wrong", []string{"-fen", "8/8 w - -"}, 1, "invalid FEN (board)"},
		{"a negative depth is refused", []string{"-depth", "-1"}, 2, "-depth -1: want 0 or more plies"},
		{"a depth that would run for days is refused and the way around named", []string{"-depth", "20"}, 2,
			"-depth 20: at most 8 without -force, because the count grows about 30-fold a ply"},
		// A checkmate has no paths at any depth: quick to count deep.
		{"the cap itself is allowed", []string{"-fen", foolsMate, "-depth", "8"}, 0, "0\n"},
		{"-force lifts the cap", []string{"-force", "-fen", foolsMate, "-depth", "9"}, 0, "0\n"},
		{"an unquoted FEN is explained", []string{"-fen", "8/8/8/8/8/8/8/8", "w"}, 2, "quote the FEN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := dispatch(append([]string{"perft"}, c.args...), &stdout, &stderr)
			if status != c.status {
				t.Fatalf("status %d, want %d; stderr: %s", status, c.status, stderr.String())
			}
			if c.status != 0 {
				if !strings.Contains(stderr.String(), c.out) {
					t.Errorf("stderr %q does not say %q", stderr.String(), c.out)
				}
				return
			}
			if !strings.Contains(stdout.String(), c.out) {
				t.Errorf("stdout %q does not hold %q", stdout.String(), c.out)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	dispatch([]string{"perft", "-fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "-depth", "2", "-divide"}, &stdout, &stderr)
	if lines := strings.Split(strings.TrimSpace(stdout.String()), "\n"); len(lines) != 48+2 || lines[len(lines)-1] != "2039" {
		t.Errorf("divide printed %d lines ending %q, want 48 moves, a blank line and 2039", len(lines), lines[len(lines)-1])
	}
}
