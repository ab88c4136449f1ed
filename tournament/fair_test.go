package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// The top seed's colour is drawn by the runner's lot, kept with the
// tournament, written to the TRF and read back by the pairing: a file
// re-paired gives the same round.
func TestTopSeedsColourIsDrawnKeptAndWritten(t *testing.T) {
	for _, drawn := range []Color{White, Black} {
		t.Run(map[Color]string{White: "white", Black: "black"}[drawn], func(t *testing.T) {
			ctx := context.Background()
			r, _ := newRunner(t)
			draws := 0
			r.Lot = func() Color { draws++; return drawn }
			now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
			tr, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Lot", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3}, now)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 6; i++ {
				m := Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("Player %d", i), Rating: 2000 - 10*i}
				if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
					t.Fatal(err)
				}
			}
			if tr, err = r.Start(ctx, tr.ID, "org", now); err != nil {
				t.Fatal(err)
			}
			if draws != 1 || tr.TopColor != drawn {
				t.Fatalf("%d draws, top colour %v; want one draw of %v", draws, tr.TopColor, drawn)
			}
			top := tr.Played[0].Boards[0]
			if got := map[bool]Color{true: White, false: Black}[top.White == 0]; got != drawn {
				t.Fatalf("the top seed has %v on board 1 (%+v), drawn %v", got, top, drawn)
			}
			// Board 2 alternates (C.04.3 5.2.5).
			if second := tr.Played[0].Boards[1]; (second.White == 1) != (drawn == Black) {
				t.Fatalf("board 2 %+v does not alternate from %v", second, drawn)
			}
			var buf bytes.Buffer
			if err := WriteTRF(&buf, &TRF{Name: tr.Name, Field: *tr.Field()}); err != nil {
				t.Fatal(err)
			}
			want := map[Color]string{White: "XXC white1\n", Black: "XXC black1\n"}[drawn]
			if !strings.Contains(buf.String(), want) {
				t.Fatalf("the TRF lacks %q:\n%s", want, buf.String())
			}
			// An arbiter's program given the file before round 1 pairs
			// the same round 1.
			f := tr.Field()
			for i := range f.Players {
				f.Players[i].Games = nil
			}
			var empty bytes.Buffer
			if err := WriteTRF(&empty, &TRF{Name: tr.Name, Field: *f}); err != nil {
				t.Fatal(err)
			}
			again, err := ReadTRF(&empty)
			if err != nil {
				t.Fatal(err)
			}
			p, err := PairDutch(&again.Field)
			if err != nil {
				t.Fatal(err)
			}
			for i, pr := range p.Pairs {
				if b := tr.Played[0].Boards[i]; b.White != pr.White || b.Black != pr.Black {
					t.Fatalf("re-paired board %d is %+v, the tournament's %+v", i+1, pr, b)
				}
			}
			// The record keeps it.
			got, err := r.Get(ctx, tr.ID)
			if err != nil || got.TopColor != drawn {
				t.Fatalf("stored top colour %v, %v", got.TopColor, err)
			}
		})
	}
}

// A record of version 1 knew no draw: its top seed had White.
func TestRecordOfVersion1GivesTheTopSeedWhite(t *testing.T) {
	tr := &Tournament{ID: 7, Guild: "g", Organiser: "org", System: Swiss, Rounds: 3, Status: Running}
	body, err := json.Marshal(storedTournament{V: 1, Tournament: *tr})
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromRecord(play.TournamentRecord{ID: 7, Guild: "g", Body: body})
	if err != nil || got.TopColor != White || got.Field().InitialColor != White {
		t.Fatalf("a version 1 record reads as top colour %v, %v", got.TopColor, err)
	}
	// A new record keeps what was drawn, and refuses what is no colour.
	tr.TopColor = Black
	rec, err := tr.Stored()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FromRecord(rec); err != nil || got.TopColor != Black {
		t.Fatalf("a version %d record reads as %v, %v", recordVersion, got.TopColor, err)
	}
	for _, bad := range []string{`"TopColor":9`, `"ByeScore":7`} {
		body := bytes.Replace(rec.Body, []byte(`"TopColor":2`), []byte(bad), 1)
		if _, err := FromRecord(play.TournamentRecord{ID: 7, Body: body}); err == nil {
			t.Fatalf("a record with %s was read", bad)
		}
	}
}

