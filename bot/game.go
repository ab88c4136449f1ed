package bot

import (
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// maxChoices is Discord's limit on autocomplete choices.
const maxChoices = 25

// tables answer the acts of a game's players, by command or by click
// (/move and its menus, /board, /resign, /abort, /draw, /takeback, the
// claims): each goes through the round, and outcomes shows what it did.
// They hold what every feature shares, the sight (who may see a board),
// the bot's life, the outbox, the followers of private games, the
// boards, the threads and the outcomes.
type tables struct {
	*shared
	sight     *sight
	life      *lifetime
	outbox    *deliveries
	followers *followers
	boards    *boards
	threads   *threads
	outcomes  *outcomes
}

func tablesOf(b *Bot) *tables { return b.tables }

func init() {
	addCommand(appCommand{name: "move", reach: anywhere, run: runBy(tablesOf, (*tables).moveCommand), complete: completeBy(tablesOf, (*tables).autocomplete), help: helpPlay + 2,
		declare: func(*Config) *discordgo.ApplicationCommand {
			move := option("move", "move", discordgo.ApplicationCommandOptionString, true)
			move.Autocomplete = true
			move.MaxLength = 32
			return command("move", move)
		}})
	addCommand(appCommand{name: "board", reach: anywhere, run: runBy(tablesOf, (*tables).boardCommand), help: helpPlay + 3,
		declare: func(*Config) *discordgo.ApplicationCommand {
			return command("board", option("board", "flip", discordgo.ApplicationCommandOptionBoolean, false))
		}})
	addCommand(appCommand{name: "draw", reach: anywhere, run: runBy(tablesOf, (*tables).drawCommand), help: helpPlay + 4,
		declare: func(*Config) *discordgo.ApplicationCommand {
			return command("draw", option("draw", "action", discordgo.ApplicationCommandOptionString, false, "offer", "accept", "decline"))
		}})
	addCommand(appCommand{name: "takeback", reach: anywhere, run: runBy(tablesOf, (*tables).takebackCommand), help: helpPlay + 5, declare: plain("takeback")})
	addCommand(appCommand{name: "abort", reach: anywhere, run: runBy(tablesOf, (*tables).abortCommand), help: helpPlay + 6, declare: plain("abort")})
	addCommand(appCommand{name: "resign", reach: anywhere, run: runBy(tablesOf, (*tables).resignCommand), help: helpPlay + 7, declare: plain("resign")})
	clicks.handle(idResign, gameAct(tablesOf, (*tables).resignClick))
	clicks.handle(idResignOK, gameAct(tablesOf, (*tables).resignConfirmed))
	clicks.handle(idFlip, gameAct(tablesOf, (*tables).flipClick))
	clicks.handle(idAbort, gameAct(tablesOf, (*tables).abortClick))
	clicks.handle(idDraw, gameAct(tablesOf, (*tables).drawClick))
	clicks.handle(idDrawYes, gameAct(tablesOf, (*tables).drawAcceptClick))
	clicks.handle(idDrawNo, gameAct(tablesOf, (*tables).drawDeclineClick))
	clicks.handle(idTakebackYes, gameAct(tablesOf, (*tables).takebackAcceptClick))
	clicks.handle(idTakebackNo, gameAct(tablesOf, (*tables).takebackDeclineClick))
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
func (sh *shared) gameHere(in *interaction) (play.Game, error) {
	g, err := sh.play.GameIn(in.ctx, in.i.ChannelID)
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
func (sh *shared) act(in *interaction, g *play.Game) play.Act {
	return play.Act{By: in.user, Game: g.ID, Revision: g.Revision, At: sh.cfg.Now()}
}

// moveCommand plays /move on the game of the interaction's channel, as
// it is when the act is decided: the act finds the game itself, so that
// a move reads it once.
func (tb *tables) moveCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	text := ""
	if o := options(data)["move"]; o != nil {
		text = o.StringValue()
	}
	err := tb.move(in, play.Act{By: in.user, Channel: in.i.ChannelID, At: tb.cfg.Now()}, text)
	var x *play.Refusal
	if errors.As(err, &x) && x.Kind == play.NoGame && x.Game == 0 {
		if terr := in.tell(tr(in.lang, "error.no_game_here", nil)); terr != nil {
			return terr
		}
		return errNotHere
	}
	return err
}

// move plays a move through the round and answers with the board.
func (tb *tables) move(in *interaction, a play.Act, text string) error {
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.Move, Text: text}, answerNew)
	return err
}

// How an act's interaction shows the act's board.
type answerBy uint8

const (
	answerNew       answerBy = iota // a new message: a command, a board's button
	answerClicked                   // in place of the message clicked: an offer's buttons
	answerElsewhere                 // the answer says something else; the outbox posts the board
)

