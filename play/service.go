package play

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Event is what changed a game. The numbers are stable: they are stored.
type Event uint8

const (
	NoEvent           Event = 0
	Started           Event = 1
	Moved             Event = 2
	DrawOffered       Event = 3
	DrawDeclined      Event = 4
	DrawWithdrawn     Event = 5
	TakebackRequested Event = 6
	TakebackDeclined  Event = 7
	TakebackWithdrawn Event = 8
	TookBack          Event = 9
	Ended             Event = 10 // resigned, agreed, aborted or timed out: see Game.Outcome
	// TimeRanOut: the deadline passed in a game whose opponent chooses;
	// Game.Flag says who chooses.
	TimeRanOut Event = 11
	// Queued: conditional moves were queued or cleared (Premove). Private
	// to their author, so never stored as Game.Last.
	Queued Event = 12
	// Rehomed: the game moved to another channel (Rehome). It changes
	// no revision, so it is never stored as Game.Last either.
	Rehomed Event = 13
)

// String returns a short English name, e.g. "a move".
func (e Event) String() string {
	switch e {
	case Started:
		return "the game started"
	case Moved:
		return "a move was played"
	case DrawOffered:
		return "a draw was offered"
	case DrawDeclined:
		return "a draw offer was declined"
	case DrawWithdrawn:
		return "a draw offer was withdrawn"
	case TakebackRequested:
		return "a takeback was requested"
	case TakebackDeclined:
		return "a takeback was declined"
	case TakebackWithdrawn:
		return "a takeback request was withdrawn"
	case TookBack:
		return "moves were taken back"
	case Ended:
		return "the game ended"
	case TimeRanOut:
		return "the time to move ran out"
	case Queued:
		return "conditional moves were queued"
	case Rehomed:
		return "the game moved to another channel"
	}
	return "nothing"
}

// AllowedDays are the correspondence time controls a Service offers by
// default, in days per move; 0 (no limit) is allowed too.
var AllowedDays = []int{1, 2, 3, 5, 7, 10, 14}

// DefaultDays is the time control of a challenge that names none.
const DefaultDays = 3

// Options tune a Service. The zero value gives the defaults.
type Options struct {
	// ChallengeTTL is how long a challenge waits for an answer. Default:
	// three days, so a correspondence player has time to see it.
	ChallengeTTL time.Duration
	// Rand draws the colours of a random challenge: it returns a number
	// in [0, n). Default: math/rand/v2. Tests pass a fixed one.
	Rand func(n int) int
	// AllowedDays are the time controls offered (a subset of
	// AllowedDays, say); nil means AllowedDays.
	AllowedDays []int
	// OnEnd runs, in order, inside the transaction that ends a game,
	// after the tallies and the ratings, which play keeps itself. An
	// error rolls the end back.
	OnEnd []func(tx Tx, g *Game) error
	// Reminders are the hours before a deadline at which the player to
	// move is reminded when their Prefs name none. nil means
	// DefaultReminders; an empty slice, no reminders.
	Reminders []int
	// VacationDays is each player's yearly vacation allowance (Vacation).
	// 0 means DefaultVacationDays; a negative number allows none.
	VacationDays int
	// OpponentChooses: a player who runs out of time does not simply
	// lose; the opponent chooses between claiming the win and calling it
	// a draw (ClaimWin, ClaimDraw). Games keep the rule they began with.
	OpponentChooses bool
}

// DefaultChallengeTTL is the ChallengeTTL used when Options leave it zero.
const DefaultChallengeTTL = 72 * time.Hour

// DefaultReminders are the reminders, in hours before the deadline, of a
// player who chose none: a day ahead, to plan, and an hour ahead, not to
// forget.
var DefaultReminders = []int{24, 1}

// DefaultVacationDays is the yearly vacation allowance when Options leave
// it zero: two weeks, as correspondence servers commonly give.
const DefaultVacationDays = 14

// Service decides and records the life of games on a Storage. It is safe
// for concurrent use: every act is one storage transaction.
type Service struct {
	st   Storage
	opts Options
	// then runs in the transaction of every act, after it (Then).
	then func(tx Tx, r *Result) error
}

