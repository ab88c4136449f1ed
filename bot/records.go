package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

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

// Leaderboards, as the command's board option names them: the games'
// ratings, or the puzzles'.
const (
	boardGames   = "games"
	boardPuzzles = "puzzles"
)

// records answers the commands of results (/leaderboard, /stats, /pgn,
// /gif, /history) and their clicks. It holds what every feature shares,
// the visibility rule's sight, the cooldowns, the replays being drawn,
// the servers' names, the languages, the tournaments /stats lists and
// the puzzles, whose leaderboard is one of its boards.
type records struct {
	*shared
	sight       *sight
	cooldowns   *cooldowns
	drawing     *drawing
	guildNames  *guildNames
	locales     *locales
	tournaments *tournaments
	puzzles     *puzzleDesk
}

func recordsOf(b *Bot) *records { return b.records }

func init() {
	addCommand(appCommand{name: "leaderboard", run: runBy(recordsOf, (*records).leaderboardCommand), help: helpResults + 1,
		declare: func(*Config) *discordgo.ApplicationCommand {
			page := option("leaderboard", "page", discordgo.ApplicationCommandOptionInteger, false)
			page.MinValue = ptr(1.0)
			return command("leaderboard", option("leaderboard", "scope", discordgo.ApplicationCommandOptionString, false, scopeServer, scopeGlobal), page, speedOption(),
				option("leaderboard", "board", discordgo.ApplicationCommandOptionString, false, boardGames, boardPuzzles))
		}})
	addCommand(appCommand{name: "stats", run: runBy(recordsOf, (*records).statsCommand), help: helpResults + 2,
		declare: func(*Config) *discordgo.ApplicationCommand {
			return command("stats", option("stats", "user", discordgo.ApplicationCommandOptionUser, false), speedOption())
		}})
	addCommand(appCommand{name: "history", run: runBy(recordsOf, (*records).historyCommand), help: helpResults + 3,
		declare: func(*Config) *discordgo.ApplicationCommand {
			return command("history", option("history", "user", discordgo.ApplicationCommandOptionUser, false))
		}})
	addCommand(appCommand{name: "pgn", reach: anywhere, run: runBy(recordsOf, (*records).pgnCommand), help: helpResults + 4, declare: declarePick("pgn")})
	addCommand(appCommand{name: "gif", run: runBy(recordsOf, (*records).gifCommand), help: helpResults + 5, declare: declarePick("gif")})
	addCommand(appCommand{name: "variantstats", run: runBy(recordsOf, (*records).variantStatsCommand), help: helpResults + 6, declare: plain("variantstats")})
	clicks.handle(idLeaderboard, clickBy(recordsOf, (*records).leaderboardClick))
	clicks.handle(idHistoryPGN, clickBy(recordsOf, func(rs *records, in *interaction, _ idFields) error { return rs.historyPick(in, false) }))
	clicks.handle(idHistoryGIF, clickBy(recordsOf, func(rs *records, in *interaction, _ idFields) error { return rs.historyPick(in, true) }))
	clicks.handle(idHistoryOlder, clickBy(recordsOf, (*records).historyOlderClick))
}

var (
	// idLeaderboard is a page of a leaderboard.
	idLeaderboard = pattern("lb:{scope}:{page}")
	// idHistoryPGN and idHistoryGIF are /history's menus, the game's id
	// as their value; idHistoryOlder its button to older games.
	idHistoryPGN   = pattern("rec:pgn")
	idHistoryGIF   = pattern("rec:gif")
	idHistoryOlder = pattern("rec:older:{user}:{before}")
)

// declarePick declares /pgn or /gif: a game by number or opponent.
func declarePick(name string) func(*Config) *discordgo.ApplicationCommand {
	return func(*Config) *discordgo.ApplicationCommand {
		id := option(name, "game", discordgo.ApplicationCommandOptionInteger, false)
		id.MinValue = ptr(1.0)
		return command(name, id, option(name, "opponent", discordgo.ApplicationCommandOptionUser, false))
	}
}

