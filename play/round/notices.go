package round

import (
	"context"
	"time"

	"github.com/iceagechess/iceage/play"
)

// The notices that are no act on a game — a reminder, an expired
// challenge, a vacation, a tournament's bye — decide whom they tell, and
// how, as acts do: from the settings read in the transaction of the
// change they announce (Decide), so that a front end renders them and
// never reads the settings to decide again.

// Reminder is a reminder claimed (play.Reminder) and how its player is
// told of it.
type Reminder struct {
	play.Reminder
	Tell Tell
}

// Remind claims the reminder of game id due at now (play.Service.Remind)
// and decides how its player is told, from their settings as the claim
// read them.
func (r *Round) Remind(ctx context.Context, id uint64, now time.Time) (Reminder, error) {
	rem, err := r.play.Remind(ctx, id, now)
	if err != nil {
		return Reminder{}, err
	}
	t := Tell{User: rem.To.ID, Why: Remind, How: Decide(&rem.Prefs, &rem.Game, Remind, now), Lang: rem.Prefs.Language}
	return Reminder{Reminder: rem, Tell: t}, nil
}

// Expired is a challenge that expired unanswered, and how its challenger
// is told of it when nobody else can be: a private challenge's message,
// in a DM without the bot, is not the front end's to edit (the zero Tell,
// Mention, for a challenge whose message says it for all).
type Expired struct {
	Challenge play.Challenge
	Tell      Tell
}

// Expire expires the challenges due at now, up to limit
// (play.Service.Expire), and decides how the challenger of each private
// one is told, from their settings as the expiry's transaction read them.
func (r *Round) Expire(ctx context.Context, now time.Time, limit int) ([]Expired, error) {
	tells := map[uint64]Tell{}
	cs, err := r.play.ExpireWith(ctx, now, limit, func(tx play.ReadTx, c *play.Challenge) error {
		if !c.Private {
			return nil
		}
		p, err := tx.Prefs(c.From.ID)
		if err != nil {
			return err
		}
		g := play.Game{Guild: c.Guild, Private: true}
		tells[c.ID] = Tell{User: c.From.ID, Why: ChallengeExpired, How: Decide(&p, &g, ChallengeExpired, now), Lang: p.Language}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Expired, len(cs))
	for i, c := range cs {
		out[i] = Expired{Challenge: c, Tell: tells[c.ID]}
	}
	return out, nil
}

// Vacation is a player's vacation as it began, went on or ended
// (play.Away), and how the opponent of each of their games is told of
// it, by game.
type Vacation struct {
	play.Away
	Tells map[uint64]Tell
}

// Vacation sends user on vacation for days from at, or back with 0
// (play.Service.Vacation), and decides how the opponent of each of their
// games hears of it, from their settings as the vacation's transaction
// read them: a note without a ping where a game is played, or, for a
// private game, a direct message or nothing.
func (r *Round) Vacation(ctx context.Context, user string, days int, at time.Time) (Vacation, error) {
	away, err := r.play.Vacation(ctx, user, days, at)
	if err != nil {
		return Vacation{}, err
	}
	v := Vacation{Away: away, Tells: map[uint64]Tell{}}
	for i := range away.Playing {
		g := &away.Playing[i]
		c, _ := g.ColorOf(user)
		opp := g.Seat(c.Other()).ID
		p, ok := away.Opponents[opp]
		if !ok {
			continue // the engine
		}
		v.Tells[g.ID] = Tell{User: opp, Why: OpponentAway, How: Decide(&p, g, OpponentAway, at), Lang: p.Language}
	}
	return v, nil
}

// TellOf decides how user is told, for why, of what happened to g at at,
// reading their settings in tx: for what a transaction outside the round
// decides (a tournament's bye, in the pairing's).
func TellOf(tx play.ReadTx, user string, g *play.Game, why Why, at time.Time) (Tell, error) {
	p, err := tx.Prefs(user)
	if err != nil {
		return Tell{}, err
	}
	return Tell{User: user, Why: why, How: Decide(&p, g, why, at), Lang: p.Language}, nil
}
