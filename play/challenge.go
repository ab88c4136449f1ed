package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
)

// NewChallenge is a challenge to make.
type NewChallenge struct {
	Guild   string
	Channel string
	From    Seat
	To      Seat // ID "" for an open challenge anyone in the channel may take
	Color   Color
	Rated   bool
	// DaysPerMove is one of AllowedDays, or 0 for no limit. Use
	// DefaultDays when the challenger names none.
	DaysPerMove int
	// Time is a live time control (TimeControl.Valid); when set,
	// DaysPerMove is ignored.
	Time     TimeControl
	StartFEN string // "" for the start position
	At       time.Time
	// Private: Channel is a DM or group DM of the players where the front
	// end only answers their acts (see Game.Private); the game is too.
	Private bool
	// InChannel: the game is played in Channel itself, never in a
	// thread of its own (Challenge.InChannel).
	InChannel bool
	// Caps are the challenger's: their challenges waiting, their posts,
	// their challenges to To that came to nothing lately.
	Caps Caps
	// PlayIn is where the game is played should asking accept To's own
	// challenge instead (Service.Ask): a thread the front end opened for
	// it, say; "" for that challenge's channel, which is also where one
	// made in the Activity (InChannel) is always played.
	PlayIn string
}

// Challenge records a challenge, waiting for an answer until it expires
// (Options.ChallengeTTL), as Ask does: when the opponent's own
// challenge on the same terms was waiting, it accepts that one instead,
// and the challenge returned is theirs (Ask tells the two apart).
func (s *Service) Challenge(ctx context.Context, n NewChallenge) (Challenge, error) {
	a, err := s.Ask(ctx, n, nil)
	return a.Challenge, err
}

// Asked is what Ask did: a challenge made, or the opponent's accepted.
type Asked struct {
	// Challenge is the challenge made or, when Accepted, the opponent's
	// challenge accepted, as it was before.
	Challenge Challenge
	// Accepted: the opponent's challenge on the same terms (Crosses)
	// was waiting, and asking accepted it.
	Accepted bool
	// Result is the game an accepted challenge became.
	Result Result
}

// Ask records a challenge, waiting for an answer until it expires
// (Options.ChallengeTTL) — unless the person challenged has a challenge
// of their own to the challenger waiting, on the same terms (Crosses):
// then, as on any serious chess server, asking accepts it, in the same
// transaction, and the game starts (with the Service's Then run on it,
// as Accept runs it) in n.PlayIn, or that challenge's channel. Two
// players who press Rematch together get one game, never two challenges
// that cross: the two players' records of what they did lately
// (Recent), read in the order of their ids, are the lock under which the
// second ask sees the first.
//
// then, when not nil, runs in the same transaction once it is decided
// what asking did: a front end writes there what follows from it, as
// package round writes the message that shows a challenge. An error from
// then records nothing. Like the challenge, then may run more than once.
//
// Refusals: SelfChallenge, BadColor, BadTimeControl, BadPosition,
// AlreadyChallenged (the same two players already have one waiting in the
// channel), and those of n.Caps: TooManyChallenges, TooManyPosts,
// ChallengedLately; when it accepts, those of Accept.
func (s *Service) Ask(ctx context.Context, n NewChallenge, then func(tx Tx, a *Asked) error) (Asked, error) {
	if n.At.IsZero() {
		return Asked{}, errors.New("play: a challenge without a time")
	}
	switch {
	case n.From.ID == "" || n.Channel == "":
		return Asked{}, errors.New("play: a challenge needs a challenger and a channel")
	case n.To.ID == n.From.ID:
		return Asked{}, &Refusal{Kind: SelfChallenge}
	}
	if n.Color == "" {
		n.Color = Random
	}
	switch n.Color {
	case Random, WhiteSide, BlackSide:
	default:
		return Asked{}, &Refusal{Kind: BadColor}
	}
	if n.Time.Live() {
		n.DaysPerMove = 0
	}
	if !n.Time.Valid() {
		return Asked{}, &Refusal{Kind: BadTimeControl}
	}
	if !s.validDays(n.DaysPerMove) {
		return Asked{}, s.badDays(n.DaysPerMove)
	}
	if err := checkStart(n.StartFEN); err != nil {
		return Asked{}, err
	}
	at := normTime(n.At)
	whiteFirst := s.opts.Rand(2) == 0
	var a Asked
	err := s.update(ctx, func(tx Tx) error {
		a = Asked{}
		if n.To.ID != "" {
			// Both players' Recent, in the order of their ids, before
			// their challenges are read: of two asks that cross, the
			// second waits here for the first, then sees its challenge.
			first, second := n.From.ID, n.To.ID
			if second < first {
				first, second = second, first
			}
			for _, u := range []string{first, second} {
				if _, err := tx.Recent(u); err != nil {
					return err
				}
			}
		}
		// The challenger's Recent before their challenges: it is the lock
		// under which they are counted.
		var l *limiter
		if n.Caps != (Caps{}) {
			var err error
			if l, err = limit(tx, n.From.ID, at); err != nil {
				return err
			}
		}
		mine, err := tx.Challenges(n.From.ID)
		if err != nil {
			return err
		}
		for _, o := range mine {
			if o.Crosses(&n, at) {
				// Accepting is neither a post nor a challenge: no cap.
				return s.acceptCrossing(tx, &a, o.ID, &n, at, whiteFirst, then)
			}
		}
		for _, o := range mine {
			if o.From.ID == n.From.ID && o.To.ID == n.To.ID && o.Channel == n.Channel && o.Expires.After(at) {
				return &Refusal{Kind: AlreadyChallenged, Game: o.ID}
			}
		}
		if l != nil {
			if err := l.challengeAgain(n.To.ID, n.Caps.ChallengeAgain); err != nil {
				return err
			}
			if err := openChallenges(tx, &n, at, n.Caps.Challenges); err != nil {
				return err
			}
			if err := l.post(n.Caps.Posts); err != nil {
				return err
			}
			if err := l.save(); err != nil {
				return err
			}
		}
		id, err := tx.NextID()
		if err != nil {
			return err
		}
		a.Challenge = Challenge{ID: id, Guild: n.Guild, Channel: n.Channel, From: n.From, To: n.To, Color: n.Color,
			StartFEN: n.StartFEN, Rated: n.Rated, DaysPerMove: n.DaysPerMove, Time: n.Time,
			Created: at, Expires: at.Add(s.opts.ChallengeTTL), Private: n.Private, InChannel: n.InChannel}
		if err := tx.PutChallenge(a.Challenge); err != nil {
			return err
		}
		if then != nil {
			return then(tx, &a)
		}
		return nil
	})
	if err != nil {
		return Asked{}, err
	}
	return a, nil
}

