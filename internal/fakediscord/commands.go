package fakediscord

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// commandsHandler gets or overwrites (PUT) the bot's global or guild
// commands.
func (s *Server) commandsHandler(r *http.Request, rep *reply) {
	guildID := r.PathValue("guild")
	switch {
	case r.PathValue("app") != s.appID:
		rep.err = errUnknownApplication
	case guildID != "" && s.guilds[guildID] == nil:
		rep.err = errMissingAccess
	}
	if r.Method == http.MethodGet {
		if rep.err == nil {
			rep.body = append([]*discordgo.ApplicationCommand{}, s.commands[guildID]...)
		}
		return
	}
	call := Call{Kind: KindCommands, GuildID: guildID, JSON: rep.raw}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	if rep.err != nil {
		return
	}
	var commands []*discordgo.ApplicationCommand
	if err := json.Unmarshal(rep.raw, &commands); err != nil {
		rep.err = invalid("not a list of commands: " + err.Error())
		return
	}
	if rep.err = checkCommands(commands); rep.err != nil {
		return
	}
	if rep.err = s.entryPointLocked(commands, guildID, rep.raw); rep.err != nil {
		return
	}
	for _, c := range commands {
		if c.Type == 0 {
			c.Type = discordgo.ChatApplicationCommand
		}
		c.ID = newID()
		for _, old := range s.commands[guildID] {
			if old.Name == c.Name && old.Type == c.Type {
				c.ID = old.ID
			}
		}
		c.ApplicationID, c.GuildID, c.Version = s.appID, guildID, newID()
	}
	s.commands[guildID] = commands
	call.Commands = commands
	rep.body = append([]*discordgo.ApplicationCommand{}, commands...)
}

// commandName is what Discord takes as a slash command's or option's name,
// which must also be lowercase.
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// checkCommands refuses what Discord refuses in a bulk overwrite.
func checkCommands(commands []*discordgo.ApplicationCommand) *Error {
	seen := map[string]bool{}
	chat := 0
	for i, c := range commands {
		at := strconv.Itoa(i)
		key := fmt.Sprint(c.Type, c.Name)
		if seen[key] {
			return invalid(fmt.Sprintf("two commands are named %q", c.Name), at, "name")
		}
		seen[key] = true
		if c.Contexts != nil {
			for j, ctx := range *c.Contexts {
				if ctx > discordgo.InteractionContextPrivateChannel || slices.Contains((*c.Contexts)[:j], ctx) {
					return invalid(fmt.Sprintf("context %d is not one of 0, 1, 2 once each", ctx), at, "contexts", strconv.Itoa(j))
				}
			}
		}
		if c.IntegrationTypes != nil {
			for j, t := range *c.IntegrationTypes {
				if t > discordgo.ApplicationIntegrationUserInstall || slices.Contains((*c.IntegrationTypes)[:j], t) {
					return invalid(fmt.Sprintf("integration type %d is not one of 0, 1 once each", t), at, "integration_types", strconv.Itoa(j))
				}
			}
		}
		switch c.Type {
		case 0, discordgo.ChatApplicationCommand:
			chat++
			if err := checkNames(c.Name, deref(c.NameLocalizations), c.Description, deref(c.DescriptionLocalizations), at); err != nil {
				return err
			}
			if err := checkOptions(c.Options, 0, at); err != nil {
				return err
			}
		case discordgo.UserApplicationCommand, discordgo.MessageApplicationCommand:
			for _, name := range append([]string{c.Name}, slices.Collect(maps.Values(deref(c.NameLocalizations)))...) {
				if n := utf8.RuneCountInString(name); n == 0 || n > 32 {
					return invalid(fmt.Sprintf("context menu name %q must have 1 to 32 characters", name), at, "name")
				}
			}
			if c.Description != "" || len(c.Options) > 0 {
				return invalid("a context menu command has no description and no options", at)
			}
		case EntryPointCommand:
			// entryPointLocked checks it, with the app's settings.
		default:
			return invalid(fmt.Sprintf("unknown command type %d", c.Type), at, "type")
		}
	}
	if chat > 100 {
		return invalid(fmt.Sprintf("%d slash commands, more than 100", chat))
	}
	return nil
}

// entryPointLocked checks the Entry Point command of a bulk overwrite
// (raw, as sent, holds its handler, which discordgo's struct lacks): one
// at most, global, and never left out once the app has one.
func (s *Server) entryPointLocked(commands []*discordgo.ApplicationCommand, guildID string, raw json.RawMessage) *Error {
	var raws []json.RawMessage
	json.Unmarshal(raw, &raws)
	handler, n := 0, 0
	for i, c := range commands {
		if c.Type != EntryPointCommand {
			continue
		}
		if n++; n > 1 {
			return invalid("an application has one Entry Point command", strconv.Itoa(i), "type")
		}
		var err *Error
		if handler, err = s.checkEntryPoint(c, raws[i], guildID, strconv.Itoa(i)); err != nil {
			return err
		}
	}
	if guildID != "" {
		return nil
	}
	if n == 0 && s.entryPoint != 0 {
		return errEntryPointRemoved
	}
	s.entryPoint = handler
	return nil
}

