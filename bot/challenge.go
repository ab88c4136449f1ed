package bot

import (
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// threadArchiveMinutes keeps a game's thread open a week without
// messages, the longest a correspondence move may take but for 10 and 14
// days (Discord archives, and a new message unarchives).
const threadArchiveMinutes = 10080

// challenges answer /challenge, the challenge of a member, Accept and
// Decline, and Rematch, start the engine's games at once, and show in
// their channel the challenges made and answered in the Activity. They
// hold what every feature shares, the bot's identity and life, the
// languages, the threads' parents, the outbox, the followers of private
// games, the way answers go, the boards, the threads a game starts in
// and the outcomes that show its first board.
type challenges struct {
	*shared
	self      *identity
	life      *lifetime
	locales   *locales
	parents   *parents
	outbox    *deliveries
	followers *followers
	answers   *answers
	boards    *boards
	threads   *threads
	outcomes  *outcomes
}

func challengesOf(b *Bot) *challenges { return b.challenges }

func init() {
	addCommand(appCommand{name: "challenge", declare: declareChallenge, run: runBy(challengesOf, (*challenges).challengeCommand), complete: completeAlone((*interaction).completeTimeOption), help: helpPlay + 1, reach: anywhere})
	addCommand(appCommand{name: challengeUserCommand, run: runBy(challengesOf, (*challenges).challengeMember), reach: anywhere, declare: func(*Config) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{Type: discordgo.UserApplicationCommand, Name: challengeUserCommand,
			NameLocalizations: ptr(localized("cmd.challenge_user.name"))}
	}})
	clicks.handle(idAccept, challengeClick((*challenges).acceptClick))
	clicks.handle(idDecline, challengeClick((*challenges).declineClick))
}

// The buttons of a challenge.
var (
	idAccept  = pattern("ch:accept:{challenge}")
	idDecline = pattern("ch:decline:{challenge}")
)

// challengeClick reads the challenge a button's id names, and hands it on.
func challengeClick(h func(*challenges, *interaction, uint64) error) clickHandler {
	return clickBy(challengesOf, func(cs *challenges, in *interaction, f idFields) error {
		id, err := f.num("challenge")
		if err != nil {
			return err
		}
		return h(cs, in, id)
	})
}

// declareChallenge declares /challenge, whose time controls are the
// configured ones.
func declareChallenge(cfg *Config) *discordgo.ApplicationCommand {
	days := option("challenge", "days", discordgo.ApplicationCommandOptionInteger, false)
	days.Choices = dayChoices(cfg.AllowedDays)
	level := option("challenge", "level", discordgo.ApplicationCommandOptionInteger, false)
	level.MinValue, level.MaxValue = ptr(1.0), float64(engine.Levels)
	return command("challenge",
		option("challenge", "opponent", discordgo.ApplicationCommandOptionUser, false),
		option("challenge", "color", discordgo.ApplicationCommandOptionString, false, "white", "black", "random"),
		days,
		option("challenge", "rated", discordgo.ApplicationCommandOptionBoolean, false),
		level,
		timeOption())
}