func (rs *records) leaderboardCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	opts := options(data)
	scope, page := scopeServer, 1
	if o := opts["scope"]; o != nil && o.StringValue() == scopeGlobal {
		scope = scopeGlobal
	}
	if o := opts["page"]; o != nil {
		page = int(o.IntValue())
	}
	if o := opts["board"]; o != nil && o.StringValue() == boardPuzzles {
		m, err := rs.puzzles.puzzleBoardMessage(in.ctx, in.public, in.i.GuildID, page)
		if err != nil {
			return err
		}
		return in.respond(m)
	}
	m, err := rs.leaderboardMessage(in.ctx, in.public, in.i.GuildID, boardScope(scope, speedIn(opts)), page)
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (rs *records) statsCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	target := in.seat
	if u, name := userOption(data, "user"); u != "" {
		target = play.Seat{ID: u, Name: name}
	}
	m, err := rs.statsMessage(in.ctx, in.public, in.i.GuildID, target, in.user, speedIn(options(data)))
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (rs *records) variantStatsCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	m, err := rs.variantStatsMessage(in.ctx, in.public, in.i.GuildID)
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (rs *records) pgnCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := rs.pickGame(in, data)
	if err != nil {
		return err
	}
	m, err := rs.pgnMessage(in.ctx, in.public, &g)
	if err != nil {
		return err
	}
	return in.respond(m)
}

// gifCommand defers: drawing a long game takes a while.
func (rs *records) gifCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := rs.pickGame(in, data)
	if err != nil {
		return err
	}
	if _, err := rs.cooldowns.cooledDown(in, coolGIF); err != nil {
		return err
	}
	if err := in.deferReply(false); err != nil {
		return err
	}
	m, err := rs.gifMessage(in.ctx, in.public, &g)
	if err != nil {
		return err
	}
	return in.edit(m)
}

