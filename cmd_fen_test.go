package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestFENCommand(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		status int
		out    string // wanted stdout, or a part of stderr when status != 0
	}{
		{"a FEN is printed normalised", []string{"-fen", "4k3/8/8/8/8/8/8/4K3 w - -"}, 0, "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"},
		{"a bad FEN says what is wrong", []string{"-fen", "8/8 w - -"}, 1, "invalid FEN (board)"},
		{"a FEN given without -fen is refused, not ignored", []string{"4k3/8/8/8/8/8/8/4K3 w - - 0 1"}, 2, "unexpected argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := dispatch(append([]string{"fen"}, c.args...), &stdout, &stderr)
			if status != c.status {
				t.Fatalf("status %d, want %d; stdout: %s; stderr: %s", status, c.status, stdout.String(), stderr.String())
			}
			if c.status != 0 {
				if !strings.Contains(stderr.String(), c.out) {
					t.Errorf("stderr %q does not say %q", stderr.String(), c.out)
				}
				return
			}
			if stdout.String() != c.out {
				t.Errorf("stdout %q, want %q", stdout.String(), c.out)
			}
		})
	}
}
