package bot

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// /games: a player's games in this server, those where it is their move
// first, with a menu that links to a game's board in its thread.

// gameList answers /games and its menu, which posts a game's board
// again. It holds what every feature shares, the languages, the boards
// and the threads whose older boards it retires.
type gameList struct {
	*shared
	locales *locales
	boards  *boards
	threads *threads
}

func gameListOf(b *Bot) *gameList { return b.gameList }

func init() {
	addCommand(appCommand{name: "games", reach: anywhere, run: runBy(gameListOf, (*gameList).gamesCommand), help: helpCorrespondence + 1, declare: plain("games")})
	clicks.handle(idGamesOpen, clickBy(gameListOf, func(gl *gameList, in *interaction, _ idFields) error { return gl.gamesSelect(in) }))
}

// idGamesOpen is /games' menu; its value is the game's id.
var idGamesOpen = pattern("gs:open")

// gamesShown is how many games /games lists; a select menu takes 25.
const (
	gamesShown   = 20
	gamesOptions = 25
)

// myMove reports whether user is the one to act in g: to move, or to
// choose after the opponent's time ran out.
func myMove(g *play.Game, user string) bool {
	if g.Flag != nil {
		return g.Flag.By == user
	}
	return g.ToMove().ID == user
}

// gamesCommand is /games: the user's active games in this server, those
// where they are to act first, then by deadline.
func (gl *gameList) gamesCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	all, err := gl.play.ActiveGames(in.ctx, in.user)
	if err != nil {
		return err
	}
	var gs []play.Game
	for _, g := range all {
		if g.Guild == in.i.GuildID {
			gs = append(gs, g)
		}
	}
	sortGames(gs, in.user)
	m := gamesMessage(in.lang, in.user, gs, gl.prefs(in.ctx, in.user), gl.cfg.Now)
	if in.i.GuildID == "" {
		// In a DM: the games of DMs, each with its link.
		e := m.Embeds[0]
		e.Title = tr(in.lang, "install.games_title", nil)
		if len(gs) == 0 {
			e.Description = strings.Replace(e.Description, tr(in.lang, "games.none", nil), tr(in.lang, "install.games_none", nil), 1)
		}
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// sortGames puts the games where user is to act first, then the others,
// each by deadline (none last), then by age.
func sortGames(gs []play.Game, user string) {
	slices.SortStableFunc(gs, func(a, b play.Game) int {
		ma, mb := myMove(&a, user), myMove(&b, user)
		if ma != mb {
			if ma {
				return -1
			}
			return 1
		}
		if a.Deadline.IsZero() != b.Deadline.IsZero() {
			if a.Deadline.IsZero() {
				return 1
			}
			return -1
		}
		return cmp.Or(a.Deadline.Compare(b.Deadline), cmp.Compare(a.ID, b.ID))
	})
}

// descriptionLimit is the most characters Discord takes in an embed's
// description.
const descriptionLimit = 4096

// gamesMessage is /games' answer: an embed with a line per game and a
// menu to open one.
func gamesMessage(lang i18n.Lang, user string, gs []play.Game, p play.Prefs, now func() time.Time) *message {
	m := &message{}
	e := &discordgo.MessageEmbed{Title: tr(lang, "games.title", nil), Color: colorOngoing}
	m.Embeds = []*discordgo.MessageEmbed{e}
	var head []string
	if p.Away(now()) {
		head = append(head, "🏖️ "+tr(lang, "games.you_away", map[string]any{"When": timestamp(p.AwayUntil, "f")}))
	}
	if len(gs) == 0 {
		e.Description = strings.Join(append(head, tr(lang, "games.none", nil)), "\n")
		return m
	}
	mine := 0
	for i := range gs {
		if myMove(&gs[i], user) {
			mine++
		}
	}
	head = append(head, i18n.N(lang, "games.your_move_count", mine, nil))
	var lines []string
	for i := range gs[:min(len(gs), gamesShown)] {
		lines = append(lines, gameLine(lang, user, &gs[i], now()))
	}
	more := func(n int) string { return i18n.N(lang, "games.more", n, nil) }
	e.Description = fit(strings.Join(head, "\n"), lines, "\n\n", descriptionLimit, max(len(gs)-gamesShown, 0), more)
	menu := discordgo.SelectMenu{CustomID: idGamesOpen.id(), Placeholder: tr(lang, "games.select", nil)}
	for i := range gs[:min(len(gs), gamesOptions)] {
		g := &gs[i]
		opp := opponentOf(g, user)
		name := opp.Name
		if name == "" {
			name = opp.ID
		}
		pos, _ := g.Position()
		desc := tr(lang, "games.option_their_move", map[string]any{"Number": pos.FullMoveNumber()})
		if myMove(g, user) {
			desc = tr(lang, "games.option_your_move", map[string]any{"Number": pos.FullMoveNumber()})
		}
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{
			Label: truncate(tr(lang, "games.vs", map[string]any{"Opponent": name}), 100), Value: strconv.FormatUint(g.ID, 10),
			Description: truncate(desc+" · #"+strconv.FormatUint(g.ID, 10), 100)})
	}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}}}
	return m
}

