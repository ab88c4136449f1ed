package bot

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// maxChoices is Discord's limit on autocomplete choices.
const maxChoices = 25

func init() {
	addCommand(appCommand{name: "move", reach: anywhere, run: (*Bot).moveCommand, complete: (*Bot).autocomplete, help: helpPlay + 2,
		declare: func(*Config) *discordgo.ApplicationCommand {
			move := option("move", "move", discordgo.ApplicationCommandOptionString, true)
			move.Autocomplete = true
			move.MaxLength = 32
			return command("move", move)
		}})
	addCommand(appCommand{name: "board", reach: anywhere, run: (*Bot).boardCommand, help: helpPlay + 3,
		declare: plain("board", option("board", "flip", discordgo.ApplicationCommandOptionBoolean, false))})
	addCommand(appCommand{name: "draw", reach: anywhere, run: (*Bot).drawCommand, help: helpPlay + 4,
		declare: plain("draw", option("draw", "action", discordgo.ApplicationCommandOptionString, false, "offer", "accept", "decline"))})
	addCommand(appCommand{name: "takeback", reach: anywhere, run: (*Bot).takebackCommand, help: helpPlay + 5, declare: plain("takeback")})
	addCommand(appCommand{name: "abort", reach: anywhere, run: (*Bot).abortCommand, help: helpPlay + 6, declare: plain("abort")})
	addCommand(appCommand{name: "resign", reach: anywhere, run: (*Bot).resignCommand, help: helpPlay + 7, declare: plain("resign")})
	clicks.handle(idResign, gameAct((*Bot).resignClick))
	clicks.handle(idResignOK, gameAct((*Bot).resignConfirmed))
	clicks.handle(idFlip, gameAct((*Bot).flipClick))
	clicks.handle(idAbort, gameAct((*Bot).abortClick))
	clicks.handle(idDraw, gameAct((*Bot).drawClick))
	clicks.handle(idDrawYes, gameAct((*Bot).drawAcceptClick))
	clicks.handle(idDrawNo, gameAct((*Bot).drawDeclineClick))
	clicks.handle(idTakebackYes, gameAct((*Bot).takebackAcceptClick))
	clicks.handle(idTakebackNo, gameAct((*Bot).takebackDeclineClick))
}

// The buttons of a game.
var (
	idResign      = gamePattern("resign")
	idResignOK    = gamePattern("resignok")
	idDraw        = gamePattern("draw")
	idDrawYes     = gamePattern("dyes")
	idDrawNo      = gamePattern("dno")
	idFlip        = gamePattern("flip")
	idAbort       = gamePattern("abort")
	idTakebackYes = gamePattern("tyes")
	idTakebackNo  = gamePattern("tno")
)

// gameHere returns the game of the interaction's channel; when there is
// none it tells the user and returns errNotHere.
func (b *Bot) gameHere(in *interaction) (play.Game, error) {
	g, err := b.play.GameIn(in.ctx, in.i.ChannelID)
	var x *play.Refusal
	if errors.As(err, &x) && x.Kind == play.NoGame {
		if terr := in.tell(tr(in.lang, "error.no_game_here", nil)); terr != nil {
			return g, terr
		}
		return g, errNotHere
	}
	return g, err
}

// act is a play.Act by the interaction's user on g as it is now: a typed
// command acts on the game as the user sees it when they send it.
func (b *Bot) act(in *interaction, g *play.Game) play.Act {
	return play.Act{By: in.user, Game: g.ID, Revision: g.Revision, At: b.cfg.Now()}
}

func (b *Bot) moveCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	text := ""
	if o := options(data)["move"]; o != nil {
		text = o.StringValue()
	}
	return b.move(in, b.act(in, &g), text)
}

// move plays a move and posts the board after it.
func (b *Bot) move(in *interaction, a play.Act, text string) error {
	r, err := b.play.Move(in.ctx, a, text)
	if err != nil {
		return err
	}
	b.Metrics.Moves.Add(1)
	headline := tr(in.public, "game.moved", map[string]any{"Player": mention(in.user), "Move": "**" + r.Move.SAN + "**"})
	v := view{g: &r.Game, played: r.Move, headline: headline, buttons: true, ping: true}
	withConditional(in.public, &r, &v)
	m, err := b.boardMessage(in.ctx, in.public, v)
	if err != nil {
		return err
	}
	if err := in.respond(m); err != nil {
		return err
	}
	b.afterMove(in.ctx, &r)
	b.engineTurn(in, &r.Game)
	return nil
}

// autocomplete offers the legal moves that match what the user typed:
// checks and captures of men first, at most 25.
func (b *Bot) autocomplete(in *interaction) error {
	var typed string
	for _, o := range in.i.ApplicationCommandData().Options {
		if o.Focused {
			typed = o.StringValue()
		}
	}
	choices := []*discordgo.ApplicationCommandOptionChoice{}
	g, err := b.play.GameIn(in.ctx, in.i.ChannelID)
	if err == nil && g.ToMove().ID == in.user {
		pos, perr := g.Position()
		if perr != nil {
			return perr
		}
		for _, m := range MoveChoices(&pos, typed, maxChoices) {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: m, Value: m})
		}
	}
	return b.choices(in, choices)
}

