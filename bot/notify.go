package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/schedule"
)

// The bot tells the scheduler's news to the players.
var _ schedule.Notifier = (*Bot)(nil)

// dmRetry is how long after Discord refused a direct message to a user
// (closed DMs) the bot mentions them instead before trying a DM again: a
// week, so that someone who opens their DMs again is heard from soon,
// and someone who does not is not tried on every move.
const dmRetry = 7 * 24 * time.Hour

// lateAfter is how late a timeout must be found for its announcement to
// say so: beyond the scheduler's ordinary delay, which is milliseconds.
const lateAfter = 2 * time.Minute

// locales remembers the languages Discord tells with each interaction,
// so that messages nobody asked for (reminders, timeouts) come in the
// reader's language.
type locales struct {
	users  sync.Map // user id → i18n.Lang
	guilds sync.Map // guild id → i18n.Lang
}

// remember notes the languages of an interaction's user and guild.
func (b *Bot) remember(in *interaction) {
	if in.user != "" && in.i.Locale != "" {
		b.locales.users.Store(in.user, b.language(string(in.i.Locale)))
	}
	if in.i.GuildID != "" && in.i.GuildLocale != nil {
		b.locales.guilds.Store(in.i.GuildID, b.language(string(*in.i.GuildLocale)))
	}
}

// guildLang is the language of public posts in a guild: the one its
// admins chose (/server-settings), or the one its interactions told, or
// its preferred locale asked of Discord once, or the default.
func (b *Bot) guildLang(ctx context.Context, guild string) i18n.Lang {
	if guild != "" {
		s, err := b.play.ServerSettings(ctx, guild)
		if err != nil {
			b.log.Warn("reading a server's settings", "guild", guild, "err", err)
		}
		if s.Language != "" {
			return i18n.Lang(s.Language)
		}
	}
	if l, ok := b.locales.guilds.Load(guild); ok {
		return l.(i18n.Lang)
	}
	lang := b.language("")
	if guild != "" {
		if g, err := b.s.Guild(guild, discordgo.WithContext(ctx)); err == nil && g.PreferredLocale != "" {
			lang = b.language(g.PreferredLocale)
		}
		b.locales.guilds.Store(guild, lang)
	}
	return lang
}

// userLang is the language of what the bot tells a user alone: the one
// they chose in /settings, or their Discord's, or their guild's.
func (b *Bot) userLang(ctx context.Context, p *play.Prefs, user, guild string) i18n.Lang {
	if p != nil && p.Language != "" {
		return i18n.Lang(p.Language)
	}
	if l, ok := b.locales.users.Load(user); ok {
		return l.(i18n.Lang)
	}
	return b.guildLang(ctx, guild)
}

func (b *Bot) prefs(ctx context.Context, user string) play.Prefs {
	p, err := b.play.Prefs(ctx, user)
	if err != nil {
		b.log.Warn("reading settings", "user", user, "err", err)
	}
	return p
}

// dmFirst reports whether the user is to be told by direct message: they
// asked for it, and Discord has not refused one lately.
func (b *Bot) dmFirst(ctx context.Context, p *play.Prefs) bool {
	return p.Notifications == play.NotifyDM && (p.DMRefused.IsZero() || b.cfg.Now().Sub(p.DMRefused) >= dmRetry)
}

// wantsMention reports whether a board pings the player to move: unless
// they asked for nothing, or for direct messages that Discord takes.
func (b *Bot) wantsMention(ctx context.Context, user string) bool {
	p := b.prefs(ctx, user)
	return p.Notifications != play.NotifyNone && !b.dmFirst(ctx, &p)
}

// dm sends m to the user privately. A refusal for closed DMs is
// remembered (play.Service.NoteDMRefused) and returned as errDMClosed.
func (b *Bot) dm(ctx context.Context, user string, m *message) error {
	channel, err := b.dmChannel(ctx, user)
	if err == nil {
		_, err = b.post(ctx, channel, m)
	}
	if dmRefused(err) {
		if nerr := b.play.NoteDMRefused(ctx, user, b.cfg.Now()); nerr != nil {
			b.log.Warn("noting closed DMs", "user", user, "err", nerr)
		}
		return errDMClosed
	}
	return err
}

