package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/internal/connlimit"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
)

func (s *Server) routes() {
	s.mux.HandleFunc("GET /g/{id}/{token}", s.gamePage)
	s.mux.HandleFunc("GET /g/{id}/{token}/view", s.gameView)
	s.mux.HandleFunc("GET /g/{id}/{token}/events", s.gameEvents)
	s.mux.HandleFunc("GET /lb/{guild}/{token}", s.leaderboardPage)
	s.mux.HandleFunc("GET /t/{id}/{token}", s.tournamentPage)
	s.mux.HandleFunc("GET /t/{id}/{token}/view", s.tournamentViewPage)
	s.mux.HandleFunc("GET /t/{id}/{token}/events", s.tournamentEvents)
	s.mux.HandleFunc("GET /signin", s.signin)
	s.mux.HandleFunc("GET /signin/callback", s.callback)
	s.mux.HandleFunc("POST /signout", s.signout)
}

// errHidden is a game the viewer may not see: a DM's, and they are not
// signed in as one of its players.
var errHidden = errors.New("web: the viewer may not see the game")

// game returns the game a page's path names, once its token is checked
// (before anything is read) and the viewer may see it.
func (s *Server) game(r *http.Request) (*play.Game, string, error) {
	id, ok := ParseGameRef(r.PathValue("id"), r.PathValue("token"))
	if !ok || !s.keys.CheckGame(id, r.PathValue("token")) {
		return nil, "", play.ErrNotFound
	}
	g, err := s.opts.Play.Game(r.Context(), id)
	var x *play.Refusal
	if errors.As(err, &x) && x.Kind == play.NoGame {
		return nil, "", play.ErrNotFound
	}
	if err != nil {
		return nil, "", err
	}
	user, _ := s.signedIn(r)
	if !canSee(r.Context(), &g, user) {
		return &g, user, errHidden
	}
	return &g, user, nil
}

// refuse answers a request for a game that failed, in lang.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error, page bool) {
	lang := s.lang(r)
	status, key := http.StatusInternalServerError, "web.error"
	switch {
	case errors.Is(err, play.ErrNotFound), errors.Is(err, stream.ErrNoGame):
		status, key = http.StatusNotFound, "web.not_found"
	case errors.Is(err, errHidden):
		status, key = http.StatusForbidden, "web.private"
	default:
		s.log.Error("web: reading a page's game or tournament", "err", err)
	}
	if !page {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintln(w, i18n.T(lang, key, nil)) // #nosec G705 -- our own sentence, as text/plain
		return
	}
	s.problem(w, r, status, lang, key)
}

// gamePage is a game's live page, with the game as it is now.
func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	g, user, err := s.game(r)
	if err != nil {
		s.refuse(w, r, err, true)
		return
	}
	lang := s.lang(r)
	mv, err := s.views.get(r.Context(), g.ID, g.Revision, lang)
	if err != nil {
		s.refuse(w, r, err, true)
		return
	}
	flip := user != "" && user == g.Black.ID && user != g.White.ID
	s.page(w, r, http.StatusOK, "game", pageData{Title: i18n.T(lang, "board.title", map[string]any{"White": nameIn(g, g.White.ID, lang), "Black": nameIn(g, g.Black.ID, lang)}),
		View: string(mv.stamped(mv.data, s.opts.Now())), Flip: flip, User: user})
}

// gameView is the game as it is now, as JSON: what the page polls when
// its event stream cannot get through.
func (s *Server) gameView(w http.ResponseWriter, r *http.Request) {
	g, _, err := s.game(r)
	if err != nil {
		s.refuse(w, r, err, false)
		return
	}
	mv, err := s.views.get(r.Context(), g.ID, g.Revision, s.lang(r))
	if err != nil {
		s.refuse(w, r, err, false)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(mv.stamped(mv.data, s.opts.Now())) // #nosec G705 -- the view encoded as JSON by this package, as application/json
}

// ParseLastEventID reads the revision a reconnecting event stream saw
// last (its Last-Event-ID, or the query's "after"): a number from 0 to
// 1<<31-1; ok is false for anything else.
func ParseLastEventID(v string) (int, bool) {
	if v == "" {
		return 0, true
	}
	if len(v) > 10 {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 31)
	return int(n), err == nil
}

// lastEventID is the last event a reconnecting page has: the browser
// sends it as Last-Event-ID, and polling (no EventSource) as ?after=.
func lastEventID(r *http.Request) string {
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		return v
	}
	return r.URL.Query().Get("after")
}

// admitStream answers a HEAD of an event stream, which holds none
// open, and refuses a stream past the viewer's cap (429); it reports
// whether the stream may open.
func (s *Server) admitStream(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "text/event-stream")
		return false
	}
	if !connlimit.Stream(r) {
		s.tooMany(w, r, connlimit.TooManyStreams)
		return false
	}
	return true
}

// gameEvents streams the game's views as server-sent events, one for
// each revision after the one the page saw (Last-Event-ID), each with
// its revision as its id, so that a page that lost its connection
// resumes where it stopped. A revision that follows the one the page
// has comes as a step: the positions it adds.
func (s *Server) gameEvents(w http.ResponseWriter, r *http.Request) {
	g, _, err := s.game(r)
	if err != nil {
		s.refuse(w, r, err, false)
		return
	}
	v := lastEventID(r)
	after, ok := ParseLastEventID(v)
	if !ok {
		http.Error(w, "Last-Event-ID: want a revision", http.StatusBadRequest)
		return
	}
	if !s.admitStream(w, r) {
		return
	}
	lang := s.lang(r)
	watch, err := s.opts.Hub.Subscribe(r.Context(), g.ID, after)
	if err != nil {
		s.refuse(w, r, err, false)
		return
	}
	defer watch.Close()
	write := s.openStream(w)
	if write == nil {
		return
	}
	beat := time.NewTicker(s.opts.Heartbeat)
	defer beat.Stop()
	sent := after
	for {
		select {
		case ev, ok := <-watch.Events():
			if !ok {
				return // too slow, or closing: the page reconnects after sent
			}
			if ev.Revision <= sent {
				continue
			}
			mv, err := s.views.get(r.Context(), g.ID, ev.Revision, lang)
			if err != nil {
				if r.Context().Err() == nil {
					s.log.Error("web: a game's view", "game", g.ID, "err", err)
				}
				return
			}
			if mv.rev <= sent {
				continue
			}
			frame := mv.frame(sent, s.opts.Now())
			sent = mv.rev
			if !write(frame) {
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

// openStream starts an event stream's answer — its headers, how soon a
// page reconnects — and returns how to send it a frame, flushed; nil
// when the page is gone already. The stream outlives the server's read
// and write timeouts: it has no body to read, and each write gets its
// own deadline. One home for every page's stream.
func (s *Server) openStream(w http.ResponseWriter) (write func([]byte) bool) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	write = func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(writeWait))
		if _, err := w.Write(b); err != nil { // #nosec G705 -- event-stream frames of JSON this package encoded, as text/event-stream
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 2000\n\n")) {
		return nil
	}
	return write
}

// writeWait is how long one write of an event stream may take.
const writeWait = 15 * time.Second

// sseEvent is the event of view data (whole or as a step) at revision
// id, stamped with its running clock's age (none when age < 0).
func sseEvent(id int, data []byte, age int64) []byte {
	b := make([]byte, 0, len(data)+64)
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, "\nevent: view\ndata: "...)
	b = appendStamped(b, data, age) // JSON from encoding/json: one line
	return append(b, "\n\n"...)
}
