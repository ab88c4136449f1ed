package activity

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// The lobby: when no game goes on in the Activity's channel, the page
// shows who is in the Activity, the challenges waiting there, and a form
// to challenge someone in it (or anyone) at a time control; after a game,
// a Rematch. A challenge is the round's act (round.Challenge), which the
// bot's outbox posts in the channel as /challenge's message, buttons and
// all; it is played in the channel itself (play.Challenge.InChannel), so
// that the Activity shows it whoever accepts it, and wherever.

const (
	// nameLife is how long a user's name is remembered from their
	// sign-in, to name them in the lobbies of the instances they are in.
	nameLife = time.Hour
	// maxLobbyPeople bounds the people of an instance the lobby reads
	// challenges of.
	maxLobbyPeople = 25
)

// lobbyAnswer is what the page shows in the lobby.
type lobbyAnswer struct {
	// People are the others in the instance, by name (people.go).
	People []person `json:"people"`
	// Challenges are those waiting in the channel that the asker made,
	// or may accept.
	Challenges []lobbyChallenge `json:"challenges"`
	// Ended tell the asker of their challenges lately declined,
	// withdrawn or expired by the other side, or by time (endings.go).
	Ended []notice `json:"ended"`
	// Games are those going on in the channel's threads that the asker
	// may see, their own first (threads.go).
	Games []threadGame `json:"games"`
	// Rematch is the challenge a Rematch makes after the asker's game;
	// nil when there is none to make.
	Rematch *rematch `json:"rematch,omitempty"`
	// Times are the usual time controls, offered first.
	Times []timeChoice `json:"times"`
	// Days names the correspondence time control of the server.
	Days string `json:"days"`
	// Engine is offered as an opponent when it can play.
	Engine *engineChoice `json:"engine,omitempty"`
}

// engineChoice is the engine as the lobby offers it: its levels, the
// one chosen unless the user chooses.
type engineChoice struct {
	Levels int `json:"levels"`
	Level  int `json:"level"`
}

type person struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type timeChoice struct {
	Time  string `json:"time"`
	Terms string `json:"terms"`
}

// lobbyChallenge is a waiting challenge, as the asker reads it.
type lobbyChallenge struct {
	ID   uint64 `json:"id"`
	Text string `json:"text"`
	// Mine: the asker made it, and may withdraw it; else they may
	// accept or decline it.
	Mine bool `json:"mine"`
}

// rematch is the challenge a Rematch sends: the opponent (the engine at
// its level), the same time control, the colours swapped.
type rematch struct {
	To     string `json:"to"`
	Engine bool   `json:"engine"`
	Level  int    `json:"level"`
	Time   string `json:"time"`
	Color  string `json:"color"`
	Rated  bool   `json:"rated"`
	Text   string `json:"text"`
}

