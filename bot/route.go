package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/iceagechess/iceage/i18n"
)

// route sends an interaction to its handler: commands and their
// autocomplete by the command table (commands.go), clicks by their custom
// id (customid.go).
func (b *Bot) route(in *interaction) error {
	if in.user == "" {
		return errors.New("bot: an interaction without a user")
	}
	b.prepare(in)
	if in.serverWithoutBot() && in.i.Type != discordgo.InteractionMessageComponent {
		return b.notInThisServer(in)
	}
	switch in.i.Type {
	case discordgo.InteractionApplicationCommand:
		data := in.i.ApplicationCommandData()
		c := commandTable[data.Name]
		if c == nil || !wellFormed(data.Options) {
			return in.tell(tr(in.lang, "error.unknown_command", nil))
		}
		return c.run(b, in, data)
	case discordgo.InteractionApplicationCommandAutocomplete:
		data := in.i.ApplicationCommandData()
		c := commandTable[data.Name]
		if c == nil || c.complete == nil || !wellFormed(data.Options) {
			return in.noChoices()
		}
		return c.complete(b, in)
	case discordgo.InteractionMessageComponent:
		return b.component(in)
	}
	return nil
}

// wellFormed reports whether every option's value has the type its kind
// says, as Discord sends them: discordgo's StringValue, IntValue and the
// rest panic on any other, and handlers call them. (Discord sends what is
// typed into an integer option that autocompletes as a string; no option
// of ours that autocompletes is an integer.)
func wellFormed(opts []*discordgo.ApplicationCommandInteractionDataOption) bool {
	for _, o := range opts {
		if o == nil {
			return false
		}
		var ok bool
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			ok = wellFormed(o.Options)
		case discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionChannel,
			discordgo.ApplicationCommandOptionRole, discordgo.ApplicationCommandOptionMentionable, discordgo.ApplicationCommandOptionAttachment:
			_, ok = o.Value.(string)
		case discordgo.ApplicationCommandOptionInteger, discordgo.ApplicationCommandOptionNumber:
			_, ok = o.Value.(float64)
		case discordgo.ApplicationCommandOptionBoolean:
			_, ok = o.Value.(bool)
		}
		if !ok {
			return false
		}
	}
	return true
}

// options reads a command's options by name.
func options(data discordgo.ApplicationCommandInteractionData) map[string]*discordgo.ApplicationCommandInteractionDataOption {
	m := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range data.Options {
		m[o.Name] = o
	}
	return m
}

// prepare notes an interaction's languages for later news, and answers
// the user in the language they chose in /settings, if any, and the
// public in the server's, if its admins chose one (/server-settings).
func (b *Bot) prepare(in *interaction) {
	b.locales.remember(in)
	if in.i.Type == discordgo.InteractionApplicationCommandAutocomplete || in.user == "" {
		return
	}
	// The settings only choose the language, and Discord's locale will
	// do: a database slow to give them must not eat the three seconds
	// the interaction's answer (or apology) has.
	ctx, cancel := context.WithTimeout(in.ctx, prefsWait)
	defer cancel()
	p, s, err := b.play.Settings(ctx, in.user, in.i.GuildID)
	if err != nil {
		b.log.Warn("reading settings", "user", in.user, "guild", in.i.GuildID, "err", err)
		return
	}
	if p.Language != "" {
		in.lang = i18n.Lang(p.Language)
	}
	if s.Language != "" {
		in.public = i18n.Lang(s.Language)
	}
}

// prefsWait is how long an interaction waits for its user's settings.
const prefsWait = 500 * time.Millisecond
