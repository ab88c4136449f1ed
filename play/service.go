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
}

// DefaultChallengeTTL is the ChallengeTTL used when Options leave it zero.
const DefaultChallengeTTL = 72 * time.Hour

// Service decides and records the life of games on a Storage. It is safe
// for concurrent use: every act is one storage transaction.
type Service struct {
	st   Storage
	opts Options
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
	return &Service{st: st, opts: opts}
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
}

// Result is what an act did.
type Result struct {
	Game  Game  // the game after the act
	Event Event // what happened
	// Move is the move played (Event Moved); nil otherwise.
	Move *MovePlayed
	// TakenBack is the number of plies taken back (Event TookBack).
	TakenBack int
}

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
		return Result{}, errors.New("play: an act without a time")
	}
	at := normTime(a.At)
	var r Result
	err := s.st.Update(ctx, func(tx Tx) error {
		r = Result{Event: ev}
		g, err := tx.Game(a.Game)
		if errors.Is(err, ErrNotFound) {
			return &Refusal{Kind: NoGame, Game: a.Game}
		}
		if err != nil {
			return err
		}
		me, ok := g.ColorOf(a.By)
		if !ok {
			return refuse(NotAPlayer, &g)
		}
		if g.Over() {
			x := refuse(GameOver, &g)
			x.Outcome = g.Outcome
			return x
		}
		if a.Revision != g.Revision {
			x := refuse(Stale, &g)
			x.Revision, x.Last = g.Revision, g.Last
			return x
		}
		if !g.Deadline.IsZero() && !a.At.Before(g.Deadline) {
			x := refuse(TimeUp, &g)
			x.Deadline = g.Deadline
			return x
		}
		if err := fn(tx, &g, me, &r); err != nil {
			return err
		}
		if err := s.commit(tx, &g, r.Event, at); err != nil {
			return err
		}
		r.Game = g
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
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

// startClock sets the deadline and reminder for the move now due.
func (g *Game) startClock(at time.Time) {
	if g.DaysPerMove <= 0 {
		g.Deadline, g.RemindAt = time.Time{}, time.Time{}
		return
	}
	span := time.Duration(g.DaysPerMove) * 24 * time.Hour
	g.Deadline = at.Add(span)
	g.RemindAt = g.Deadline.Add(-reminderLead(span))
}

// reminderLead is how long before the deadline the player to move is
// reminded: a day, or a quarter of the time when that is only one day.
func reminderLead(span time.Duration) time.Duration {
	if span <= 24*time.Hour {
		return span / 4
	}
	return 24 * time.Hour
}

func (s *Service) validDays(d int) bool { return d == 0 || slices.Contains(s.opts.AllowedDays, d) }

// badDays refuses a time control that is not offered.
func (s *Service) badDays(d int) *Refusal {
	return &Refusal{Kind: BadTimeControl, Days: d, Allowed: slices.Clone(s.opts.AllowedDays)}
}