var errDMClosed = errors.New("bot: the user's direct messages are closed")

// dmChannel is the DM channel with a user: Discord's answer is the same
// channel every time, so it is asked once per user and process.
func (b *Bot) dmChannel(ctx context.Context, user string) (string, error) {
	if id, ok := b.dmChannels.Load(user); ok {
		return id.(string), nil
	}
	ch, err := b.s.UserChannelCreate(user, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	b.dmChannels.Store(user, ch.ID)
	return ch.ID, nil
}

// dmRefused reports Discord's refusal of a direct message that trying
// again soon will not change: the user closed their DMs (50007), or
// shares no server with the bot any more (50278).
func dmRefused(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil {
		return false
	}
	return re.Message.Code == discordgo.ErrCodeCannotSendMessagesToThisUser || re.Message.Code == errCodeNoMutualGuilds
}

// errCodeNoMutualGuilds is Discord's code for a direct message to a user
// who shares no server with the bot; discordgo v0.29.0 has no name for it.
const errCodeNoMutualGuilds = 50278

// tell gives a user news of a game: by direct message if they asked for
// it (dm, in their language), else, or when the DM fails, by a mention
// in the game's channel (public, in the guild's language). Nothing for
// a user who asked for nothing.
// A nonce, when given, makes the posts idempotent (deliver.go).
func (b *Bot) tell(ctx context.Context, user string, g *play.Game, nonce string, dm func(i18n.Lang) *message, public func(i18n.Lang) *message) error {
	if g.Private {
		return b.tellPrivately(ctx, user, g, dm)
	}
	p := b.prefs(ctx, user)
	if p.Notifications == play.NotifyNone {
		return nil
	}
	if b.dmFirst(ctx, &p) {
		m := dm(b.userLang(ctx, &p, user, g.Guild))
		m.setNonce(nonce)
		err := b.dm(ctx, user, m)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errDMClosed) {
			b.log.Warn("direct message failed; mentioning instead", "user", user, "game", g.ID, "err", err)
		}
	}
	m := public(b.guildLang(ctx, g.Guild))
	m.mentionOnly(user)
	m.setNonce(nonce)
	_, err := b.post(ctx, g.Channel, m)
	return err
}

