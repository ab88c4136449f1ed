package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Two six- and five-player tournaments that test the criteria the 2026
// rules added. In the first, the bye must go to the lowest score (C5):
// player 6 with 0 points, though player 4 sits the round out. In the
// second, three players on 0 points could take the bye and it goes to
// the lowest ranked of those who played every round (C9), player 4, not
// player 5 who missed round 1.
const (
	trfByeToLowestScore = `012 Bye to the lowest score
001    1      Aune, Kari                        2200                             2.0    1     4 w 1     2 b 1
001    2      Berg, Ola                         2150                             1.0    3     5 b 1     1 w 0
001    3      Dahl, Ingrid                      2100                             2.0    2     6 w 1     4 b 1
001    4      Eide, Per                         2050                             0.0    5     1 b 0     3 w 0  0000 - Z
001    5      Foss, Lise                        2000                             1.0    4     2 w 0     6 b 1
001    6      Haug, Nils                        1950                             0.0    6     3 b 0     5 w 0
XXR 3
`
	trfByeToFewestUnplayed = `012 Bye to the fewest unplayed games
001    1      Aune, Kari                        2200                             1.0    1     3 w 1
001    2      Berg, Ola                         2150                             1.0    2     4 b 1
001    3      Dahl, Ingrid                      2100                             0.0    3     1 b 0
001    4      Eide, Per                         2050                             0.0    4     2 w 0
001    5      Foss, Lise                        2000                             0.0    5  0000 - Z
XXR 3
`
)

func TestPairingsCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c5 := write("c5.trf", trfByeToLowestScore)
	c9 := write("c9.trf", strings.ReplaceAll(trfByeToFewestUnplayed, "\n", "\r\n"))
	round1 := write("r1.trf", "XXR 5\nXXC black1\n"+
		"001    1      A                                 2000\n"+
		"001    2      B                                 1900\n"+
		"001    3      C                                 1800\n"+
		"001    4      D                                 1700\n"+
		"001    5      E                                 1600\n")
	noRounds := write("norounds.trf", strings.Replace(trfByeToLowestScore, "XXR 3\n", "", 1))
	rematch := write("rematch.trf", "XXR 3\n"+
		"001    1      A                                 2000                             1.0    1     2 w 1\n"+
		"001    2      B                                 1900                             0.0    2     1 b 0\n")
	finished := write("finished.trf", "XXR 1\n"+
		"001    1      A                                 2000                             1.0    1     2 w 1\n"+
		"001    2      B                                 1900                             0.0    2     1 b 0\n")
	out := filepath.Join(dir, "out.txt")

	cases := []struct {
		name   string
		args   []string
		status int
		out    string // stdout, or a part of stderr when status != 0
	}{
		{"the bye goes to the lowest score (C5)", []string{"-dutch", c5}, 0, "3\n1 5\n3 2\n6 0\n"},
		{"the bye goes to a player with no unplayed games (C9), CRLF file", []string{"-dutch", c9}, 0, "3\n2 1\n3 5\n4 0\n"},
		{"round 1 with black drawn for board 1: S1 meets S2, the last floats to the bye", []string{"-dutch", round1}, 0, "3\n3 1\n2 4\n5 0\n"},
		{"a missing XXR says how to add it", []string{"-dutch", noRounds}, 1, "add a line \"XXR 9\""},
		{"no pairing possible says the arbiter decides", []string{"-dutch", rematch}, 1, "pair it by hand"},
		{"a finished tournament reads, but has no round to pair", []string{"-dutch", finished}, 1, "all 1 rounds (XXR) are played"},
		{"a missing file is named", []string{"-dutch", filepath.Join(dir, "none.trf")}, 1, "none.trf"},
		{"no input says which flag", []string{}, 2, "-dutch IN.trf"},
		{"a stray argument is refused", []string{"-dutch", c5, "extra"}, 2, "unexpected argument"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := dispatch(append([]string{"pairings"}, c.args...), &stdout, &stderr)
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

	t.Run("-p writes the file", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if status := dispatch([]string{"pairings", "-dutch", c5, "-p", out}, &stdout, &stderr); status != 0 {
			t.Fatalf("status %d: %s", status, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil || string(b) != "3\n1 5\n3 2\n6 0\n" || stdout.Len() != 0 {
			t.Fatalf("file %q (%v), stdout %q", b, err, stdout.String())
		}
	})
}

// TestPairingsStartsSmall runs the program's pairings command and reads
// what each package's init allocated (GODEBUG=inittrace=1): the whole
// program is linked into the one binary, so anything a package builds
// when it loads (the messages of six languages, pictures, tables) is paid
// by a command that pairs a tournament and needs none of it. The messages
// alone were 17 MB; what is left are small tables of a few kB each.
func TestPairingsStartsSmall(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "c5.trf")
	if err := os.WriteFile(in, []byte(trfByeToLowestScore), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, dir, []string{"GODEBUG=inittrace=1"}, "", "pairings", "-dutch", in, "-p", filepath.Join(dir, "out.txt"))
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	const most = 1 << 20
	inits := 0
	for _, line := range strings.Split(stderr, "\n") {
		// init PKG @0.5 ms, 0.02 ms clock, 15072 bytes, 95 allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		inits++
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("reading %q: %v", line, err)
		}
		if n > most {
			t.Errorf("%s allocates %d bytes when the program starts (at most %d): make it lazy (sync.OnceValue)", f[1], n, most)
		}
	}
	if inits < 10 {
		t.Fatalf("only %d package inits traced; stderr:\n%s", inits, stderr)
	}
}