// acceptCrossing accepts, for Ask, challenge id that n crosses: n's
// challenger takes it with the colour they asked for when its author
// left the colours to chance.
func (s *Service) acceptCrossing(tx Tx, a *Asked, id uint64, n *NewChallenge, at time.Time, whiteFirst bool, then func(tx Tx, a *Asked) error) error {
	c, err := tx.Challenge(id) // read again: this read locks it
	if errors.Is(err, ErrNotFound) {
		return &Refusal{Kind: NoChallenge, Game: id}
	}
	if err != nil {
		return err
	}
	a.Challenge, a.Accepted = c, true
	if c.Color == Random {
		switch n.Color {
		case WhiteSide:
			c.Color = BlackSide
		case BlackSide:
			c.Color = WhiteSide
		}
	}
	where := n.PlayIn
	if c.InChannel {
		where = ""
	}
	if a.Result, err = s.accept(tx, &c, n.From, where, at, whiteFirst); err != nil {
		return err
	}
	if then != nil {
		return then(tx, a)
	}
	return nil
}

// Crosses reports whether c, waiting at the time at, is the challenge of
// n's opponent to n's challenger on n's terms: the same time control,
// rating and start, colours that agree (one asks for White, the other
// for Black, or either leaves them to chance), on the same server, and
// for a private game in the same conversation. Asking then accepts c
// (Ask).
func (c *Challenge) Crosses(n *NewChallenge, at time.Time) bool {
	return n.To.ID != "" && c.From.ID == n.To.ID && c.To.ID == n.From.ID && at.Before(c.Expires) &&
		c.Guild == n.Guild && c.Private == n.Private && (!c.Private || c.Channel == n.Channel) &&
		c.Rated == n.Rated && c.Time == n.Time && c.DaysPerMove == n.DaysPerMove && c.StartFEN == n.StartFEN &&
		(c.Color == Random || n.Color == Random || c.Color != n.Color)
}

func checkStart(fen string) error {
	if fen == "" {
		return nil
	}
	p, err := game.ParseFEN(fen)
	if err != nil {
		return &Refusal{Kind: BadPosition, Err: err}
	}
	if o := p.Outcome(); o.Over() {
		return &Refusal{Kind: BadPosition, Outcome: o}
	}
	return nil
}

