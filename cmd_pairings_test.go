package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// trfByeToLowestScore is a six-player tournament whose bye must go to
// the lowest score (C5): player 6 with 0 points, though player 4 sits
// the round out. The command's cases are pairingcmd's tests; this one
// proves that iceage runs it.
const trfByeToLowestScore = `012 Bye to the lowest score
001    1      Aune, Kari                        2200                             2.0    1     4 w 1     2 b 1
001    2      Berg, Ola                         2150                             1.0    3     5 b 1     1 w 0
001    3      Dahl, Ingrid                      2100                             2.0    2     6 w 1     4 b 1
001    4      Eide, Per                         2050                             0.0    5     1 b 0     3 w 0  0000 - Z
001    5      Foss, Lise                        2000                             1.0    4     2 w 0     6 b 1
001    6      Haug, Nils                        1950                             0.0    6     3 b 0     5 w 0
XXR 3
`

func TestPairingsCommand(t *testing.T) {
	in := filepath.Join(t.TempDir(), "c5.trf")
	if err := os.WriteFile(in, []byte(trfByeToLowestScore), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if status := dispatch([]string{"pairings", "--dutch", in, "-p"}, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	if want := "3\n1 5\n3 2\n6 0\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	stdout.Reset()
	stderr.Reset()
	if status := dispatch([]string{"pairings", "--dutch", in, "-c"}, &stdout, &stderr); status != 3 || !strings.Contains(stderr.String(), "iceage pairings: checking") {
		t.Errorf("-c: status %d, stderr %q; want 3 and the refusal", status, stderr.String())
	}
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
