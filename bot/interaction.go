package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// interaction is one interaction being handled, with who asked and in
// which languages to answer them (lang) and the channel (public).
type interaction struct {
	// out is the way its answers go, and all of the bot it reaches.
	out *answers
	i   *discordgo.Interaction
	// ctx bounds everything the interaction does (interactionDeadline);
	// cancel releases it once the handler returns.
	ctx      context.Context
	cancel   context.CancelFunc
	name     string // command or component family, for logs
	user     string
	seat     play.Seat
	lang     i18n.Lang // the user's, for ephemeral answers
	public   i18n.Lang // the guild's, for messages everyone sees
	answered bool
	// pending: the answer was deferred (deferReply) and not given yet;
	// privately, when pendingPrivate.
	pending, pendingPrivate bool
}

// interactionDeadline bounds the work of one interaction: its token, the
// only way to show what it did, lives fifteen minutes.
const interactionDeadline = interactionLife

func (b *Bot) newInteraction(i *discordgo.Interaction) *interaction {
	in := &interaction{out: b.answers, i: i, lang: b.language(string(i.Locale))}
	in.ctx, in.cancel = context.WithTimeout(b.life.ctx(), interactionDeadline)
	in.public = in.lang
	if i.GuildLocale != nil {
		in.public = b.language(string(*i.GuildLocale))
	}
	var u *discordgo.User
	if i.Member != nil && i.Member.User != nil {
		u = i.Member.User
		in.seat.Name = i.Member.Nick
	} else if i.User != nil {
		u = i.User
	}
	if u != nil {
		in.user = u.ID
		in.seat.ID = u.ID
		if in.seat.Name == "" {
			in.seat.Name = displayName(u)
		}
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		in.name = i.ApplicationCommandData().Name
	case discordgo.InteractionMessageComponent:
		in.name = "component" // until the router names it (customid.go)
	}
	return in
}

func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

func (sh *shared) language(locale string) i18n.Lang {
	if locale == "" {
		return i18n.FromDiscord(sh.cfg.DefaultLanguage)
	}
	return i18n.FromDiscord(locale)
}

// tell answers the user alone.
func (in *interaction) tell(text string) error {
	return in.respond(&message{Content: text, Flags: discordgo.MessageFlagsEphemeral})
}

// respond answers with m, or follows up if an answer was already given.
func (in *interaction) respond(m *message) error {
	if m.Components == nil {
		m.Components = []discordgo.MessageComponent{}
	}
	if m.Embeds == nil {
		m.Embeds = []*discordgo.MessageEmbed{}
	}
	if in.pending {
		// A public deferral becomes the answer; a private answer
		// replaces it, since a deferral's message cannot turn private.
		in.pending = false
		if m.Flags&discordgo.MessageFlagsEphemeral == 0 || in.pendingPrivate {
			return in.out.editResponse(in.ctx, in.i, m)
		}
		if err := in.out.followUp(in.ctx, in.i, m); err != nil {
			return err
		}
		return in.out.deleteResponse(in.ctx, in.i)
	}
	if in.answered {
		return in.out.followUp(in.ctx, in.i, m)
	}
	in.answered = true
	return in.out.respond(in.ctx, in.i, discordgo.InteractionResponseChannelMessageWithSource, m)
}

// update replaces the message a component is on.
func (in *interaction) update(m *message) error {
	in.answered = true
	return in.out.respond(in.ctx, in.i, discordgo.InteractionResponseUpdateMessage, m)
}

// deferUpdate acknowledges a click whose work may take a while; the
// message is edited afterwards with edit.
func (in *interaction) deferUpdate() error {
	in.answered = true
	return in.out.respondPlain(in.ctx, in.i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
}

func (in *interaction) edit(m *message) error {
	in.pending = false
	return in.out.editResponse(in.ctx, in.i, m)
}

// sorry answers an unexpected failure politely: an autocomplete with no
// suggestion, since Discord shows "This interaction failed" without one.
func (in *interaction) sorry() {
	if in.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		in.noSuggestion()
		return
	}
	if err := in.tell(tr(in.lang, "error.internal", nil)); err != nil {
		in.out.log.Warn("could not apologise", "interaction", in.i.ID, "err", err)
	}
}

// refused explains a refusal from play to the user alone.
func (in *interaction) refused(x *play.Refusal) {
	if in.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		in.noSuggestion()
		return
	}
	if err := in.tell(refusalText(in.lang, x)); err != nil {
		in.out.log.Warn("could not explain a refusal", "interaction", in.i.ID, "err", err)
	}
}

// refusalText says why an act was refused, in lang, players mentioned
// and times in each reader's time zone.
func refusalText(lang i18n.Lang, x *play.Refusal) string {
	return i18n.Refusal(lang, x, i18n.Marks{Player: mention, Time: func(t time.Time) string { return timestamp(t, "f") },
		Until: func(t time.Time) string { return timestamp(t, "R") }})
}

func mention(user string) string { return "<@" + user + ">" }

// noSuggestion answers an autocomplete that failed with no choices, if
// it was not answered yet.
func (in *interaction) noSuggestion() {
	if in.answered {
		return
	}
	if err := in.noChoices(); err != nil {
		in.out.log.Warn("could not answer an autocomplete", "interaction", in.i.ID, "err", err)
	}
}

// choices answers an autocomplete.
func (in *interaction) choices(choices []*discordgo.ApplicationCommandOptionChoice) error {
	in.answered = true
	if choices == nil {
		choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	r := choicesResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult}
	r.Data.Choices = choices
	return in.out.respondPayload(in.ctx, in.i, r.Type, r)
}

// choicesResponse is an autocomplete's answer. discordgo's own leaves an
// empty list of choices out (omitempty), and Discord refuses an answer
// without the list (400): "no suggestion" must be sent as [].
type choicesResponse struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data struct {
		Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
	} `json:"data"`
}

// noChoices answers the autocomplete of an option that offers none.
func (in *interaction) noChoices() error {
	return in.choices([]*discordgo.ApplicationCommandOptionChoice{})
}
