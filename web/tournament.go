package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/tournament"
	"github.com/iceagechess/iceage/tournament/standings"
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
	st := standings.Of(lang, t)
	d := &tournamentData{Columns: st.Columns, Rows: st.Rows, Legend: st.Legend}
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
	s.page(w, r, http.StatusOK, "tournament", pageData{Lang: lang, Title: st.Title, Tournament: d})
}
