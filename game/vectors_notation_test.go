package game

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// readVectors returns the ' ; '-separated fields of every case line of a
// file in testdata (see testdata/README or the file's header).
func readVectors(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, strings.Split(line, " ; "))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every SAN vector: SAN(UCI) is the SAN given, and the SAN given parses to
// the UCI given.
func TestSANVectors(t *testing.T) {
	for i, v := range readVectors(t, "san.txt") {
		fen, want, uci := v[0], v[1], v[2]
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		m, err := ParseMove(&p, uci)
		if err != nil {
			t.Errorf("case %d %s: UCI %s does not parse: %v", i+1, fen, uci, err)
			continue
		}
		if got := p.SAN(m); got != want {
			t.Errorf("case %d %s: SAN(%s) = %s, want %s", i+1, fen, uci, got, want)
		}
		back, err := ParseMove(&p, want)
		if err != nil {
			t.Errorf("case %d %s: SAN %s does not parse: %v", i+1, fen, want, err)
			continue
		}
		if back != m {
			t.Errorf("case %d %s: ParseMove(%s) = %s, want %s", i+1, fen, want, back, uci)
		}
	}
}