// New returns a Service on st.
func New(st Storage, opts Options) *Service {
	if opts.ChallengeTTL <= 0 {
		opts.ChallengeTTL = DefaultChallengeTTL
	}
	if opts.AllowedDays == nil {
		opts.AllowedDays = AllowedDays
	}
	if opts.Rand == nil {
		opts.Rand = rand.IntN
	}
	if opts.Reminders == nil {
		opts.Reminders = slices.Clone(DefaultReminders)
	}
	switch {
	case opts.VacationDays == 0:
		opts.VacationDays = DefaultVacationDays
	case opts.VacationDays < 0:
		opts.VacationDays = 0
	}
	return &Service{st: st, opts: opts}
}

// Then returns a Service that, in each act's transaction, once the act
// is decided and written (and only if it is not refused), runs fn on the
// transaction and the act's Result; an error from fn rolls the act back.
// Start, Accept, TimeOut, Rehome and every act that takes an Act but
// Premove (private to its author) run it. It is how a
// caller writes what follows from an act (package round's outbox) in the
// act's own transaction. Like the act, fn may run more than once.
func (s *Service) Then(fn func(tx Tx, r *Result) error) *Service {
	c := *s
	c.then = fn
	return &c
}

// Storage returns the storage the Service works on.
func (s *Service) Storage() Storage { return s.st }

// Act names who asks to change which game, as they saw it. Every act on
// a game may be refused (*Refusal) with NoGame, NotAPlayer, GameOver,
// Stale or, once the deadline has passed, TimeUp; its method's doc lists
// the refusals of its own.
type Act struct {
	By       string    // the user who asks
	Game     uint64    // the game's id
	Revision int       // Game.Revision as the asker saw it
	At       time.Time // when
	// Sent is when the asker sent the act, as their side of the wire
	// tells (a Discord interaction's id); zero when unknown. In a live
	// game At less Sent is the move's lag, compensated (Clock.Lag).
	Sent time.Time
	// Channel, when Game is 0, names the game instead: the one going on
	// in that channel, as it is when the act is decided (a typed
	// command acts on the game as its asker sees it when they send it,
	// so there is no revision to check). No game there is refused
	// (NoGame, Refusal.Game 0).
	Channel string
}

// Result is what an act did.
type Result struct {
	Game  Game  // the game after the act
	Event Event // what happened
	// Move is the move played (Event Moved); nil otherwise.
	Move *MovePlayed
	// TakenBack is the number of plies taken back (Event TookBack).
	TakenBack int
	// Conditional is what a move did to the opponent's queue of
	// conditional moves (Premove); nil if there was none.
	Conditional *Conditional
	// DrawLapsed and TakebackLapsed are the draw offer and the takeback
	// request that a move answered by being played (Move): they lapse.
	// nil when there was none.
	DrawLapsed, TakebackLapsed *Offer
}

// Conditional is what a move did to a queue of conditional moves: the
// reply it triggered, played at once, or the queue dropped because the
// move was not one its author expected.
type Conditional struct {
	By string // the queue's author
	// Reply is the author's reply, played in the same transaction; nil
	// when the queue was dropped.
	Reply *MovePlayed
	// Left is how many lines stay queued after the reply.
	Left int
}

// Dropped reports whether the queue was dropped without a reply.
func (c *Conditional) Dropped() bool { return c.Reply == nil }

// MovePlayed is everything a front end needs to show a move.
type MovePlayed struct {
	Move   game.Move
	SAN    string
	UCI    string
	By     game.Color
	Before game.Position // the position the move was played in
	After  game.Position // the position after it (and its Ice Age)
	// IceAge is what the Ice Age the move brought did (the position
	// before it, frozen men, filled squares); nil if none came.
	IceAge *game.IceAge
}

// Game returns the game with that id, active or finished.
func (s *Service) Game(ctx context.Context, id uint64) (Game, error) {
	var g Game
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		g, err = tx.Game(id)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return Game{}, &Refusal{Kind: NoGame, Game: id}
	}
	return g, err
}

