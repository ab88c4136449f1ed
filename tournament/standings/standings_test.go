package standings_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/tournament"
	"github.com/iceagechess/iceage/tournament/standings"
)

// swissAt is a Swiss of six in three rounds at a stage: "before" the
// first round, "during" round 2 (its first game over, a player
// withdrawn), "after" round 2, or "final".
func swissAt(t *testing.T, stage string) *tournament.Tournament {
	t.Helper()
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	tr := &tournament.Tournament{Name: "Winter Cup", Organiser: "org", System: tournament.Swiss, Rounds: 3}
	for i, n := range []string{"Alice", "Bob", "Carol", "Dan", "Eve", "Frank"} {
		if err := tr.Join(tournament.Member{ID: strconv.Itoa(i), Name: n, Rating: 1900 - 60*i}); err != nil {
			t.Fatal(err)
		}
	}
	if stage == "before" {
		return tr
	}
	if _, err := tr.Start("org", start); err != nil {
		t.Fatal(err)
	}
	results := []tournament.Outcome{tournament.Win, tournament.Draw, tournament.Loss}
	for round := 1; round <= 3; round++ {
		r := &tr.Played[len(tr.Played)-1]
		for b := range r.Boards {
			if stage == "during" && round == 2 && b > 0 {
				if err := tr.Withdraw(tr.Members[r.Boards[b].White].ID); err != nil {
					t.Fatal(err)
				}
				return tr
			}
			if err := tr.Record(b, results[(b+round)%3]); err != nil {
				t.Fatal(err)
			}
		}
		if stage == "after" && round == 2 {
			return tr
		}
		if _, err := tr.Next(start.AddDate(0, 0, 7*round)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// In every language, at every stage, the table says where the
// tournament is in the reader's words, and its legend explains each
// tie-break column once, by the name the column gives it; during a
// round it marks those still playing and says what the mark means.
func TestTheTableSpeaksEveryLanguage(t *testing.T) {
	for _, lang := range i18n.Languages() {
		for _, stage := range []string{"before", "during", "after", "final"} {
			t.Run(fmt.Sprintf("%s/%s", lang, stage), func(t *testing.T) {
				tr := swissAt(t, stage)
				tb := standings.Of(lang, tr)
				en := standings.Of(i18n.English, tr)
				data := map[string]any{"Name": tr.Name, "Round": len(tr.Played)}
				title := map[string]string{"before": "tournament.standings.seeding", "during": "tournament.standings.live",
					"after": "tournament.standings.title", "final": "tournament.final.table"}[stage]
				if want := i18n.T(lang, title, data); tb.Title != want {
					t.Errorf("the title is %q, want %q", tb.Title, want)
				}
				if lang != i18n.English && (tb.Title == en.Title || tb.Legend != "" && tb.Legend == en.Legend) {
					t.Errorf("the table is in English: %q, %q", tb.Title, tb.Legend)
				}
				if len(tb.Rows) != len(tr.Members) || len(tb.Standings) != len(tb.Rows) {
					t.Fatalf("%d rows, %d standings for %d players", len(tb.Rows), len(tb.Standings), len(tr.Members))
				}
				for _, row := range tb.Rows {
					if len(row) != len(tb.Columns) {
						t.Fatalf("a row of %d cells under %d columns: %q", len(row), len(tb.Columns), row)
					}
				}
				if stage == "before" {
					if !tb.Seeding || tb.Live || tb.Legend != "" || len(tb.Columns) != 3 {
						t.Fatalf("before the first round: seeding %v, live %v, legend %q, columns %q", tb.Seeding, tb.Live, tb.Legend, tb.Columns)
					}
					for i, row := range tb.Rows {
						if row[0] != strconv.Itoa(i+1) || row[1] != tr.Members[i].Name {
							t.Errorf("row %d is %q: want the players by starting number, unranked", i+1, row)
						}
					}
					return
				}
				// One legend entry per tie-break column, each begun by the
				// column's name, and one for the mark during a round.
				order := tr.Tiebreaks()
				entries := strings.Split(tb.Legend, " · ")
				wantEntries := len(order)
				if stage == "during" {
					wantEntries++
				}
				if len(entries) != wantEntries || tb.Live != (stage == "during") {
					t.Fatalf("%d legend entries for %d tie-breaks (live %v): %q", len(entries), len(order), tb.Live, tb.Legend)
				}
				for i := range order {
					if col := tb.Columns[3+i]; !strings.HasPrefix(entries[i], col) || len(entries[i]) <= len(col)+2 {
						t.Errorf("the legend's entry %q does not explain the column %q", entries[i], col)
					}
				}
				playing := i18n.T(lang, "tournament.standings.playing", nil)
				if stage == "during" && !strings.HasPrefix(entries[len(entries)-1], playing) {
					t.Errorf("the legend's last entry %q does not explain the mark %q", entries[len(entries)-1], playing)
				}
				marked, withdrawals := 0, 0
				for i, s := range tb.Standings {
					row := tb.Rows[i]
					if want := i18n.Points(lang, int(s.Score), 2); row[2] != want {
						t.Errorf("%s's points are written %q, want %q", row[1], row[2], want)
					}
					if stage == "during" {
						if mark := row[len(row)-1]; (mark == playing) != s.Playing || mark != "" && mark != playing {
							t.Errorf("%s (playing %v) is marked %q", row[1], s.Playing, mark)
						}
						if s.Playing {
							marked++
						}
					}
					withdrawn := tr.Members[s.Player].Withdrawn
					if withdrawn {
						withdrawals++
					}
					if named := i18n.T(lang, "tournament.withdrawn", map[string]any{"Player": tr.Members[s.Player].Name}); withdrawn != (row[1] == named) {
						t.Errorf("%q (withdrawn %v): the withdrawal is not said as %q", row[1], withdrawn, named)
					}
				}
				if stage == "during" && (marked != 4 || withdrawals != 1) {
					t.Errorf("%d players marked as playing, %d withdrawn; want the 4 of the two games not over, one of them withdrawn", marked, withdrawals)
				}
			})
		}
	}
}

// A board's result reads as a crosstable writes it, from White's side;
// a game not over carries the mark the legend explains. The bye is told
// as the organiser chose it, and a round-robin's as sitting out.
func TestResultsAndByesInWords(t *testing.T) {
	for out, want := range map[tournament.Outcome]string{tournament.Win: "1–0", tournament.Draw: "½–½", tournament.Loss: "0–1",
		tournament.ForfeitWin: "+–−", tournament.ForfeitLoss: "−–+", tournament.DoubleForfeit: "−–−", tournament.Pending: "en jeu"} {
		if got := standings.Result(i18n.French, out); got != want {
			t.Errorf("Result(%v) = %q, want %q", out, got, want)
		}
	}
	for _, c := range []struct {
		system tournament.System
		score  tournament.ByeScore
		want   string
	}{
		{tournament.Swiss, tournament.ByeFullPoint, "tournament.round.bye"},
		{tournament.Swiss, tournament.ByeHalfPoint, "tournament.round.bye_half"},
		{tournament.Swiss, tournament.ByeNoPoint, "tournament.round.bye_none"},
		{tournament.RoundRobin, tournament.ByeFullPoint, "tournament.round.sits_out"},
	} {
		if got := standings.ByeKey(&tournament.Tournament{System: c.system, ByeScore: c.score}); got != c.want {
			t.Errorf("ByeKey(%v, %v) = %q, want %q", c.system, c.score, got, c.want)
		}
	}
}