// gameLink is a link to a game's channel or thread.
func gameLink(g *play.Game) string {
	guild := g.Guild
	if guild == "" {
		guild = "@me"
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s", guild, g.Channel)
}

// opponentOf returns the seat facing user in g.
func opponentOf(g *play.Game, user string) play.Seat {
	if g.White.ID == user {
		return g.Black
	}
	return g.White
}

// notifyTurn tells the player to move, by direct message, when they
// asked for one: the board in the thread does not ping them then. When
// the DM fails, they are mentioned in the thread after all. played is
// the move just made ("" at the start of a game); nonce, if any, makes
// the posts idempotent.
func (b *Bot) notifyTurn(ctx context.Context, g *play.Game, played, nonce string) {
	if g.Over() {
		return
	}
	to := g.ToMove()
	p := b.prefs(ctx, to.ID)
	if !g.Private && !b.dmFirst(ctx, &p) {
		return // the board mentions them, or they asked for nothing
	}
	opp := opponentOf(g, to.ID)
	err := b.tell(ctx, to.ID, g, nonce, func(lang i18n.Lang) *message {
		text := tr(lang, "notify.your_move", map[string]any{"Opponent": mention(opp.ID), "Game": gameLink(g)})
		if played != "" {
			text = tr(lang, "notify.they_played", map[string]any{"Opponent": mention(opp.ID), "Move": "**" + played + "**"}) + "\n" + text
		}
		return &message{Content: text}
	}, func(lang i18n.Lang) *message {
		return &message{Content: tr(lang, "board.your_move", map[string]any{"Player": mention(to.ID)})}
	})
	if err != nil {
		b.log.Warn("telling a player it is their move", "game", g.ID, "user", to.ID, "err", err)
	}
}

// notifyDropped tells the author of a queue of conditional moves, alone,
// that the opponent played something else: by DM, or not at all, since a
// mention in the thread would tell everyone there was a queue.
func (b *Bot) notifyDropped(ctx context.Context, g *play.Game, c *play.Conditional, played, nonce string) {
	p := b.prefs(ctx, c.By)
	if p.Notifications == play.NotifyNone || !p.DMRefused.IsZero() && b.cfg.Now().Sub(p.DMRefused) < dmRetry {
		return
	}
	opp := opponentOf(g, c.By)
	lang := b.userLang(ctx, &p, c.By, g.Guild)
	m := &message{Content: tr(lang, "premove.dropped", map[string]any{"Opponent": mention(opp.ID), "Move": "**" + played + "**", "Game": gameLink(g)})}
	m.mentionOnly()
	m.setNonce(nonce)
	if err := b.dm(ctx, c.By, m); err != nil && !errors.Is(err, errDMClosed) {
		b.log.Warn("telling a player their conditional moves were dropped", "game", g.ID, "user", c.By, "err", err)
	}
}

// Remind tells the player to move that their deadline nears, in the
// game's thread or by DM (their settings). It implements
// schedule.Notifier.
func (b *Bot) Remind(ctx context.Context, r play.Reminder) error {
	g := &r.Game
	opp := opponentOf(g, r.To.ID)
	data := func() map[string]any {
		return map[string]any{"Player": mention(r.To.ID), "Opponent": mention(opp.ID), "When": timestamp(r.Deadline, "R"),
			"Deadline": timestamp(r.Deadline, "f"), "Game": gameLink(g)}
	}
	return b.tell(ctx, r.To.ID, g, "", func(lang i18n.Lang) *message {
		return &message{Content: "⏳ " + tr(lang, "remind.dm", data())}
	}, func(lang i18n.Lang) *message {
		return &message{Content: "⏳ " + tr(lang, "remind.thread", data())}
	})
}

// TimedOut announces a deadline that passed, in the game's thread, with
// the board: the game lost on time, or the opponent's choice with its
// buttons. A timeout found late says when it really happened. It
// implements schedule.Notifier.
func (b *Bot) TimedOut(ctx context.Context, t schedule.Timeout) error {
	g := &t.Game
	if !g.Private {
		m, err := b.timeoutMessage(ctx, &t, b.guildLang(ctx, g.Guild))
		if err != nil {
			return err
		}
		_, err = b.post(ctx, g.Channel, m)
		return err
	}
	// A private game's channel takes no post: each player it concerns is
	// told by direct message, in their language.
	m, err := b.timeoutMessage(ctx, &t, i18n.English)
	if err != nil {
		return err
	}
	return b.dmPlayers(ctx, g, m.AllowedMentions.Users, func(lang i18n.Lang) (*message, error) {
		return b.timeoutMessage(ctx, &t, lang)
	})
}

// timeoutMessage is the board that announces t in lang, with the claim
// buttons when the opponent chooses; it mentions the players it concerns.
func (b *Bot) timeoutMessage(ctx context.Context, t *schedule.Timeout, lang i18n.Lang) (*message, error) {
	g := &t.Game
	var headline string
	var ping []string
	switch {
	case t.Event == play.TimeRanOut && g.Flag != nil:
		chooser := g.Flag.By
		late := opponentOf(g, chooser)
		headline = "⌛ " + tr(lang, "timeout.choose", map[string]any{"Loser": mention(late.ID), "Winner": mention(chooser),
			"When": timestamp(t.Due, "R"), "Until": timestamp(g.Deadline, "f")})
		ping = []string{chooser}
	case g.OpponentChooses && g.Outcome.Reason == game.Timeout:
		w, _ := g.Outcome.Winner()
		headline = "⌛ " + tr(lang, "timeout.lapsed", map[string]any{"Winner": mention(g.Seat(w).ID), "Loser": mention(g.Seat(w.Other()).ID),
			"When": timestamp(t.Due, "f")})
		ping = g.Players()
	default:
		w, _ := g.Outcome.Winner()
		headline = "⌛ " + tr(lang, "timeout.lost", map[string]any{"Winner": mention(g.Seat(w).ID), "Loser": mention(g.Seat(w.Other()).ID),
			"When": timestamp(t.Due, "R")})
		ping = g.Players()
	}
	if t.Late > lateAfter {
		headline += "\n" + tr(lang, "timeout.late", map[string]any{"When": timestamp(t.Due, "f")})
	}
	m, err := b.boardMessage(ctx, lang, view{g: g, headline: headline})
	if err != nil {
		return nil, err
	}
	m.mentionOnly(ping...)
	if g.Flag != nil && !g.Over() {
		m.Components = claimButtons(lang, g)
	}
	return m, nil
}

// Expired edits the message of a challenge that expired unanswered: its
// buttons go, a line says why. It implements schedule.Notifier.
func (b *Bot) Expired(ctx context.Context, c play.Challenge) error {
	if c.Private {
		// Its message, in a DM without the bot, is not the bot's to edit:
		// the challenger hears it by direct message.
		p := b.prefs(ctx, c.From.ID)
		if !b.mayDM(&p) {
			return nil
		}
		m := &message{Content: "⌛ " + tr(b.userLang(ctx, &p, c.From.ID, ""), "challenge.expired", map[string]any{"From": mention(c.From.ID), "To": mention(c.To.ID)})}
		m.mentionOnly()
		if err := b.dm(ctx, c.From.ID, m); err != nil && !errors.Is(err, errDMClosed) {
			return err
		}
		return nil
	}
	if c.Message == "" {
		return nil
	}
	lang := b.guildLang(ctx, c.Guild)
	payload := struct {
		Content         string                            `json:"content"`
		Components      []discordgo.MessageComponent      `json:"components"`
		AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	}{
		Content:         "⌛ " + tr(lang, "challenge.expired", map[string]any{"From": mention(c.From.ID), "To": mention(c.To.ID)}),
		Components:      []discordgo.MessageComponent{},
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{}},
	}
	if c.Open() {
		payload.Content = "⌛ " + tr(lang, "challenge.expired_open", map[string]any{"From": mention(c.From.ID)})
	}
	_, err := b.request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(c.Channel, c.Message), payload, nil)
	return err
}

