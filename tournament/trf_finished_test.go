package tournament

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// A finished tournament's export reads back as it was: every round, the
// withdrawn player's rounds, the bye and both days. An arbiter checks a
// tournament once it is over, so that is the file most often read.
func TestReadTRFReadsAFinishedTournamentsExport(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for name, system := range map[string]System{"swiss": Swiss, "round-robin": RoundRobin} {
		t.Run(name, func(t *testing.T) {
			tr := &Tournament{Name: "Winter Cup", Organiser: "org", System: system, Rounds: 3, DaysPerMove: 3}
			signUp(t, tr, 5)
			if _, err := tr.Start("org", start); err != nil {
				t.Fatal(err)
			}
			finish(t, tr)
			if system == Swiss {
				if err := tr.Withdraw(tr.Members[4].ID); err != nil {
					t.Fatal(err)
				}
			}
			for {
				r, err := tr.Next(start.AddDate(0, 0, 3*len(tr.Played)))
				if err != nil {
					t.Fatal(err)
				}
				if r == nil {
					break
				}
				finish(t, tr)
			}
			if tr.Status != Finished {
				t.Fatalf("status %v after every round", tr.Status)
			}
			x := tr.TRF()
			var buf bytes.Buffer
			if err := WriteTRF(&buf, x); err != nil {
				t.Fatal(err)
			}
			back, err := ReadTRF(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("the finished tournament's export does not read back: %v\n%s", err, buf.String())
			}
			if back.Name != x.Name || !back.Start.Equal(x.Start.Truncate(24*time.Hour)) || back.End.IsZero() {
				t.Fatalf("read back %q from %v to %v; wrote %q from %v to %v", back.Name, back.Start, back.End, x.Name, x.Start, x.End)
			}
			if back.Field.Rounds != x.Field.Rounds || back.Field.Played() != x.Field.Rounds {
				t.Fatalf("read back %d of %d rounds; wrote all %d", back.Field.Played(), back.Field.Rounds, x.Field.Rounds)
			}
			for i, e := range x.Field.Players {
				g := back.Field.Players[i]
				if g.Name != e.Name || g.Score() != e.Score() || len(g.Games) != len(e.Games) {
					t.Fatalf("player %d read back as %+v, want %+v", i+1, g, e)
				}
				for k := range e.Games {
					if g.Games[k] != e.Games[k] {
						t.Fatalf("player %d round %d read back as %+v, want %+v", i+1, k+1, g.Games[k], e.Games[k])
					}
				}
			}
			// What is read back is written again byte for byte.
			var again bytes.Buffer
			if err := WriteTRF(&again, back); err != nil {
				t.Fatal(err)
			}
			if again.String() != buf.String() {
				t.Fatalf("written again differently:\n%s\nwas\n%s", again.String(), buf.String())
			}
		})
	}
}

// A file cannot hold more rounds of results than its XXR gives, nor a
// round to sit out after the last.
func TestReadTRFRefusesRoundsBeyondTheLast(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"more results than rounds", "XXR 1\n" +
			"001    1      Alpha                             2000                             2.0    1     2 w 1     2 b 1\n" +
			"001    2      Bravo                             1900                             0.0    2     1 b 0     1 w 0\n", "XXR gives the tournament 1"},
		{"a bye after the last round", "XXR 1\n" +
			"001    1      Alpha                             2000                             1.0    1     2 w 1  0000 - Z\n" +
			"001    2      Bravo                             1900                             0.0    2     1 b 0\n", "no round 2 to sit out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadTRF(strings.NewReader(c.text))
			var te *TRFError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want a *TRFError saying %q", err, c.want)
			}
		})
	}
}
