package bot

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
)

// challengeUserCommand is the name of the context-menu command on a member.
const challengeUserCommand = "Challenge to Ice Age Chess"

// appCommand is one application command: how Discord is told of it and
// what answers it, declared once, in the file of its handler, by an init
// that adds it to the table (addCommand).
type appCommand struct {
	// name is what Discord routes by: a slash command's name, a user
	// command's English name.
	name string
	// declare returns the command as Discord registers it; cfg gives
	// what depends on the configuration (time controls, vacation days).
	declare func(cfg *Config) *discordgo.ApplicationCommand
	// run answers the command.
	run func(b *Bot, in *interaction, data discordgo.ApplicationCommandInteractionData) error
	// complete, when set, answers the autocomplete of its options.
	complete func(b *Bot, in *interaction) error
	// help is the command's place in /help, smallest first; 0 leaves it
	// out.
	help int
	// reach is where the command may be used: in servers that added the
	// bot (the default), or anywhere a user who installed it is.
	reach reach
}

// reach is where a command may be used, as Discord's contexts and
// integration types say it.
type reach int

const (
	// inServers: only in servers that added the bot (contexts [0],
	// integration_types [0]) — the server's leaderboard, its settings,
	// its tournaments.
	inServers reach = iota
	// anywhere: also installed by a user to their account (integration
	// type 1), and used in DMs with the bot (context 1) and in other DMs
	// and group DMs (context 2) — the commands that play a game.
	anywhere
)

// contexts and installs are Discord's words for a reach.
func (r reach) contexts() []discordgo.InteractionContextType {
	if r == anywhere {
		return []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	}
	return []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
}

func (r reach) installs() []discordgo.ApplicationIntegrationType {
	if r == inServers {
		return []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	}
	return []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
}

// A command, its autocomplete and a click are each answered by a method
// of their feature's handlers: a small type in the feature's file that
// holds the shared dependencies and the few features it uses, never the
// *Bot (doc.go, "Who owns what"). The table binds the method to the
// handlers through the field of the bot that holds them (of), so that
// the handler reaches nothing else.

// runBy binds a command to a method of a feature's handlers.
func runBy[F any](of func(*Bot) F, run func(F, *interaction, discordgo.ApplicationCommandInteractionData) error) func(*Bot, *interaction, discordgo.ApplicationCommandInteractionData) error {
	return func(b *Bot, in *interaction, data discordgo.ApplicationCommandInteractionData) error {
		return run(of(b), in, data)
	}
}

// completeBy binds an autocomplete to a method of a feature's handlers.
func completeBy[F any](of func(*Bot) F, complete func(F, *interaction) error) func(*Bot, *interaction) error {
	return func(b *Bot, in *interaction) error { return complete(of(b), in) }
}

// completeAlone binds an autocomplete that needs nothing but the
// interaction.
func completeAlone(complete func(*interaction) error) func(*Bot, *interaction) error {
	return func(_ *Bot, in *interaction) error { return complete(in) }
}

// commandTable holds every command by name.
var commandTable = map[string]*appCommand{}

// addCommand adds a command to the table; a name declared twice is a
// programming error, found when the package loads.
func addCommand(c appCommand) {
	if _, dup := commandTable[c.name]; dup || c.name == "" || c.declare == nil || c.run == nil {
		panic(fmt.Sprintf("bot: command %q declared twice or incompletely", c.name))
	}
	commandTable[c.name] = &c
}

// declarations returns every command as Discord registers it, by name.
func declarations(cfg *Config) []*discordgo.ApplicationCommand {
	names := slices.Sorted(maps.Keys(commandTable))
	out := make([]*discordgo.ApplicationCommand, 0, len(names))
	for _, n := range names {
		c := commandTable[n]
		d := c.declare(cfg)
		d.Contexts, d.IntegrationTypes = ptr(c.reach.contexts()), ptr(c.reach.installs())
		out = append(out, d)
	}
	return out
}

// helpOrder returns the commands /help lists, in its order.
func helpOrder() []*appCommand {
	var out []*appCommand
	for _, c := range commandTable {
		if c.help > 0 {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *appCommand) int { return cmp.Compare(a.help, b.help) })
	return out
}

// Places in /help: playing first, then correspondence, results and the
// rest.
const (
	helpPlay = 100 * (iota + 1)
	helpCorrespondence
	helpResults
	helpOther
)

// plain declares a command without options. A command with options
// declares them in its own declare func, never in its init: the messages
// are read when Discord is told of the commands, so that a command line
// that tells Discord nothing (iceage pairings) never reads them.
func plain(name string) func(*Config) *discordgo.ApplicationCommand {
	return func(*Config) *discordgo.ApplicationCommand { return command(name) }
}

// command declares a slash command whose texts are the messages
// cmd.NAME.name and cmd.NAME.desc, in every language.
func command(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name: name, NameLocalizations: ptr(localized("cmd." + name + ".name")),
		Description: en("cmd." + name + ".desc"), DescriptionLocalizations: ptr(localized("cmd." + name + ".desc")),
		Options: opts,
	}
}

// option declares an option of command cmd whose texts are the messages
// cmd.CMD.NAME.name and .desc, with choices whose names are choice.VALUE.
func option(cmd, name string, typ discordgo.ApplicationCommandOptionType, required bool, choices ...string) *discordgo.ApplicationCommandOption {
	id := fmt.Sprintf("cmd.%s.%s", cmd, name)
	o := &discordgo.ApplicationCommandOption{
		Type: typ, Name: name, NameLocalizations: localized(id + ".name"),
		Description: en(id + ".desc"), DescriptionLocalizations: localized(id + ".desc"),
		Required: required,
	}
	for _, c := range choices {
		cid := "choice." + c
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: en(cid), NameLocalizations: localized(cid), Value: c})
	}
	return o
}

// en returns the English text of a message id.
func en(id string) string { return tr(i18n.English, id, nil) }

// localized returns a message in every language but English, keyed by
// Discord's locale codes, for command localizations.
func localized(id string) map[discordgo.Locale]string {
	m := map[discordgo.Locale]string{}
	for loc, text := range i18n.DiscordLocales(id) {
		m[discordgo.Locale(loc)] = text
	}
	return m
}

func ptr[T any](v T) *T { return &v }
