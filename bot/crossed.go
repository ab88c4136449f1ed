package bot

import (
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Crossing challenges: a Rematch, or a /challenge, to a player whose own
// challenge on the same terms waits accepts theirs (round.Ask decides
// it, in the act): one game starts, whose first board the outbox posts
// where their challenge was, and the asker alone is told why.

// tookTheirs answers an ask that accepted the opponent's challenge.
func (cs *challenges) tookTheirs(in *interaction, asked *round.Asked) error {
	defer cs.outbox.wakeUp()
	g := asked.Outcome.Game
	cs.followers.note(&g, in, 0)
	key := "challenge.crossed"
	if in.i.Type == discordgo.InteractionMessageComponent {
		// The one button that asks is a finished game's Rematch.
		key = "rematch.crossed"
	}
	return in.tell(tr(in.lang, key, map[string]any{"From": mention(asked.Challenge.From.ID), "Channel": channelRef(&g)}))
}

// settleIfTaken settles the message just posted for challenge c when
// the opponent, asking at the same instant, took c before its message
// was noted: the outbox could not edit a message it did not know of.
func (cs *challenges) settleIfTaken(in *interaction, c *play.Challenge) {
	var x *play.Refusal
	if _, err := cs.play.GetChallenge(in.ctx, c.ID); !errors.As(err, &x) || x.Kind != play.NoChallenge {
		return
	}
	g, err := cs.play.GameIn(in.ctx, c.Channel)
	_, from := g.ColorOf(c.From.ID)
	_, to := g.ColorOf(c.To.ID)
	if err != nil || g.Created.Before(c.Created) || !from || !to {
		return // declined or withdrawn: its answer edited the message
	}
	m := &message{Content: tr(in.public, "challenge.accepted", map[string]any{"From": mention(c.From.ID), "By": mention(c.To.ID), "Channel": channelRef(&g)}),
		Embeds: settledEmbeds(challengeMessage(in.public, c).Embeds), Components: []discordgo.MessageComponent{}}
	m.mentionOnly()
	if err := in.edit(m); err != nil {
		cs.log.Warn("could not settle the message of a challenge taken at once", "challenge", c.ID, "err", err)
	}
}