// lobbyFor is the lobby of the asker's instance; last is the game the
// page shows, over (nil for none).
func (s *Server) lobbyFor(ctx context.Context, a *asker, last *play.Game, rc reach) (*lobbyAnswer, error) {
	svc := s.opts.Round.Service()
	now := s.opts.Now()
	l := &lobbyAnswer{People: []person{}, Challenges: []lobbyChallenge{}}
	users := a.instance.Users
	if len(users) > maxLobbyPeople {
		users = users[:maxLobbyPeople]
	}
	asked := 0
	for _, u := range users {
		if u == a.User {
			continue
		}
		name, ok := s.knownName(a.instance.Guild, u)
		if !ok && asked < maxNamesAsked {
			asked++
			name, ok = s.personName(ctx, a.instance.Guild, u)
		}
		if ok {
			l.People = append(l.People, person{ID: u, Name: name})
		}
	}
	slices.SortFunc(l.People, func(x, y person) int { return cmp.Compare(x.Name, y.Name) })
	seen := map[uint64]bool{}
	for _, u := range append([]string{a.User}, users...) {
		cs, err := svc.Challenges(ctx, u)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			mine := c.From.ID == a.User
			if seen[c.ID] || c.Channel != a.instance.Channel || !now.Before(c.Expires) || !mine && c.To.ID != a.User && !c.Open() {
				continue
			}
			seen[c.ID] = true
			l.Challenges = append(l.Challenges, lobbyChallenge{ID: c.ID, Mine: mine, Text: challengeText(a.lang, &c, a.User)})
		}
	}
	slices.SortFunc(l.Challenges, func(x, y lobbyChallenge) int { return cmp.Compare(x.ID, y.ID) })
	l.Ended = s.ended.told(a.instance.Channel, a.User, a.lang, now)
	l.Games = s.threadGames(ctx, a, rc)
	for _, t := range play.OfferedTimes {
		tc, _ := play.ParseTimeControl(t)
		l.Times = append(l.Times, timeChoice{Time: t, Terms: i18n.LiveTerms(a.lang, tc)})
	}
	l.Days = i18n.TimeTerms(a.lang, play.TimeControl{}, s.days(ctx, a.instance.Guild))
	if s.opts.Engine != nil {
		if _, level, _, ok := s.opts.Engine(ctx, a.instance.Guild, 0); ok {
			l.Engine = &engineChoice{Levels: engine.Levels, Level: level}
		}
	}
	if last != nil {
		l.Rematch = rematchOf(a.lang, last, a.User)
		if l.Rematch != nil && l.Rematch.Engine && l.Engine == nil {
			l.Rematch = nil
		}
	}
	return l, nil
}

// days is the correspondence time control of a server's challenges.
func (s *Server) days(ctx context.Context, guild string) int {
	set, err := s.opts.Round.Service().ServerSettings(ctx, guild)
	if err != nil {
		s.log.Warn("activity: reading a server's settings", "guild", guild, "err", err)
	}
	return set.Days(s.opts.DefaultDays)
}

// rematchOf is the Rematch user may ask for after g: against the person
// they played, colours swapped, the same time control and rating; nil
// when they did not play it, or played the engine, or it was aborted.
func rematchOf(lang i18n.Lang, g *play.Game, user string) *rematch {
	mine, played := g.ColorOf(user)
	if !played || !g.Over() || g.Outcome.Reason == game.Aborted || g.White.ID == g.Black.ID {
		return nil
	}
	opp := g.Seat(mine.Other())
	r := &rematch{To: opp.ID, Time: g.TimeControl().String(), Color: "white", Rated: g.Rated}
	if level := g.Engine[mine.Other()]; level > 0 {
		r.To, r.Engine, r.Level = "", true, level
	}
	if mine == game.White {
		r.Color = "black"
	}
	r.Text = i18n.T(lang, "activity.lobby.rematch_terms", map[string]any{"Player": opp.Name,
		"Terms": i18n.TimeTerms(lang, g.TimeControl(), g.DaysPerMove), "Playing": colorWords(lang, play.Color(r.Color))})
	return r
}

// challengeText says a waiting challenge to user: who made it, to whom,
// the time control and the colour they would play.
func challengeText(lang i18n.Lang, c *play.Challenge, user string) string {
	terms := i18n.TimeTerms(lang, c.Time, c.DaysPerMove)
	if c.Rated {
		terms += ", " + i18n.T(lang, "board.rated", nil)
	}
	data := map[string]any{"Player": c.To.Name, "Terms": terms}
	mine := c.From.ID == user
	// The colour is the reader's: the challenger's for their own, else
	// the other one.
	color := c.Color
	if !mine {
		data["Player"] = c.From.Name
		switch c.Color {
		case play.WhiteSide:
			color = play.BlackSide
		case play.BlackSide:
			color = play.WhiteSide
		}
	}
	data["Playing"] = colorWords(lang, color)
	key := "activity.lobby.challenged_you"
	switch {
	case mine && c.Open():
		key = "activity.lobby.you_open"
	case mine:
		key = "activity.lobby.you_challenged"
	case c.Open():
		key = "activity.lobby.open_by"
	}
	return i18n.T(lang, key, data)
}

// colorWords says which colour the reader plays: "you play White".
func colorWords(lang i18n.Lang, c play.Color) string {
	return i18n.T(lang, "activity.lobby.you_play."+string(c), nil)
}