// choices answers an autocomplete.
func (b *Bot) choices(in *interaction, choices []*discordgo.ApplicationCommandOptionChoice) error {
	in.answered = true
	return b.respondPlain(in.ctx, in.i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices},
	})
}

// noChoices answers the autocomplete of an option that offers none.
func (b *Bot) noChoices(in *interaction) error {
	return b.choices(in, []*discordgo.ApplicationCommandOptionChoice{})
}

// MoveChoices returns up to limit legal moves in SAN that match typed
// (as a prefix of their SAN or UCI, ignoring case, "x", "+", "#" and
// "-"), checks and captures of men first, then the rest in SAN order.
func MoveChoices(pos *game.Position, typed string, limit int) []string {
	norm := strings.NewReplacer("x", "", "+", "", "#", "", "-", "", "=", "", " ", "")
	want := norm.Replace(strings.ToLower(strings.TrimSpace(typed)))
	type cand struct {
		san  string
		rank int
	}
	var cs []cand
	for _, ms := range pos.SANs() {
		if want != "" && !strings.HasPrefix(norm.Replace(strings.ToLower(ms.SAN)), want) && !strings.HasPrefix(ms.Move.UCI(), want) {
			continue
		}
		rank := 2
		switch {
		case strings.ContainsAny(ms.SAN, "+#"):
			rank = 0
		case pos.PieceAt(ms.Move.To()) != game.NoPiece || isEnPassant(pos, ms.Move):
			rank = 1
		}
		cs = append(cs, cand{ms.SAN, rank})
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.rank, b.rank) })
	out := make([]string, 0, min(limit, len(cs)))
	for _, c := range cs[:min(limit, len(cs))] {
		out = append(out, c.san)
	}
	return out
}

func isEnPassant(pos *game.Position, m game.Move) bool {
	p := pos.PieceAt(m.From())
	return p != game.NoPiece && p.Kind() == game.Pawn && m.To() == pos.EnPassant()
}

func (b *Bot) boardCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	flip := false
	if o := options(data)["flip"]; o != nil {
		flip = o.BoolValue()
	}
	m, err := b.boardMessage(in.ctx, in.public, view{g: &g, flip: flip, buttons: true})
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (b *Bot) flipClick(in *interaction, a play.Act) error {
	// The button's game id is the clicker's to forge: show only a game
	// they may see anyway.
	g, err := b.visibleGame(in, a.Game)
	if err != nil {
		return err
	}
	m, err := b.boardMessage(in.ctx, in.lang, view{g: &g, flip: true})
	if err != nil {
		return err
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

func (b *Bot) resignCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	return b.resignClick(in, b.act(in, &g))
}

// resignClick asks the player to confirm, privately.
func (b *Bot) resignClick(in *interaction, a play.Act) error {
	if _, err := b.play.PlayersGame(in.ctx, a.Game, in.user); err != nil {
		return err
	}
	m := &message{Content: tr(in.lang, "resign.confirm", nil), Flags: discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(in.lang, "button.resign_confirm", nil), Style: discordgo.DangerButton, CustomID: idResignOK.forAct(a)},
		}}}}
	return in.respond(m)
}

func (b *Bot) resignConfirmed(in *interaction, a play.Act) error {
	r, err := b.play.Resign(in.ctx, a)
	if err != nil {
		return err
	}
	if err := in.update(&message{Content: tr(in.lang, "resign.done", nil), Components: []discordgo.MessageComponent{}, Embeds: []*discordgo.MessageEmbed{}}); err != nil {
		return err
	}
	return b.announce(in, &r, tr(in.public, "game.resigned", map[string]any{"Player": mention(in.user)}))
}

// announce posts the board after an act that others must see, in the
// game's channel.
func (b *Bot) announce(in *interaction, r *play.Result, headline string) error {
	m, err := b.boardMessage(in.ctx, in.public, view{g: &r.Game, headline: headline, buttons: true, ping: r.Event == play.TookBack})
	if err != nil {
		return err
	}
	return b.publish(in.ctx, in, &r.Game, m)
}

func (b *Bot) abortCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	return b.abortClick(in, b.act(in, &g))
}

func (b *Bot) abortClick(in *interaction, a play.Act) error {
	r, err := b.play.Abort(in.ctx, a)
	if err != nil {
		return err
	}
	m, err := b.boardMessage(in.ctx, in.public, view{g: &r.Game, headline: tr(in.public, "game.aborted", map[string]any{"Player": mention(in.user)})})
	if err != nil {
		return err
	}
	return in.respond(m)
}

func (b *Bot) drawCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	a := b.act(in, &g)
	action := "offer"
	if o := options(data)["action"]; o != nil {
		action = o.StringValue()
	}
	switch action {
	case "accept":
		return b.drawAcceptClick(in, a)
	case "decline":
		return b.drawDeclineClick(in, a)
	}
	return b.drawClick(in, a)
}