// playRound runs an act through the round and answers the interaction
// with the board of what followed, unless by is answerElsewhere. The
// board waits in the outbox until the answer is given: when Discord
// refuses the answer (a 429 past the window, an outage), the outbox posts
// it in the game's channel instead, mentioning whoever must be told; what
// else the act leaves to do — direct messages, the engine's move — the
// outbox delivers too.
func (tb *tables) playRound(in *interaction, a round.Act, by answerBy) (round.Outcome, error) {
	a.Answers = by != answerElsewhere
	if a.Sent.IsZero() {
		a.Sent = in.sentAt(a.At)
	}
	if a.Answers {
		defer tb.outcomes.answerInFlight(in.i.ChannelID)()
	}
	out, err := tb.round.Do(in.ctx, a)
	if err != nil {
		return out, err
	}
	defer tb.outbox.wakeUp()
	for _, e := range out.Events {
		if _, ok := e.(round.Moved); ok {
			tb.metrics.Moves.Add(1)
		}
	}
	// The act is committed: what is left is done even when the
	// interaction's time is up.
	after := tb.life.ctx()
	if len(out.Boards) > 0 {
		tb.followers.note(&out.Boards[len(out.Boards)-1].Game, in, 0)
	}
	if a.Answers {
		m, err := tb.boards.deliveryMessage(in.ctx, in.public, &out.Boards[len(out.Boards)-1])
		if err == nil {
			if by == answerClicked {
				if m.Components == nil {
					m.Components = []discordgo.MessageComponent{}
				}
				err = in.update(m)
			} else {
				err = in.respond(m)
			}
		}
		if err != nil {
			tb.log.Warn("an act's answer failed; its board goes to the channel", "interaction", in.i.ID, "game", out.Game.ID, "err", err)
			if m == nil {
				// Not drawn: the outbox draws it and posts it.
				if rerr := tb.round.NotShown(after, &out); rerr != nil {
					tb.log.Error("handing a board to the outbox; it is posted when its hold ends", "game", out.Game.ID, "err", rerr)
				}
				return out, nil
			}
			tb.outbox.atOnceGo(func() { tb.outcomes.deliverAtOnce(out, m) })
			return out, nil
		}
		tb.outcomes.shown(&out)
		if len(m.images) > 0 && len(m.Components) > 0 {
			tb.threads.retireBoards(&out.Boards[len(out.Boards)-1].Game, in.i.ChannelID)
		}
		tb.threads.windDown(&out.Boards[len(out.Boards)-1].Game, in.i.ChannelID)
	}
	for _, e := range out.Events {
		if t, ok := e.(round.EngineThinking); ok && t.Ahead > 0 {
			if err := in.tell(i18n.N(in.lang, "engine.queued", t.Ahead, nil)); err != nil {
				tb.log.Warn("telling a player the engine is busy", "game", out.Game.ID, "err", err)
			}
		}
	}
	return out, nil
}

// onOffer is how an answer to an offer shows itself: in place of the
// offer's message when it was clicked there, else as a new message.
func onOffer(in *interaction) answerBy {
	if in.i.Type == discordgo.InteractionMessageComponent && in.i.Message != nil && len(in.i.Message.Attachments) == 0 {
		return answerClicked
	}
	return answerNew
}

// autocomplete offers the legal moves that what the user typed may
// become, in any notation (game.Complete): best first, at most 25.
func (tb *tables) autocomplete(in *interaction) error {
	var typed string
	for _, o := range in.i.ApplicationCommandData().Options {
		if o.Focused {
			typed = o.StringValue()
		}
	}
	choices := []*discordgo.ApplicationCommandOptionChoice{}
	g, err := tb.play.GameIn(in.ctx, in.i.ChannelID)
	if err == nil && g.ToMove().ID == in.user {
		pos, perr := g.Position()
		if perr != nil {
			return perr
		}
		moves := game.Complete(&pos, typed)
		for _, m := range moves[:min(len(moves), maxChoices)] {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: m.SAN, Value: m.SAN})
		}
	}
	return in.choices(choices)
}

func isEnPassant(pos *game.Position, m game.Move) bool {
	p := pos.PieceAt(m.From())
	return p != game.NoPiece && p.Kind() == game.Pawn && m.To() == pos.EnPassant()
}

func (tb *tables) boardCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := tb.gameHere(in)
	if err != nil {
		return err
	}
	flip := false
	if o := options(data)["flip"]; o != nil {
		flip = o.BoolValue()
	}
	if _, player := g.ColorOf(in.user); !player {
		return tb.spectatorBoard(in, &g, flip)
	}
	// A player's board is public: it counts among their posts.
	if err := tb.posted(in); err != nil {
		return err
	}
	m, err := tb.boards.boardMessage(in.ctx, in.public, view{g: &g, flip: flip, buttons: true})
	if err != nil {
		return err
	}
	if err := in.respond(m); err != nil {
		return err
	}
	tb.threads.retireBoards(&g, in.i.ChannelID)
	return nil
}