// PlayersGame returns the game with that id for one of its players to act
// on: a *Refusal of Kind NoGame, NotAPlayer (user does not play in it) or
// GameOver (it has ended) otherwise. Front ends ask it before they offer
// an act, say a confirmation, that play will decide later.
func (s *Service) PlayersGame(ctx context.Context, id uint64, user string) (Game, error) {
	g, err := s.Game(ctx, id)
	if err != nil {
		return g, err
	}
	if _, ok := g.ColorOf(user); !ok {
		return g, refuse(NotAPlayer, &g)
	}
	if g.Over() {
		x := refuse(GameOver, &g)
		x.Outcome = g.Outcome
		return g, x
	}
	return g, nil
}

// GameIn returns the active game of a channel; a *Refusal of Kind NoGame
// if there is none.
func (s *Service) GameIn(ctx context.Context, channel string) (Game, error) {
	var g Game
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		g, err = tx.GameIn(channel)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return Game{}, &Refusal{Kind: NoGame}
	}
	return g, err
}

// ActiveGames returns the user's active games.
func (s *Service) ActiveGames(ctx context.Context, user string) ([]Game, error) {
	var gs []Game
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		gs, err = tx.ActiveGames(user)
		return err
	})
	return gs, err
}

// act runs fn on the game a names, in one transaction, after the checks
// every act shares: the game exists and goes on, the asker plays in it,
// saw its current revision, and acts before the deadline (after it the
// side to move has lost on time, and only TimeOut may end the game). fn
// edits g and fills r; when it returns nil the game's revision is bumped,
// an end is processed and the game is written.
func (s *Service) act(ctx context.Context, a Act, ev Event, fn func(tx Tx, g *Game, me game.Color, r *Result) error) (Result, error) {
	if a.At.IsZero() {
		return Result{}, errNoTime
	}
	at := normTime(a.At)
	var r Result
	err := s.update(ctx, func(tx Tx) error {
		r = Result{Event: ev}
		g, me, err := actOn(tx, a)
		if err != nil {
			return err
		}
		if err := fn(tx, &g, me, &r); err != nil {
			return err
		}
		if err := s.commit(tx, &g, r.Event, at); err != nil {
			return err
		}
		r.Game = g
		if s.then != nil {
			return s.then(tx, &r)
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

var errNoTime = errors.New("play: an act without a time")

// update runs fn in a write transaction whose settings reads (Prefs) are
// read once per user: an act reads a player's settings for their clock,
// and its Then for whom to tell, and the storage is asked once.
func (s *Service) update(ctx context.Context, fn func(tx Tx) error) error {
	return s.st.Update(ctx, func(tx Tx) error { return fn(&prefsOnce{Tx: tx}) })
}

// prefsOnce is a transaction that keeps the settings it read or wrote.
type prefsOnce struct {
	Tx
	prefs map[string]Prefs
}

func (t *prefsOnce) Prefs(user string) (Prefs, error) {
	if p, ok := t.prefs[user]; ok {
		return p, nil
	}
	p, err := t.Tx.Prefs(user)
	if err != nil {
		return p, err
	}
	if t.prefs == nil {
		t.prefs = map[string]Prefs{}
	}
	t.prefs[user] = p
	return p, nil
}

func (t *prefsOnce) PutPrefs(user string, p Prefs) error {
	delete(t.prefs, user)
	return t.Tx.PutPrefs(user, p)
}

// actOn reads the game a names and checks what every act shares: the
// game exists and goes on, the asker plays in it, saw its current
// revision, and acts before the deadline.
func actOn(tx ReadTx, a Act) (Game, game.Color, error) {
	var g Game
	var err error
	if a.Game == 0 && a.Channel != "" {
		g, err = tx.GameIn(a.Channel)
		a.Revision = g.Revision
	} else {
		g, err = tx.Game(a.Game)
	}
	if errors.Is(err, ErrNotFound) {
		return g, game.White, &Refusal{Kind: NoGame, Game: a.Game}
	}
	if err != nil {
		return g, game.White, err
	}
	me, ok := g.ColorOf(a.By)
	if !ok {
		return g, me, refuse(NotAPlayer, &g)
	}
	if g.Over() {
		x := refuse(GameOver, &g)
		x.Outcome = g.Outcome
		return g, me, x
	}
	if a.Revision != g.Revision {
		x := refuse(Stale, &g)
		x.Revision, x.Last = g.Revision, g.Last
		return g, me, x
	}
	if !g.Deadline.IsZero() && !a.At.Before(g.Deadline) {
		x := refuse(TimeUp, &g)
		x.Deadline = g.Deadline
		return g, me, x
	}
	return g, me, nil
}

// commit bumps the revision, processes an end and writes g.
func (s *Service) commit(tx Tx, g *Game, ev Event, at time.Time) error {
	g.Revision++
	g.Last = ev
	g.Updated = at
	if g.Over() {
		if err := s.finish(tx, g, at); err != nil {
			return err
		}
	}
	return tx.PutGame(*g)
}

// normTime drops the monotonic reading and the location and keeps
// millisecond precision, the precision of stored moves, so that a game
// returned by an act equals the same game read back.
func normTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// startClock sets the deadline and the reminders for the move now due,
// at the time at: the time per move, counted from the end of the mover's
// vacation if they are away. A pending timeout choice and the reminders
// sent for the previous move are cleared.
func (s *Service) startClock(tx ReadTx, g *Game, at time.Time) error {
	g.Flag, g.Reminded = nil, nil
	if k := g.Clock; k != nil {
		// A live game: the turn begins now, but before the first move
		// of a game that may still be aborted.
		if g.Ply() > 0 || g.Tournament != 0 {
			k.Since = at
		} else {
			k.Since = time.Time{}
		}
		g.Deadline, g.RemindAt = k.deadline(g.Turn(), at), time.Time{}
		return nil
	}
	if g.DaysPerMove <= 0 {
		g.Deadline, g.RemindAt = time.Time{}, time.Time{}
		return nil
	}
	from := at
	if away := g.AwayUntil[g.Turn()]; away.After(from) {
		from = away
	}
	g.Deadline = from.Add(g.span())
	return s.planReminders(tx, g, at)
}

// span is the time per move.
func (g *Game) span() time.Duration { return time.Duration(g.DaysPerMove) * 24 * time.Hour }

// planReminders sets RemindAt to the next reminder of the player to move
// after now that is not yet sent; zero if none is left.
func (s *Service) planReminders(tx ReadTx, g *Game, now time.Time) error {
	g.RemindAt = time.Time{}
	if g.Deadline.IsZero() || g.Flag != nil || g.Clock != nil {
		return nil
	}
	hours, err := s.reminderHours(tx, g)
	if err != nil {
		return err
	}
	for _, h := range hours { // the longest first: the earliest
		if at := g.Deadline.Add(-time.Duration(h) * time.Hour); at.After(now) && !slices.Contains(g.Reminded, h) {
			g.RemindAt = at
			return nil
		}
	}
	return nil
}

// reminderHours returns the reminders of the player to move in g, in
// hours before the deadline, longest first. A reminder as long as the
// time per move or longer comes when a quarter of that time is left
// instead (6 hours for a day per move), so that a player who asked for
// a day's notice still gets an early one.
func (s *Service) reminderHours(tx ReadTx, g *Game) ([]int, error) {
	p, err := tx.Prefs(g.ToMove().ID)
	if err != nil {
		return nil, err
	}
	return s.hoursFor(&p, g), nil
}

// hoursFor is reminderHours with the settings p of the player to move.
func (s *Service) hoursFor(p *Prefs, g *Game) []int {
	hours := p.Reminders
	if hours == nil {
		hours = s.opts.Reminders
	}
	span := g.DaysPerMove * 24
	out := make([]int, 0, len(hours))
	for _, h := range hours {
		if h >= span {
			h = span / 4
		}
		if h > 0 {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return slices.Compact(out)
}

func (s *Service) validDays(d int) bool { return d == 0 || slices.Contains(s.opts.AllowedDays, d) }

// badDays refuses a time control that is not offered.
func (s *Service) badDays(d int) *Refusal {
	return &Refusal{Kind: BadTimeControl, Days: d, Allowed: slices.Clone(s.opts.AllowedDays)}
}
