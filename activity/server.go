package activity

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/web"
)

//go:embed static page.html
var files embed.FS

// Prefix is where the Activity lives on the web listener: the Developer
// Portal's root URL mapping points at it, so that inside Discord "/" is
// Prefix, and the listener's own pages (the board's script, the men, a
// game's view and event stream) are reached under it.
const Prefix = "/activity"

// CSP is the live page's sources (web.CSPSources): nothing but the
// page's own origin serves it, inside Discord Discord's proxy
// (APP_ID.discordsays.com), which refuses any other anyway. The page
// sends no form. It names no frame-ancestors: Discord's clients frame
// the page from discord.com, and some from documents of no origin (the
// SDK takes messages from "null"), which no source list matches; and a
// page framed by anyone else signs no one in, since only Discord's
// client has the code its authorize gives.
const CSP = web.CSPSources + "; form-action 'none'"

// Options are what the Activity serves from.
type Options struct {
	// ClientID and ClientSecret are the application's OAuth2 credentials;
	// BotToken reads the Activity's instances.
	ClientID, ClientSecret, BotToken string
	// DiscordURL is Discord's address ("" means https://discord.com/),
	// a fake's in tests.
	DiscordURL string
	// Round plays the moves: the bot's, so that its outbox posts the
	// boards.
	Round *round.Round
	// Web is the web listener: the Activity is served on it, follows a
	// game through its live page's view and event stream, and signs its
	// links with its keys.
	Web *web.Server
	// Language is the default language, for users whose Discord locale
	// the program does not speak.
	Language i18n.Lang
	// Client asks Discord; nil means one with a 10 s timeout.
	Client *http.Client
	// Logger logs what goes wrong; nil logs nothing.
	Logger *slog.Logger
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// DefaultDays is the correspondence time control of a lobby's
	// challenge in a server that set none (bot.Config.DefaultDays).
	DefaultDays int
	// Caps are the per-user limits of a lobby's challenges, as of
	// /challenge's.
	Caps play.Caps
	// Engine is the engine's seat at a level (0 for the default) in a
	// server's game, the level it plays, whether a game against it may
	// be rated, and ok false when it cannot play now
	// (bot.Bot.EngineSeat); nil: the lobby offers no engine.
	Engine func(ctx context.Context, guild string, level int) (seat play.Seat, clamped int, rated, ok bool)
}

// Server serves the Activity: its page, sign-in and moves.
type Server struct {
	opts     Options
	discord  *discord
	log      *slog.Logger
	page     *template.Template
	static   http.Handler
	launches launches
	// names are the names of the users who signed in lately, by id: the
	// lobby names the people of an instance by them first (people.go).
	names cache[string]
	// threadGamesOf are the games going on in each channel's threads,
	// by channel, read lately (threads.go).
	threadGamesOf cache[[]play.Game]
	// ended are the challenges lately ended without a game, for the
	// lobby to tell the other side (endings.go).
	ended endings
}

// New returns the Activity's server.
func New(opts Options) (*Server, error) {
	if opts.ClientID == "" || opts.ClientSecret == "" || opts.BotToken == "" || opts.Round == nil || opts.Web == nil {
		return nil, errors.New("activity: the client id and secret, the bot's token, the round and the web listener are all needed")
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Language == "" {
		opts.Language = i18n.English
	}
	page, err := template.ParseFS(files, "page.html")
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(files, "static")
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, log: opts.Logger, page: page, static: web.StaticHandler(sub),
		discord: newDiscord(opts.DiscordURL, opts.ClientID, opts.ClientSecret, opts.BotToken, opts.Client, opts.Now)}
	return s, nil
}

// Mount adds the Activity's routes to the web listener, under Prefix,
// and the listener itself under Prefix for the rest (the board's script,
// the men): inside Discord every path is under the root mapping.
func (s *Server) Mount() {
	w := s.opts.Web
	w.Handle("GET "+Prefix+"/{$}", http.HandlerFunc(s.servePage))
	w.Handle("GET "+Prefix+"/app/", http.StripPrefix(Prefix+"/app", http.HandlerFunc(s.serveStatic)))
	w.Handle("POST "+Prefix+"/api/token", http.HandlerFunc(s.serveToken))
	w.Handle("GET "+Prefix+"/api/game", http.HandlerFunc(s.serveGame))
	w.Handle("POST "+Prefix+"/api/move", http.HandlerFunc(s.serveMove))
	w.Handle("POST "+Prefix+"/api/challenge", http.HandlerFunc(s.serveChallenge))
	w.Handle("POST "+Prefix+"/api/answer", http.HandlerFunc(s.serveAnswer))
	w.Handle("GET "+Prefix+"/api/watch/{ticket}/{what}", http.HandlerFunc(s.serveWatch))
	w.Handle(Prefix+"/", http.StripPrefix(Prefix, w))
}

