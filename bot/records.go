package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/play"
)

// The commands of results: who is the best here, how a player does, how
// the variant's games end, and every finished game as PGN or GIF. Their
// buttons and menus have custom ids "lb:scope:page" (a leaderboard page),
// "rec:pgn" and "rec:gif" (a menu of games, the game's id as its value)
// and "rec:older:user:before" (older games of a /history).

// Leaderboard scopes, as the command's choices and the buttons name them.
const (
	scopeServer = "server"
	scopeGlobal = "global"
)

// recordCommands declares the commands of results.
func recordCommands() []*discordgo.ApplicationCommand {
	cmd, opt := command, option
	one := 1.0
	page := opt("leaderboard", "page", discordgo.ApplicationCommandOptionInteger, false)
	page.MinValue = &one
	pick := func(name string) *discordgo.ApplicationCommand {
		id := opt(name, "game", discordgo.ApplicationCommandOptionInteger, false)
		id.MinValue = &one
		return cmd(name, id, opt(name, "opponent", discordgo.ApplicationCommandOptionUser, false))
	}
	return []*discordgo.ApplicationCommand{
		cmd("leaderboard", opt("leaderboard", "scope", discordgo.ApplicationCommandOptionString, false, scopeServer, scopeGlobal), page),
		cmd("stats", opt("stats", "user", discordgo.ApplicationCommandOptionUser, false)),
		cmd("variantstats"),
		pick("pgn"),
		pick("gif"),
		cmd("history", opt("history", "user", discordgo.ApplicationCommandOptionUser, false)),
	}
}

// recordHandlers are the commands of results, by name.
func (b *Bot) recordHandlers() map[string]func(*interaction, discordgo.ApplicationCommandInteractionData) error {
	return map[string]func(*interaction, discordgo.ApplicationCommandInteractionData) error{
		"leaderboard":  b.leaderboardCommand,
		"stats":        b.statsCommand,
		"variantstats": b.variantStatsCommand,
		"pgn":          b.pgnCommand,
		"gif":          b.gifCommand,
		"history":      b.historyCommand,
	}
}

func (b *Bot) leaderboardCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	opts := options(data)
	scope, page := scopeServer, 1
	if o := opts["scope"]; o != nil && o.StringValue() == scopeGlobal {
		scope = scopeGlobal
	}
	if o := opts["page"]; o != nil {
		page = int(o.IntValue())
	}
	m, err := b.leaderboardMessage(in.public, in.i.GuildID, scope, page)
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (b *Bot) statsCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	target := in.seat
	if u, name := userOption(data, "user"); u != "" {
		target = play.Seat{ID: u, Name: name}
	}
	m, err := b.statsMessage(in.public, in.i.GuildID, target, in.user)
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (b *Bot) variantStatsCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	m, err := b.variantStatsMessage(in.public, in.i.GuildID)
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (b *Bot) pgnCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := b.pickGame(in, data)
	if err != nil {
		return err
	}
	m, err := b.pgnMessage(in.public, &g)
	if err != nil {
		return err
	}
	return in.respond(m)
}

// gifCommand defers: drawing a long game takes a while.
func (b *Bot) gifCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := b.pickGame(in, data)
	if err != nil {
		return err
	}
	if err := in.deferReply(false); err != nil {
		return err
	}
	m, err := b.gifMessage(in.public, &g)
	if err != nil {
		return err
	}
	return in.edit(m)
}

