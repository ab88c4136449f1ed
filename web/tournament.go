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
// table shows them, and every round's pairings with their results, the
// latest first, each game linked to its live page.
type tournamentData struct {
	Columns []string
	Rows    [][]string
	Legend  string
	Rounds  []tournamentRound
	// Refresh is how many seconds the page waits before it reloads
	// itself, while the tournament runs; 0 once it is over.
	Refresh int
}

// tournamentRound is one round's pairings: its games, and who had the
// bye, in words.
type tournamentRound struct {
	Title string
	Games []tournamentGame
	Bye   string
}

type tournamentGame struct {
	Board        int
	White, Black string
	// Result is the board's result from White's side ("1–0"), or the
	// mark of a game not over.
	Result string
	URL    string
}

// tournamentRefresh is how often a running tournament's page reloads
// itself, so that a page left open follows its results.
const tournamentRefresh = 30

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
	if t.Status != tournament.Finished {
		d.Refresh = tournamentRefresh
	}
	for k := len(t.Played) - 1; k >= 0; k-- {
		rd := t.Played[k]
		tr := tournamentRound{Title: i18n.T(lang, "web.tournament.round", map[string]any{"Round": k + 1})}
		for i, b := range rd.Boards {
			g := tournamentGame{Board: i + 1, White: t.Members[b.White].Name, Black: t.Members[b.Black].Name,
				Result: standings.Result(lang, b.Outcome)}
			if b.GameID != 0 {
				g.URL = s.GameURL(b.GameID)
			}
			tr.Games = append(tr.Games, g)
		}
		if rd.Bye >= 0 {
			tr.Bye = i18n.T(lang, standings.ByeKey(t), map[string]any{"Player": t.Members[rd.Bye].Name})
		}
		d.Rounds = append(d.Rounds, tr)
	}
	s.page(w, r, http.StatusOK, "tournament", pageData{Lang: lang, Title: st.Title, Tournament: d, Refresh: d.Refresh})
}
