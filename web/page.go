package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"html/template"
	"net/http"

	"github.com/iceagechess/iceage/i18n"
)

//go:embed templates/*.html
var templateFiles embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{"t": func(lang i18n.Lang, id string) string { return i18n.T(lang, id, nil) }}).
	ParseFS(templateFiles, "templates/*.html"))

// pageData is what a page's template reads.
type pageData struct {
	Lang  i18n.Lang
	Title string
	// Message is the sentence of a page that only says something.
	Message string
	// SignIn offers to sign in with Discord, back to this page.
	SignIn string
	// View is the game's view (JSON) the page starts from; Flip turns
	// the board for Black; User is who is signed in.
	View string
	Flip bool
	User string
	// Texts are the words the page's script writes, in Lang (JSON).
	Texts string
	// Board is a leaderboard's rows.
	Board *leaderboardData
	// Tournament is a tournament's standings.
	Tournament *tournamentData
}

// scriptTexts are the messages the game page's script shows.
var scriptTexts = []string{"web.live", "web.reconnecting", "web.first", "web.previous", "web.next", "web.last",
	"web.flip", "board.moves", "iceage.title"}

// page writes the page named by tmpl.
func (s *Server) page(w http.ResponseWriter, r *http.Request, status int, tmpl string, d pageData) {
	if d.Lang == "" {
		d.Lang = s.lang(r)
	}
	if d.Title == "" {
		d.Title = "Ice Age Chess"
	}
	texts := map[string]string{}
	for _, id := range scriptTexts {
		texts[id] = i18n.T(d.Lang, id, nil)
	}
	// The page puts the deadline, in the viewer's time zone, for {when}.
	texts["web.replaying"] = i18n.T(d.Lang, "web.replaying", map[string]any{"Ply": "{ply}", "Plies": "{plies}"})
	texts["board.deadline"] = i18n.T(d.Lang, "board.deadline", map[string]any{"When": "{when}"})
	b, _ := json.Marshal(texts)
	d.Texts = string(b)
	var out bytes.Buffer
	if err := templates.ExecuteTemplate(&out, tmpl+".html", d); err != nil {
		s.log.Error("web: a page's template", "page", tmpl, "err", err)
		http.Error(w, "the page could not be made", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Language", string(d.Lang))
	w.WriteHeader(status)
	_, _ = w.Write(out.Bytes())
}

// problem is a page that says what went wrong, in lang; a private game's
// offers to sign in.
func (s *Server) problem(w http.ResponseWriter, r *http.Request, status int, lang i18n.Lang, key string) {
	d := pageData{Lang: lang, Message: i18n.T(lang, key, nil)}
	if key == "web.private" && s.opts.ClientID != "" {
		if _, in := s.signedIn(r); !in {
			d.SignIn = localNext(r.URL.Path)
		} else {
			d.Message = i18n.T(lang, "web.not_player", nil)
		}
	}
	s.page(w, r, status, "message", d)
}
