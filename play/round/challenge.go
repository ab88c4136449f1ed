package round

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/play"
)

// KindChallenge: a challenge made where no interaction answers it (the
// Activity's lobby), for the front end to show in its channel with its
// buttons, as /challenge's answer shows one. The body is the challenge
// (play.Challenge) as it was made.
const KindChallenge = "challenge"

// ChallengeKey is the key of the item that shows challenge id.
func ChallengeKey(id uint64) string { return fmt.Sprintf("c%d.%s", id, KindChallenge) }

// Asked is what a challenge came to (play.Service.Ask): a challenge
// waiting for its answer or, when the opponent's own challenge on the
// same terms was waiting, the game that accepting it started.
type Asked struct {
	play.Asked
	// Outcome is the game's start, when Accepted: its first board and
	// the players to tell are in the outbox, for the outbox to deliver.
	Outcome Outcome
}

// Ask makes challenge n as play.Service.Ask does — or accepts the
// opponent's challenge that n crosses, as Accept and AcceptAnswered do,
// whatever the front end: a Rematch pressed by both players, or two
// /challenge on the same terms, start one game and ping nobody twice.
// What follows is written in the same transaction: a challenge made is
// shown in its channel by the outbox (KindChallenge) unless shows says
// that the front end answers with it itself (an interaction's answer); a
// challenge accepted has its message edited (KindAnswered), and the
// game's first board and the players to tell are the outbox's to deliver.
func (r *Round) Ask(ctx context.Context, n play.NewChallenge, shows bool) (Asked, error) {
	a := Act{Act: play.Act{By: n.From.ID, At: n.At}, Kind: Accept}
	var board Delivery
	var keys []string
	svc := r.play.Then(func(tx play.Tx, res *play.Result) error {
		var err error
		board, keys, err = r.record(tx, a, res)
		return err
	})
	var key string
	asked, err := svc.Ask(ctx, n, func(tx play.Tx, x *play.Asked) error {
		key = ""
		c := &x.Challenge
		if x.Accepted {
			it, err := answeredItem(&Answered{Challenge: *c, Answer: AnswerAccepted, By: n.From.ID, Game: x.Result.Game.ID}, x.Result.Game.Updated)
			if err != nil {
				return err
			}
			key = it.Key
			return tx.PutOutbox(it)
		}
		if shows {
			return nil
		}
		body, err := json.Marshal(c)
		if err != nil {
			return fmt.Errorf("round: encoding challenge %d: %w", c.ID, err)
		}
		key = ChallengeKey(c.ID)
		return tx.PutOutbox(play.OutboxItem{Key: key, Kind: KindChallenge, Body: body, Due: c.Created, Created: c.Created})
	})
	if err != nil {
		return Asked{}, err
	}
	out := Asked{Asked: asked}
	if !asked.Accepted {
		r.committed(&Delivery{Key: key})
		return out, nil
	}
	r.committed(&board)
	out.Outcome = Outcome{Result: asked.Result, Game: asked.Result.Game, Events: board.Events, Boards: []Delivery{board}, Keys: append(keys, key)}
	if e, ok := r.think(&out.Outcome.Game); ok {
		out.Outcome.Events = append(out.Outcome.Events, e)
	}
	return out, nil
}

// DecodeChallenge reads the body of a KindChallenge item.
func DecodeChallenge(it play.OutboxItem) (play.Challenge, error) {
	var c play.Challenge
	if err := json.Unmarshal(it.Body, &c); err != nil || c.ID == 0 {
		return play.Challenge{}, fmt.Errorf("round: outbox item %q holds no challenge: %v", it.Key, err)
	}
	return c, nil
}

// KindAnswered: a challenge was answered where no interaction answers
// (the Activity's lobby): the front end edits the message that shows it,
// as a click on its buttons does. The body is an Answered.
const KindAnswered = "challenge.answered"

// Answer is how a challenge was answered, or ended unanswered.
type Answer string

const (
	AnswerAccepted  Answer = "accepted"
	AnswerDeclined  Answer = "declined"
	AnswerWithdrawn Answer = "withdrawn"
	// AnswerExpired: no answer came in time (Expire).
	AnswerExpired Answer = "expired"
)

// Answered is a challenge, as it was before its answer, and the answer.
type Answered struct {
	Challenge play.Challenge `json:"challenge"`
	Answer    Answer         `json:"answer"`
	By        string         `json:"by"`
	// Game is the game an accepted challenge became.
	Game uint64 `json:"game,omitempty"`
}

// answeredItem is the item that edits the message of an answered
// challenge. Its Game is 0, as the item that posted the message, so
// that the two are delivered in order.
func answeredItem(a *Answered, at time.Time) (play.OutboxItem, error) {
	body, err := json.Marshal(a)
	if err != nil {
		return play.OutboxItem{}, fmt.Errorf("round: encoding the answer to challenge %d: %w", a.Challenge.ID, err)
	}
	key := fmt.Sprintf("c%d.%s", a.Challenge.ID, KindAnswered)
	return play.OutboxItem{Key: key, Kind: KindAnswered, Body: body, Due: at, Created: at}, nil
}

// AcceptAnswered is Accept of challenge c, as the front end read it,
// played in channel: the item that edits the challenge's message
// (KindAnswered) is written in the game's transaction, with its first
// board.
func (r *Round) AcceptAnswered(ctx context.Context, c *play.Challenge, by play.Seat, channel string, at time.Time) (Outcome, error) {
	a := Act{Act: play.Act{By: by.ID, At: at}, Kind: Accept}
	var key string
	out, err := r.door(ctx, a, func(tx play.Tx, g *play.Game) error {
		it, err := answeredItem(&Answered{Challenge: *c, Answer: AnswerAccepted, By: by.ID, Game: g.ID}, at)
		key = it.Key
		if err != nil {
			return err
		}
		return tx.PutOutbox(it)
	}, func(svc *play.Service) (play.Result, error) { return svc.Accept(ctx, c.ID, by, channel, at) })
	if err == nil {
		out.Keys = append(out.Keys, key)
	}
	return out, err
}

// Decline declines challenge c, as the front end read it, or withdraws
// it when by made it, as play.Service.Decline and Cancel do, and writes
// in the same transaction the item that edits its message
// (KindAnswered): an answer recorded is always shown, as an accept's is.
func (r *Round) Decline(ctx context.Context, c *play.Challenge, by string, at time.Time) error {
	answer := AnswerDeclined
	drop := r.play.DeclineThen
	if by == c.From.ID {
		answer, drop = AnswerWithdrawn, r.play.CancelThen
	}
	var key string
	_, err := drop(ctx, c.ID, by, at, func(tx play.Tx, stored *play.Challenge) error {
		// As stored, the message that shows it is known even when it was
		// posted after the front end read the challenge.
		it, err := answeredItem(&Answered{Challenge: *stored, Answer: answer, By: by}, at)
		if err != nil {
			return err
		}
		key = it.Key
		return tx.PutOutbox(it)
	})
	if err != nil {
		return err
	}
	r.committed(&Delivery{Key: key})
	return nil
}

// DecodeAnswered reads the body of a KindAnswered item.
func DecodeAnswered(it play.OutboxItem) (Answered, error) {
	var a Answered
	if err := json.Unmarshal(it.Body, &a); err != nil || a.Challenge.ID == 0 {
		return Answered{}, fmt.Errorf("round: outbox item %q holds no answered challenge: %v", it.Key, err)
	}
	return a, nil
}