// dayChoices are the time controls offered, and no limit (0), as an
// option's choices.
func dayChoices(allowed []int) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, d := range append([]int{0}, allowed...) {
		c := &discordgo.ApplicationCommandOptionChoice{Value: d}
		if d == 0 {
			c.Name, c.NameLocalizations = en("choice.no_limit"), localized("choice.no_limit")
		} else {
			c.Name = i18n.Days(i18n.English, d)
			c.NameLocalizations = map[discordgo.Locale]string{}
			for _, l := range i18n.Languages()[1:] {
				for _, loc := range i18n.DiscordLocalesOf(l) {
					c.NameLocalizations[discordgo.Locale(loc)] = i18n.Days(l, d)
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func (cs *challenges) challengeCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	opts := options(data)
	set := cs.serverSettings(in)
	if ok, err := cs.challengeHere(in, &set); !ok {
		return err
	}
	n := play.NewChallenge{Guild: in.i.GuildID, Channel: in.i.ChannelID, From: in.seat,
		Color: play.Random, DaysPerMove: set.Days(cs.cfg.DefaultDays), At: cs.cfg.Now()}
	if o := opts["opponent"]; o != nil {
		u := o.UserValue(nil)
		if u == nil {
			return errors.New("bot: /challenge without a resolvable opponent")
		}
		if r := data.Resolved; r != nil {
			if ru := r.Users[u.ID]; ru != nil {
				u = ru
			}
		}
		if u.Bot && !cs.self.isEngine(u.ID) {
			return in.tell(tr(in.lang, "challenge.no_bots", nil))
		}
		n.To = play.Seat{ID: u.ID, Name: displayName(u)}
		if r := data.Resolved; r != nil && r.Members[u.ID] != nil && r.Members[u.ID].Nick != "" {
			n.To.Name = r.Members[u.ID].Nick
		}
	}
	if o := opts["color"]; o != nil {
		n.Color = play.Color(o.StringValue())
	}
	if o := opts["days"]; o != nil {
		n.DaysPerMove = int(o.IntValue())
	}
	if o := opts["rated"]; o != nil {
		n.Rated = o.BoolValue()
	}
	tc, err := in.timeOptionOf(opts)
	if err != nil {
		return err
	}
	if tc.Live() {
		n.Time, n.DaysPerMove = tc, 0
	}
	if cs.self.isEngine(n.To.ID) {
		level := 0
		if o := opts["level"]; o != nil {
			level = int(o.IntValue())
		}
		return cs.engineChallenge(in, n, level)
	}
	return cs.challenge(in, n)
}

// challengeMember is the context-menu command on a member: a challenge
// with the defaults.
func (cs *challenges) challengeMember(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	var u *discordgo.User
	if r := data.Resolved; r != nil {
		u = r.Users[data.TargetID]
	}
	if u == nil {
		return errors.New("bot: a member command without its member")
	}
	set := cs.serverSettings(in)
	if ok, err := cs.challengeHere(in, &set); !ok {
		return err
	}
	if cs.self.isEngine(u.ID) {
		return cs.engineChallenge(in, play.NewChallenge{Guild: in.i.GuildID, Channel: in.i.ChannelID, From: in.seat,
			Color: play.Random, DaysPerMove: set.Days(cs.cfg.DefaultDays), At: cs.cfg.Now()}, 0)
	}
	if u.Bot {
		return in.tell(tr(in.lang, "challenge.no_bots", nil))
	}
	to := play.Seat{ID: u.ID, Name: displayName(u)}
	if m := data.Resolved.Members[u.ID]; m != nil && m.Nick != "" {
		to.Name = m.Nick
	}
	return cs.challenge(in, play.NewChallenge{Guild: in.i.GuildID, Channel: in.i.ChannelID, From: in.seat, To: to,
		Color: play.Random, DaysPerMove: set.Days(cs.cfg.DefaultDays), At: cs.cfg.Now()})
}

func (cs *challenges) challenge(in *interaction, n play.NewChallenge) error {
	switch {
	case in.botDM():
		// Nobody else sees this DM: only the engine can play here.
		return in.tell(tr(in.lang, "install.bot_dm", nil))
	case in.i.GuildID == "" && !in.private():
		return in.tell(tr(in.lang, "error.guild_only", nil))
	}
	if in.i.GuildID != "" && !in.serverWithoutBot() {
		if err := in.mayHostGame(); err != nil {
			return err
		}
	}
	n.Private = in.private()
	n.Caps = cs.cfg.Limits.caps()
	place, err := cs.crossingThread(in, &n)
	if err != nil {
		return err
	}
	asked, err := cs.round.Ask(in.ctx, n, true)
	if err != nil || !asked.Accepted {
		cs.dropThread(in, place.thread)
	}
	if err != nil {
		return err
	}
	if asked.Accepted {
		return cs.tookTheirs(in, &asked, place)
	}
	c := asked.Challenge
	if err := in.respond(challengeMessage(in.public, &c)); err != nil {
		return err
	}
	cs.noteChallengeMessage(in, &c)
	cs.settleIfTaken(in, &c)
	return nil
}

// challengeMessage shows a waiting challenge with its buttons.
func challengeMessage(lang i18n.Lang, c *play.Challenge) *message {
	m := &message{}
	data := map[string]any{"From": mention(c.From.ID), "To": mention(c.To.ID)}
	if c.Open() {
		m.Content = tr(lang, "challenge.open", data)
		m.mentionOnly()
	} else {
		m.Content = tr(lang, "challenge.to", data)
		m.mentionOnly(c.To.ID)
	}
	m.Embeds = []*discordgo.MessageEmbed{{
		Color:       colorOngoing,
		Title:       tr(lang, "challenge.title", nil),
		Description: challengeTerms(lang, c),
		Footer:      &discordgo.MessageEmbedFooter{Text: tr(lang, "challenge.expires", nil)},
		Timestamp:   c.Expires.Format("2006-01-02T15:04:05Z07:00"),
	}}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "button.accept", nil), Style: discordgo.SuccessButton, CustomID: idAccept.id(c.ID)},
		discordgo.Button{Label: tr(lang, "button.decline", nil), Style: discordgo.DangerButton, CustomID: idDecline.id(c.ID)},
	}}}
	return m
}