// Launched remembers that user asked, with a board's Play here button,
// for the Activity in channel to show game: bot.ActivityConfig.Launched.
func (s *Server) Launched(user, channel string, game uint64) {
	s.launches.note(user, channel, game, s.opts.Now())
}

// frameable sets the headers of an answer Discord's client frames.
func frameable(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", CSP)
	h.Del("X-Frame-Options")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// serveStatic serves the page's script, styles and licences, as the
// listener serves its own files.
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	frameable(w)
	s.static.ServeHTTP(w, r)
}

// servePage is the Activity's page, in the browser's language until the
// user is known.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	frameable(w)
	lang := s.acceptLanguage(r)
	texts, _ := json.Marshal(pageTexts(lang))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	err := s.page.Execute(w, map[string]any{"Lang": string(lang), "Title": i18n.T(lang, "activity.page.title", nil),
		"ClientID": s.opts.ClientID, "Texts": string(texts), "Signing": i18n.T(lang, "activity.page.signing_in", nil)})
	if err != nil {
		s.log.Warn("activity: writing the page", "err", err)
	}
}

// acceptLanguage is the first language of the browser's the program
// speaks, else the default.
func (s *Server) acceptLanguage(r *http.Request) i18n.Lang {
	h := r.Header.Get("Accept-Language")
	if len(h) > 200 {
		h = h[:200]
	}
	for part := range strings.SplitSeq(h, ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if base == "no" || base == "nn" {
			base = "nb"
		}
		if slices.Contains(i18n.Languages(), i18n.Lang(base)) {
			return i18n.Lang(base)
		}
	}
	return s.opts.Language
}

// pageTexts are the page's sentences in lang.
func pageTexts(lang i18n.Lang) map[string]string {
	m := map[string]string{}
	for _, k := range []string{"title", "signing_in", "sign_in_failed", "not_here", "no_game", "watching", "your_move", "keyboard", "promote", "reconnecting", "failed"} {
		m[k] = i18n.T(lang, "activity.page."+k, nil)
	}
	for _, k := range lobbyWords {
		m["lobby."+k] = i18n.T(lang, "activity.lobby."+k, nil)
	}
	for _, p := range []string{"queen", "rook", "bishop", "knight"} {
		m[p] = i18n.T(lang, "piece."+p+".name", nil)
	}
	return m
}

// problem answers a refusal as JSON, the sentence in the user's
// language: the page shows it to them alone.
func problem(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": text})
}

// readBody reads a small body, refusing a bigger one unread.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.ContentLength > maxBody {
		w.Header().Set("Connection", "close")
		http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
		return nil, false
	}
	return body, true
}

// serveToken trades the SDK's authorization code for an access token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	frameable(w)
	lang := s.acceptLanguage(r)
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	req, err := parseTokenRequest(body)
	if err != nil {
		problem(w, http.StatusBadRequest, i18n.T(lang, "activity.page.sign_in_failed", nil))
		return
	}
	token, err := s.discord.exchange(r.Context(), req.Code)
	if err != nil {
		if busy(w, err, lang) {
			return
		}
		s.logUnless(err, "exchanging a code")
		problem(w, http.StatusUnauthorized, i18n.T(lang, "activity.page.sign_in_failed", nil))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"access_token": token})
}

// asker is who asks, in which instance, and where it runs.
type asker struct {
	identity
	lang     i18n.Lang
	instance instance
}

