package bot

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/render"
)

// Embed colours: ice blue while the game goes on, grey once it is over.
const (
	colorOngoing = 0x7fc8f8
	colorOver    = 0x8a8f98
)

// movesShown is how many of the last moves an embed lists.
const movesShown = 12

// view is what a board message shows: the game, and optionally the move
// just played and a fixed side at the bottom.
type view struct {
	g *play.Game
	// ice is the Ice Age the move just played brought, and after the
	// position it left (from the act's events); nil when none came.
	ice   *game.IceAge
	after game.Position
	// headline is a line above the board, e.g. "Nxf6" or "draw offered".
	headline string
	flip     bool // show the board from the other side than usual
	buttons  bool // the game's buttons (Resign, Offer draw, Flip)
	ping     bool // name the player to move
	// mention are the players the board notifies: those the act
	// decided to tell by a mention (round.Delivery.Mentions).
	mention []string
	// act is the delivery of the act the board shows, if any: its
	// theme is the one the act read (round.Delivery.Theme).
	act *round.Delivery
}

// boards draw the messages that show a game: its board, its buttons,
// its status. They hold what every feature shares and the bot's
// identity, the engine's seat.
type boards struct {
	*shared
	self *identity
}

// boardMessage builds the message of a game's board in lang.
func (bd *boards) boardMessage(ctx context.Context, lang i18n.Lang, v view) (*message, error) {
	g := v.g
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	last := game.NullMove
	if n := len(g.Moves); n > 0 {
		last, _ = game.ParseUCI(g.Moves[n-1].UCI)
	}
	orient := render.SideToMove
	if v.flip {
		orient = render.WhiteBottom
		if pos.Turn() == game.White {
			orient = render.BlackBottom
		}
	}
	// The board is drawn as the player it waits for likes it: as the
	// act read it from their settings, or as they are now.
	var theme render.Theme
	if v.act != nil {
		theme = themeOf(&play.Prefs{Theme: v.act.Theme}, bd.cfg.Theme)
	} else {
		theme = bd.gameTheme(ctx, g)
	}
	var png bytes.Buffer
	if err := render.PNG(&png, &pos, render.Options{LastMove: last, Orientation: orient, Theme: theme, NoHeader: true, FastPNG: true,
		Clocks: renderClocks(g, bd.cfg.Now())}); err != nil {
		return nil, fmt.Errorf("bot: drawing game %d: %w", g.ID, err)
	}
	m := &message{}
	m.attach(image{name: "board.png", data: png.Bytes(), alt: i18n.BoardDescription(lang, &pos)})
	e := &discordgo.MessageEmbed{
		Title:       tr(lang, "board.title", map[string]any{"White": g.White.Name, "Black": g.Black.Name}),
		Description: bd.status(ctx, lang, g, &pos),
		Color:       colorOngoing,
		Image:       &discordgo.MessageEmbedImage{URL: "attachment://board.png"},
		Fields: []*discordgo.MessageEmbedField{
			{Name: tr(lang, "board.white", nil), Value: seatText(g.White), Inline: true},
			{Name: tr(lang, "board.black", nil), Value: seatText(g.Black), Inline: true},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: footer(lang, g)},
	}
	if moves := moveList(g); moves != "" {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: tr(lang, "board.moves", nil), Value: moves})
	}
	if g.Over() {
		e.Color = colorOver
	}
	m.Embeds = []*discordgo.MessageEmbed{e}
	if ice := v.ice; ice != nil {
		var pic bytes.Buffer
		if err := render.IceAge(&pic, ice, &v.after, render.Options{Theme: theme, NoHeader: true, Size: 384, FastPNG: true,
			Captions: i18n.IceAgeCaptions(lang)}); err != nil {
			return nil, fmt.Errorf("bot: drawing the Ice Age of game %d: %w", g.ID, err)
		}
		m.attach(image{name: "iceage.png", data: pic.Bytes(), alt: i18n.IceAgeDescription(lang, ice, &v.after)})
		m.Embeds = append(m.Embeds, &discordgo.MessageEmbed{
			Title:       tr(lang, "iceage.title", nil),
			Description: i18n.IceAgeNews(lang, ice),
			Color:       colorOngoing,
			Image:       &discordgo.MessageEmbedImage{URL: "attachment://iceage.png"},
		})
	}
	var lines []string
	if v.headline != "" {
		lines = append(lines, v.headline)
	}
	if g.Over() {
		lines = append(lines, "**"+i18n.Outcome(lang, g.Outcome)+"**")
	} else if v.ping && g.EngineToMove() > 0 {
		lines = append(lines, tr(lang, "engine.thinking", nil))
	} else if v.ping {
		to := g.ToMove()
		lines = append(lines, tr(lang, "board.your_move", map[string]any{"Player": mention(to.ID)}))
	}
	if v.buttons && g.Ply() == 0 && !g.Over() && bd.firstGame(ctx, g) {
		lines = append(lines, "♟️ "+tr(lang, "clickmove.how_to", nil))
	}
	if len(lines) > 0 {
		m.Content = strings.Join(lines, "\n")
	}
	m.mentionOnly(v.mention...)
	switch {
	case g.Over():
		m.Components = rematchButtons(lang, g)
	case v.buttons:
		m.Components = append(gameButtons(lang, g), bd.activityRow(lang, g)...)
	}
	m.Components = bd.withWatchLive(lang, g, m.Components)
	return m, nil
}

