package bot

import (
	"errors"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Crossing challenges: a Rematch, or a /challenge, to a player whose own
// challenge on the same terms waits accepts theirs (round.Ask decides
// it, in the act): one game starts, whose first board the outbox posts,
// and the asker alone is told why. When the challenge is seen waiting
// before the act, the game gets a thread of its own first, as Accept
// opens one; two players pressing at the same instant, neither of whom
// could see the other's, play where the challenge taken was made.

// crossingThread opens the thread of the game that asking n would start
// by accepting the opponent's challenge waiting on the same terms, and
// sets n.PlayIn to it; the zero place when none waits, or when the game
// is to be played in the challenge's own channel (the Activity's, a
// DM's, a server's without threads).
func (cs *challenges) crossingThread(in *interaction, n *play.NewChallenge) (threadPlace, error) {
	if n.To.ID == "" || n.Private {
		return threadPlace{}, nil
	}
	waiting, err := cs.play.Challenges(in.ctx, n.From.ID)
	if err != nil {
		return threadPlace{}, err
	}
	var c *play.Challenge
	for i := range waiting {
		if waiting[i].Crosses(n, n.At) {
			c = &waiting[i]
			break
		}
	}
	if c == nil || c.InChannel || c.Private {
		return threadPlace{}, nil
	}
	if set := cs.serverSettings(in); !set.Threads.Or(true) {
		return threadPlace{}, nil
	}
	// A thread may take a while to open: a public deferral, which the
	// challenge replaces should the act make one after all, or which a
	// private answer replaces.
	if err := in.deferReply(false); err != nil {
		return threadPlace{}, err
	}
	name := tr(in.public, "thread.name_random", map[string]any{"A": c.From.Name, "B": n.From.Name})
	switch {
	case c.Color == play.WhiteSide || c.Color == play.Random && n.Color == play.BlackSide:
		name = tr(in.public, "thread.name", map[string]any{"White": c.From.Name, "Black": n.From.Name})
	case c.Color == play.BlackSide || c.Color == play.Random && n.Color == play.WhiteSide:
		name = tr(in.public, "thread.name", map[string]any{"White": n.From.Name, "Black": c.From.Name})
	}
	from := ""
	if c.Channel == in.i.ChannelID {
		from = c.Message
	}
	place, err := cs.threads.openGameThread(in.ctx, in, truncate(name, 100), from)
	if err != nil {
		return threadPlace{}, err
	}
	n.PlayIn = place.channel
	return place, nil
}

// dropThread deletes the thread crossingThread opened for a game that
// did not start there: the challenge was answered meanwhile, and asking
// made one of its own.
func (cs *challenges) dropThread(in *interaction, thread string) {
	if thread == "" {
		return
	}
	if _, err := cs.play.GameIn(in.ctx, thread); err == nil {
		return
	}
	if _, err := cs.s.ChannelDelete(thread, discordgo.WithContext(in.ctx)); err != nil {
		cs.log.Warn("could not delete the thread of a challenge not taken", "thread", thread, "err", err)
	}
}

// tookTheirs answers an ask that accepted the opponent's challenge, in
// place when crossingThread opened its thread.
func (cs *challenges) tookTheirs(in *interaction, asked *round.Asked, place threadPlace) error {
	defer cs.outbox.wakeUp()
	g := asked.Outcome.Game
	if place.thread != "" && place.thread == g.Channel {
		cs.threads.addPlayers(in.ctx, place.thread, g.White.ID, g.Black.ID)
	}
	if place.later > 0 && place.channel == g.Channel {
		cs.threads.moveLater(in.ctx, g.ID, g.Channel, place.later)
	}
	cs.followers.note(&g, in, 0)
	key := "challenge.crossed"
	if in.i.Type == discordgo.InteractionMessageComponent {
		// The one button that asks is a finished game's Rematch.
		key = "rematch.crossed"
	}
	// The answer names where the game is; why it is not in a thread of
	// its own (place.note) is the public's to read, in the server's
	// language, on a challenge's message, and this answer is private.
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
	games, err := cs.play.ActiveGames(in.ctx, c.From.ID)
	if err != nil {
		cs.log.Warn("reading the games of a challenge's author", "challenge", c.ID, "err", err)
		return
	}
	i := slices.IndexFunc(games, func(g play.Game) bool {
		_, theirs := g.ColorOf(c.To.ID)
		return theirs && !g.Created.Before(c.Created)
	})
	if i < 0 {
		return // declined or withdrawn: its answer edited the message
	}
	g := games[i]
	m := &message{Content: tr(in.public, "challenge.accepted", map[string]any{"From": mention(c.From.ID), "By": mention(c.To.ID), "Channel": channelRef(&g)}),
		Embeds: settledEmbeds(challengeMessage(in.public, c).Embeds), Components: []discordgo.MessageComponent{}}
	m.mentionOnly()
	if err := in.edit(m); err != nil {
		cs.log.Warn("could not settle the message of a challenge taken at once", "challenge", c.ID, "err", err)
	}
}