// who authenticates a request: its bearer token names a user, who is in
// the instance named. Nothing is asked of Discord before the token and
// the instance id have their shapes. ok is false when it answered.
func (s *Server) who(w http.ResponseWriter, r *http.Request, instanceID string) (asker, bool) {
	lang := s.acceptLanguage(r)
	token, ok := bearer(r.Header.Get("Authorization"))
	if !ok || !validInstance(instanceID) {
		problem(w, http.StatusUnauthorized, i18n.T(lang, "activity.page.sign_in_failed", nil))
		return asker{}, false
	}
	id, err := s.discord.identify(r.Context(), token)
	if err != nil {
		if busy(w, err, lang) {
			return asker{}, false
		}
		s.logUnless(err, "identifying a user")
		problem(w, http.StatusUnauthorized, i18n.T(lang, "activity.page.sign_in_failed", nil))
		return asker{}, false
	}
	s.names.put(id.User, id.Name, s.opts.Now().Add(nameLife))
	a := asker{identity: id, lang: s.userLang(r.Context(), id)}
	in, err := s.discord.instance(r.Context(), instanceID)
	if busy(w, err, a.lang) {
		return asker{}, false
	}
	if err != nil || !slices.Contains(in.Users, id.User) {
		if err != nil {
			s.logUnless(err, "reading an Activity instance")
		}
		problem(w, http.StatusForbidden, i18n.T(a.lang, "activity.page.not_here", nil))
		return asker{}, false
	}
	a.instance = in
	return a, true
}

// busy answers 503 when err is errBusy: the page says to try again.
func busy(w http.ResponseWriter, err error, lang i18n.Lang) bool {
	if !errors.Is(err, errBusy) {
		return false
	}
	w.Header().Set("Retry-After", "1")
	problem(w, http.StatusServiceUnavailable, i18n.T(lang, "activity.page.failed", nil))
	return true
}

func (s *Server) logUnless(err error, what string) {
	if !errors.Is(err, errRefused) && !errors.Is(err, context.Canceled) {
		s.log.Warn("activity: "+what, "err", err)
	}
}

// userLang is the language the user chose in /settings, else their
// Discord client's, else the default.
func (s *Server) userLang(ctx context.Context, id identity) i18n.Lang {
	if p, err := s.opts.Round.Service().Prefs(ctx, id.User); err == nil && p.Language != "" {
		return i18n.Lang(p.Language)
	}
	if id.Locale != "" {
		return i18n.FromDiscord(id.Locale)
	}
	return s.opts.Language
}

// gameFor chooses the game the Activity shows the asker: the one their
// Play here named, if it goes on in the instance's channel; else their
// own game there, or in one of its threads (a /challenge accepted in the
// channel is played in a thread of it); else the one their Play here
// named, over; else the channel's game, going on or last finished.
func (s *Server) gameFor(ctx context.Context, a *asker, rc reach) (play.Game, error) {
	svc := s.opts.Round.Service()
	ch := a.instance.Channel
	var launched *play.Game
	if id, ok := s.launches.get(a.User, ch, s.opts.Now()); ok {
		if g, err := svc.Game(ctx, id); err == nil && g.Channel == ch {
			if !g.Over() {
				return g, nil
			}
			launched = &g
		}
	}
	if mine, err := svc.ActiveGames(ctx, a.User); err == nil {
		for _, g := range mine {
			if g.Channel == ch {
				return g, nil
			}
		}
		for _, g := range mine {
			if g.Guild == a.instance.Guild && rc.holds(&g) {
				return g, nil
			}
		}
	}
	if launched != nil {
		if g, err := svc.GameIn(ctx, ch); err != nil || g.Over() {
			return *launched, nil
		}
	}
	return svc.LastIn(ctx, a.instance.Guild, ch)
}

// gameAnswer is what the page needs to show the asker their game.
type gameAnswer struct {
	Game uint64 `json:"game"`
	// Path is where the page follows the game, relative to the
	// Activity's root: Path/view, Path/events.
	Path string `json:"path"`
	// Color is the asker's side, "w" or "b"; "" for a spectator.
	Color string            `json:"color"`
	Lang  string            `json:"lang"`
	Texts map[string]string `json:"texts"`
	Name  string            `json:"name"`
	// Lobby is there when no game goes on in a server's channel: the
	// game shown, if any, is over.
	Lobby *lobbyAnswer `json:"lobby,omitempty"`
}

