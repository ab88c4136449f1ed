package bot

import (
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/i18n"
)

// challengeUserCommand is the name of the context-menu command on a member.
const challengeUserCommand = "Challenge to Ice Age Chess"

// commands declares every command as data; names and descriptions come in
// every language through Discord's localizations.
func commands(allowedDays []int) []*discordgo.ApplicationCommand {
	cmd, opt := command, option
	days := opt("challenge", "days", discordgo.ApplicationCommandOptionInteger, false)
	for _, d := range append([]int{0}, allowedDays...) {
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
		days.Choices = append(days.Choices, c)
	}
	level := opt("challenge", "level", discordgo.ApplicationCommandOptionInteger, false)
	level.MinValue, level.MaxValue = ptr(1.0), float64(engine.Levels)
	analyzed := opt("analyze", "game", discordgo.ApplicationCommandOptionInteger, false)
	analyzed.MinValue = ptr(1.0)
	move := opt("move", "move", discordgo.ApplicationCommandOptionString, true)
	move.Autocomplete = true
	move.MaxLength = 32
	return append([]*discordgo.ApplicationCommand{
		cmd("challenge",
			opt("challenge", "opponent", discordgo.ApplicationCommandOptionUser, false),
			opt("challenge", "color", discordgo.ApplicationCommandOptionString, false, "white", "black", "random"),
			days,
			opt("challenge", "rated", discordgo.ApplicationCommandOptionBoolean, false),
			level),
		cmd("analyze", analyzed),
		cmd("move", move),
		cmd("board", opt("board", "flip", discordgo.ApplicationCommandOptionBoolean, false)),
		cmd("resign"),
		cmd("draw", opt("draw", "action", discordgo.ApplicationCommandOptionString, false, "offer", "accept", "decline")),
		cmd("abort"),
		cmd("takeback"),
		cmd("rules"),
		cmd("help"),
		{
			Type: discordgo.UserApplicationCommand, Name: challengeUserCommand,
			NameLocalizations: ptr(localized("cmd.challenge_user.name")), Contexts: &guildOnly,
		},
	}, recordCommands()...)
}

// guildOnly: every command is used in servers.
var guildOnly = []discordgo.InteractionContextType{discordgo.InteractionContextGuild}

// command declares a slash command whose texts are the messages
// cmd.NAME.name and cmd.NAME.desc, in every language.
func command(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name: name, NameLocalizations: ptr(localized("cmd." + name + ".name")),
		Description: en("cmd." + name + ".desc"), DescriptionLocalizations: ptr(localized("cmd." + name + ".desc")),
		Options: opts, Contexts: &guildOnly,
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