// GetChallenge returns a pending challenge; a *Refusal of Kind
// NoChallenge if it was answered, withdrawn or has expired.
func (s *Service) GetChallenge(ctx context.Context, id uint64) (Challenge, error) {
	var c Challenge
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		c, err = tx.Challenge(id)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return Challenge{}, &Refusal{Kind: NoChallenge, Game: id}
	}
	return c, err
}

// Challenges returns the pending challenges made by or to the user.
func (s *Service) Challenges(ctx context.Context, user string) ([]Challenge, error) {
	var cs []Challenge
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		cs, err = tx.Challenges(user)
		return err
	})
	return cs, err
}

// MayAccept says whether user may accept c at the time at, so that a front
// end can prepare (say, open a thread) before it calls Accept. Refusals:
// SelfChallenge, NotYourChallenge, ChallengeExpired.
func MayAccept(c *Challenge, user string, at time.Time) error {
	switch {
	case user == c.From.ID:
		return &Refusal{Kind: SelfChallenge, Game: c.ID}
	case !c.Open() && user != c.To.ID:
		return &Refusal{Kind: NotYourChallenge, Game: c.ID, Who: c.To}
	case !at.Before(c.Expires):
		return &Refusal{Kind: ChallengeExpired, Game: c.ID}
	}
	return nil
}

// Accept turns challenge id into a game between its challenger and by,
// played in channel ("" for the challenge's own channel), in the same
// transaction that removes the challenge: of two accepts at once, one
// gets the game. A random colour is drawn here.
//
// Refusals: NoChallenge, SelfChallenge, NotYourChallenge,
// ChallengeExpired, ChannelBusy.
func (s *Service) Accept(ctx context.Context, id uint64, by Seat, channel string, at time.Time) (Result, error) {
	at = normTime(at)
	whiteFirst := s.opts.Rand(2) == 0
	var r Result
	err := s.update(ctx, func(tx Tx) error {
		c, err := tx.Challenge(id)
		if errors.Is(err, ErrNotFound) {
			return &Refusal{Kind: NoChallenge, Game: id}
		}
		if err != nil {
			return err
		}
		r, err = s.accept(tx, &c, by, channel, at, whiteFirst)
		return err
	})
	return r, err
}

// accept turns challenge c, read in tx, into a game between its
// challenger and by, in channel ("" for c's own), and runs the Service's
// Then on it; whiteFirst draws a random colour.
func (s *Service) accept(tx Tx, c *Challenge, by Seat, channel string, at time.Time, whiteFirst bool) (Result, error) {
	if err := MayAccept(c, by.ID, at); err != nil {
		return Result{}, err
	}
	taker := by
	if taker.Name == "" {
		taker.Name = c.To.Name
	}
	white, black := c.From, taker
	if c.Color == BlackSide || c.Color == Random && !whiteFirst {
		white, black = taker, c.From
	}
	where := channel
	if where == "" {
		where = c.Channel
	}
	// start decides before it writes, so a refusal (a busy channel)
	// leaves the challenge standing and nothing written.
	g, err := s.start(tx, NewGame{Guild: c.Guild, Channel: where, White: white, Black: black,
		StartFEN: c.StartFEN, Rated: c.Rated, DaysPerMove: c.DaysPerMove, Time: c.Time, At: at, Private: c.Private})
	if err != nil {
		return Result{}, err
	}
	if err := tx.DeleteChallenge(c.ID); err != nil {
		return Result{}, err
	}
	r := Result{Game: g, Event: Started}
	if s.then != nil {
		if err := s.then(tx, &r); err != nil {
			return Result{}, err
		}
	}
	return r, nil
}

// Decline refuses a challenge: only the challenged user may (anyone, for
// an open challenge, is simply not taking it). The challenger may not
// challenge them again for a while (Caps.ChallengeAgain).
//
// Refusals: NoChallenge, NotYourChallenge.
func (s *Service) Decline(ctx context.Context, id uint64, by string, at time.Time) (Challenge, error) {
	return s.DeclineThen(ctx, id, by, at, nil)
}

