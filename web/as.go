package web

import (
	"net/http"
	"strconv"
	"time"
)

// ServeGameAs serves game id's view (what "view") or event stream
// ("events") as the listener serves them to user signed in, for a page of
// another door that names its user itself: the Discord Activity, whose
// frame keeps no cookie. The visibility rule is the live page's.
func (s *Server) ServeGameAs(w http.ResponseWriter, r *http.Request, id uint64, user, what string) {
	if what != "view" && what != "events" {
		http.NotFound(w, r)
		return
	}
	as := r.Clone(r.Context())
	as.URL.Path = "/g/" + strconv.FormatUint(id, 10) + "/" + s.keys.Game(id) + "/" + what
	as.URL.RawPath = ""
	// The sign-in the page's request would carry, were it the live page's:
	// a request header only, never sent to a browser.
	exp := strconv.FormatInt(s.opts.Now().Add(time.Hour).Unix(), 10)
	as.Header.Set("Cookie", sessionCookie+"="+s.keys.Sign("session", user+"|"+exp))
	s.mux.ServeHTTP(w, as)
}