// gameLine is one game in /games.
func gameLine(lang i18n.Lang, user string, g *play.Game, now time.Time) string {
	opp := opponentOf(g, user)
	pos, _ := g.Position()
	var state string
	switch {
	case g.Flag != nil && g.Flag.By == user:
		state = "⚖️ **" + tr(lang, "games.you_choose", nil) + "**"
	case g.Flag != nil:
		state = "⚖️ " + tr(lang, "games.they_choose", nil)
	case g.ToMove().ID == user:
		state = "🟢 **" + tr(lang, "games.your_move", nil) + "**"
	default:
		state = "⚪ " + tr(lang, "games.their_move", nil)
	}
	first := []string{state, tr(lang, "games.vs", map[string]any{"Opponent": mention(opp.ID)}),
		tr(lang, "games.move", map[string]any{"Number": pos.FullMoveNumber()}), channelRef(g)}
	var second []string
	if !g.Deadline.IsZero() {
		second = append(second, "⏳ "+tr(lang, "games.due", map[string]any{"When": timestamp(g.Deadline, "R")}))
	} else {
		second = append(second, "⏳ "+tr(lang, "choice.no_limit", nil))
	}
	second = append(second, "❄️ "+i18n.IceAgeCountdown(lang, &pos))
	for _, c := range []game.Color{game.White, game.Black} {
		if g.Away(c, now) {
			second = append(second, "🏖️ "+tr(lang, "games.away", map[string]any{"Player": mention(g.Seat(c).ID), "When": timestamp(g.AwayUntil[c], "d")}))
		}
	}
	if q := g.Premoves; q != nil && q.By == user {
		second = append(second, "📋 "+i18n.N(lang, "games.premoves", len(q.Lines), nil))
	}
	return strings.Join(first, " · ") + "\n" + strings.Join(second, " · ")
}

// gamesSelect opens a game chosen in /games' menu: it answers privately
// with a link to the game's current board, in its thread, where the
// buttons work. Only when no board of the game is left there (deleted,
// or pushed out by talk) is a new one posted.
func (gl *gameList) gamesSelect(in *interaction) error {
	id, err := menuNumber(in)
	if err != nil {
		return err
	}
	g, err := gl.play.PlayersGame(in.ctx, id, in.user)
	if err != nil {
		return err
	}
	m, err := gl.boards.boardMessage(in.ctx, gl.locales.guildLang(in.ctx, g.Guild), view{g: &g, buttons: !g.Over() && g.Flag == nil})
	if err != nil {
		return err
	}
	if g.Flag != nil {
		m.Components = claimButtons(gl.locales.guildLang(in.ctx, g.Guild), &g)
	}
	if g.Private {
		// The bot may not post in the game's DM: the board is for the
		// asker alone, with the way to it; they act there.
		m.Components = []discordgo.MessageComponent{}
		m.Content = tr(in.lang, "install.board_there", map[string]any{"Game": gameLink(&g)})
		m.Flags = discordgo.MessageFlagsEphemeral
		return in.respond(m)
	}
	// Reading the channel, and posting, may wait on Discord: acknowledge
	// first.
	if err := in.deferReply(true); err != nil {
		return err
	}
	board, err := gl.currentBoard(in.ctx, &g)
	if err != nil {
		// Without the channel's history (no permission to read it, say),
		// a new board is the way to the game.
		gl.log.Warn("no current board to link to; posting one", "game", g.ID, "err", err)
	}
	if board != "" {
		return in.tell(tr(in.lang, "games.current", map[string]any{"Board": messageLink(&g, board)}))
	}
	if _, err := gl.post(in.ctx, g.Channel, m); err != nil {
		return err
	}
	gl.threads.retireBoards(&g, g.Channel)
	return in.tell(tr(in.lang, "games.posted", map[string]any{"Channel": channelRef(&g)}))
}

// currentBoard is the id of the newest board of g in its channel that
// still has its buttons, found as retireBoards finds them; "" if none is
// among the channel's newest messages or they cannot be read.
func (gl *gameList) currentBoard(ctx context.Context, g *play.Game) (string, error) {
	msgs, err := gl.scanBoards(ctx, g.Channel, liveBoardLookback)
	if err != nil {
		return "", fmt.Errorf("reading the channel of game %d for its board: %w", g.ID, err)
	}
	for _, m := range msgs { // newest first
		if gl.threads.isBoardOf(m, g.ID) {
			return m.ID, nil
		}
	}
	return "", nil
}
