package pairingcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
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

func TestRun(t *testing.T) {
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

	cases := []struct {
		name   string
		args   []string
		status int
		out    string // stdout, or a part of stderr when status != 0
	}{
		{"the bye goes to the lowest score (C5)", []string{"--dutch", c5}, OK, "3\n1 5\n3 2\n6 0\n"},
		{"-p without a file writes to standard output", []string{"--dutch", c5, "-p"}, OK, "3\n1 5\n3 2\n6 0\n"},
		{"-p - writes to standard output, one dash is enough", []string{"-dutch", c5, "-p", "-"}, OK, "3\n1 5\n3 2\n6 0\n"},
		{"the bye goes to a player with no unplayed games (C9), CRLF file", []string{"--dutch", c9}, OK, "3\n2 1\n3 5\n4 0\n"},
		{"round 1 with black drawn for board 1: S1 meets S2, the last floats to the bye", []string{"-p", "--dutch", round1}, OK, "3\n3 1\n2 4\n5 0\n"},
		{"help", []string{"--help"}, OK, Usage("pairings")},
		{"a missing XXR says how to add it", []string{"--dutch", noRounds}, Invalid, "add a line \"XXR 9\""},
		{"no pairing possible says the arbiter decides", []string{"--dutch", rematch}, NoPairing, "pair it by hand"},
		{"a finished tournament reads, but has no round to pair", []string{"--dutch", finished}, Invalid, "all 1 rounds (XXR) are played"},
		{"a missing file is named", []string{"--dutch", filepath.Join(dir, "none.trf")}, FileAccess, "none.trf"},
		{"an output file that cannot be made is named", []string{"--dutch", c5, "-p", filepath.Join(dir, "no", "out.txt")}, FileAccess, "out.txt"},
		{"no input says which option", []string{}, Invalid, "--dutch IN.trf"},
		{"--dutch without its file", []string{"--dutch", "-p", "out"}, Invalid, "needs the tournament"},
		{"a stray argument is refused", []string{"--dutch", c5, "extra"}, Invalid, "unexpected argument"},
		{"checking is refused by name", []string{"--dutch", c5, "-c"}, Invalid, "checking a tournament (-c) is not offered"},
		{"the Burstein system is refused by name", []string{"--burstein", c5, "-p"}, Invalid, "Burstein"},
		{"an unknown option is named", []string{"--dutch", c5, "-x"}, Invalid, `"-x"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := Run("pairings", c.args, &stdout, &stderr)
			if status != c.status {
				t.Fatalf("status %d, want %d; stdout: %s; stderr: %s", status, c.status, stdout.String(), stderr.String())
			}
			if c.status != OK {
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
		out := filepath.Join(dir, "out.txt")
		var stdout, stderr bytes.Buffer
		if status := Run("pairings", []string{"--dutch", c5, "-p", out}, &stdout, &stderr); status != OK {
			t.Fatalf("status %d: %s", status, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil || string(b) != "3\n1 5\n3 2\n6 0\n" || stdout.Len() != 0 {
			t.Fatalf("file %q (%v), stdout %q", b, err, stdout.String())
		}
	})
}

func TestParse(t *testing.T) {
	cases := []struct {
		args []string
		want Request
	}{
		{[]string{"--dutch", "in.trf", "-p", "out.txt"}, Request{In: "in.trf", Out: "out.txt"}},
		{[]string{"-p", "out.txt", "-dutch", "in.trf"}, Request{In: "in.trf", Out: "out.txt"}},
		{[]string{"--dutch", "in.trf", "-p"}, Request{In: "in.trf"}},
		{[]string{"--dutch", "-", "-p", "-"}, Request{In: "-", Out: "-"}},
		{[]string{"-h"}, Request{Help: true}},
	}
	for _, c := range cases {
		got, err := Parse(c.args)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", c.args, got, err, c.want)
		}
	}
	for _, bad := range [][]string{
		{"--dutch", "a", "--dutch", "b"},
		{"--dutch", "a", "-p", "x", "-p"},
		{"--dutch"},
		{"--dutch", ""},
		{"in.trf"},
		{"--", "--dutch", "in.trf"},
	} {
		if r, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", bad, r)
		}
	}
}

// FuzzParse holds the command line's reader to never panicking, and to
// always naming the tournament's file when it accepts a pairing request.
func FuzzParse(f *testing.F) {
	f.Add("--dutch\x00in.trf\x00-p\x00out.txt")
	f.Add("-p\x00--dutch\x00x")
	f.Add("--burstein\x00x\x00-c")
	f.Fuzz(func(t *testing.T, joined string) {
		r, err := Parse(strings.Split(joined, "\x00"))
		if err == nil && !r.Help && r.In == "" {
			t.Fatalf("accepted %q with no tournament", joined)
		}
	})
}