func (rs *records) historyCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	target := in.seat
	if u, name := userOption(data, "user"); u != "" {
		target = play.Seat{ID: u, Name: name}
	}
	see := rs.historySight(in, target.ID, func() error { return in.deferReply(true) })
	m, err := rs.historyMessage(in.ctx, in.lang, in.i.GuildID, target, 0, see)
	if err != nil {
		return err
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// historySight is the filter of another player's /history: only the
// games the asker may see. Looking at their channels may take longer
// than Discord waits for an answer, so the interaction is acknowledged
// (ack) before the first look. A player's own games need none.
func (rs *records) historySight(in *interaction, target string, ack func() error) func(*play.Game) (bool, error) {
	if target == in.user {
		return nil
	}
	return func(g *play.Game) (bool, error) {
		if _, played := g.ColorOf(in.user); played {
			return true, nil
		}
		if !in.answered {
			if err := ack(); err != nil {
				return false, err
			}
		}
		return rs.sight.canSee(in, g)
	}
}

// leaderboardClick turns a leaderboard's page.
func (rs *records) leaderboardClick(in *interaction, f idFields) error {
	scope := f.str("scope")
	page, err := f.num("page")
	if _, _, ok := parseBoardScope(scope); err != nil || !(ok || scope == boardPuzzles) || page > math.MaxInt32 {
		return fmt.Errorf("%w: leaderboard %q page %q", errBadCustomID, scope, f.str("page"))
	}
	if scope == boardPuzzles {
		m, err := rs.puzzles.puzzleBoardMessage(in.ctx, in.public, in.i.GuildID, int(page))
		if err != nil {
			return err
		}
		return in.update(m)
	}
	m, err := rs.leaderboardMessage(in.ctx, in.public, in.i.GuildID, scope, int(page))
	if err != nil {
		return err
	}
	return in.update(m)
}

// historyPick answers a game chosen in /history's menus: its PGN, or
// its replay.
func (rs *records) historyPick(in *interaction, gif bool) error {
	id, err := menuNumber(in)
	if err != nil {
		return err
	}
	g, err := rs.sight.visibleGame(in, id)
	if err != nil {
		return err
	}
	if !gif {
		m, err := rs.pgnMessage(in.ctx, in.lang, &g)
		if err != nil {
			return err
		}
		m.Flags = discordgo.MessageFlagsEphemeral
		return in.respond(m)
	}
	if _, err := rs.cooldowns.cooledDown(in, coolGIF); err != nil {
		return err
	}
	if err := in.deferReply(true); err != nil {
		return err
	}
	m, err := rs.gifMessage(in.ctx, in.lang, &g)
	if err != nil {
		return err
	}
	return in.edit(m)
}

// historyOlderClick shows a /history's older games.
func (rs *records) historyOlderClick(in *interaction, f idFields) error {
	before, err := f.num("before")
	if err != nil {
		return err
	}
	target := f.str("user")
	m, err := rs.historyMessage(in.ctx, in.lang, in.i.GuildID, play.Seat{ID: target}, before, rs.historySight(in, target, in.deferUpdate))
	if err != nil {
		return err
	}
	if in.answered { // acknowledged before looking at channels
		return in.edit(m)
	}
	return in.update(m)
}

// pickGame finds the game /pgn or /gif asks for: by its number, the last
// one finished against an opponent, or this channel's (going on, or the
// last finished here: a game's thread keeps its game). When there is none
// it tells the user and returns errNotHere.
func (rs *records) pickGame(in *interaction, data discordgo.ApplicationCommandInteractionData) (play.Game, error) {
	ctx := in.ctx
	opts := options(data)
	if o := opts["game"]; o != nil {
		id := o.IntValue()
		if id <= 0 {
			return play.Game{}, in.explain(tr(in.lang, "export.no_such_game", map[string]any{"ID": id}))
		}
		return rs.sight.visibleGame(in, uint64(id))
	}
	if u, _ := userOption(data, "opponent"); u != "" {
		g, err := rs.play.LastBetween(ctx, in.i.GuildID, in.user, u)
		if isNoGame(err) {
			return g, in.explain(tr(in.lang, "export.none_between", map[string]any{"Player": mention(u)}))
		}
		return g, err
	}
	g, err := rs.play.LastIn(ctx, in.i.GuildID, in.i.ChannelID)
	if err == nil {
		var ok bool
		if ok, err = rs.sight.canSee(in, &g); err == nil && !ok {
			err = &play.Refusal{Kind: play.NoGame}
		}
	}
	if isNoGame(err) {
		return g, in.explain(tr(in.lang, "export.none_here", nil))
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
	in.answered, in.pending, in.pendingPrivate = true, true, ephemeral
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if ephemeral {
		r.Data = &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}
	}
	return in.out.respondPlain(in.ctx, in.i, r)
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

// guildNames are the servers' names, for PGN's Site.
type guildNames struct {
	byID sync.Map // guild id → name
}

func (n *guildNames) note(guild, name string) { n.byID.Store(guild, name) }

func (n *guildNames) known(guild string) (string, bool) {
	v, ok := n.byID.Load(guild)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// onGuildCreate and onGuildUpdate remember the servers' names, which the
// gateway sends when it connects and when one is renamed.
func (b *Bot) onGuildCreate(_ *discordgo.Session, g *discordgo.GuildCreate) {
	if g.Guild != nil && g.Name != "" {
		b.guildNames.note(g.ID, g.Name)
	}
}

func (b *Bot) onGuildUpdate(_ *discordgo.Session, g *discordgo.GuildUpdate) {
	if g.Guild != nil && g.Name != "" {
		b.guildNames.note(g.ID, g.Name)
	}
}

// siteName is a game's PGN Site: the server's name, from the gateway's
// events or, for a server not seen yet, asked of Discord once.
func (rs *records) siteName(ctx context.Context, guild string) string {
	if guild == "" {
		return "Discord"
	}
	if name, ok := rs.guildNames.known(guild); ok {
		return name + ", Discord"
	}
	g, err := rs.s.Guild(guild, discordgo.WithContext(ctx))
	if err != nil || g.Name == "" {
		rs.log.Warn("no name for a guild", "guild", guild, "err", err)
		return "Discord"
	}
	rs.guildNames.note(guild, g.Name)
	return g.Name + ", Discord"
}

// scopeOf returns play's scope for a leaderboard scope in a guild.
func scopeOf(scope, guild string) string {
	if scope == scopeGlobal {
		return ""
	}
	return guild
}