// serveGame tells the page which game to show, and how.
func (s *Server) serveGame(w http.ResponseWriter, r *http.Request) {
	frameable(w)
	a, ok := s.who(w, r, r.URL.Query().Get("instance"))
	if !ok {
		return
	}
	rc := s.reachOf(r.Context(), &a)
	var g play.Game
	var err error
	if q := r.URL.Query().Get("game"); q != "" {
		// A game the lobby offered to watch: one of the channel's or its
		// threads'.
		id, ok := parseGameQuery(q)
		if !ok {
			problem(w, http.StatusBadRequest, i18n.T(a.lang, "activity.page.failed", nil))
			return
		}
		if g, err = s.opts.Round.Service().Game(r.Context(), id); err == nil && !rc.holds(&g) {
			err = &play.Refusal{Kind: play.NoGame, Game: id}
		}
	} else {
		g, err = s.gameFor(r.Context(), &a, rc)
	}
	if isNoGame(err) && a.instance.Guild != "" && r.URL.Query().Get("game") == "" {
		// Nothing played here yet: the lobby alone.
		s.serveLobby(w, r, &a, gameAnswer{Lang: string(a.lang), Texts: pageTexts(a.lang), Name: a.Name}, nil, rc)
		return
	}
	if err != nil || !s.mayWatch(r.Context(), &a, &g, rc) {
		if err != nil && !isNoGame(err) {
			s.log.Warn("activity: finding the game", "channel", a.instance.Channel, "err", err)
			problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
			return
		}
		problem(w, http.StatusNotFound, i18n.T(a.lang, "activity.page.no_game", nil))
		return
	}
	ans := gameAnswer{Game: g.ID, Path: "api/watch/" + s.ticket(g.ID, a.User), Lang: string(a.lang), Texts: pageTexts(a.lang), Name: a.Name}
	if c, ok := g.ColorOf(a.User); ok && !g.Over() {
		ans.Color = "w"
		if c != game.White {
			ans.Color = "b"
		}
		if g.White.ID == a.User && g.Black.ID == a.User {
			ans.Color = "wb" // a game against oneself: both sides
		}
	}
	if g.Over() && g.Guild != "" {
		s.serveLobby(w, r, &a, ans, &g, rc)
		return
	}
	answer(w, ans)
}

// serveLobby answers ans with the lobby of the asker's instance, after
// the game last (nil for none).
func (s *Server) serveLobby(w http.ResponseWriter, r *http.Request, a *asker, ans gameAnswer, last *play.Game, rc reach) {
	l, err := s.lobbyFor(r.Context(), a, last, rc)
	if err != nil {
		s.log.Warn("activity: reading a lobby", "channel", a.instance.Channel, "err", err)
		problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
		return
	}
	ans.Lobby = l
	answer(w, ans)
}

// ticketLife is how long a ticket lets the page follow its game: an
// Activity opened for longer is opened again.
const ticketLife = 24 * time.Hour

// ticket lets the page follow game as user, whom the Activity checked
// may watch it: an event stream sends no Authorization header.
func (s *Server) ticket(game uint64, user string) string {
	exp := s.opts.Now().Add(ticketLife).Unix()
	return s.opts.Web.Keys().Sign("activity.watch", fmt.Sprintf("%d-%s-%d", game, user, exp))
}

