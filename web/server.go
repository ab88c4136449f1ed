package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/internal/connlimit"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/visibility"
)

// static holds the pages' scripts, styles and the men's drawings, served
// under /static/ as they are: no build step.
//
//go:embed static
var static embed.FS

// CSPSources is what every page of the listener may load, the
// Activity's too: nothing but its own origin's scripts, styles, pictures
// (no data: ones) and connections; no inline script or style, no <base>.
// A page's policy adds where its forms go and who may frame it.
const CSPSources = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'"

// CSP is the Content-Security-Policy of every answer unless a handler
// sets its own: CSPSources, no frame around it, no form sent elsewhere.
const CSP = CSPSources + "; form-action 'self'; frame-ancestors 'none'"

// Options are what the web listener serves from.
type Options struct {
	// Play reads the games, players and settings.
	Play *play.Service
	// Hub is the process's one stream of game events.
	Hub *stream.Hub
	// Secret signs the pages' addresses and the sign-in cookies: keep it
	// (LoadSecret), or every link posted so far stops working.
	Secret []byte
	// PublicURL is the address people reach the listener at; the links
	// the bot posts start with it.
	PublicURL string
	// ClientID and ClientSecret are the application's OAuth2 credentials,
	// with which a viewer signs in with Discord; without them a DM game's
	// page is refused to everyone.
	ClientID, ClientSecret string
	// DiscordURL is Discord's address ("" means https://discord.com/),
	// a fake's in tests.
	DiscordURL string
	// Language is the page's language when the viewer's browser asks for
	// none the program speaks.
	Language string
	// Logger logs what goes wrong; nil logs nothing.
	Logger *slog.Logger
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// Heartbeat is how often a quiet event stream says it is alive;
	// 0 means 25 s.
	Heartbeat time.Duration
	// Client makes the requests to Discord (sign-in); nil means one with
	// a 10 s timeout.
	Client *http.Client
	// PerClient caps what one viewer (an address, an IPv6 /64) holds
	// at once, and names the proxies whose X-Forwarded-For says who the
	// viewer is; a cap of 0 is its default (DefaultClientRequests,
	// DefaultClientStreams).
	PerClient connlimit.Limits
}

// The caps of one viewer by default: a few dozen tabs of live pages,
// and their pictures loading at once, but not the listener's thousands.
const (
	DefaultClientRequests = 32
	DefaultClientStreams  = 64
)

// Server is the public web listener's handler: each game's live page and
// its event stream, each server's leaderboard, sign-in with Discord, the
// static files. Other pages join it with Handle.
type Server struct {
	opts  Options
	keys  Keys
	base  *url.URL
	mux   *http.ServeMux
	views *views
	// tours follows the tournaments whose pages are open.
	tours  *followed
	static http.Handler
	log    *slog.Logger
	// limited serves the mux, each viewer within its caps.
	limited http.Handler
}

// New returns the web listener's handler.
func New(opts Options) (*Server, error) {
	if len(opts.Secret) < minSecret {
		return nil, errors.New("web: the secret is too short")
	}
	base, err := url.Parse(opts.PublicURL)
	if err != nil || base.Host == "" {
		return nil, errors.New("web: the public address is not an absolute URL")
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 25 * time.Second
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if opts.PerClient.Requests <= 0 {
		opts.PerClient.Requests = DefaultClientRequests
	}
	if opts.PerClient.Streams <= 0 {
		opts.PerClient.Streams = DefaultClientStreams
	}
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, keys: NewKeys(opts.Secret), base: base, mux: http.NewServeMux(), log: opts.Logger,
		static: StaticHandler(sub)}
	s.views = newViews(s)
	if opts.Play != nil {
		var feed play.Feed
		if opts.Hub != nil {
			feed = opts.Hub
		}
		s.tours = newFollowed(opts.Play.Storage(), feed)
	}
	s.limited = connlimit.NewClients(opts.PerClient).Handler(http.HandlerFunc(s.serve), s.tooMany)
	s.mux.Handle("GET /static/", http.StripPrefix("/static", s.static))
	s.mux.HandleFunc("GET /{$}", s.home)
	s.routes()
	return s, nil
}

// Handle adds a handler for pattern (http.ServeMux's patterns), under the
// same headers and limits as the listener's own pages. A handler that
// must be framed (a Discord Activity) sets its own Content-Security-
// Policy and X-Frame-Options.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// ServeHTTP answers with the security headers every answer carries.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	s.limited.ServeHTTP(w, r)
}

// serve answers a request its viewer's caps let in.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.ContentLength > maxBody {
		w.Header().Set("Connection", "close")
		http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	s.mux.ServeHTTP(w, r)
}

// tooMany answers a viewer who holds as many requests or event streams
// as it may: a page's event stream refused so falls back to polling.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, _ connlimit.Refusal) {
	w.Header().Set("Retry-After", strconv.Itoa(int(retryTooMany/time.Second)))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprintln(w, i18n.T(s.lang(r), "web.too_many", nil)) // #nosec G705 -- our own sentence, as text/plain
}

// retryTooMany is how long a viewer refused for holding too much is
// asked to wait: a page's poll comes every 5 s.
const retryTooMany = 5 * time.Second

// maxBody is the most of a request's body any page reads: none of the
// listener's own reads one; an added page's forms are small.
const maxBody = 16 << 10

// StaticHandler serves the files of fsys, cached for an hour: embedded
// files, whose address changes with nothing but a new program.
func StaticHandler(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no listings
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}

// Keys returns the keys the pages' addresses are signed with, for pages
// added with Handle.
func (s *Server) Keys() Keys { return s.keys }

// GameURL is the address of a game's live page.
func (s *Server) GameURL(id uint64) string {
	return s.base.JoinPath("g", strconv.FormatUint(id, 10), s.keys.Game(id)).String()
}

// LeaderboardURL is the address of a server's leaderboard page.
func (s *Server) LeaderboardURL(guild string) string {
	return s.base.JoinPath("lb", guild, s.keys.Guild(guild)).String()
}

// home says what the listener is, to someone who finds its address.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	s.page(w, r, http.StatusOK, "home", pageData{})
}

// canSee is the visibility rule for a page: a server's game is seen by
// whoever holds its link, which the bot posts only where the game is
// seen; a DM's game only by its players, signed in.
func canSee(ctx context.Context, g *play.Game, user string) bool {
	if g.Guild != "" {
		return true
	}
	// A DM's game is its players': the rule needs no look-up.
	ok, err := visibility.CanSee(ctx, visibility.Asker{User: user}, visibility.Game{Players: g.Players()}, nil)
	return ok && err == nil
}
