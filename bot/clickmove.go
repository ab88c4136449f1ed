package bot

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/render"
)

// Moves by clicking, for phones and for players who do not know SAN: a
// board offers, in a menu, the men of the side to move that can move
// (gameButtons); choosing one answers the player to move alone, privately,
// with that man's legal moves in SAN (checks and captures first, in
// pages of 25), a board where its targets are marked and, for a man with
// few moves, a preview of the board after each, which says when a move
// leaves the mover's men to freeze at the coming Ice Age; choosing a
// move plays it exactly as /move does. Two clicks from the board. Every
// step carries the game's revision, so a menu left open after the game
// moved on is refused as stale. The Move button of older boards still
// opens the men's menu privately.

func init() {
	clicks.handle(idMove, gameAct(tablesOf, (*tables).moveClick))
	clicks.handle(idMoveMan, gameAct(tablesOf, (*tables).moveManChosen))
	clicks.handle(idMoveTo, gameAct(tablesOf, (*tables).moveChosen))
	clicks.handle(idMovePage, clickBy(tablesOf, (*tables).movePageClick))
}

var (
	// idMove is the Move button of a board.
	idMove = gamePattern("mv")
	// idMoveMan is the menu of the men that can move; its value is a
	// man's square.
	idMoveMan = pattern("mv:man:{game}:{rev}")
	// idMoveTo is the menu of one man's moves; its value is a move in UCI.
	idMoveTo = pattern("mv:to:{game}:{rev}")
	// idMovePage turns the pages of a man's moves.
	idMovePage = pattern("mv:page:{game}:{rev}:{from}:{page}")
)

// movesPerPage is how many of a man's moves a menu shows: Discord takes 25
// options, and a queen in the open has up to 27 moves.
const movesPerPage = 25

// movePreviewSize is the side of the board in a move menu: small, as the
// menu is ephemeral and read on a phone.
const movePreviewSize = 320

// A man with at most previewsShown moves gets a preview of the board
// after each, previewSize wide: four fit a message (Discord takes ten
// embeds) and a phone's screen.
const (
	previewsShown = 4
	previewSize   = 256
)

// orientationOf shows a preview from the mover's side, as the menu's
// board is.
func orientationOf(mover game.Color) render.Orientation {
	if mover == game.Black {
		return render.BlackBottom
	}
	return render.WhiteBottom
}

// yourTurn returns the game of a click on a move menu when the clicker is
// the one to move in it, as the click's board showed it; otherwise play's
// refusal: not a player, not their turn, or a board that is no longer
// current.
func (tb *tables) yourTurn(in *interaction, a play.Act) (play.Game, error) {
	g, err := tb.play.PlayersGame(in.ctx, a.Game, in.user)
	if err != nil {
		return g, err
	}
	if g.Revision != a.Revision {
		return g, &play.Refusal{Kind: play.Stale, Game: g.ID, Revision: g.Revision}
	}
	if to := g.ToMove(); to.ID != in.user || g.Flag != nil {
		pos, _ := g.Position()
		return g, &play.Refusal{Kind: play.NotYourTurn, Game: g.ID, Who: to, Turn: pos.Turn()}
	}
	return g, nil
}

// moveClick answers the Move button: the men that can move, privately.
func (tb *tables) moveClick(in *interaction, a play.Act) error {
	g, err := tb.yourTurn(in, a)
	if err != nil {
		return err
	}
	m, err := tb.menMenu(in.lang, &g)
	if err != nil {
		return err
	}
	if onEphemeral(in) {
		// "Another man" in a menu: the menu turns back to the men.
		m.Embeds, m.Attachments = []*discordgo.MessageEmbed{}, []attachment{}
		return in.update(m)
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// onEphemeral reports whether a click was on a message only its clicker
// sees: a step of a move menu, which the next step replaces.
func onEphemeral(in *interaction) bool {
	return in.i.Type == discordgo.InteractionMessageComponent && in.i.Message != nil && in.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// menMenu is the men's menu alone, in a message: the Move button of an
// older board, and "Another man" in a menu of moves.
func (tb *tables) menMenu(lang i18n.Lang, g *play.Game) (*message, error) {
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	m := &message{Content: tr(lang, "clickmove.intro", nil)}
	if menu, ok := menMenuOf(lang, g, &pos); ok {
		m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}}}
	}
	return m, nil
}

