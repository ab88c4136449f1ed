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
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/schedule"
)

// The bot tells the scheduler's news to the players: reminders and
// expired challenges. Timeouts are acts of the round, whose boards the
// outbox delivers.
var _ schedule.Notifier = (*Bot)(nil)

// lateAfter is how late a timeout must be found for its announcement to
// say so: beyond the scheduler's ordinary delay, which is milliseconds.
const lateAfter = 2 * time.Minute

// locales remembers the languages Discord tells with each interaction,
// so that messages nobody asked for (reminders, timeouts) come in the
// reader's language.
type locales struct {
	// shared gives what a language is asked of: the server's settings,
	// Discord, the default.
	*shared
	users  sync.Map // user id → i18n.Lang
	guilds sync.Map // guild id → i18n.Lang
}

func (l *locales) noteUser(user string, lang i18n.Lang)   { l.users.Store(user, lang) }
func (l *locales) noteGuild(guild string, lang i18n.Lang) { l.guilds.Store(guild, lang) }

// forgetGuild drops what a guild's interactions told, when its admins
// may have chosen another language.
func (l *locales) forgetGuild(guild string) { l.guilds.Delete(guild) }

func (l *locales) user(user string) (i18n.Lang, bool) {
	v, ok := l.users.Load(user)
	if !ok {
		return "", false
	}
	return v.(i18n.Lang), true
}

func (l *locales) guild(guild string) (i18n.Lang, bool) {
	v, ok := l.guilds.Load(guild)
	if !ok {
		return "", false
	}
	return v.(i18n.Lang), true
}

// notices tell players what they did not ask for: whose turn it is, a
// game's news, by direct message or in the game's channel, in the
// reader's language.
type notices struct {
	*shared
	locales  *locales
	channels dmChannels
}

// dmChannels are the DM channels' ids by user: Discord's answer is the
// same channel every time.
type dmChannels struct {
	byUser sync.Map // user id → channel id
}

func (d *dmChannels) note(user, channel string) { d.byUser.Store(user, channel) }

