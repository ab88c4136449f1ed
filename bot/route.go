package bot

import (
	"errors"

	"github.com/bwmarrin/discordgo"
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
		if c == nil {
			return in.tell(tr(in.lang, "error.unknown_command", nil))
		}
		return c.run(b, in, data)
	case discordgo.InteractionApplicationCommandAutocomplete:
		c := commandTable[in.i.ApplicationCommandData().Name]
		if c == nil || c.complete == nil {
			return b.noChoices(in)
		}
		return c.complete(b, in)
	case discordgo.InteractionMessageComponent:
		return b.component(in)
	}
	return nil
}

// options reads a command's options by name.
func options(data discordgo.ApplicationCommandInteractionData) map[string]*discordgo.ApplicationCommandInteractionDataOption {
	m := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range data.Options {
		m[o.Name] = o
	}
	return m
}
