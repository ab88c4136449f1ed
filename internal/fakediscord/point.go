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
)

func register(s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	routes[s.token] = s
}

func unregister(s *Server) {
	routesMu.Lock()
	defer routesMu.Unlock()
	delete(routes, s.token)
}

// route hands a request to the Server whose bot token it carries.
func route(w http.ResponseWriter, r *http.Request) {
	routesMu.Lock()
	s := routes[strings.TrimPrefix(r.Header.Get("Authorization"), "Bot ")]
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