func (b *Bot) historyCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	target := in.seat
	if u, name := userOption(data, "user"); u != "" {
		target = play.Seat{ID: u, Name: name}
	}
	m, err := b.historyMessage(in.lang, in.i.GuildID, target, 0)
	if err != nil {
		return err
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// recordClick answers the buttons and menus of the commands of results.
func (b *Bot) recordClick(in *interaction, parts []string) error {
	bad := fmt.Errorf("bot: unknown button %q", strings.Join(parts, ":"))
	switch {
	case parts[0] == "lb" && len(parts) == 3:
		page, err := strconv.Atoi(parts[2])
		if err != nil || parts[1] != scopeServer && parts[1] != scopeGlobal {
			return bad
		}
		m, err := b.leaderboardMessage(in.public, in.i.GuildID, parts[1], page)
		if err != nil {
			return err
		}
		return in.update(m)
	case parts[0] == "rec" && len(parts) == 2 && (parts[1] == "pgn" || parts[1] == "gif"):
		values := in.i.MessageComponentData().Values
		if len(values) != 1 {
			return bad
		}
		id, err := strconv.ParseUint(values[0], 10, 64)
		if err != nil {
			return bad
		}
		g, err := b.visibleGame(in, id)
		if err != nil {
			return err
		}
		if parts[1] == "pgn" {
			m, err := b.pgnMessage(in.lang, &g)
			if err != nil {
				return err
			}
			m.Flags = discordgo.MessageFlagsEphemeral
			return in.respond(m)
		}
		if err := in.deferReply(true); err != nil {
			return err
		}
		m, err := b.gifMessage(in.lang, &g)
		if err != nil {
			return err
		}
		return in.edit(m)
	case parts[0] == "rec" && len(parts) == 4 && parts[1] == "older":
		before, err := strconv.ParseUint(parts[3], 10, 64)
		if err != nil {
			return bad
		}
		m, err := b.historyMessage(in.lang, in.i.GuildID, play.Seat{ID: parts[2]}, before)
		if err != nil {
			return err
		}
		return in.update(m)
	}
	return bad
}

// pickGame finds the game /pgn or /gif asks for: by its number, the last
// one finished against an opponent, or this channel's (going on, or the
// last finished here: a game's thread keeps its game). When there is none
// it tells the user and returns errNotHere.
func (b *Bot) pickGame(in *interaction, data discordgo.ApplicationCommandInteractionData) (play.Game, error) {
	ctx := context.Background()
	opts := options(data)
	if o := opts["game"]; o != nil {
		id := o.IntValue()
		if id <= 0 {
			return play.Game{}, in.explain(tr(in.lang, "export.no_such_game", map[string]any{"ID": id}))
		}
		return b.visibleGame(in, uint64(id))
	}
	if u, _ := userOption(data, "opponent"); u != "" {
		g, err := b.play.LastBetween(ctx, in.i.GuildID, in.user, u)
		if isNoGame(err) {
			return g, in.explain(tr(in.lang, "export.none_between", map[string]any{"Player": mention(u)}))
		}
		return g, err
	}
	g, err := b.play.LastIn(ctx, in.i.GuildID, in.i.ChannelID)
	if isNoGame(err) {
		return g, in.explain(tr(in.lang, "export.none_here", nil))
	}
	return g, err
}

// visibleGame returns game id if the user may see it: a game of this
// server, or one they played. Any other is answered as unknown, so that
// no one learns of games on servers they are not in.
func (b *Bot) visibleGame(in *interaction, id uint64) (play.Game, error) {
	g, err := b.play.Game(context.Background(), id)
	if err == nil && g.Guild != in.i.GuildID {
		if _, played := g.ColorOf(in.user); !played {
			err = &play.Refusal{Kind: play.NoGame, Game: id}
		}
	}
	if isNoGame(err) {
		return g, in.explain(tr(in.lang, "export.no_such_game", map[string]any{"ID": id}))
	}
	return g, err
}

func isNoGame(err error) bool {
	var x *play.Refusal
	return errors.As(err, &x) && x.Kind == play.NoGame
}

// explain tells the user why not, and returns errNotHere.
func (in *interaction) explain(text string) error {
	if err := in.tell(text); err != nil {
		return err
	}
	return errNotHere
}

// deferReply acknowledges a command whose answer may take a while; the
// answer comes with edit.
func (in *interaction) deferReply(ephemeral bool) error {
	in.answered = true
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if ephemeral {
		r.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	return in.b.s.InteractionRespond(in.i, r)
}

// userOption returns the id and display name of a user option, or "".
func userOption(data discordgo.ApplicationCommandInteractionData, name string) (id, display string) {
	o := options(data)[name]
	if o == nil {
		return "", ""
	}
	u := o.UserValue(nil)
	if u == nil || u.ID == "" {
		return "", ""
	}
	id = u.ID
	if r := data.Resolved; r != nil {
		if ru := r.Users[id]; ru != nil {
			display = displayName(ru)
		}
		if rm := r.Members[id]; rm != nil && rm.Nick != "" {
			display = rm.Nick
		}
	}
	return id, display
}

// onGuildCreate and onGuildUpdate remember the servers' names, which the
// gateway sends when it connects and when one is renamed.
func (b *Bot) onGuildCreate(_ *discordgo.Session, g *discordgo.GuildCreate) {
	if g.Guild != nil && g.Name != "" {
		b.guildNames.Store(g.ID, g.Name)
	}
}

func (b *Bot) onGuildUpdate(_ *discordgo.Session, g *discordgo.GuildUpdate) {
	if g.Guild != nil && g.Name != "" {
		b.guildNames.Store(g.ID, g.Name)
	}
}

// siteName is a game's PGN Site: the server's name, from the gateway's
// events or, for a server not seen yet, asked of Discord once.
func (b *Bot) siteName(guild string) string {
	if guild == "" {
		return "Discord"
	}
	if name, ok := b.guildNames.Load(guild); ok {
		return name.(string) + ", Discord"
	}
	g, err := b.s.Guild(guild)
	if err != nil || g.Name == "" {
		b.log.Warn("no name for a guild", "guild", guild, "err", err)
		return "Discord"
	}
	b.guildNames.Store(guild, g.Name)
	return g.Name + ", Discord"
}

// scopeOf returns play's scope for a leaderboard scope in a guild.
func scopeOf(scope, guild string) string {
	if scope == scopeGlobal {
		return ""
	}
	return guild
}