// DeclineThen is Decline with then run in the decline's transaction once
// it is decided (nil for nothing): a front end writes there what follows
// from it, as package round writes the edit of the challenge's message.
// An error from then declines nothing; like the decline, then may run
// more than once.
func (s *Service) DeclineThen(ctx context.Context, id uint64, by string, at time.Time, then func(tx Tx, c *Challenge) error) (Challenge, error) {
	return s.dropChallenge(ctx, id, at, false, then, func(c *Challenge) error {
		if c.Open() || by != c.To.ID {
			return &Refusal{Kind: NotYourChallenge, Game: c.ID, Who: c.To}
		}
		return nil
	})
}

// Cancel withdraws a challenge: only the challenger may. The withdrawal
// counts among their public posts (Caps.Posts), though it is never
// refused for them, and they may not challenge the same person again for
// a while (Caps.ChallengeAgain).
//
// Refusals: NoChallenge, NotYourChallenge.
func (s *Service) Cancel(ctx context.Context, id uint64, by string, at time.Time) (Challenge, error) {
	return s.CancelThen(ctx, id, by, at, nil)
}

// CancelThen is Cancel with then run in the withdrawal's transaction, as
// DeclineThen.
func (s *Service) CancelThen(ctx context.Context, id uint64, by string, at time.Time, then func(tx Tx, c *Challenge) error) (Challenge, error) {
	return s.dropChallenge(ctx, id, at, true, then, func(c *Challenge) error {
		if by != c.From.ID {
			return &Refusal{Kind: NotYourChallenge, Game: c.ID, Who: c.From}
		}
		return nil
	})
}

func (s *Service) dropChallenge(ctx context.Context, id uint64, at time.Time, withdrawn bool, then func(Tx, *Challenge) error, may func(*Challenge) error) (Challenge, error) {
	at = normTime(at)
	var c Challenge
	err := s.st.Update(ctx, func(tx Tx) (err error) {
		c, err = tx.Challenge(id)
		if errors.Is(err, ErrNotFound) {
			return &Refusal{Kind: NoChallenge, Game: id}
		}
		if err != nil {
			return err
		}
		if err := may(&c); err != nil {
			return err
		}
		if err := tx.DeleteChallenge(id); err != nil {
			return err
		}
		if err := cameToNothing(tx, &c, at, withdrawn); err != nil {
			return err
		}
		if then != nil {
			return then(tx, &c)
		}
		return nil
	})
	return c, err
}

// cameToNothing remembers in the challenger's Recent a challenge that
// was declined, withdrawn (a public post too, withdrawn true) or left
// to expire.
func cameToNothing(tx Tx, c *Challenge, at time.Time, withdrawn bool) error {
	if c.To.ID == "" && !withdrawn {
		return nil
	}
	l, err := limit(tx, c.From.ID, at)
	if err != nil {
		return err
	}
	l.dropped(c.To.ID)
	if withdrawn {
		_ = l.post(0) // counted, never refused: a withdrawal must go through
	}
	return l.save()
}

// SetChallengeMessage records the front end's message that shows a
// challenge. Refusals: NoChallenge.
func (s *Service) SetChallengeMessage(ctx context.Context, id uint64, message string) error {
	return s.st.Update(ctx, func(tx Tx) error {
		c, err := tx.Challenge(id)
		if errors.Is(err, ErrNotFound) {
			return &Refusal{Kind: NoChallenge, Game: id}
		}
		if err != nil {
			return err
		}
		c.Message = message
		return tx.PutChallenge(c)
	})
}

// Expire removes up to limit challenges whose time ran out by now and
// returns them, so a front end can say so on their messages.
func (s *Service) Expire(ctx context.Context, now time.Time, limit int) ([]Challenge, error) {
	return s.ExpireWith(ctx, now, limit, nil)
}

