// Package standings words a tournament's standings for a reader: the one
// table the bot draws under its posts and the web page shows, so that both
// say the same thing in the same words.
package standings

import (
	"strconv"
	"strings"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/tournament"
)

// Table is the standings of a tournament as a reader sees them.
type Table struct {
	// Title names the table by where the tournament is: the players
	// before the first round, the standings during or after a round, the
	// final standings.
	Title   string
	Columns []string
	// Rows are the table's cells, row by row, in the order of Standings.
	Rows      [][]string
	Standings []tournament.Standing
	// Legend explains each tie-break of the system once, and during a
	// round the mark of those still playing; "" before the first round.
	Legend string
	// Seeding: before the first round the rows are the players by
	// starting number with their ratings, unranked.
	Seeding bool
	// Live: a round is being played, and the last column marks those
	// still playing.
	Live bool
}

// tiebreakKeys name the tie-breaks in the messages' keys.
var tiebreakKeys = map[tournament.Tiebreak]string{tournament.Buchholz: "bh", tournament.BuchholzCut1: "bh1",
	tournament.SonnebornBerger: "sb", tournament.DirectEncounter: "de", tournament.Wins: "wins"}

// Of is t's table in lang: before the first round the players by starting
// number; then ranks, points and the system's tie-breaks, those still
// playing marked during a round.
func Of(lang i18n.Lang, t *tournament.Tournament) Table {
	st := t.Standings()
	tb := Table{Title: title(lang, t), Standings: st}
	if len(t.Played) == 0 {
		tb.Seeding = true
		tb.Columns = []string{i18n.T(lang, "tournament.col.seed", nil), i18n.T(lang, "tournament.col.player", nil), i18n.T(lang, "tournament.col.rating", nil)}
		for i, s := range st {
			m := t.Members[s.Player]
			rating := "–"
			if m.Rating > 0 {
				rating = strconv.Itoa(m.Rating)
			}
			tb.Rows = append(tb.Rows, []string{strconv.Itoa(i + 1), m.Name, rating})
		}
		return tb
	}
	order := t.Tiebreaks()
	tb.Live = !t.RoundOver()
	tb.Columns = []string{i18n.T(lang, "tournament.col.rank", nil), i18n.T(lang, "tournament.col.player", nil), i18n.T(lang, "tournament.col.points", nil)}
	var legend []string
	for _, k := range order {
		tb.Columns = append(tb.Columns, i18n.T(lang, "tournament.col."+tiebreakKeys[k], nil))
		legend = append(legend, i18n.T(lang, "tournament.legend."+tiebreakKeys[k], nil))
	}
	if tb.Live {
		tb.Columns = append(tb.Columns, "")
		legend = append(legend, i18n.T(lang, "tournament.legend.playing", nil))
	}
	tb.Legend = strings.Join(legend, " · ")
	for _, s := range st {
		name := t.Members[s.Player].Name
		if t.Members[s.Player].Withdrawn {
			name = i18n.T(lang, "tournament.withdrawn", map[string]any{"Player": name})
		}
		row := []string{strconv.Itoa(s.Rank), name, i18n.Points(lang, int(s.Score), 2)}
		for _, k := range order {
			v := s.Value(k)
			switch k {
			case tournament.SonnebornBerger:
				row = append(row, i18n.Points(lang, v, 4))
			case tournament.Wins:
				row = append(row, strconv.Itoa(v))
			default:
				row = append(row, i18n.Points(lang, v, 2))
			}
		}
		if tb.Live {
			mark := ""
			if s.Playing {
				mark = i18n.T(lang, "tournament.standings.playing", nil)
			}
			row = append(row, mark)
		}
		tb.Rows = append(tb.Rows, row)
	}
	return tb
}

// title names the table by where the tournament is.
func title(lang i18n.Lang, t *tournament.Tournament) string {
	data := map[string]any{"Name": t.Name, "Round": len(t.Played)}
	switch {
	case t.Status == tournament.Finished:
		return i18n.T(lang, "tournament.final.table", data)
	case len(t.Played) == 0:
		return i18n.T(lang, "tournament.standings.seeding", data)
	case !t.RoundOver():
		return i18n.T(lang, "tournament.standings.live", data)
	}
	return i18n.T(lang, "tournament.standings.title", data)
}