func deref(m *map[discordgo.Locale]string) map[discordgo.Locale]string {
	if m == nil {
		return nil
	}
	return *m
}

// checkNames checks a slash command's or option's name and description, and
// their localizations.
func checkNames(name string, names map[discordgo.Locale]string, description string, descriptions map[discordgo.Locale]string, path ...string) *Error {
	at := func(field string) []string { return append(slices.Clip(path), field) }
	checkName := func(field, name string) *Error {
		if !commandName.MatchString(name) || strings.ToLower(name) != name {
			return invalid(fmt.Sprintf("%q must have 1 to 32 lowercase letters, digits, - or _", name), at(field)...)
		}
		return nil
	}
	checkDescription := func(field, d string) *Error {
		if n := utf8.RuneCountInString(d); n == 0 || n > 100 {
			return invalid(fmt.Sprintf("description %q must have 1 to 100 characters", d), at(field)...)
		}
		return nil
	}
	if err := checkName("name", name); err != nil {
		return err
	}
	if err := checkDescription("description", description); err != nil {
		return err
	}
	for _, field := range []string{"name_localizations", "description_localizations"} {
		m, check := names, checkName
		if field == "description_localizations" {
			m, check = descriptions, checkDescription
		}
		for _, locale := range slices.Sorted(maps.Keys(m)) {
			if _, ok := discordgo.Locales[locale]; !ok && locale != "id" {
				return invalid(fmt.Sprintf("%q is not a Discord locale", locale), at(field)...)
			}
			if err := check(field, m[locale]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkOptions checks options at a level: 0 is the command's, 1 a
// subcommand group's (only subcommands), 2 a subcommand's (no subcommands).
func checkOptions(options []*discordgo.ApplicationCommandOption, level int, path ...string) *Error {
	if len(options) > 25 {
		return invalid(fmt.Sprintf("%d options, more than 25", len(options)), append(path, "options")...)
	}
	subcommands, optional := 0, false
	for j, o := range options {
		at := append(slices.Clip(path), "options", strconv.Itoa(j))
		if err := checkNames(o.Name, o.NameLocalizations, o.Description, o.DescriptionLocalizations, at...); err != nil {
			return err
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommandGroup, discordgo.ApplicationCommandOptionSubCommand:
			subcommands++
			next := 2
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				next = 1
			}
			if level == 2 || level == 1 && next == 1 {
				return invalid("subcommands nest only as command, group, subcommand", at...)
			}
			if err := checkOptions(o.Options, next, at...); err != nil {
				return err
			}
			continue
		case discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger,
			discordgo.ApplicationCommandOptionBoolean, discordgo.ApplicationCommandOptionUser,
			discordgo.ApplicationCommandOptionChannel, discordgo.ApplicationCommandOptionRole,
			discordgo.ApplicationCommandOptionMentionable, discordgo.ApplicationCommandOptionNumber,
			discordgo.ApplicationCommandOptionAttachment:
		default:
			return invalid(fmt.Sprintf("unknown option type %d", o.Type), append(at, "type")...)
		}
		switch {
		case level == 1:
			return invalid("a subcommand group holds only subcommands", at...)
		case o.Required && optional:
			return invalid("required options must come before optional ones", append(at, "required")...)
		case len(o.Choices) > 25:
			return invalid(fmt.Sprintf("%d choices, more than 25", len(o.Choices)), append(at, "choices")...)
		case o.Autocomplete && len(o.Choices) > 0:
			return invalid("an option with autocomplete has no choices", append(at, "autocomplete")...)
		case len(o.Options) > 0:
			return invalid("only subcommands have options", append(at, "options")...)
		}
		optional = optional || !o.Required
		for k, c := range o.Choices {
			for _, name := range append([]string{c.Name}, slices.Collect(maps.Values(c.NameLocalizations))...) {
				if n := utf8.RuneCountInString(name); n == 0 || n > 100 {
					return invalid(fmt.Sprintf("choice name %q must have 1 to 100 characters", name), append(at, "choices", strconv.Itoa(k), "name")...)
				}
			}
		}
	}
	if subcommands > 0 && subcommands != len(options) {
		return invalid("subcommands and other options cannot be mixed", append(path, "options")...)
	}
	return nil
}