// spectatorBoard answers a non-player's /board: the board for them alone,
// without the game's buttons, so that the players' board keeps its
// buttons and no one fills the players' thread with boards.
func (tb *tables) spectatorBoard(in *interaction, g *play.Game, flip bool) error {
	ok, err := tb.sight.canSee(in, g)
	if err != nil {
		return err
	}
	if !ok {
		return in.explain(tr(in.lang, "error.no_game_here", nil))
	}
	m, err := tb.boards.boardMessage(in.ctx, in.lang, view{g: g, flip: flip})
	if err != nil {
		return err
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

func (tb *tables) flipClick(in *interaction, a play.Act) error {
	// The button's game id is the clicker's to forge: show only a game
	// they may see anyway.
	g, err := tb.sight.visibleGame(in, a.Game)
	if err != nil {
		return err
	}
	m, err := tb.boards.boardMessage(in.ctx, in.lang, view{g: &g, flip: true})
	if err != nil {
		return err
	}
	m.Flags = discordgo.MessageFlagsEphemeral
	return in.respond(m)
}

func (tb *tables) resignCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	g, err := tb.gameHere(in)
	if err != nil {
		return err
	}
	return tb.resignClick(in, tb.act(in, &g))
}

// resignClick asks the player to confirm, privately.
func (tb *tables) resignClick(in *interaction, a play.Act) error {
	if _, err := tb.play.PlayersGame(in.ctx, a.Game, in.user); err != nil {
		return err
	}
	m := &message{Content: tr(in.lang, "resign.confirm", nil), Flags: discordgo.MessageFlagsEphemeral,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: tr(in.lang, "button.resign_confirm", nil), Style: discordgo.DangerButton, CustomID: idResignOK.forAct(a)},
		}}}}
	return in.respond(m)
}

func (tb *tables) resignConfirmed(in *interaction, a play.Act) error {
	if g, err := tb.play.Game(in.ctx, a.Game); err == nil && g.Private {
		// The bot may not post in a private game's DM: the board follows
		// up on this click, then the confirmation says it is done.
		if err := in.deferUpdate(); err != nil {
			return err
		}
		if _, err := tb.playRound(in, round.Act{Act: a, Kind: round.Resign}, answerNew); err != nil {
			return err
		}
		return in.edit(&message{Content: tr(in.lang, "resign.done", nil), Components: []discordgo.MessageComponent{}, Embeds: []*discordgo.MessageEmbed{}})
	}
	if _, err := tb.playRound(in, round.Act{Act: a, Kind: round.Resign}, answerElsewhere); err != nil {
		return err
	}
	return in.update(&message{Content: tr(in.lang, "resign.done", nil), Components: []discordgo.MessageComponent{}, Embeds: []*discordgo.MessageEmbed{}})
}

func (tb *tables) abortCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	g, err := tb.gameHere(in)
	if err != nil {
		return err
	}
	return tb.abortClick(in, tb.act(in, &g))
}

func (tb *tables) abortClick(in *interaction, a play.Act) error {
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.Abort}, answerNew)
	return err
}

func (tb *tables) drawCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := tb.gameHere(in)
	if err != nil {
		return err
	}
	a := tb.act(in, &g)
	action := "offer"
	if o := options(data)["action"]; o != nil {
		action = o.StringValue()
	}
	switch action {
	case "accept":
		return tb.drawAcceptClick(in, a)
	case "decline":
		return tb.drawDeclineClick(in, a)
	}
	return tb.drawClick(in, a)
}

// drawClick offers a draw (or, when the opponent offered one, agrees);
// the engine answers one made to it at once.
func (tb *tables) drawClick(in *interaction, a play.Act) error {
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.OfferDraw}, answerNew)
	return err
}

func (tb *tables) drawAcceptClick(in *interaction, a play.Act) error {
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.AcceptDraw}, onOffer(in))
	return err
}

func (tb *tables) drawDeclineClick(in *interaction, a play.Act) error {
	by := answerNew
	if in.i.Type == discordgo.InteractionMessageComponent {
		by = answerClicked
	}
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.DeclineDraw}, by)
	return err
}

func (tb *tables) takebackCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	g, err := tb.gameHere(in)
	if err != nil {
		return err
	}
	_, err = tb.playRound(in, round.Act{Act: tb.act(in, &g), Kind: round.RequestTakeback}, answerNew)
	return err
}

func (tb *tables) takebackAcceptClick(in *interaction, a play.Act) error {
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.AcceptTakeback}, answerClicked)
	return err
}

func (tb *tables) takebackDeclineClick(in *interaction, a play.Act) error {
	_, err := tb.playRound(in, round.Act{Act: a, Kind: round.DeclineTakeback}, answerClicked)
	return err
}