// A Swiss's bye scores what the organiser chose, in the standings and in
// the TRF, which reads back with the same scores and the same next round.
func TestSwissByeScoresWhatTheOrganiserChose(t *testing.T) {
	for _, c := range []struct {
		score ByeScore
		pts   Points
		xxs   string
	}{{ByeFullPoint, 2, ""}, {ByeHalfPoint, 1, "XXS PAB=0.5\n162  P 0.5\n"}, {ByeNoPoint, 0, "XXS PAB=0.0\n162  P 0.0\n"}} {
		t.Run(c.pts.String(), func(t *testing.T) {
			now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
			tr := &Tournament{Organiser: "org", System: Swiss, Rounds: 3, ByeScore: c.score}
			signUp(t, tr, 5)
			r, err := tr.Start("org", now)
			if err != nil {
				t.Fatal(err)
			}
			finish(t, tr)
			bye := r.Bye
			for _, s := range tr.Standings() {
				if s.Player == bye && s.Score != c.pts {
					t.Fatalf("the bye scores %v, chosen %v", s.Score, c.pts)
				}
			}
			var buf bytes.Buffer
			if err := WriteTRF(&buf, &TRF{Field: *tr.Completed()}); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			if c.xxs != "" && !strings.Contains(text, c.xxs) || c.xxs == "" && strings.Contains(text, "XXS") {
				t.Fatalf("the TRF's scoring line, want %q:\n%s", c.xxs, text)
			}
			if !strings.Contains(text, "0000 - U") {
				t.Fatalf("the bye is not U:\n%s", text)
			}
			back, err := ReadTRF(strings.NewReader(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if got := back.Field.Players[bye].Score(); got != c.pts {
				t.Fatalf("read back, the bye scores %v", got)
			}
			want, err := PairDutch(tr.Field())
			if err != nil {
				t.Fatal(err)
			}
			got, err := PairDutch(&back.Field)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("round 2 from the file %v (%v), from the tournament %v", got, err, want)
			}
			// Whatever it scores, a bye is the bye: no second one.
			if got.Bye == bye {
				t.Fatalf("player %d got the bye twice", bye)
			}
		})
	}
}

// The scoring line is read strictly: only the standard scores, and a
// bye of 1, ½ or 0.
func TestReadTRFScoringLine(t *testing.T) {
	player := "001    1      A\n001    2      B\n001    3      C\n"
	for _, c := range []struct {
		line string
		ok   bool
		want Outcome
	}{
		{"XXS PAB=1", true, Bye},
		{"XXS W=1 D=0.5 PAB=0.5", true, HalfPointBye},
		{"XXS PAB=0", true, ZeroPointBye},
		{"XXS W=3", false, 0},
		{"XXS PAB=2", false, 0},
		{"XXS XYZ=1", false, 0},
		{"XXS PAB", false, 0},
		{"162  P 0.5", true, HalfPointBye},
		{"162  W 1.0    D 0.5    P 0.0", true, ZeroPointBye},
		{"162  P 1.0", true, Bye},
		{"162  W 3.0", false, 0},
		{"162  Q 1.0", false, 0},
		{"162  P x", false, 0},
		{"162  P", false, 0},
		{"162  W 1.0     D 0.5", false, 0}, // D one column late
	} {
		tr, err := ReadTRF(strings.NewReader("XXR 3\n" + c.line + "\n" + player))
		if (err == nil) != c.ok {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if err == nil && tr.Field.PairingByeOutcome() != c.want {
			t.Errorf("%q: the bye is %v", c.line, tr.Field.PairingByeOutcome())
		}
	}
}

// A round-robin game of two withdrawn players is lost by both, and the
// TRF says so with FIDE's codes; a game of one is won by forfeit.
func TestRoundRobinForfeitsInTheTRF(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr := &Tournament{Organiser: "org", System: RoundRobin}
	signUp(t, tr, 4)
	if _, err := tr.Start("org", now); err != nil {
		t.Fatal(err)
	}
	finish(t, tr)
	for _, i := range []int{0, 1} {
		if err := tr.Withdraw(tr.Members[i].ID); err != nil {
			t.Fatal(err)
		}
	}
	for k := 2; k <= 3; k++ {
		if _, err := tr.Next(now); err != nil {
			t.Fatal(err)
		}
		finish(t, tr)
	}
	var buf bytes.Buffer
	if err := WriteTRF(&buf, &TRF{Field: *tr.Completed()}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	f := tr.Field()
	double, single := 0, 0
	for i, e := range f.Players {
		for _, g := range e.Games {
			if g.Outcome == ForfeitLoss {
				for _, og := range f.Players[g.Opponent].Games {
					if og.Opponent == i && og.Outcome == ForfeitLoss {
						double++
					}
				}
			}
			if g.Outcome == ForfeitWin {
				single++
			}
		}
	}
	if double != 2 || single != 2 {
		t.Fatalf("%d sides of double forfeits (want 2), %d forfeit wins (want 2)\n%s", double, single, text)
	}
	if !strings.Contains(text, " - -") || !strings.Contains(text, " - +") {
		t.Fatalf("the forfeits are not written with - and +:\n%s", text)
	}
	if _, err := ReadTRF(strings.NewReader(strings.Replace(text, "XXR 3", "XXR 4", 1))); err != nil {
		t.Fatalf("the file does not read back: %v\n%s", err, text)
	}
	// Nobody scores the double forfeit.
	total := Points(0)
	for _, s := range tr.Standings() {
		total += s.Score
	}
	if total != 2*(6-1) {
		t.Fatalf("%v points for six games, one of them lost by both", total)
	}
}
