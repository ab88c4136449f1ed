package bot

import (
	"context"
	"errors"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/i18n"
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
func (cs *challenges) deliverChallenge(ctx context.Context, it play.OutboxItem) error {
	made, err := round.DecodeChallenge(it)
	if err != nil {
		return err
	}
	c, err := cs.play.GetChallenge(ctx, made.ID)
	var x *play.Refusal
	if errors.As(err, &x) {
		return nil
	}
	if err != nil {
		return err
	}
	m := challengeMessage(cs.locales.guildLang(ctx, c.Guild), &c)
	m.setNonce(nonce(it.Key))
	id, err := cs.post(ctx, c.Channel, m)
	if err != nil {
		return err
	}
	if err := cs.play.SetChallengeMessage(ctx, c.ID, id); err != nil && !errors.As(err, &x) {
		cs.log.Warn("could not note the message of a challenge", "challenge", c.ID, "err", err)
	}
	return nil
}

// ChallengeCaps are the per-user limits of a challenge (Config.Limits),
// for the challenges of the Activity's lobby: the same as /challenge's.
func (b *Bot) ChallengeCaps() play.Caps { return b.cfg.Limits.caps() }

// deliverAnswered edits the message of a challenge answered in the
// Activity (round.KindAnswered) as a click on its buttons edits it: the
// buttons go, a line says who accepted (and where the game is), declined
// or withdrew it, and the terms stay.
func (cs *challenges) deliverAnswered(ctx context.Context, it play.OutboxItem) error {
	a, err := round.DecodeAnswered(it)
	if err != nil {
		return err
	}
	c := &a.Challenge
	if c.Message == "" || c.Private {
		// Never shown, or shown in a DM the bot may not edit.
		return nil
	}
	lang := cs.locales.guildLang(ctx, c.Guild)
	data := map[string]any{"From": mention(c.From.ID), "By": mention(a.By), "Channel": "<#" + c.Channel + ">"}
	if g, err := cs.play.Game(ctx, a.Game); a.Game != 0 && err == nil {
		data["Channel"] = channelRef(&g)
	}
	payload := struct {
		Content         string                            `json:"content"`
		Embeds          []*discordgo.MessageEmbed         `json:"embeds"`
		Components      []discordgo.MessageComponent      `json:"components"`
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	}{
		Content:         tr(lang, "challenge."+string(a.Answer), data),
		Embeds:          settledEmbeds(challengeMessage(lang, c).Embeds),
		Components:      []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{}},
	}
	_, err = cs.request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(c.Channel, c.Message), payload, nil)
	return err
}

// EngineSeat is the engine's seat at level (0: the configured default),
// named in the language of guild as a thread names it, and the level
// clamped to the engine's, for a game the Activity's lobby starts; ok is
// false until the bot knows its own user. rated says whether a player
// may ask for a rated game against it (EngineConfig.Rated).
func (b *Bot) EngineSeat(ctx context.Context, guild string, level int) (seat play.Seat, clamped int, rated, ok bool) {
	id := b.self.userID()
	if id == "" {
		return play.Seat{}, 0, false, false
	}
	if level <= 0 {
		level = b.cfg.Engine.DefaultLevel
	}
	level = min(max(level, 1), engine.Levels)
	return play.Seat{ID: id, Name: i18n.EngineName(b.locales.guildLang(ctx, guild), level)}, level, b.cfg.Engine.Rated, true
}