// openTicket returns the game and user a ticket names, if it holds.
func (s *Server) openTicket(t string) (uint64, string, bool) {
	if len(t) > 100 {
		return 0, "", false
	}
	v, ok := s.opts.Web.Keys().Open("activity.watch", t)
	if !ok {
		return 0, "", false
	}
	parts := strings.Split(v, "-")
	if len(parts) != 3 || !snowflake(parts[1]) {
		return 0, "", false
	}
	game, err1 := strconv.ParseUint(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || s.opts.Now().Unix() > exp {
		return 0, "", false
	}
	return game, parts[1], true
}

// serveWatch serves the view or event stream of a ticket's game, as the
// live page serves them to its user.
func (s *Server) serveWatch(w http.ResponseWriter, r *http.Request) {
	game, user, ok := s.openTicket(r.PathValue("ticket"))
	what := r.PathValue("what")
	if !ok || what != "view" && what != "events" {
		http.NotFound(w, r)
		return
	}
	s.opts.Web.ServeGameAs(w, r, game, user, what)
}

func isNoGame(err error) bool {
	var x *play.Refusal
	return errors.As(err, &x) && x.Kind == play.NoGame
}

// actRequest is a request that acts in an Activity's instance.
type actRequest interface {
	instance() string
}

// readAct reads an act's request: its body, parsed by parse, and who asks,
// a participant of the request's instance. Where it fails it has answered,
// in the asker's language, and ok is false.
func readAct[R actRequest](s *Server, w http.ResponseWriter, r *http.Request, parse func([]byte) (R, error)) (req R, a asker, ok bool) {
	frameable(w)
	body, ok := readBody(w, r)
	if !ok {
		return req, a, false
	}
	req, err := parse(body)
	if err != nil {
		problem(w, http.StatusBadRequest, i18n.T(s.acceptLanguage(r), "activity.page.failed", nil))
		return req, a, false
	}
	a, ok = s.who(w, r, req.instance())
	return req, a, ok
}

// serveMove plays a move as the asker, through the round: the refusals,
// the revision check and the outbox of any act.
func (s *Server) serveMove(w http.ResponseWriter, r *http.Request) {
	req, a, ok := readAct(s, w, r, parseMoveRequest)
	if !ok {
		return
	}
	g, err := s.opts.Round.Service().Game(r.Context(), req.Game)
	rc := s.reachOf(r.Context(), &a)
	if err != nil || !rc.holds(&g) || !s.mayWatch(r.Context(), &a, &g, rc) {
		// A game of another channel (not one of its threads) is none of
		// this Activity's.
		problem(w, http.StatusNotFound, i18n.T(a.lang, "activity.page.no_game", nil))
		return
	}
	start := time.Now()
	out, err := s.opts.Round.Do(r.Context(), round.Act{Act: play.Act{By: a.User, Game: g.ID, Revision: req.Revision, At: s.opts.Now()},
		Kind: round.Move, Text: req.Move})
	var x *play.Refusal
	switch {
	case errors.As(err, &x):
		s.log.Info("activity move", "game", g.ID, "user", a.User, "outcome", "refused", "latency", time.Since(start).Round(time.Microsecond))
		problem(w, http.StatusConflict, refusalText(a.lang, x, zone(req.Zone), g.White, g.Black))
		return
	case err != nil:
		s.log.Error("activity: playing a move", "game", g.ID, "user", a.User, "err", err)
		problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
		return
	}
	s.log.Info("activity move", "game", g.ID, "user", a.User, "outcome", "ok", "latency", time.Since(start).Round(time.Microsecond))
	answer(w, map[string]int{"rev": out.Game.Revision})
}

// refusalText says why an act was refused, in lang: players by their
// names (of seats), times as the viewer's clock reads them (in loc; in
// UTC, said so, when the page named no zone the server knows).
func refusalText(lang i18n.Lang, x *play.Refusal, loc *time.Location, seats ...play.Seat) string {
	name := func(id string) string {
		for _, s := range seats {
			if s.ID == id && s.Name != "" {
				return s.Name
			}
		}
		return "?"
	}
	return i18n.Refusal(lang, x, i18n.Marks{Player: name, Time: func(t time.Time) string { return localTime(lang, t, loc) }})
}

// localTime writes t as a date and a time of day in loc, as the viewer
// reads their own clock; in UTC, said so, for a nil loc.
func localTime(lang i18n.Lang, t time.Time, loc *time.Location) string {
	if loc == nil {
		return i18n.Date(lang, t) + " " + t.UTC().Format("15:04") + " UTC"
	}
	lt := t.In(loc)
	// i18n.Date reads its date in UTC: the local date, as a UTC one.
	day := time.Date(lt.Year(), lt.Month(), lt.Day(), 12, 0, 0, 0, time.UTC)
	return i18n.Date(lang, day) + " " + lt.Format("15:04")
}

// launches are the recent Play here clicks: which game a user asked
// the Activity of a channel to show.
type launches struct {
	mu sync.Mutex
	m  map[[2]string]launch
}

type launch struct {
	game uint64
	at   time.Time
}

// launchLife is how long a Play here click names the game the Activity
// shows: the Activity starts within seconds of it.
const launchLife = 10 * time.Minute

func (l *launches) note(user, channel string, game uint64, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[[2]string]launch{}
	}
	if len(l.m) >= maxCached {
		for k, v := range l.m {
			if now.Sub(v.at) > launchLife || len(l.m) >= maxCached {
				delete(l.m, k)
			}
		}
	}
	l.m[[2]string{user, channel}] = launch{game: game, at: now}
}

func (l *launches) get(user, channel string, now time.Time) (uint64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.m[[2]string{user, channel}]
	return v.game, ok && now.Sub(v.at) <= launchLife
}