// challengeTerms lists colour, time control and rating of a challenge.
func challengeTerms(lang i18n.Lang, c *play.Challenge) string {
	clock := timeTerms(lang, c.Time, c.DaysPerMove)
	kind := tr(lang, "board.casual", nil)
	if c.Rated {
		kind = tr(lang, "board.rated", nil)
	}
	color := tr(lang, "challenge.color."+string(c.Color), map[string]any{"From": mention(c.From.ID)})
	return color + "\n⏳ " + clock + "\n🏆 " + kind
}

// acceptClick turns a challenge into a game in a new public thread, or
// in the channel when threads are not allowed there.
func (cs *challenges) acceptClick(in *interaction, id uint64) error {
	ctx := in.ctx
	c, err := cs.play.GetChallenge(ctx, id)
	if err != nil {
		return err
	}
	now := cs.cfg.Now()
	if err := play.MayAccept(&c, in.user, now); err != nil {
		return err
	}
	if err := in.deferUpdate(); err != nil {
		return err
	}
	channel, thread, note, later := in.i.ChannelID, "", "", time.Duration(0)
	if c.InChannel {
		channel = c.Channel
	}
	white, black := c.From, in.seat
	if c.Color == play.BlackSide {
		white, black = black, white
	}
	name := truncate(tr(in.public, "thread.name", map[string]any{"White": white.Name, "Black": black.Name}), 100)
	if c.Color == play.Random {
		name = truncate(tr(in.public, "thread.name_random", map[string]any{"A": c.From.Name, "B": in.seat.Name}), 100)
	}
	if set := cs.serverSettings(in); in.i.Message != nil && !c.Private && !c.InChannel && set.Threads.Or(true) {
		place, err := cs.threads.openGameThread(ctx, in, name, in.i.Message.ID)
		if err != nil {
			return fmt.Errorf("bot: opening a thread for challenge %d: %w", id, err)
		}
		channel, thread, note, later = place.channel, place.thread, place.note, place.later
	}
	out, err := cs.round.Accept(ctx, id, in.seat, channel, now, true)
	if err != nil {
		// The thread is the game's all the same when another accept of
		// the challenge, refused this thread (160004), won in it.
		if thread != "" {
			if _, gerr := cs.play.GameIn(ctx, thread); gerr != nil {
				if _, derr := cs.s.ChannelDelete(thread, discordgo.WithContext(in.ctx)); derr != nil {
					cs.log.Warn("could not delete the thread of a lost accept", "thread", thread, "err", derr)
				}
			}
		}
		return err
	}
	defer cs.outbox.wakeUp()
	g := out.Game
	if thread != "" {
		cs.threads.addPlayers(ctx, thread, g.White.ID, g.Black.ID)
	}
	done := &message{Content: tr(in.public, "challenge.accepted", map[string]any{"From": mention(c.From.ID), "By": mention(in.user), "Channel": channelRef(&g)}), Components: []discordgo.MessageComponent{}}
	if g.Private {
		done.Content = tr(in.public, "install.accepted_here", map[string]any{"From": mention(c.From.ID), "By": mention(in.user)})
	}
	if in.i.Message != nil { // a click posted over HTTP may come without it
		done.Embeds = settledEmbeds(in.i.Message.Embeds)
	}
	if note != "" {
		done.Content += "\n" + note
	}
	done.mentionOnly()
	if err := in.edit(done); err != nil {
		cs.log.Warn("could not update the challenge message", "challenge", id, "err", err)
	}
	// The first board is in the outbox, held for this answer: posted
	// here at once, or by the outbox when Discord refuses it.
	board, err := cs.boards.deliveryMessage(ctx, in.public, &out.Boards[0])
	if err != nil {
		if rerr := cs.round.NotShown(cs.life.ctx(), &out); rerr != nil {
			cs.log.Error("handing a board to the outbox; it is posted when its hold ends", "game", g.ID, "err", rerr)
		}
		return err
	}
	cs.followers.note(&g, in, 1)
	if later > 0 {
		cs.threads.moveLater(ctx, g.ID, channel, later)
		defer cs.outbox.wakeUp()
	}
	if !g.Private {
		cs.outcomes.deliverAtOnce(out, board)
		return nil
	}
	if err := in.respond(board); err != nil {
		if rerr := cs.round.NotShown(cs.life.ctx(), &out); rerr != nil {
			cs.log.Error("handing a board to the outbox; it is posted when its hold ends", "game", g.ID, "err", rerr)
		}
		return err
	}
	cs.outcomes.shown(&out)
	return nil
}