func (d *dmChannels) known(user string) (string, bool) {
	v, ok := d.byUser.Load(user)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// remember notes the languages of an interaction's user and guild.
func (l *locales) remember(in *interaction) {
	if in.user != "" && in.i.Locale != "" {
		l.noteUser(in.user, l.language(string(in.i.Locale)))
	}
	if in.i.GuildID != "" && in.i.GuildLocale != nil {
		l.noteGuild(in.i.GuildID, l.language(string(*in.i.GuildLocale)))
	}
}

// guildLang is the language of public posts in a guild: the one its
// admins chose (/server-settings), or the one its interactions told, or
// its preferred locale asked of Discord once, or the default.
func (l *locales) guildLang(ctx context.Context, guild string) i18n.Lang {
	if guild != "" {
		s, err := l.play.ServerSettings(ctx, guild)
		if err != nil {
			l.log.Warn("reading a server's settings", "guild", guild, "err", err)
		}
		if s.Language != "" {
			return i18n.Lang(s.Language)
		}
	}
	if l, ok := l.guild(guild); ok {
		return l
	}
	lang := l.language("")
	if guild != "" {
		if g, err := l.s.Guild(guild, discordgo.WithContext(ctx)); err == nil && g.PreferredLocale != "" {
			lang = l.language(g.PreferredLocale)
		}
		l.noteGuild(guild, lang)
	}
	return lang
}

// userLang is the language of what the bot tells a user alone: the one
// they chose in /settings, or their Discord's, or their guild's.
func (l *locales) userLang(ctx context.Context, p *play.Prefs, user, guild string) i18n.Lang {
	if p != nil && p.Language != "" {
		return i18n.Lang(p.Language)
	}
	if l, ok := l.user(user); ok {
		return l
	}
	return l.guildLang(ctx, guild)
}

func (sh *shared) prefs(ctx context.Context, user string) play.Prefs {
	p, err := sh.play.Prefs(ctx, user)
	if err != nil {
		sh.log.Warn("reading settings", "user", user, "err", err)
	}
	return p
}

// dm sends m to the user privately. A refusal for closed DMs is
// remembered (play.Service.NoteDMRefused) and returned as errDMClosed.
func (n *notices) dm(ctx context.Context, user string, m *message) error {
	channel, err := n.dmChannel(ctx, user)
	if err == nil {
		_, err = n.post(ctx, channel, m)
	}
	if dmRefused(err) {
		if nerr := n.play.NoteDMRefused(ctx, user, n.cfg.Now()); nerr != nil {
			n.log.Warn("noting closed DMs", "user", user, "err", nerr)
		}
		return errDMClosed
	}
	return err
}

var errDMClosed = errors.New("bot: the user's direct messages are closed")

// dmChannel is the DM channel with a user: Discord's answer is the same
// channel every time, so it is asked once per user and process.
func (n *notices) dmChannel(ctx context.Context, user string) (string, error) {
	if id, ok := n.channels.known(user); ok {
		return id, nil
	}
	ch, err := n.s.UserChannelCreate(user, discordgo.WithContext(ctx))
	if err != nil {
		return "", err
	}
	n.channels.note(user, ch.ID)
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

// tell gives a user news of a game as the act decided (t.How): by
// direct message (dm, in their language), or, for a public game, by a
// mention in its channel (public, in the guild's language), also when
// the direct message fails; nothing when the act says so.
// A nonce, when given, makes the posts idempotent (deliver.go).
func (n *notices) tell(ctx context.Context, t round.Tell, g *play.Game, nonce string, dm func(i18n.Lang) *message, public func(i18n.Lang) *message) error {
	switch t.How {
	case round.Silently:
		return nil
	case round.DirectMessage:
		m := dm(n.tellLang(ctx, &t, g.Guild))
		m.setNonce(nonce)
		err := n.dm(ctx, t.User, m)
		if err == nil || g.Private && errors.Is(err, errDMClosed) {
			return nil // a private game's players see it at their next command there
		}
		if g.Private {
			return err
		}
		if !errors.Is(err, errDMClosed) {
			n.log.Warn("direct message failed; mentioning instead", "user", t.User, "game", g.ID, "err", err)
		}
	}
	if g.Private {
		return nil // its channel takes no post
	}
	m := public(n.locales.guildLang(ctx, g.Guild))
	m.mentionOnly(t.User)
	m.setNonce(nonce)
	_, err := n.post(ctx, g.Channel, m)
	return err
}

// tellLang is the language of what t tells its user alone: the one the
// act found in their settings, or the one the bot knows for them.
func (n *notices) tellLang(ctx context.Context, t *round.Tell, guild string) i18n.Lang {
	if t.Lang != "" {
		return i18n.Lang(t.Lang)
	}
	return n.locales.userLang(ctx, nil, t.User, guild)
}

// gameLink is a link to a game's channel or thread.
func gameLink(g *play.Game) string {
	guild := g.Guild
	if guild == "" {
		guild = "@me"
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s", guild, g.Channel)
}

// messageLink is a link to one message of a game's channel or thread.
func messageLink(g *play.Game, message string) string { return gameLink(g) + "/" + message }

// opponentOf returns the seat facing user in g.
func opponentOf(g *play.Game, user string) play.Seat {
	if g.White.ID == user {
		return g.Black
	}
	return g.White
}

// notifyTurn tells the player to move what the board in the thread
// does not (t.How): by direct message when the act decided so, with a
// mention in the thread when the DM fails. played is the move just made
// ("" at the start of a game); nonce, if any, makes the posts
// idempotent.
func (n *notices) notifyTurn(ctx context.Context, g *play.Game, t round.Tell, played, nonce string) {
	if g.Over() || t.How != round.DirectMessage {
		return // the board mentions them, or they asked for nothing
	}
	opp := opponentOf(g, t.User)
	err := n.tell(ctx, t, g, nonce, func(lang i18n.Lang) *message {
		key := "notify.your_move"
		if t.Why == round.Paired {
			key = "notify.paired"
		}
		text := tr(lang, key, map[string]any{"Opponent": mention(opp.ID), "Game": gameLink(g)})
		if played != "" {
			text = tr(lang, "notify.they_played", map[string]any{"Opponent": mention(opp.ID), "Move": "**" + played + "**"}) + "\n" + text
		}
		return &message{Content: text}
	}, func(lang i18n.Lang) *message {
		if t.Why == round.Paired {
			return &message{Content: tr(lang, "notify.paired_here", map[string]any{"Player": mention(t.User), "Opponent": mention(opp.ID)})}
		}
		return &message{Content: tr(lang, "board.your_move", map[string]any{"Player": mention(t.User)})}
	})
	if err != nil {
		n.log.Warn("telling a player of their game", "game", g.ID, "user", t.User, "err", err)
	}
}

// notifyDropped tells the author of a queue of conditional moves, alone,
// that the opponent played something else: by DM, or not at all (the
// act decides: round.QueueDropped is never a mention, which would tell
// everyone there was a queue).
func (n *notices) notifyDropped(ctx context.Context, g *play.Game, t round.Tell, played, nonce string) {
	if t.How != round.DirectMessage {
		return
	}
	opp := opponentOf(g, t.User)
	m := &message{Content: tr(n.tellLang(ctx, &t, g.Guild), "premove.dropped", map[string]any{"Opponent": mention(opp.ID), "Move": "**" + played + "**", "Game": gameLink(g)})}
	m.mentionOnly()
	m.setNonce(nonce)
	if err := n.dm(ctx, t.User, m); err != nil && !errors.Is(err, errDMClosed) {
		n.log.Warn("telling a player their conditional moves were dropped", "game", g.ID, "user", t.User, "err", err)
	}
}

// Remind tells the player to move that their deadline nears, as the
// round decided from their settings (r.Tell): in the game's thread, by
// DM, or not at all. It implements schedule.Notifier.
func (b *Bot) Remind(ctx context.Context, r round.Reminder) error {
	g := &r.Game
	opp := opponentOf(g, r.To.ID)
	data := func() map[string]any {
		return map[string]any{"Player": mention(r.To.ID), "Opponent": mention(opp.ID), "When": timestamp(r.Deadline, "R"),
			"Deadline": timestamp(r.Deadline, "f"), "Game": gameLink(g)}
	}
	return b.notices.tell(ctx, r.Tell, g, "", func(lang i18n.Lang) *message {
		return &message{Content: "⏳ " + tr(lang, "remind.dm", data())}
	}, func(lang i18n.Lang) *message {
		return &message{Content: "⏳ " + tr(lang, "remind.thread", data())}
	})
}

// timeoutMessage is the board that announces a deadline that passed
// (t), in lang: the game lost on time, or the opponent's choice with its
// buttons. A timeout found late says when it really happened. It
// notifies those the act tells by a mention.
func (bd *boards) timeoutMessage(ctx context.Context, lang i18n.Lang, d *round.Delivery, t *round.TimedOut, mentions []string) (*message, error) {
	g := &d.Game
	headline, live := liveTimeout(lang, g, t)
	switch {
	case live:
	case t.Chooser != "" && g.Flag != nil:
		late := opponentOf(g, t.Chooser)
		headline = "⌛ " + tr(lang, "timeout.choose", map[string]any{"Loser": mention(late.ID), "Winner": mention(t.Chooser),
			"When": timestamp(t.Due, "R"), "Until": timestamp(g.Deadline, "f")})
	case g.OpponentChooses && g.Outcome.Reason == game.Timeout:
		w, _ := g.Outcome.Winner()
		headline = "⌛ " + tr(lang, "timeout.lapsed", map[string]any{"Winner": mention(g.Seat(w).ID), "Loser": mention(g.Seat(w.Other()).ID),
			"When": timestamp(t.Due, "f")})
	default:
		w, _ := g.Outcome.Winner()
		headline = "⌛ " + tr(lang, "timeout.lost", map[string]any{"Winner": mention(g.Seat(w).ID), "Loser": mention(g.Seat(w.Other()).ID),
			"When": timestamp(t.Due, "R")})
	}
	if t.Late > lateAfter {
		headline += "\n" + tr(lang, "timeout.late", map[string]any{"When": timestamp(t.Due, "f")})
	}
	m, err := bd.boardMessage(ctx, lang, view{g: g, headline: headline, mention: mentions, act: d})
	if err != nil {
		return nil, err
	}
	if g.Flag != nil && !g.Over() {
		m.Components = claimButtons(lang, g)
	}
	return m, nil
}

// Expired edits the message of a challenge that expired unanswered: its
// buttons go, a line says why. It implements schedule.Notifier.
func (b *Bot) Expired(ctx context.Context, e round.Expired) error {
	c := &e.Challenge
	b.cfg.Activity.challengeEnded(c, round.AnswerExpired)
	if c.Private {
		// Its message, in a DM without the bot, is not the bot's to edit:
		// the challenger hears it by direct message, if the round
		// decided so from their settings.
		if e.Tell.How != round.DirectMessage {
			return nil
		}
		m := &message{Content: "⌛ " + tr(b.notices.tellLang(ctx, &e.Tell, ""), "challenge.expired", map[string]any{"From": mention(c.From.ID), "To": mention(c.To.ID)})}
		m.mentionOnly()
		if err := b.notices.dm(ctx, c.From.ID, m); err != nil && !errors.Is(err, errDMClosed) {
			return err
		}
		return nil
	}
	if c.Message == "" {
		return nil
	}
	lang := b.locales.guildLang(ctx, c.Guild)
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
func (cs *challenges) noteChallengeMessage(in *interaction, c *play.Challenge) {
	if c.Message != "" {
		return
	}
	var msg struct {
		ID string `json:"id"`
	}
	body, err := cs.request(in.ctx, http.MethodGet, discordgo.EndpointInteractionResponseActions(cs.answers.appID(in.i), in.i.Token), nil, nil)
	if err == nil {
		err = unmarshal(body, &msg)
	}
	if err == nil {
		err = cs.play.SetChallengeMessage(in.ctx, c.ID, msg.ID)
	}
	var x *play.Refusal
	switch {
	case errors.As(err, &x):
		// Answered already: its message was edited then.
	case err != nil:
		cs.log.Warn("could not note the message of a challenge", "challenge", c.ID, "err", err)
	}
}

// claimButtons let the opponent of a player out of time choose.
func claimButtons(lang i18n.Lang, g *play.Game) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "button.claim_win", nil), Style: discordgo.SuccessButton, CustomID: idClaimWin.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🏆"}},
		discordgo.Button{Label: tr(lang, "button.claim_draw", nil), Style: discordgo.SecondaryButton, CustomID: idClaimDraw.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🤝"}},
	}}}
}
