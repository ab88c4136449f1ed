package tournament

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateTRF = flag.Bool("update", false, "rewrite the golden TRF files in testdata/trf")

// TestTRFOfAFinishedSwissIsGolden writes a whole Swiss of five, a bye, a
// withdrawal and three rounds over three days, as an arbiter's program
// receives it: the name, the first and last days (042, 052), the rounds
// and the results with FIDE's codes. go test ./tournament -run Golden
// -update rewrites it.
func TestTRFOfAFinishedSwissIsGolden(t *testing.T) {
	day := time.Date(2026, 12, 1, 19, 30, 0, 0, time.UTC)
	tr := &Tournament{Name: "Winter Swiss", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3, TopColor: White}
	signUp(t, tr, 5)
	if _, err := tr.Start("org", day); err != nil {
		t.Fatal(err)
	}
	finish(t, tr)
	if err := tr.Withdraw(tr.Members[4].ID); err != nil {
		t.Fatal(err)
	}
	for round := 2; round <= 3; round++ {
		day = day.Add(24 * time.Hour)
		if _, err := tr.Next(day); err != nil {
			t.Fatal(err)
		}
		finish(t, tr)
	}
	// The last round ends after midnight: the last day is the next one.
	end := day.Add(6 * time.Hour)
	if r, err := tr.Next(end); r != nil || err != nil || tr.Status != Finished {
		t.Fatalf("after the last round: %v %v, status %v", r, err, tr.Status)
	}
	var buf bytes.Buffer
	if err := WriteTRF(&buf, tr.TRF()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "trf", "winter-swiss.trf")
	if *updateTRF {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("the TRF differs from %s (-update rewrites it):\n%s", golden, buf.String())
	}
	// The withdrawn player sits out every round after; a finished
	// tournament has no round to pair, so nothing is written beyond it.
	for _, line := range strings.Split(string(want), "\n") {
		if strings.HasPrefix(line, "001") && strings.Count(line, "  0000 ")+strings.Count(line, " w ")+strings.Count(line, " b ") != 3 {
			t.Errorf("not three rounds: %s", line)
		}
	}
}

func TestTRFDatesReadInTheirUsualSpellings(t *testing.T) {
	for _, line := range []string{"2026/02/01", "2026-02-01", "2026.02.01", "01.02.2026", "26/02/01"} {
		tr, err := ReadTRF(strings.NewReader("042 " + line + "\n052 " + line + "\n" + trfSample))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
		if !tr.Start.Equal(want) || !tr.End.Equal(want) {
			t.Errorf("%q read as %v to %v, want %v", line, tr.Start, tr.End, want)
		}
	}
	// An empty date line says nothing, as some programs write it.
	tr, err := ReadTRF(strings.NewReader("042\n052 \n" + trfSample))
	if err != nil || !tr.Start.IsZero() || !tr.End.IsZero() {
		t.Fatalf("empty date lines: %v, %v to %v", err, tr.Start, tr.End)
	}
	// A file without them is written without them.
	var buf bytes.Buffer
	if err := WriteTRF(&buf, tr); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "042") || strings.Contains(buf.String(), "052") {
		t.Fatalf("dates written that were not known:\n%s", buf.String())
	}
}
