package round

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// KindChallenge: a challenge made where no interaction answers it (the
// Activity's lobby), for the front end to show in its channel with its
// buttons, as /challenge's answer shows one. The body is the challenge
// (play.Challenge) as it was made.
const KindChallenge = "challenge"

// ChallengeKey is the key of the item that shows challenge id.
func ChallengeKey(id uint64) string { return fmt.Sprintf("c%d.%s", id, KindChallenge) }

// Challenge records a challenge as play.Service.Challenge does, and
// writes in the same transaction the item that shows it in its channel
// (KindChallenge), for a front end that has no interaction to answer
// with it: a challenge made is always shown, and shown once.
func (r *Round) Challenge(ctx context.Context, n play.NewChallenge) (play.Challenge, error) {
	var key string
	c, err := r.play.ChallengeThen(ctx, n, func(tx play.Tx, c *play.Challenge) error {
		body, err := json.Marshal(c)
		if err != nil {
			return fmt.Errorf("round: encoding challenge %d: %w", c.ID, err)
		}
		key = ChallengeKey(c.ID)
		return tx.PutOutbox(play.OutboxItem{Key: key, Kind: KindChallenge, Body: body, Due: c.Created, Created: c.Created})
	})
	if err != nil {
		return play.Challenge{}, err
	}
	r.committed(&Delivery{Key: key})
	return c, nil
}

// DecodeChallenge reads the body of a KindChallenge item.
func DecodeChallenge(it play.OutboxItem) (play.Challenge, error) {
	var c play.Challenge
	if err := json.Unmarshal(it.Body, &c); err != nil || c.ID == 0 {
		return play.Challenge{}, fmt.Errorf("round: outbox item %q holds no challenge: %v", it.Key, err)
	}
	return c, nil
}