// noteChallengeMessage records the message that shows a challenge just
// posted as an interaction's answer, so that it can be edited when the
// challenge expires.
func (b *Bot) noteChallengeMessage(in *interaction, c *play.Challenge) {
	if c.Message != "" {
		return
	}
	var msg struct {
		ID string `json:"id"`
	}
	body, err := b.request(in.ctx, http.MethodGet, discordgo.EndpointInteractionResponseActions(b.appID(in.i), in.i.Token), nil, nil)
	if err == nil {
		err = unmarshal(body, &msg)
	}
	if err == nil {
		err = b.play.SetChallengeMessage(in.ctx, c.ID, msg.ID)
	}
	var x *play.Refusal
	switch {
	case errors.As(err, &x):
		// Answered already: its message was edited then.
	case err != nil:
		b.log.Warn("could not note the message of a challenge", "challenge", c.ID, "err", err)
	}
}

// claimButtons let the opponent of a player out of time choose.
func claimButtons(lang i18n.Lang, g *play.Game) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "button.claim_win", nil), Style: discordgo.SuccessButton, CustomID: idClaimWin.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🏆"}},
		discordgo.Button{Label: tr(lang, "button.claim_draw", nil), Style: discordgo.SecondaryButton, CustomID: idClaimDraw.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🤝"}},
	}}}
}
