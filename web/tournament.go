package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

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
	// Version names the state shown, the id of the page's events;
	// Over is true once the tournament is finished: nothing follows.
	Version string
	Over    bool
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

// TournamentURL is the address of a tournament's page.
func (s *Server) TournamentURL(id uint64) string {
	return s.base.JoinPath("t", strconv.FormatUint(id, 10), s.keys.Tournament(id)).String()
}

// tournamentID returns the tournament a path names, once its token is
// checked, before anything is read: a stranger's request costs nothing.
func (s *Server) tournamentID(r *http.Request) (uint64, bool) {
	id, ok := ParseGameRef(r.PathValue("id"), r.PathValue("token"))
	return id, ok && s.keys.CheckTournament(id, r.PathValue("token"))
}

// readTournament reads tournament id as committed.
func readTournament(ctx context.Context, st play.Storage, id uint64) (*tourState, error) {
	var rec play.TournamentRecord
	err := st.View(ctx, func(tx play.ReadTx) error {
		var err error
		rec, err = tx.Tournament(id)
		return err
	})
	if err != nil {
		return nil, err
	}
	t, err := tournament.FromRecord(rec)
	if err != nil {
		return nil, err
	}
	return &tourState{t: t, version: tourVersion(rec)}, nil
}

// tournamentFailed answers a tournament that could not be read.
func (s *Server) tournamentFailed(w http.ResponseWriter, r *http.Request, id uint64, err error, page bool) {
	if r.Context().Err() != nil {
		return // the page left
	}
	s.refuse(w, r, fmt.Errorf("tournament %d: %w", id, err), page)
}

// tournamentPage shows a tournament's standings and rounds, by its
// token only, as committed; its script follows them (tournament.js).
func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	id, ok := s.tournamentID(r)
	if !ok {
		s.refuse(w, r, play.ErrNotFound, true)
		return
	}
	st, err := readTournament(r.Context(), s.opts.Play.Storage(), id)
	if err != nil {
		s.tournamentFailed(w, r, id, err, true)
		return
	}
	lang := s.lang(r)
	title, d := s.tournamentData(lang, st)
	s.page(w, r, http.StatusOK, "tournament", pageData{Lang: lang, Title: title, Tournament: d})
}

// tournamentData is st's page in lang, and its title.
func (s *Server) tournamentData(lang i18n.Lang, st *tourState) (string, *tournamentData) {
	t := st.t
	sd := standings.Of(lang, t)
	d := &tournamentData{Columns: sd.Columns, Rows: sd.Rows, Legend: sd.Legend, Version: st.version, Over: t.Status == tournament.Finished}
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
	return sd.Title, d
}

// tournamentJSON is what the page's script takes: the state's version,
// the page's title, its standings and rounds as the page's template
// writes them, and whether it is over.
type tournamentJSON struct {
	Version string `json:"v"`
	Title   string `json:"title"`
	HTML    string `json:"html"`
	Over    bool   `json:"over"`
}

// tournamentView encodes st's page in lang as JSON, on one line.
func (s *Server) tournamentView(lang i18n.Lang, st *tourState) ([]byte, error) {
	title, d := s.tournamentData(lang, st)
	var html bytes.Buffer
	if err := templates.ExecuteTemplate(&html, "tournament-body", d); err != nil {
		return nil, err
	}
	return json.Marshal(tournamentJSON{Version: st.version, Title: title, HTML: html.String(), Over: d.Over})
}

// tournamentViewPage is the tournament's page as JSON: what the page
// polls when its event stream cannot get through.
func (s *Server) tournamentViewPage(w http.ResponseWriter, r *http.Request) {
	id, ok := s.tournamentID(r)
	if !ok {
		s.refuse(w, r, play.ErrNotFound, false)
		return
	}
	st, err := readTournament(r.Context(), s.opts.Play.Storage(), id)
	if err != nil {
		s.tournamentFailed(w, r, id, err, false)
		return
	}
	b, err := s.tournamentView(s.lang(r), st)
	if err != nil {
		s.tournamentFailed(w, r, id, err, false)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b) // #nosec G705 -- the page encoded as JSON by this package (html/template's escaping inside), as application/json
}

// tournamentEvents streams the tournament's page as server-sent events,
// one each time a commit changes it, each with the state's version as
// its id: a page that reconnects (Last-Event-ID) is sent the state at
// once unless it has it. The stream ends once the tournament is over.
func (s *Server) tournamentEvents(w http.ResponseWriter, r *http.Request) {
	id, ok := s.tournamentID(r)
	if !ok {
		s.refuse(w, r, play.ErrNotFound, false)
		return
	}
	v := lastEventID(r)
	seen, ok := ParseTourVersion(v)
	if !ok {
		http.Error(w, "Last-Event-ID: want a version", http.StatusBadRequest)
		return
	}
	if !s.admitStream(w, r) {
		return
	}
	watch, cur, err := s.tours.watch(r.Context(), id)
	if err != nil {
		s.tournamentFailed(w, r, id, err, false)
		return
	}
	defer s.tours.close(watch)
	if cur.version == seen && cur.t.Status == tournament.Finished {
		w.WriteHeader(http.StatusNoContent) // an event stream's end: the page has it all
		return
	}
	write := s.openStream(w)
	if write == nil {
		return
	}
	lang := s.lang(r)
	send := func(st *tourState) bool {
		if st.version == seen {
			return true
		}
		b, err := st.view(s, lang)
		if err != nil {
			s.log.Error("web: a tournament's page", "tournament", id, "err", err)
			return false
		}
		seen = st.version
		return write(sseFrame(st.version, b)) && st.t.Status != tournament.Finished
	}
	if !send(cur) {
		return
	}
	beat := time.NewTicker(s.opts.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case st := <-watch.ch:
			if !send(st) {
				return
			}
		case <-beat.C:
			if !write([]byte(": alive\n\n")) {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

// view is the state's page in lang as JSON, made once for all its
// watchers of that language.
func (st *tourState) view(s *Server, lang i18n.Lang) ([]byte, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if b, ok := st.views[lang]; ok {
		return b, nil
	}
	b, err := s.tournamentView(lang, st)
	if err != nil {
		return nil, err
	}
	if st.views == nil {
		st.views = map[i18n.Lang][]byte{}
	}
	st.views[lang] = b
	return b, nil
}

// sseFrame is an event "view" of data (JSON, one line) with its id.
func sseFrame(id string, data []byte) []byte {
	b := make([]byte, 0, len(data)+64)
	b = append(b, "id: "...)
	b = append(b, id...)
	b = append(b, "\nevent: view\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}
