package bot

import (
	"context"
	"errors"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// deliverChallenge shows in its channel a challenge that no interaction
// answered (round.KindChallenge: one made in the Activity's lobby), as
// /challenge's answer shows one, with its Accept and Decline buttons, and
// notes the message so that the challenge's answer or expiry edits it.
// A challenge answered or withdrawn before it could be shown is not
// shown at all. The post carries the item's nonce: a retry after a lost
// response posts nothing more.
func (b *Bot) deliverChallenge(ctx context.Context, it play.OutboxItem) error {
	made, err := round.DecodeChallenge(it)
	if err != nil {
		return err
	}
	c, err := b.play.GetChallenge(ctx, made.ID)
	var x *play.Refusal
	if errors.As(err, &x) {
		return nil
	}
	if err != nil {
		return err
	}
	m := challengeMessage(b.guildLang(ctx, c.Guild), &c)
	m.setNonce(nonce(it.Key))
	id, err := b.post(ctx, c.Channel, m)
	if err != nil {
		return err
	}
	if err := b.play.SetChallengeMessage(ctx, c.ID, id); err != nil && !errors.As(err, &x) {
		b.log.Warn("could not note the message of a challenge", "challenge", c.ID, "err", err)
	}
	return nil
}

// ChallengeCaps are the per-user limits of a challenge (Config.Limits),
// for the challenges of the Activity's lobby: the same as /challenge's.
func (b *Bot) ChallengeCaps() play.Caps { return b.cfg.Limits.caps() }
