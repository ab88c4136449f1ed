package fakediscord

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/iceagechess/iceage/internal/discordurl"
)

// discordgo keeps Discord's addresses in package variables. They are set
// once per process, by the first New, to a router on 127.0.0.1 that hands
// each request to the Server whose token it carries; they are never set
// back, because a discordgo goroutine of an earlier test may still read them
// and writing them again would race with it.
var (
	pointOnce sync.Once
	pointErr  error
	baseURL   string

	routesMu sync.Mutex
	routes   = map[string]*Server{} // by token
	// apps and bearers find the Server of an OAuth2 request: the token
	// endpoint's by its client id, a user's by their access token.
	apps    = map[string]*Server{}
	bearers = map[string]*Server{}
)

func register(s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	routes[s.token] = s
	apps[s.appID] = s
}

func routeBearer(token string, s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	bearers[token] = s
}

func unrouteBearer(token string) {
	routesMu.Lock()
	defer routesMu.Unlock()
	delete(bearers, token)
}

func unregister(s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	delete(routes, s.token)
	delete(apps, s.appID)
	for t, o := range bearers {
		if o == s {
			delete(bearers, t)
		}
	}
}

// route hands a request to the Server whose bot token it carries, or
// whose application the token endpoint's client is, or which issued the
// bearer token.
func route(w http.ResponseWriter, r *http.Request) {
	var s *Server
	if isTokenPath(r.URL.Path) {
		form, ok := tokenForm(w, r)
		if !ok {
			return
		}
		id, _, basic := r.BasicAuth()
		if !basic {
			id = form.Get("client_id")
		}
		routesMu.Lock()
		s = apps[id]
		routesMu.Unlock()
		if s == nil {
			writeJSON(w, http.StatusUnauthorized, &oauthError{Error: "invalid_client"})
			return
		}
		s.serveHTTP(w, r)
		return
	}
	routesMu.Lock()
	if t, ok := bearerOf(r); ok {
		s = bearers[t]
	} else {
		s = routes[strings.TrimPrefix(r.Header.Get("Authorization"), "Bot ")]
	}
	routesMu.Unlock()
	if s == nil {
		writeError(w, errUnauthorized)
		return
	}
	s.serveHTTP(w, r)
}

// pointDiscordgo starts the router, once per process, and points discordgo's
// endpoint variables at it.
func pointDiscordgo() error {
	pointOnce.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			pointErr = fmt.Errorf("listening on 127.0.0.1: %w", err)
			return
		}
		go http.Serve(ln, http.HandlerFunc(route))
		baseURL = "http://" + ln.Addr().String() + "/"
		discordurl.Point(baseURL)
	})
	return pointErr
}

// URL is the address that stands for https://discord.com/ in this test
// process: give it to a program under test (discordurl.Point, or the
// bot's discord.api_url) to make it talk to the fakes of this process.
func (s *Server) URL() string { return baseURL }