// menMenuOf is the menu of every man that has a legal move in pos,
// kings first, then by kind and square; false when none has. A side has
// at most 16 men, so they always fit the 25 options of a menu.
func menMenuOf(lang i18n.Lang, g *play.Game, pos *game.Position) (discordgo.SelectMenu, bool) {
	var from []game.Square
	count := map[game.Square]int{}
	for _, ms := range pos.SANs() {
		s := ms.Move.From()
		if count[s] == 0 {
			from = append(from, s)
		}
		count[s]++
	}
	if len(from) == 0 {
		return discordgo.SelectMenu{}, false
	}
	slices.SortFunc(from, func(x, y game.Square) int {
		return cmp.Or(cmp.Compare(pos.PieceAt(y).Kind(), pos.PieceAt(x).Kind()), cmp.Compare(x, y))
	})
	menu := discordgo.SelectMenu{CustomID: idMoveMan.forGame(g), Placeholder: tr(lang, "clickmove.pick_man", nil)}
	for _, s := range from[:min(len(from), maxChoices)] {
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{
			Label: i18n.ManOn(lang, pos.PieceAt(s), s), Value: s.String(),
			Description: truncate(i18n.N(lang, "clickmove.man_moves", count[s], nil), 100),
		})
	}
	return menu, true
}

// moveManChosen answers the choice of a man: its moves.
func (tb *tables) moveManChosen(in *interaction, a play.Act) error {
	g, err := tb.yourTurn(in, a)
	if err != nil {
		return err
	}
	from, err := menuSquare(in)
	if err != nil {
		return err
	}
	return tb.showMoves(in, &g, from, 0)
}

// movePageClick turns to another page of a man's moves.
func (tb *tables) movePageClick(in *interaction, f idFields) error {
	a, err := clickedAct(in, f, tb.cfg.Now())
	if err != nil {
		return err
	}
	g, err := tb.yourTurn(in, a)
	if err != nil {
		return err
	}
	from, err := game.ParseSquare(f.str("from"))
	if err != nil {
		return fmt.Errorf("%w: square %q", errBadCustomID, f.str("from"))
	}
	page, err := f.num("page")
	if err != nil || page > 4 {
		return fmt.Errorf("%w: page %q", errBadCustomID, f.str("page"))
	}
	return tb.showMoves(in, &g, from, int(page))
}