// firstGame reports whether g, not yet begun, is the first game of one
// of its players: none finished before, and no other going on. Its board
// then says how to move.
func (bd *boards) firstGame(ctx context.Context, g *play.Game) bool {
	for _, user := range g.Players() {
		if bd.self.isEngine(user) {
			continue
		}
		done, err := bd.play.History(ctx, user, "", 0, 1)
		if err != nil || len(done) > 0 {
			continue
		}
		if going, err := bd.play.ActiveGames(ctx, user); err == nil && len(going) <= 1 {
			return true
		}
	}
	return false
}

func seatText(s play.Seat) string {
	if s.Name != "" {
		return mention(s.ID)
	}
	return mention(s.ID)
}

// status is the embed's description: whose move, the Ice Age countdown,
// the deadline, a pending offer.
func (bd *boards) status(ctx context.Context, lang i18n.Lang, g *play.Game, pos *game.Position) string {
	if g.Over() {
		return i18n.Outcome(lang, g.Outcome)
	}
	var lines []string
	turn := "board.turn.white"
	if pos.Turn() == game.Black {
		turn = "board.turn.black"
	}
	lines = append(lines, tr(lang, turn, map[string]any{"Player": mention(g.ToMove().ID), "Number": pos.FullMoveNumber()}))
	if pos.InCheck() {
		lines = append(lines, tr(lang, "board.check", nil))
	}
	lines = append(lines, "❄️ "+i18n.IceAgeCountdown(lang, pos))
	if w := i18n.WouldFreeze(lang, pos); w != "" {
		lines = append(lines, "⚠️ "+w)
	}
	if g.Clock != nil {
		lines = append(lines, clockLines(lang, g, bd.cfg.Now())...)
	} else if !g.Deadline.IsZero() && g.Flag == nil && g.EngineToMove() == 0 {
		lines = append(lines, "⏳ "+tr(lang, "board.deadline", map[string]any{"When": timestamp(g.Deadline, "R")}))
	}
	lines = append(lines, bd.correspondenceStatus(ctx, lang, g)...)
	if o := g.DrawOffer; o != nil {
		lines = append(lines, "🤝 "+tr(lang, "board.draw_offered", map[string]any{"Player": mention(o.By)}))
	}
	if o := g.Takeback; o != nil {
		lines = append(lines, "↩️ "+tr(lang, "board.takeback_requested", map[string]any{"Player": mention(o.By)}))
	}
	return strings.Join(lines, "\n")
}

// moveList returns the tail of the move list, numbered, from the SANs
// the moves carry (the act's, or the record's as read): it replays
// nothing.
func moveList(g *play.Game) string {
	sans, err := g.SANs()
	if err != nil {
		return ""
	}
	start, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return ""
	}
	parts := i18n.NumberedMoves(&start, sans)
	if len(parts) > movesShown {
		parts = append([]string{"…"}, parts[len(parts)-movesShown:]...)
	}
	return strings.Join(parts, " ")
}

func footer(lang i18n.Lang, g *play.Game) string {
	kind := tr(lang, "board.casual", nil)
	if g.Rated {
		kind = tr(lang, "board.rated", nil)
	}
	clock := timeTerms(lang, g.TimeControl(), g.DaysPerMove)
	return fmt.Sprintf("%s · %s · #%d", kind, clock, g.ID)
}

// timestamp is a Discord timestamp, shown in each reader's time zone.
func timestamp(t time.Time, style string) string {
	return fmt.Sprintf("<t:%d:%s>", t.Unix(), style)
}

// gameButtons are the components under a board: the menu of the men
// that can move (one click on a man answers its mover, privately, with
// its moves: clickmove.go), then Resign, Offer draw, Flip and Abort. They
// carry the game's id and revision, so a click on an older board is
// refused as stale.
//
// The board stays an embed with action rows rather than Discord's
// Components V2 (containers, text displays, a media gallery): a V2
// message must carry the flag 1<<15 on every post and every edit, and
// the bot's boards are often edits of a deferred answer, which
// discordgo v0.29.0 sends without flags; V2 also forbids content and
// embeds, so every board, the outbox's posts and the tests would change
// at once for a layout that two rows already give: the men's menu and
// the buttons, well inside Discord's five rows.
func gameButtons(lang i18n.Lang, g *play.Game) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	if g.Flag == nil && g.EngineToMove() == 0 {
		if pos, err := g.Position(); err == nil {
			if menu, ok := menMenuOf(lang, g, &pos); ok {
				rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
			}
		}
	}
	row := discordgo.ActionsRow{}
	row.Components = append(row.Components,
		discordgo.Button{Label: tr(lang, "button.resign", nil), Style: discordgo.DangerButton, CustomID: idResign.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🏳️"}},
		discordgo.Button{Label: tr(lang, "button.offer_draw", nil), Style: discordgo.SecondaryButton, CustomID: idDraw.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🤝"}},
		discordgo.Button{Label: tr(lang, "button.flip", nil), Style: discordgo.SecondaryButton, CustomID: idFlip.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "🔄"}},
	)
	if g.Abortable() {
		row.Components = append(row.Components, discordgo.Button{Label: tr(lang, "button.abort", nil), Style: discordgo.SecondaryButton, CustomID: idAbort.forGame(g)})
	}
	return append(rows, row)
}
