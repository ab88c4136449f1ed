package game

import (
	"errors"
	"testing"
)

func TestParseUCI(t *testing.T) {
	good := []struct {
		text string
		want Move
	}{
		{"h2g3", NewMove(15, 22, NoKind)},
		{"e7e8q", NewMove(52, 60, Queen)},
		{"a2a1n", NewMove(8, 0, Knight)},
		{"e1g1", NewMove(E1, G1, NoKind)},
	}
	for _, c := range good {
		t.Run(c.text+" reads as a move and prints back the same", func(t *testing.T) {
			m, err := ParseUCI(c.text)
			if err != nil || m != c.want || m.UCI() != c.text {
				t.Fatalf("ParseUCI(%q) = %v (%s), %v; want %s", c.text, m, m.UCI(), err, c.want.UCI())
			}
		})
	}
	for _, text := range []string{"", "e2", "e2e4e", "e7e8k", "e7e8Q", "E2E4", "i2i4", "e0e1", "e2e2", "Nf3", "e2-e4"} {
		t.Run(text+" is a syntax error", func(t *testing.T) {
			_, err := ParseUCI(text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseUCI(%q) = %v, want a *SyntaxError", text, err)
			}
		})
	}
}

func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "a1h8", "zz", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ParseUCI(text)
		if err != nil {
			return
		}
		if m.UCI() != text {
			t.Fatalf("ParseUCI(%q) = %s", text, m.UCI())
		}
	})
}