// ExpireWith is Expire with fn run in its transaction on each challenge
// expired (when not nil): what follows an expiry (whom to tell, read from
// their settings) is decided there. An error from fn expires nothing.
func (s *Service) ExpireWith(ctx context.Context, now time.Time, limit int, fn func(tx ReadTx, c *Challenge) error) ([]Challenge, error) {
	var out []Challenge
	err := s.st.Update(ctx, func(tx Tx) error {
		out = out[:0]
		due, err := tx.Due(DueExpiry, now, limit)
		if err != nil {
			return err
		}
		for _, d := range due {
			c, err := tx.Challenge(d.ID)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if err := tx.DeleteChallenge(d.ID); err != nil {
				return err
			}
			if err := cameToNothing(tx, &c, c.Expires, false); err != nil {
				return err
			}
			if fn != nil {
				if err := fn(tx, &c); err != nil {
					return err
				}
			}
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// NewGame is a game to start directly, without a challenge: in the
// terminal, or against the computer.
type NewGame struct {
	Guild       string
	Channel     string
	White       Seat
	Black       Seat
	StartFEN    string // "" for the start position
	Rated       bool
	DaysPerMove int
	// Time is a live time control (TimeControl.Valid); when set,
	// DaysPerMove is ignored.
	Time TimeControl
	// Engine is, per colour, the level of the engine in that seat (0 for
	// a person): see Game.Engine.
	Engine [2]int
	At     time.Time
	// Private: see Game.Private.
	Private bool
	// Tournament: see Game.Tournament.
	Tournament uint64
	// Caps are those of the engine's opponent, in a game against the
	// engine: their games against it, their posts. Other games have
	// none.
	Caps Caps
}

// Start starts a game. Refusals: SelfChallenge (one user in both seats),
// BadTimeControl, BadPosition, ChannelBusy, and for a game against the
// engine those of its Caps: TooManyEngineGames, TooManyPosts.
func (s *Service) Start(ctx context.Context, n NewGame) (Result, error) {
	var r Result
	err := s.update(ctx, func(tx Tx) error {
		g, err := s.start(tx, n)
		if err != nil {
			return err
		}
		r = Result{Game: g, Event: Started}
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

func (s *Service) start(tx Tx, n NewGame) (Game, error) {
	if n.At.IsZero() || n.Channel == "" || n.White.ID == "" || n.Black.ID == "" {
		return Game{}, errors.New("play: a new game needs a time, a channel and two players")
	}
	if n.White.ID == n.Black.ID {
		return Game{}, &Refusal{Kind: SelfChallenge}
	}
	for _, lv := range n.Engine {
		if lv < 0 || lv > 8 {
			return Game{}, fmt.Errorf("play: engine level %d is not 0 (a person) or 1 to 8", lv)
		}
	}
	if n.Time.Live() {
		n.DaysPerMove = 0
	}
	if !n.Time.Valid() {
		return Game{}, &Refusal{Kind: BadTimeControl}
	}
	if !s.validDays(n.DaysPerMove) {
		return Game{}, s.badDays(n.DaysPerMove)
	}
	if err := checkStart(n.StartFEN); err != nil {
		return Game{}, err
	}
	if n.StartFEN == "" {
		n.StartFEN = game.StartFEN
	}
	pos, _ := game.ParseFEN(n.StartFEN)
	caps, err := startCaps(tx, &n)
	if err != nil {
		return Game{}, err
	}
	if _, err := tx.GameIn(n.Channel); err == nil {
		return Game{}, &Refusal{Kind: ChannelBusy}
	} else if !errors.Is(err, ErrNotFound) {
		return Game{}, err
	}
	id, err := tx.NextID()
	if err != nil {
		return Game{}, err
	}
	at := normTime(n.At)
	g := Game{ID: id, Revision: 1, Last: Started, Guild: n.Guild, Channel: n.Channel,
		White: n.White, Black: n.Black, StartFEN: n.StartFEN, FEN: pos.FEN(), Moves: []Move{},
		Created: at, Updated: at, Rated: n.Rated, DaysPerMove: n.DaysPerMove, Engine: n.Engine, Private: n.Private, Tournament: n.Tournament}
	if n.Time.Live() {
		g.Clock = NewClock(n.Time, at, n.Tournament != 0)
	}
	for _, c := range []game.Color{game.White, game.Black} {
		p, err := tx.Prefs(g.Seat(c).ID)
		if err != nil {
			return Game{}, err
		}
		if p.Away(at) {
			g.AwayUntil[c] = p.AwayUntil
		}
	}
	set, err := tx.ServerSettings(n.Guild)
	if err != nil {
		return Game{}, err
	}
	g.OpponentChooses = set.OpponentChooses.Or(s.opts.OpponentChooses) && n.DaysPerMove > 0
	if err := s.startClock(tx, &g, at); err != nil {
		return Game{}, err
	}
	if err := tx.PutGame(g); err != nil {
		if errors.Is(err, ErrChannelBusy) {
			return Game{}, &Refusal{Kind: ChannelBusy}
		}
		return Game{}, err
	}
	if caps != nil {
		if err := caps.save(); err != nil {
			return Game{}, err
		}
	}
	if n.Engine == ([2]int{}) {
		if err := forgiveEachOther(tx, n.White.ID, n.Black.ID, at); err != nil {
			return Game{}, err
		}
	}
	return g, nil
}
