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
	guildOnly := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	cmd := func(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommand {
		return &discordgo.ApplicationCommand{
			Name: name, NameLocalizations: ptr(localized("cmd." + name + ".name")),
			Description: en("cmd." + name + ".desc"), DescriptionLocalizations: ptr(localized("cmd." + name + ".desc")),
			Options: opts, Contexts: &guildOnly,
		}
	}
	opt := func(cmd, name string, typ discordgo.ApplicationCommandOptionType, required bool, choices ...string) *discordgo.ApplicationCommandOption {
		o := &discordgo.ApplicationCommandOption{
			Type: typ, Name: name, NameLocalizations: localized(fmt.Sprintf("cmd.%s.%s.name", cmd, name)),
			Description:              en(fmt.Sprintf("cmd.%s.%s.desc", cmd, name)),
			DescriptionLocalizations: localized(fmt.Sprintf("cmd.%s.%s.desc", cmd, name)),
			Required:                 required,
		}
		for _, c := range choices {
			id := fmt.Sprintf("choice.%s", c)
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: en(id), NameLocalizations: localized(id), Value: c})
		}
		return o
	}
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
	return []*discordgo.ApplicationCommand{
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
	}
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
