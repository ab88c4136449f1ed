package bot

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Users may install the bot to their own account and play in DMs and
// group DMs (context 2), where the bot is no member: there it answers the
// players' interactions — the challenge, every board, each the answer to
// the act that produced it — and tells them the rest by direct message. A
// game there is play.Game.Private.
//
// In a server that did not add the bot, a user who installed it may run
// its commands too; the bot answers only how to add it to the server, or
// to play in a DM. It could not open threads or post there, so a game
// would lose its engine moves, reminders and timeouts, and Discord shows
// a user-installed app's answers to the user alone where a server does
// not allow external apps: the server's admins decide whether it plays
// there.

// private reports whether the interaction comes from a DM or group DM
// between users, where the bot is no member.
func (in *interaction) private() bool {
	return in.i.Context == discordgo.InteractionContextPrivateChannel
}

// botDM reports whether the interaction comes from the bot's own DM with
// the user.
func (in *interaction) botDM() bool {
	return in.i.Context == discordgo.InteractionContextBotDM
}

// serverWithoutBot reports whether the interaction comes from a server
// that did not add the bot: one the user's own install alone authorizes.
func (in *interaction) serverWithoutBot() bool {
	if in.i.GuildID == "" || len(in.i.AuthorizingIntegrationOwners) == 0 {
		return false
	}
	_, server := in.i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return !server
}

// installLink is the link that adds the app to a server or to an
// account, as the Developer Portal's Discord Provided Link does.
func (b *Bot) installLink(in *interaction) string {
	return "https://discord.com/oauth2/authorize?client_id=" + b.answers.appID(in.i)
}

// notInThisServer answers a command from a server without the bot: how
// to add it, or to play in a DM.
func (b *Bot) notInThisServer(in *interaction) error {
	if in.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return in.noChoices()
	}
	if err := in.tell(tr(in.lang, "install.no_bot_here", map[string]any{"Link": "<" + b.installLink(in) + ">"})); err != nil {
		return err
	}
	return errNotHere
}

// channelRef names a game's channel in a message: a server's channel as
// Discord renders it, a DM by its link.
func channelRef(g *play.Game) string {
	if g.Guild == "" {
		return gameLink(g)
	}
	return "<#" + g.Channel + ">"
}

// A private game's board that no answer showed (a resignation's, or one
// whose answer failed) goes to its DM as a follow-up of the players' last
// interaction there, while its token lives; else to each player by direct
// message.
const (
	// followWindow is how long after an interaction the bot still
	// follows up on it: Discord's tokens last 15 minutes.
	followWindow = 14 * time.Minute
	// followMost is how many follow-ups Discord allows an app installed
	// by a user per interaction.
	followMost = 5
)

// followers remembers, per private game, the last interaction of its
// players, in memory: after a restart the direct messages do.
type followers struct {
	mu sync.Mutex
	by map[uint64]*follower
}

type follower struct {
	i    *discordgo.Interaction
	lang i18n.Lang
	at   time.Time // real time: the token's life is Discord's
	sent int       // follow-ups sent on it
}

// note remembers in as the last interaction of private game g, with the
// follow-ups it has sent already.
func (f *followers) note(g *play.Game, in *interaction, sent int) {
	if !g.Private || in == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.by == nil {
		f.by = map[uint64]*follower{}
	}
	for id, x := range f.by {
		if time.Since(x.at) > followWindow {
			delete(f.by, id)
		}
	}
	f.by[g.ID] = &follower{i: in.i, lang: in.public, at: time.Now(), sent: sent}
}

// take returns the interaction to follow up on in game id, counting the
// follow-up, or false when there is none whose token lives and whose
// follow-ups are left.
func (f *followers) take(id uint64) (*discordgo.Interaction, i18n.Lang, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	x := f.by[id]
	if x == nil || time.Since(x.at) > followWindow || x.sent >= followMost {
		return nil, "", false
	}
	x.sent++
	return x.i, x.lang, true
}

// deliverPrivately shows the board of an outbox item of a private game:
// as a follow-up in its DM to the act it answers, or by direct message
// to the players the act tells so. A timeout answers no act.
func (oc *outcomes) deliverPrivately(ctx context.Context, d *round.Delivery) error {
	timedOut := false
	for _, e := range d.Events {
		if _, ok := e.(round.TimedOut); ok {
			timedOut = true
		}
	}
	if i, lang, ok := oc.followers.take(d.Game.ID); ok && !timedOut {
		m, err := oc.boards.deliveryMessage(ctx, lang, d)
		if err != nil {
			return err
		}
		if err = oc.answers.followUp(ctx, i, m); err == nil {
			return nil
		}
		oc.log.Warn("following up in a private game failed; telling its players by DM", "game", d.Game.ID, "err", err)
	}
	var tells []round.Tell
	for _, e := range d.Events {
		if t, ok := e.(round.Tell); ok && !slices.ContainsFunc(tells, func(o round.Tell) bool { return o.User == t.User }) {
			tells = append(tells, t)
		}
	}
	return oc.dmPlayers(ctx, &d.Game, tells, func(lang i18n.Lang) (*message, error) {
		return oc.boards.deliveryMessage(ctx, lang, d)
	})
}

// dmPlayers sends each player of private game g whom the act tells by
// direct message (tells) the message build makes in their language.
func (oc *outcomes) dmPlayers(ctx context.Context, g *play.Game, tells []round.Tell, build func(i18n.Lang) (*message, error)) error {
	var errs []error
	for _, t := range tells {
		if t.How != round.DirectMessage || oc.self.isEngine(t.User) {
			continue
		}
		m, err := build(oc.notices.tellLang(ctx, &t, g.Guild))
		if err == nil {
			err = oc.notices.dm(ctx, t.User, m)
		}
		if !errors.Is(err, errDMClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// tellClaimPrivately tells the opponent of a private game, by direct
// message, the choice its player made on a timeout: the choice is made on
// buttons the bot sent by DM, so nothing in the game's DM shows it.
func (oc *outcomes) tellClaimPrivately(in *interaction, out *round.Outcome, id string) {
	g := &out.Game
	if !g.Private || in.i.ChannelID == g.Channel {
		return
	}
	var tells []round.Tell
	if len(out.Boards) > 0 {
		if t, ok := out.Boards[0].Told(opponentOf(g, in.user).ID, round.GameOver); ok {
			tells = append(tells, t)
		}
	}
	err := oc.dmPlayers(in.ctx, g, tells, func(lang i18n.Lang) (*message, error) {
		m, err := oc.boards.boardMessage(in.ctx, lang, view{g: g, headline: tr(lang, id, map[string]any{"Player": mention(in.user)})})
		if err == nil {
			m.Content += "\n" + gameLink(g)
			m.mentionOnly()
		}
		return m, err
	})
	if err != nil {
		oc.log.Warn("telling the opponent of a private game a timeout's choice", "game", g.ID, "err", err)
	}
}