// drawClick offers a draw (or, when the opponent offered one, agrees).
func (b *Bot) drawClick(in *interaction, a play.Act) error {
	r, err := b.play.OfferDraw(in.ctx, a)
	if err != nil {
		return err
	}
	if r.Event == play.Ended {
		return b.respondEnd(in, &r, tr(in.public, "game.draw_agreed", nil))
	}
	if er, ok, err := b.engineAnswersDraw(in.ctx, &r.Game); ok {
		if err != nil {
			return err
		}
		if er.Event == play.Ended {
			return b.respondEnd(in, &er, tr(in.public, "game.draw_agreed", nil))
		}
		m := &message{Content: tr(in.public, "draw.declined", map[string]any{"Player": mention(opponentOf(&er.Game, in.user).ID)})}
		m.mentionOnly()
		if err := in.respond(m); err != nil {
			return err
		}
		b.engineTurn(in, &er.Game)
		return nil
	}
	g := r.Game
	opp := g.White.ID
	if opp == in.user {
		opp = g.Black.ID
	}
	m := &message{Content: tr(in.public, "draw.offered", map[string]any{"Player": mention(in.user), "Opponent": mention(opp)}),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(in.public, "button.accept_draw", nil), Style: discordgo.SuccessButton, CustomID: idDrawYes.forGame(&g)},
			discordgo.Button{Label: tr(in.public, "button.decline_draw", nil), Style: discordgo.SecondaryButton, CustomID: idDrawNo.forGame(&g)},
		}}}}
	m.mentionOnly(opp)
	return in.respond(m)
}

func (b *Bot) drawAcceptClick(in *interaction, a play.Act) error {
	r, err := b.play.AcceptDraw(in.ctx, a)
	if err != nil {
		return err
	}
	return b.respondEnd(in, &r, tr(in.public, "game.draw_agreed", nil))
}

func (b *Bot) drawDeclineClick(in *interaction, a play.Act) error {
	if _, err := b.play.DeclineDraw(in.ctx, a); err != nil {
		return err
	}
	m := &message{Content: tr(in.public, "draw.declined", map[string]any{"Player": mention(in.user)})}
	m.mentionOnly()
	if in.i.Type == discordgo.InteractionMessageComponent {
		m.Components = []discordgo.MessageComponent{}
		return in.update(m)
	}
	return in.respond(m)
}

// respondEnd shows the final board as the answer to the act that ended
// the game.
func (b *Bot) respondEnd(in *interaction, r *play.Result, headline string) error {
	m, err := b.boardMessage(in.ctx, in.public, view{g: &r.Game, headline: headline})
	if err != nil {
		return err
	}
	if in.i.Type == discordgo.InteractionMessageComponent && in.i.Message != nil && len(in.i.Message.Attachments) == 0 {
		// The click was on an offer's message: replace it by the end.
		return in.update(m)
	}
	return in.respond(m)
}

func (b *Bot) takebackCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	g, err := b.gameHere(in)
	if err != nil {
		return err
	}
	r, err := b.play.RequestTakeback(in.ctx, b.act(in, &g))
	if err != nil {
		return err
	}
	if er, ok, err := b.engineAnswersTakeback(in.ctx, &r.Game); ok {
		if err != nil {
			return err
		}
		m, err := b.boardMessage(in.ctx, in.public, view{g: &er.Game, headline: i18n.N(in.public, "game.took_back", er.TakenBack, nil), buttons: true, ping: true})
		if err != nil {
			return err
		}
		if err := in.respond(m); err != nil {
			return err
		}
		b.engineTurn(in, &er.Game)
		return nil
	}
	g = r.Game
	opp := g.White.ID
	if opp == in.user {
		opp = g.Black.ID
	}
	m := &message{Content: tr(in.public, "takeback.requested", map[string]any{"Player": mention(in.user), "Opponent": mention(opp)}),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(in.public, "button.accept_takeback", nil), Style: discordgo.SuccessButton, CustomID: idTakebackYes.forGame(&g)},
			discordgo.Button{Label: tr(in.public, "button.decline_takeback", nil), Style: discordgo.SecondaryButton, CustomID: idTakebackNo.forGame(&g)},
		}}}}
	m.mentionOnly(opp)
	return in.respond(m)
}

func (b *Bot) takebackAcceptClick(in *interaction, a play.Act) error {
	r, err := b.play.AcceptTakeback(in.ctx, a)
	if err != nil {
		return err
	}
	m, err := b.boardMessage(in.ctx, in.public, view{g: &r.Game, headline: i18n.N(in.public, "game.took_back", r.TakenBack, nil), buttons: true, ping: true})
	if err != nil {
		return err
	}
	if err := in.update(m); err != nil {
		return err
	}
	b.notifyTurn(in.ctx, &r.Game, "")
	return nil
}

func (b *Bot) takebackDeclineClick(in *interaction, a play.Act) error {
	if _, err := b.play.DeclineTakeback(in.ctx, a); err != nil {
		return err
	}
	m := &message{Content: tr(in.public, "takeback.declined", map[string]any{"Player": mention(in.user)}), Components: []discordgo.MessageComponent{}}
	m.mentionOnly()
	return in.update(m)
}