// serveChallenge makes a challenge from the lobby, through the round.
func (s *Server) serveChallenge(w http.ResponseWriter, r *http.Request) {
	req, a, ok := readAct(s, w, r, parseChallengeRequest)
	if !ok {
		return
	}
	loc := zone(req.Zone)
	tc, err := req.timeControl()
	var bad *play.TimeControlError
	switch {
	case errors.As(err, &bad):
		problem(w, http.StatusBadRequest, i18n.BadTimeControl(a.lang, bad))
		return
	case a.instance.Guild == "":
		// A DM's challenge would be the bot's to post where it is no
		// member: /challenge is the door there.
		problem(w, http.StatusNotFound, i18n.T(a.lang, "activity.lobby.server_only", nil))
		return
	}
	from := play.Seat{ID: a.User, Name: a.Name}
	n := play.NewChallenge{Guild: a.instance.Guild, Channel: a.instance.Channel, From: from, Color: play.Color(req.Color),
		Rated: req.Rated, Time: tc, At: s.opts.Now(), Caps: s.opts.Caps, InChannel: true}
	if !tc.Live() {
		n.DaysPerMove = s.days(r.Context(), a.instance.Guild)
	}
	if g, err := s.opts.Round.Service().GameIn(r.Context(), a.instance.Channel); err == nil && !g.Over() {
		problem(w, http.StatusConflict, i18n.T(a.lang, "activity.lobby.game_on", nil))
		return
	}
	if req.Engine {
		s.startEngineGame(w, r, &a, &n, req.Level, loc)
		return
	}
	if req.To != "" {
		n.To = play.Seat{ID: req.To}
		if req.To != a.User && !slices.Contains(a.instance.Users, req.To) {
			problem(w, http.StatusConflict, i18n.T(a.lang, "activity.lobby.not_here", nil))
			return
		}
		if req.To != a.User {
			var named bool
			if n.To.Name, named = s.personName(r.Context(), a.instance.Guild, req.To); !named {
				problem(w, http.StatusServiceUnavailable, i18n.T(a.lang, "activity.page.failed", nil))
				return
			}
		}
	}
	asked, err := s.opts.Round.Ask(r.Context(), n, false)
	var x *play.Refusal
	switch {
	case errors.As(err, &x):
		s.log.Info("activity challenge", "user", a.User, "outcome", "refused", "why", x.Kind)
		problem(w, http.StatusConflict, refusalText(a.lang, x, loc, from, n.To))
		return
	case err != nil:
		s.log.Error("activity: making a challenge", "user", a.User, "channel", a.instance.Channel, "err", err)
		problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
		return
	}
	if c := &asked.Challenge; asked.Accepted {
		// Their challenge on the same terms was waiting: asking took it.
		// The page shows the game that started, and the asker alone why.
		g := asked.Outcome.Game.ID
		s.log.Info("activity challenge", "user", a.User, "challenge", c.ID, "outcome", "accepted theirs", "game", g)
		answer(w, map[string]any{"game": g, "note": i18n.T(a.lang, "activity.lobby.crossed", map[string]any{"Player": c.From.Name})})
		return
	}
	s.log.Info("activity challenge", "user", a.User, "challenge", asked.Challenge.ID, "outcome", "ok")
	answer(w, map[string]any{"challenge": asked.Challenge.ID})
}