// showMoves replaces the menu by one man's moves, a page of them, with a
// board where their targets are marked.
func (tb *tables) showMoves(in *interaction, g *play.Game, from game.Square, page int) error {
	pos, err := g.Position()
	if err != nil {
		return err
	}
	moves := movesFrom(&pos, from)
	if len(moves) == 0 {
		return in.tell(tr(in.lang, "clickmove.no_moves", map[string]any{"Square": from.String()}))
	}
	pages := (len(moves) + movesPerPage - 1) / movesPerPage
	page = min(page, pages-1)
	shown := moves[page*movesPerPage : min(len(moves), (page+1)*movesPerPage)]
	menu := discordgo.SelectMenu{CustomID: idMoveTo.forGame(g), Placeholder: tr(in.lang, "clickmove.pick_move", nil)}
	theme := tb.theme(in.ctx, in.user) // the pictures are the clicker's alone
	opt := render.Options{Theme: theme, Size: movePreviewSize, NoHeader: true, FastPNG: true,
		Highlights: []render.Highlight{{Square: from, Mark: render.Info}}}
	for _, mv := range shown {
		menu.Options = append(menu.Options, discordgo.SelectMenuOption{Label: mv.SAN, Value: mv.Move.UCI(),
			Description: truncate(moveDescription(in.lang, &pos, mv), 100)})
		opt.Arrows = append(opt.Arrows, render.Arrow{From: from, To: mv.Move.To(), Mark: render.Hint})
	}
	var png bytes.Buffer
	if err := render.PNG(&png, &pos, opt); err != nil {
		return fmt.Errorf("bot: drawing the moves of game %d: %w", g.ID, err)
	}
	man := i18n.ManOn(in.lang, pos.PieceAt(from), from)
	m := &message{Content: tr(in.lang, "clickmove.moves_of", map[string]any{"Label": man})}
	m.attach(image{name: "moves.png", data: png.Bytes(), alt: i18n.BoardDescription(in.lang, &pos)})
	m.Embeds = []*discordgo.MessageEmbed{{Color: colorOngoing, Image: &discordgo.MessageEmbedImage{URL: "attachment://moves.png"}}}
	if len(moves) <= previewsShown {
		// Few moves: a preview of the board after each, where a phone
		// shows them side by side.
		for k, mv := range moves {
			after := pos.Apply(mv.Move)
			var pic bytes.Buffer
			if err := render.PNG(&pic, &after, render.Options{Theme: theme, Size: previewSize, NoHeader: true, FastPNG: true,
				LastMove: mv.Move, Orientation: orientationOf(pos.Turn())}); err != nil {
				return fmt.Errorf("bot: drawing a preview of game %d: %w", g.ID, err)
			}
			name := fmt.Sprintf("after-%d.png", k+1)
			m.attach(image{name: name, data: pic.Bytes(), alt: i18n.BoardDescription(in.lang, &after)})
			m.Embeds = append(m.Embeds, &discordgo.MessageEmbed{Color: colorOngoing, Title: mv.SAN,
				Description: moveDescription(in.lang, &pos, mv), Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}})
		}
	}
	m.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}}}
	nav := discordgo.ActionsRow{}
	if pages > 1 {
		nav.Components = append(nav.Components,
			discordgo.Button{Label: tr(in.lang, "button.previous", nil), Style: discordgo.SecondaryButton, Disabled: page == 0,
				CustomID: idMovePage.id(g.ID, g.Revision, from, max(page-1, 0)), Emoji: &discordgo.ComponentEmoji{Name: "◀️"}},
			discordgo.Button{Label: tr(in.lang, "button.next", nil), Style: discordgo.SecondaryButton, Disabled: page == pages-1,
				CustomID: idMovePage.id(g.ID, g.Revision, from, min(page+1, pages-1)), Emoji: &discordgo.ComponentEmoji{Name: "▶️"}})
	}
	nav.Components = append(nav.Components, discordgo.Button{Label: tr(in.lang, "clickmove.other_man", nil), Style: discordgo.SecondaryButton,
		CustomID: idMove.forGame(g), Emoji: &discordgo.ComponentEmoji{Name: "↩️"}})
	m.Components = append(m.Components, nav)
	if onEphemeral(in) {
		return in.update(m)
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

// moveChosen plays the move chosen in the menu, as /move would.
func (tb *tables) moveChosen(in *interaction, a play.Act) error {
	if _, err := tb.yourTurn(in, a); err != nil {
		return err
	}
	_, v, err := menuMove(in)
	if err != nil {
		return err
	}
	return tb.move(in, a, v)
}

// movesFrom returns the legal moves of the man on from in the order
// that completion offers them (game.Complete): checks first, then
// captures of men, then the others, each in SAN order.
func movesFrom(pos *game.Position, from game.Square) []game.MoveSAN {
	var out []game.MoveSAN
	for _, ms := range game.Complete(pos, "") {
		if ms.Move.From() == from {
			out = append(out, ms)
		}
	}
	return out
}

// moveDescription says what a move does, for its option: what it takes,
// a check, a mate, whether it brings the Ice Age.
func moveDescription(lang i18n.Lang, pos *game.Position, ms game.MoveSAN) string {
	var parts []string
	switch victim := pos.PieceAt(ms.Move.To()); {
	case isEnPassant(pos, ms.Move):
		parts = append(parts, tr(lang, "clickmove.takes_en_passant", nil))
	case pos.IsIce(ms.Move.To()):
		parts = append(parts, tr(lang, "clickmove.takes_ice", nil))
	case victim != game.NoPiece:
		parts = append(parts, tr(lang, "clickmove.takes", map[string]any{"Victim": i18n.PieceForms(lang, victim.Kind())}))
	default:
		parts = append(parts, tr(lang, "clickmove.to", map[string]any{"Square": ms.Move.To().String()}))
	}
	after, ev := pos.ApplyWithEvent(ms.Move)
	switch {
	case after.Outcome().Over():
		parts = append(parts, i18n.Outcome(lang, after.Outcome()))
	case after.InCheck():
		parts = append(parts, tr(lang, "clickmove.check", nil))
	}
	if after.Outcome().Over() {
		return strings.Join(parts, " · ")
	}
	mover := pos.Turn()
	if ev != nil {
		parts = append(parts, i18n.N(lang, "describe.men_frozen", len(ev.Frozen), nil))
		own := 0
		for _, f := range ev.Frozen {
			if f.Piece.Color() == mover {
				own++
			}
		}
		if own > 0 {
			parts = append(parts, i18n.N(lang, "clickmove.freezes_own", own, nil))
		}
	} else if after.BlackMovesToIceAge() == 1 {
		// The Ice Age comes with Black's next move: the men the move
		// leaves alone would freeze then, unless they find company.
		alone := after.WouldFreeze() & after.Men(mover)
		switch {
		case alone&after.Pieces(mover, game.King) != 0:
			parts = append(parts, tr(lang, "clickmove.leaves_king", nil))
		case alone != 0:
			parts = append(parts, i18n.N(lang, "clickmove.leaves_men", alone.Count(), nil))
		}
	}
	return strings.Join(parts, " · ")
}
