package tournament

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTRFRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	f := newField(9, 5)
	f.Players[2].Name = "Ærøskøbing Ølstad" // columns count characters
	for round := 0; round < 3; round++ {
		p, err := PairDutch(f)
		if err != nil {
			t.Fatal(err)
		}
		playRound(f, p, r)
	}
	f.Players[4].Out = true
	var buf bytes.Buffer
	if err := WriteTRF(&buf, &TRF{Name: "Club Swiss", Field: *f}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTRF(&buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if got.Name != "Club Swiss" || got.Field.Rounds != 5 || got.Field.InitialColor != White {
		t.Fatalf("header read back as %q, %d rounds, colour %v", got.Name, got.Field.Rounds, got.Field.InitialColor)
	}
	for i, e := range f.Players {
		g := got.Field.Players[i]
		if g.Name != e.Name || g.Rating != e.Rating || g.Out != e.Out || len(g.Games) != len(e.Games) {
			t.Fatalf("player %d read back as %+v, want %+v", i+1, g, e)
		}
		for k := range e.Games {
			if g.Games[k] != e.Games[k] {
				t.Fatalf("player %d round %d read back as %+v, want %+v", i+1, k+1, g.Games[k], e.Games[k])
			}
		}
	}
}

const trfSample = `012 Sample
XXR 3
XXC white1
001    1      Alpha                             2000                             1.0    1     3 w 1
001    2      Bravo                             1900                             1.0    2     4 b 1
001    3      Charlie                           1800                             0.0    3     1 b 0
001    4      Delta                             1700                             0.0    4     2 w 0
`

func TestReadTRFErrorsSayWhatToFix(t *testing.T) {
	for _, tc := range []struct {
		name, edit, want string
	}{
		{"rounds missing", strings.Replace(trfSample, "XXR 3\n", "", 1), "XXR 9"},
		{"a start that is no date", "042 next Monday\n" + trfSample, "042 2026/02/01"},
		{"an end that is no date", "052 2026/13/40\n" + trfSample, "052 2026/02/01"},
		{"points wrong", strings.Replace(trfSample, " 1.0    1", " 2.0    1", 1), "correct one of them"},
		{"gap in ranks", strings.Replace(trfSample, "001    4 ", "001    5 ", 1), "without gaps"},
		{"one-sided game", strings.Replace(trfSample, "   1 b 0", "   2 b 0", 1), "both players' lines"},
		{"bad result", strings.Replace(trfSample, "3 w 1", "3 w x", 1), "use 1, =, 0"},
		{"no players", "012 Empty\nXXR 5\n", "no player lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTRF(strings.NewReader(tc.edit))
			var te *TRFError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *TRFError saying %q", err, tc.want)
			}
		})
	}
}

func TestReadTRFLineEndingsAndAbsence(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		text := strings.ReplaceAll(trfSample, "\n", eol) + "XXZ 2" + eol
		tr, err := ReadTRF(strings.NewReader(text))
		if err != nil {
			t.Fatalf("%q endings: %v", eol, err)
		}
		if len(tr.Field.Players) != 4 || tr.Field.Played() != 1 || !tr.Field.Players[1].Out {
			t.Fatalf("%q endings: read %+v", eol, tr.Field)
		}
	}
}

func FuzzReadTRF(f *testing.F) {
	f.Add(trfSample)
	f.Add(strings.ReplaceAll(trfSample, "\n", "\r"))
	f.Add("XXR 3\n162  P 0.0\n001    1      A\n001    2      B\n001    3      C\n")
	f.Add("XXR 3\nXXS PAB=0.5\n001    1      A\n001    2      B\n001    3      C\n")
	f.Add("XXR 2\n001    1      A                                                                0.0    1  0000 - U\n")
	f.Add("042 2026/02/01\n052 01.02.2026\n" + trfSample)
	f.Fuzz(func(t *testing.T, text string) {
		tr, err := ReadTRF(strings.NewReader(text))
		if err != nil {
			return
		}
		if err := tr.Field.Check(); err != nil {
			t.Fatalf("ReadTRF accepted an inconsistent field: %v", err)
		}
		if len(tr.Field.Players) <= 12 {
			p, err := PairDutch(&tr.Field)
			if err == nil {
				seen := map[int]bool{}
				for _, pr := range p.Pairs {
					if seen[pr.White] || seen[pr.Black] || pr.White == pr.Black {
						t.Fatalf("pairing %+v pairs someone twice", p)
					}
					seen[pr.White], seen[pr.Black] = true, true
				}
			}
		}
		var buf bytes.Buffer
		if err := WriteTRF(&buf, tr); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTRF(&buf)
		if err != nil {
			t.Fatalf("a file we wrote does not read back: %v\n%s", err, buf.String())
		}
		if !back.Start.Equal(tr.Start) || !back.End.Equal(tr.End) {
			t.Fatalf("days read back as %v to %v; wrote %v to %v", back.Start, back.End, tr.Start, tr.End)
		}
		if len(back.Field.Players) != len(tr.Field.Players) || back.Field.Played() != tr.Field.Played() {
			t.Fatalf("read back %d players, %d rounds; wrote %d, %d", len(back.Field.Players), back.Field.Played(), len(tr.Field.Players), tr.Field.Played())
		}
	})
}