// startEngineGame starts at once, in the channel, a game against the
// engine at level on the terms of n, as /challenge does against the
// engine: the round posts its board, and the engine moves when it has
// White.
func (s *Server) startEngineGame(w http.ResponseWriter, r *http.Request, a *asker, n *play.NewChallenge, level int, loc *time.Location) {
	var seat play.Seat
	var rated, ok bool
	if s.opts.Engine != nil {
		seat, level, rated, ok = s.opts.Engine(r.Context(), a.instance.Guild, level)
	}
	if !ok {
		problem(w, http.StatusConflict, i18n.T(a.lang, "activity.lobby.no_engine", nil))
		return
	}
	white, black := n.From, seat
	// #nosec G404 -- the colours of a casual game against the engine, not a secret
	if n.Color == play.BlackSide || n.Color == play.Random && rand.IntN(2) == 1 {
		white, black = seat, n.From
	}
	var levels [2]int
	if white == seat {
		levels[game.White] = level
	} else {
		levels[game.Black] = level
	}
	g := play.NewGame{Guild: n.Guild, Channel: n.Channel, White: white, Black: black, Rated: n.Rated && rated,
		DaysPerMove: n.DaysPerMove, Time: n.Time, Engine: levels, At: n.At, Caps: n.Caps}
	err := s.opts.Round.Service().MayStart(r.Context(), g)
	var out round.Outcome
	if err == nil {
		out, err = s.opts.Round.Start(r.Context(), g)
	}
	var x *play.Refusal
	switch {
	case errors.As(err, &x):
		problem(w, http.StatusConflict, refusalText(a.lang, x, loc, n.From, seat))
		return
	case err != nil:
		s.log.Error("activity: starting a game against the engine", "user", a.User, "channel", a.instance.Channel, "err", err)
		problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
		return
	}
	s.log.Info("activity engine game", "user", a.User, "game", out.Game.ID, "level", level)
	answer(w, map[string]any{"game": out.Game.ID})
}

// serveAnswer accepts or declines a challenge shown in the lobby, or
// withdraws the asker's own. An accepted challenge is a game in the
// channel, started by the round, whose board the outbox posts there.
func (s *Server) serveAnswer(w http.ResponseWriter, r *http.Request) {
	req, a, ok := readAct(s, w, r, parseAnswerRequest)
	if !ok {
		return
	}
	loc := zone(req.Zone)
	svc := s.opts.Round.Service()
	ctx := r.Context()
	now := s.opts.Now()
	me := play.Seat{ID: a.User, Name: a.Name}
	c, err := svc.GetChallenge(ctx, req.Challenge)
	if err == nil && c.Channel != a.instance.Channel {
		// Another channel's challenge is none of this Activity's.
		err = &play.Refusal{Kind: play.NoChallenge, Game: req.Challenge}
	}
	var x *play.Refusal
	if errors.As(err, &x) {
		problem(w, http.StatusConflict, refusalText(a.lang, x, loc, me))
		return
	}
	if err != nil {
		s.log.Error("activity: reading a challenge", "challenge", req.Challenge, "err", err)
		problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
		return
	}
	var game uint64
	// The round writes the item that edits the challenge's message in
	// the channel, as a click on its buttons would.
	if !req.Accept {
		if err = s.opts.Round.Decline(ctx, &c, a.User, now); err == nil {
			how := round.AnswerDeclined
			if c.From.ID == a.User {
				how = round.AnswerWithdrawn
			}
			s.ended.note(&c, how, now)
		}
	} else if err = play.MayAccept(&c, a.User, now); err == nil {
		out, aerr := s.opts.Round.AcceptAnswered(ctx, &c, me, a.instance.Channel, now)
		game, err = out.Game.ID, aerr
	}
	switch {
	case errors.As(err, &x):
		problem(w, http.StatusConflict, refusalText(a.lang, x, loc, c.From, c.To, me))
		return
	case err != nil:
		s.log.Error("activity: answering a challenge", "challenge", c.ID, "user", a.User, "err", err)
		problem(w, http.StatusInternalServerError, i18n.T(a.lang, "activity.page.failed", nil))
		return
	}
	s.log.Info("activity answer", "user", a.User, "challenge", c.ID, "accept", req.Accept, "game", game)
	answer(w, map[string]any{"game": game})
}

// answer writes v as the JSON answer of a request.
func answer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

// lobbyWords are the lobby's sentences the page shows
// (activity.lobby.*).
var lobbyWords = []string{"title", "people", "alone", "opponent", "anyone", "time", "custom", "minutes", "seconds",
	"correspondence", "color", "random", "white", "black", "rated", "challenge", "accept", "decline", "withdraw",
	"rematch", "sent", "waiting", "engine", "level", "close", "games", "watch", "play"}
