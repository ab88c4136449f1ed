package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/tournament"
)

// tournamentData is a tournament's page: its standings as Discord's
// table shows them, and the current round's games, each linked to its
// live page.
type tournamentData struct {
	Columns []string
	Rows    [][]string
	Legend  string
	Round   string
	Games   []tournamentGame
}

type tournamentGame struct {
	Board        int
	White, Black string
	URL          string
}

// TournamentURL is the address of a tournament's page.
func (s *Server) TournamentURL(id uint64) string {
	return s.base.JoinPath("t", strconv.FormatUint(id, 10), s.keys.Tournament(id)).String()
}

// tournamentPage shows a tournament's standings, by its token only.
func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	lang := s.lang(r)
	id, ok := ParseGameRef(r.PathValue("id"), r.PathValue("token"))
	if !ok || !s.keys.CheckTournament(id, r.PathValue("token")) {
		s.problem(w, r, http.StatusNotFound, lang, "web.not_found")
		return
	}
	var t *tournament.Tournament
	err := s.opts.Play.Storage().View(r.Context(), func(tx play.ReadTx) error {
		rec, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		t, err = tournament.FromRecord(rec)
		return err
	})
	if errors.Is(err, play.ErrNotFound) {
		s.problem(w, r, http.StatusNotFound, lang, "web.not_found")
		return
	}
	if err != nil {
		s.log.Error("web: a tournament", "tournament", id, "err", err)
		s.problem(w, r, http.StatusInternalServerError, lang, "web.error")
		return
	}
	d := standings(lang, t)
	if n := len(t.Played); n > 0 && t.Status == tournament.Running {
		d.Round = i18n.T(lang, "web.tournament.round", map[string]any{"Round": n})
		for i, b := range t.Played[n-1].Boards {
			if b.GameID == 0 {
				continue
			}
			d.Games = append(d.Games, tournamentGame{Board: i + 1, White: t.Members[b.White].Name, Black: t.Members[b.Black].Name,
				URL: s.GameURL(b.GameID)})
		}
	}
	s.page(w, r, http.StatusOK, "tournament", pageData{Lang: lang, Title: standingsTitle(lang, t), Tournament: d})
}

// tiebreakKeys name the tie-breaks in the messages' keys, as the bot's
// table does.
var tiebreakKeys = map[tournament.Tiebreak]string{tournament.Buchholz: "bh", tournament.BuchholzCut1: "bh1",
	tournament.SonnebornBerger: "sb", tournament.DirectEncounter: "de", tournament.Wins: "wins"}

// standings is the table of t: before the first round the players by
// starting number; then ranks, points and the system's tie-breaks,
// those still playing marked during a round.
func standings(lang i18n.Lang, t *tournament.Tournament) *tournamentData {
	st := t.Standings()
	d := &tournamentData{}
	if len(t.Played) == 0 {
		d.Columns = []string{i18n.T(lang, "tournament.col.seed", nil), i18n.T(lang, "tournament.col.player", nil), i18n.T(lang, "tournament.col.rating", nil)}
		for i, s := range st {
			m := t.Members[s.Player]
			rating := "–"
			if m.Rating > 0 {
				rating = strconv.Itoa(m.Rating)
			}
			d.Rows = append(d.Rows, []string{strconv.Itoa(i + 1), m.Name, rating})
		}
		return d
	}
	order := t.Tiebreaks()
	live := !t.RoundOver()
	d.Columns = []string{i18n.T(lang, "tournament.col.rank", nil), i18n.T(lang, "tournament.col.player", nil), i18n.T(lang, "tournament.col.points", nil)}
	var legend []string
	for _, tb := range order {
		d.Columns = append(d.Columns, i18n.T(lang, "tournament.col."+tiebreakKeys[tb], nil))
		legend = append(legend, i18n.T(lang, "tournament.legend."+tiebreakKeys[tb], nil))
	}
	if live {
		d.Columns = append(d.Columns, "")
		legend = append(legend, i18n.T(lang, "tournament.legend.playing", nil))
	}
	for i, l := range legend {
		if i > 0 {
			d.Legend += " · "
		}
		d.Legend += l
	}
	for _, s := range st {
		name := t.Members[s.Player].Name
		if t.Members[s.Player].Withdrawn {
			name = i18n.T(lang, "tournament.withdrawn", map[string]any{"Player": name})
		}
		row := []string{strconv.Itoa(s.Rank), name, i18n.Points(lang, int(s.Score), 2)}
		for _, tb := range order {
			v := s.Value(tb)
			switch tb {
			case tournament.SonnebornBerger:
				row = append(row, i18n.Points(lang, v, 4))
			case tournament.Wins:
				row = append(row, strconv.Itoa(v))
			default:
				row = append(row, i18n.Points(lang, v, 2))
			}
		}
		if live {
			mark := ""
			if s.Playing {
				mark = i18n.T(lang, "tournament.standings.playing", nil)
			}
			row = append(row, mark)
		}
		d.Rows = append(d.Rows, row)
	}
	return d
}

// standingsTitle names the table by where the tournament is.
func standingsTitle(lang i18n.Lang, t *tournament.Tournament) string {
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