// declineClick declines a challenge, or withdraws it when its author
// clicks.
func (cs *challenges) declineClick(in *interaction, id uint64) error {
	ctx := in.ctx
	c, err := cs.play.GetChallenge(ctx, id)
	if err != nil {
		return err
	}
	how := round.AnswerDeclined
	if in.user == c.From.ID {
		c, err = cs.play.Cancel(ctx, id, in.user, cs.cfg.Now())
		how = round.AnswerWithdrawn
	} else {
		c, err = cs.play.Decline(ctx, id, in.user, cs.cfg.Now())
	}
	if err != nil {
		return err
	}
	cs.cfg.Activity.challengeEnded(&c, how)
	key := "challenge." + string(how)
	m := &message{Content: tr(in.public, key, map[string]any{"From": mention(c.From.ID), "By": mention(in.user)}), Components: []discordgo.MessageComponent{}}
	if in.i.Message != nil {
		m.Embeds = settledEmbeds(in.i.Message.Embeds)
	}
	m.mentionOnly()
	return in.update(m)
}

// settledEmbeds are a challenge's embeds once it is accepted, declined or
// withdrawn: its terms stay, its expiry goes, for it no longer expires.
func settledEmbeds(embeds []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	out := make([]*discordgo.MessageEmbed, len(embeds))
	for i, e := range embeds {
		kept := *e
		kept.Footer, kept.Timestamp = nil, ""
		out[i] = &kept
	}
	return out
}

// mayHostGame refuses privately, naming what is missing, a challenge
// where the bot lacks what a game needs: a challenge accepted there would
// fail when its board is posted.
func (in *interaction) mayHostGame() error {
	missing := missingPermissions(in.lang, in.i)
	if missing == "" {
		return nil
	}
	if err := in.tell(tr(in.lang, "challenge.missing_permissions", map[string]any{"Permissions": missing})); err != nil {
		return err
	}
	return errNotHere
}

// isForbidden reports a Discord refusal for lack of permission.
func isForbidden(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return false
	}
	if re.Message != nil && (re.Message.Code == discordgo.ErrCodeMissingPermissions || re.Message.Code == discordgo.ErrCodeMissingAccess) {
		return true
	}
	return re.Response != nil && re.Response.StatusCode == 403
}
