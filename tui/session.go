package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/render"
)

// The ids of the two seats at the keyboard, and the channel local games
// are stored under. A storage holds one active game per channel, so a
// second local game on the same storage waits for the first to end.
const (
	WhiteID = "white"
	BlackID = "black"
	Channel = "terminal"
)

// Options say how to start a local game. The zero Options start from the
// ice start between "White" and "Black".
type Options struct {
	// FEN is the start position, '*' for ice; "" for the ice start.
	FEN string
	// White and Black are the players' names; "" for the colour's name.
	White, Black string
	// Now is the clock the acts are dated with; nil for time.Now.
	Now func() time.Time
	// Engine, from 1 to 8, has the computer play EngineColor at that
	// level; 0 is a game between two people. The engine moves as soon as
	// it is its turn, answers a draw offer (yes only in a dead equal
	// position) and grants takebacks.
	Engine      int
	EngineColor game.Color
	// EngineNodes, when above 0, bounds each engine move by this many
	// nodes instead of the level's time: the same moves on every run.
	EngineNodes int64
	// Lang is the language of what the game says (i18n); "" is English.
	Lang i18n.Lang
}

// NoteKind says what a Note tells, so that a front end can style it.
type NoteKind uint8

const (
	Info       NoteKind = iota // anything else: a command's answer, help
	Moved                      // a move was played: "12. Nf3"
	IceAgeCame                 // an Ice Age came, naming the frozen men
	Refused                    // what was typed was refused, and why
	Suggested                  // legal moves close to a refused one
	Asked                      // an offer waits for the opponent's answer
	Ended                      // the game is over, and how
)

// Note is one sentence for the players.
type Note struct {
	Kind NoteKind
	Text string
}

// Reply is what one typed line did.
type Reply struct {
	Notes []Note
	// Changed is true when the game changed (a move, a takeback, an end,
	// a new game) or the board was turned: draw it again.
	Changed bool
	// Quit is true when the players asked to leave.
	Quit bool
}

// Ply is one move of the move list.
type Ply struct {
	Number int        // the full-move number
	Color  game.Color // who played it
	SAN    string
	IceAge *game.IceAge // the Ice Age it brought, or nil
}

// Label returns "12. Nf3" for White's move and "12… Nf6" for Black's.
func (p Ply) Label() string { return i18n.MoveLabel(p.Number, p.Color, p.SAN) }

// Session is one game between two players at one keyboard, played through
// a play.Service. It is not safe for concurrent use: one keyboard, one
// goroutine.
type Session struct {
	ctx     context.Context
	svc     *play.Service
	round   *round.Round
	opt     Options
	g       play.Game
	m       *game.Match
	flipped bool
	pending []Note // see Pending
}

// NewSession starts a game on svc from opt.FEN. An unreadable FEN is a
// *game.FENError; a position whose game is already decided is refused
// with an error that says so.
func NewSession(ctx context.Context, svc *play.Service, opt Options) (*Session, error) {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Lang == "" {
		opt.Lang = i18n.English
	}
	if opt.White == "" {
		opt.White = i18n.ColorName(opt.Lang, game.White)
	}
	if opt.Black == "" {
		opt.Black = i18n.ColorName(opt.Lang, game.Black)
	}
	if opt.FEN == "" {
		opt.FEN = game.StartFEN
	}
	p, err := game.ParseFEN(opt.FEN)
	if err != nil {
		return nil, err
	}
	if o := p.Outcome(); o.Over() {
		return nil, fmt.Errorf("the position is already decided (%s): start from one where the game goes on", o.Reason)
	}
	if opt.Engine != 0 {
		opt.Engine = min(max(opt.Engine, 1), engine.Levels)
		name := i18n.EngineName(opt.Lang, opt.Engine)
		if opt.EngineColor == game.White {
			opt.White = name
		} else {
			opt.Black = name
		}
	}
	r, err := round.New(svc, round.Options{Engine: round.EngineOptions{Nodes: opt.EngineNodes}, Now: opt.Now})
	if err != nil {
		return nil, err
	}
	s := &Session{ctx: ctx, svc: svc, round: r, opt: opt}
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) start() error {
	out, err := s.round.Start(s.ctx, play.NewGame{
		Channel:  Channel,
		White:    play.Seat{ID: WhiteID, Name: s.opt.White},
		Black:    play.Seat{ID: BlackID, Name: s.opt.Black},
		StartFEN: s.opt.FEN,
		Engine:   s.engineLevels(),
		At:       s.opt.Now(),
	})
	if err != nil {
		var x *play.Refusal
		if errors.As(err, &x) && x.Kind == play.ChannelBusy {
			return errors.New("a local game is already going on in this storage: finish it first")
		}
		return err
	}
	if err := s.delivered(&out); err != nil {
		return err
	}
	if err := s.set(out.Game); err != nil {
		return err
	}
	if s.g.EngineToMove() > 0 {
		s.pending = s.engineMove().Notes
	}
	return nil
}

// engineLevels are the engine's levels per colour for play.NewGame.
func (s *Session) engineLevels() [2]int {
	var lv [2]int
	if s.opt.Engine > 0 {
		lv[s.opt.EngineColor] = s.opt.Engine
	}
	return lv
}

// Pending returns, once, what happened before the first line was typed:
// the engine's first move when it has White.
func (s *Session) Pending() []Note {
	n := s.pending
	s.pending = nil
	return n
}

// engineMove has the engine play its move, if it is its turn.
func (s *Session) engineMove() Reply {
	out, ok, err := s.round.Engine(s.ctx, s.g.ID)
	if err != nil {
		return refused(err.Error())
	}
	if !ok {
		return Reply{}
	}
	return s.done(out)
}

// delivered marks what an act left in the outbox done: the screen shows
// it all at once, and there is nobody else to tell.
func (s *Session) delivered(out *round.Outcome) error { return s.round.Done(s.ctx, out.Keys...) }

// set takes g as the current game and replays its record.
func (s *Session) set(g play.Game) error {
	m, err := g.Match()
	if err != nil {
		return err
	}
	s.g, s.m = g, m
	return nil
}

// Game returns the game record as the storage holds it.
func (s *Session) Game() play.Game { return s.g.Clone() }

// Position returns the current position.
func (s *Session) Position() game.Position { return s.m.Position() }

// Outcome returns how the game ended; the zero Outcome while it goes on.
func (s *Session) Outcome() game.Outcome { return s.g.Outcome }

// Over reports whether the game has ended.
func (s *Session) Over() bool { return s.g.Over() }

// Flipped reports whether the board is shown with Black at the bottom.
func (s *Session) Flipped() bool { return s.flipped }

// Flip turns the board round.
func (s *Session) Flip() { s.flipped = !s.flipped }

// LastMove returns the last move played, if any.
func (s *Session) LastMove() (game.Move, bool) {
	ms := s.m.Moves()
	if len(ms) == 0 {
		return game.NullMove, false
	}
	return ms[len(ms)-1], true
}

// History returns the moves played, in order.
func (s *Session) History() []Ply {
	start := s.m.Start()
	n, c := start.FullMoveNumber(), start.Turn()
	sans, ices := s.m.SANs(), s.m.IceAges()
	out := make([]Ply, len(sans))
	for i, san := range sans {
		out[i] = Ply{Number: n, Color: c, SAN: san, IceAge: ices[i]}
		if c == game.Black {
			n++
		}
		c = c.Other()
	}
	return out
}

// Lang is the language the session speaks.
func (s *Session) Lang() i18n.Lang { return s.opt.Lang }

// Name returns how the player of colour c is called: "White", or
// "Alice (White)" when the player has a name of their own.
func (s *Session) Name(c game.Color) string {
	n, t := s.opt.White, i18n.ColorName(s.opt.Lang, game.White)
	if c == game.Black {
		n, t = s.opt.Black, i18n.ColorName(s.opt.Lang, game.Black)
	}
	if n == t {
		return t
	}
	return n + " (" + t + ")"
}

// WouldFreeze returns the men that stand alone now, on the move that
// brings an Ice Age (Black's 20th, 40th, …): unless Black's move gives
// them company they freeze. Otherwise, and once the game is over, it is
// empty.
func (s *Session) WouldFreeze() game.Bitboard {
	p := s.Position()
	if s.Over() || !p.IceAgeNow() {
		return 0
	}
	return p.WouldFreeze()
}

// Status says who is to move and whether they are in check, or how the
// game ended: "Alice (White) to move, in check".
func (s *Session) Status() string {
	if s.Over() {
		return s.EndText()
	}
	p := s.Position()
	id := "terminal.to_move"
	if p.InCheck() {
		id = "terminal.to_move_in_check"
	}
	return i18n.T(s.opt.Lang, id, s.marks().PlayerData(s.opt.Lang, s.idOf(p.Turn())))
}

// Countdown says when the next Ice Age comes: "Ice Age in 7 Black moves",
// or "" once the game is over.
func (s *Session) Countdown() string {
	if s.Over() {
		return ""
	}
	p := s.Position()
	return i18n.IceAgeCountdown(s.opt.Lang, &p)
}

// Prompt says who is asked to act and how: the side to move, or the
// opponent of a waiting offer. It is "" once the game is over.
func (s *Session) Prompt() string {
	switch {
	case s.Over():
		return ""
	case s.g.DrawOffer != nil:
		return s.t("terminal.prompt_draw", map[string]any{"Player": s.Name(s.answerer(s.g.DrawOffer))})
	case s.g.Takeback != nil:
		return s.t("terminal.prompt_takeback", map[string]any{"Player": s.Name(s.answerer(s.g.Takeback))})
	}
	return s.t("terminal.prompt_move", map[string]any{"Player": s.Name(s.turn())})
}

// EndText says how the game ended, with its result: "White wins by
// checkmate, 1-0."; "" while it goes on.
func (s *Session) EndText() string {
	o := s.g.Outcome
	if !o.Over() {
		return ""
	}
	if o.Reason == game.Aborted {
		return s.t("terminal.end_aborted", map[string]any{"Outcome": i18n.Outcome(s.opt.Lang, o)})
	}
	return s.t("terminal.end", map[string]any{"Outcome": i18n.Outcome(s.opt.Lang, o), "Result": o.Result.String()})
}

// t is the message id in the session's language.
func (s *Session) t(id string, data map[string]any) string { return i18n.T(s.opt.Lang, id, data) }

// Help is the list of commands in lang, as Do's "help" gives it. The
// commands themselves are the same words in every language.
func Help(lang i18n.Lang) []string {
	lines := []string{i18n.T(lang, "terminal.help.intro", nil), i18n.T(lang, "terminal.help.commands", nil)}
	for _, c := range []struct{ command, id string }{
		{"resign", "resign"}, {"draw", "draw"}, {"takeback", "takeback"}, {"moves", "moves"}, {"flip", "flip"},
		{"png FILE", "png"}, {"fen", "fen"}, {"new", "new"}, {"help", "help"}, {"quit", "quit"},
	} {
		lines = append(lines, fmt.Sprintf("  %-13s %s", c.command, i18n.T(lang, "terminal.help."+c.id, nil)))
	}
	return lines
}

// Do carries out one line the players typed: a move in any notation or
// a command (see Help). An empty line does nothing.
func (s *Session) Do(line string) Reply {
	text := strings.TrimSpace(line)
	if text == "" {
		return Reply{}
	}
	first := strings.Fields(text)[0]
	word, arg := strings.ToLower(first), strings.TrimSpace(text[len(first):])
	switch word {
	case "help", "?":
		var r Reply
		for _, h := range Help(s.opt.Lang) {
			r.Notes = append(r.Notes, Note{Info, h})
		}
		return r
	case "quit", "exit":
		return Reply{Quit: true}
	case "flip":
		s.Flip()
		bottom := game.White
		if s.flipped {
			bottom = game.Black
		}
		return Reply{Changed: true, Notes: []Note{{Info, i18n.T(s.opt.Lang, "terminal.flipped."+bottom.String(), nil)}}}
	case "png":
		return s.png(arg)
	case "fen":
		return Reply{Notes: []Note{{Info, "FEN: " + s.m.FEN()}}}
	case "moves":
		return s.moves()
	case "new":
		return s.newGame()
	}
	if s.Over() {
		return refused(s.t("terminal.over", map[string]any{"End": s.EndText()}))
	}
	if s.g.DrawOffer != nil || s.g.Takeback != nil {
		return s.answer(word)
	}
	switch word {
	case "resign":
		return s.resign()
	case "draw":
		return s.offerDraw()
	case "takeback", "undo":
		return s.requestTakeback()
	case "yes", "no", "accept", "decline":
		return refused(s.t("terminal.nothing_to_answer", nil))
	}
	return s.move(text)
}

func refused(text string) Reply { return Reply{Notes: []Note{{Refused, text}}} }

// act returns the act of the player of colour c on the current game.
func (s *Session) act(c game.Color) play.Act {
	by := WhiteID
	if c == game.Black {
		by = BlackID
	}
	return play.Act{By: by, Game: s.g.ID, Revision: s.g.Revision, At: s.opt.Now()}
}

// do runs the act of the player of colour c through the round.
func (s *Session) do(c game.Color, k round.Kind, text string) (round.Outcome, error) {
	return s.round.Do(s.ctx, round.Act{Act: s.act(c), Kind: k, Text: text})
}

// done takes the game after an act and what followed, and says what
// happened, with the end of the game if it came.
func (s *Session) done(out round.Outcome) Reply {
	if err := s.delivered(&out); err != nil {
		return refused(err.Error())
	}
	if err := s.set(out.Game); err != nil {
		return refused(err.Error())
	}
	notes := s.notes(&out)
	if s.Over() {
		notes = append(notes, Note{Ended, s.EndText()})
	}
	return Reply{Changed: true, Notes: notes}
}

// notes say the events of an act and what followed as the terminal
// shows them: a move by its number, an Ice Age with what froze, the rest
// in the words every front end uses (i18n.Event). An end is said by
// EndText.
func (s *Session) notes(out *round.Outcome) []Note {
	var notes []Note
	marks := s.marks()
	for _, d := range out.Boards {
		for _, e := range d.Events {
			switch e := e.(type) {
			case round.Moved:
				if p, err := round.Played(&out.Game, e.Ply); err == nil {
					notes = append(notes, Note{Moved, i18n.MoveLabel(p.Before.FullMoveNumber(), p.By, e.SAN)})
					if p.IceAge != nil {
						notes = append(notes, Note{IceAgeCame, IceAgeText(s.opt.Lang, p.IceAge)})
					}
				}
			case round.Offered:
				notes = append(notes, Note{Asked, i18n.Event(s.opt.Lang, e, d.Act, marks)})
			case round.Declined, round.TookBack, round.Lapsed:
				notes = append(notes, Note{Info, i18n.Event(s.opt.Lang, e, d.Act, marks)})
			}
		}
	}
	return notes
}

func (s *Session) move(text string) Reply {
	before := s.Position()
	out, err := s.do(before.Turn(), round.Move, text)
	if err != nil {
		return s.refusal(err, &before, text)
	}
	reply := s.done(out)
	if !s.Over() && s.g.EngineToMove() > 0 {
		e := s.engineMove()
		reply.Notes = append(reply.Notes, e.Notes...)
	}
	return reply
}

// refusal explains a refused act; for a move, in the words of the rules
// engine, with the legal moves closest to it.
func (s *Session) refusal(err error, before *game.Position, text string) Reply {
	var x *play.Refusal
	if !errors.As(err, &x) {
		return refused(err.Error())
	}
	var r Reply
	marks := i18n.Marks{Player: s.nameOf, Time: func(t time.Time) string { return t.Format("2006-01-02 15:04") }}
	plain := *x
	plain.Suggestions = nil
	why := i18n.Refusal(s.opt.Lang, &plain, marks)
	switch x.Kind {
	case play.IllegalMove:
		// After the move, the explanation goes on in lower case.
		var me *game.MoveError
		if errors.As(x.Err, &me) {
			why = i18n.MoveError(s.opt.Lang, me)
		}
		r = refused(sentence(i18n.MoveLabel(before.FullMoveNumber(), before.Turn(), text) + ": " + why))
	case play.NotAMove:
		r = refused(sentence(i18n.Sentence(why)))
		if len(x.Suggestions) == 0 {
			r.Notes = append(r.Notes, Note{Suggested, i18n.T(s.opt.Lang, "terminal.how_to_type", nil)})
		}
	default:
		r = refused(sentence(i18n.Sentence(why)))
	}
	if len(x.Suggestions) > 0 {
		r.Notes = append(r.Notes, Note{Suggested, i18n.T(s.opt.Lang, "refusal.suggestions", map[string]any{"Moves": strings.Join(x.Suggestions, ", ")})})
	}
	return r
}

// marks write the players of events as Name does, telling the sides
// called by their colour alone, and the moves plain.
func (s *Session) marks() i18n.EventMarks {
	return i18n.EventMarks{Player: s.nameOf, Move: func(san string) string { return san }, Side: func(id string) (game.Color, bool) {
		c := game.White
		if id == BlackID {
			c = game.Black
		}
		return c, s.Name(c) == i18n.ColorName(s.opt.Lang, c)
	}}
}

// idOf is the id of the player of colour c.
func (s *Session) idOf(c game.Color) string {
	if c == game.Black {
		return BlackID
	}
	return WhiteID
}

// nameOf is how a player, by id, is called.
func (s *Session) nameOf(id string) string {
	if id == BlackID {
		return s.Name(game.Black)
	}
	return s.Name(game.White)
}

func (s *Session) resign() Reply {
	p := s.Position()
	out, err := s.do(p.Turn(), round.Resign, "")
	if err != nil {
		return s.refusal(err, &p, "resign")
	}
	return s.done(out)
}

// offerDraw offers a draw; the engine, when it plays, answers at once (in
// the round).
func (s *Session) offerDraw() Reply {
	p := s.Position()
	out, err := s.do(p.Turn(), round.OfferDraw, "")
	if err != nil {
		return s.refusal(err, &p, "draw")
	}
	return s.afterEngine(s.done(out))
}

// afterEngine has the engine play its move after an act that left it
// its turn (a takeback it granted).
func (s *Session) afterEngine(reply Reply) Reply {
	if !s.Over() && s.g.EngineToMove() > 0 {
		reply.Notes = append(reply.Notes, s.engineMove().Notes...)
	}
	return reply
}

func (s *Session) requestTakeback() Reply {
	p := s.Position()
	h := s.History()
	if len(h) == 0 {
		return refused(s.t("terminal.no_takeback", nil))
	}
	me := p.Turn().Other() // the side that moved last
	if s.opt.Engine > 0 {
		me = s.opt.EngineColor.Other() // the person, whoever moved last
	}
	out, err := s.do(me, round.RequestTakeback, "")
	if err != nil {
		return s.refusal(err, &p, "takeback")
	}
	return s.afterEngine(s.done(out))
}

// answer takes the answer to the waiting draw offer or takeback request;
// anything else is refused until it is answered.
func (s *Session) answer(word string) Reply {
	p := s.Position()
	isDraw := s.g.DrawOffer != nil
	offer, accept, first := s.g.Takeback, "takeback", "terminal.answer_takeback_first"
	yes, no := round.AcceptTakeback, round.DeclineTakeback
	if isDraw {
		offer, accept, first = s.g.DrawOffer, "draw", "terminal.answer_draw_first"
		yes, no = round.AcceptDraw, round.DeclineDraw
	}
	who := s.answerer(offer)
	var k round.Kind
	switch word {
	case accept, "yes", "y", "accept":
		k = yes
	case "no", "n", "decline":
		k = no
	default:
		return refused(s.t(first, map[string]any{"Player": s.Name(who)}))
	}
	out, err := s.do(who, k, "")
	if err != nil {
		return s.refusal(err, &p, word)
	}
	return s.done(out)
}

// answerer returns the colour that answers an offer: the opponent of the
// player who made it.
func (s *Session) answerer(o *play.Offer) game.Color {
	if o.By == WhiteID {
		return game.Black
	}
	return game.White
}

func (s *Session) moves() Reply {
	if s.Over() {
		return Reply{Notes: []Note{{Info, s.t("terminal.no_moves_over", nil)}}}
	}
	p := s.Position()
	sans := p.SANs()
	list := make([]string, len(sans))
	for i, m := range sans {
		list[i] = m.SAN
	}
	sortMoves(list)
	return Reply{Notes: []Note{{Info, i18n.N(s.opt.Lang, "terminal.legal_moves", len(list), map[string]any{"Moves": strings.Join(list, " ")})}}}
}

func (s *Session) newGame() Reply {
	if !s.Over() {
		return refused(s.t("terminal.game_goes_on", nil))
	}
	if err := s.start(); err != nil {
		return refused(err.Error())
	}
	return Reply{Changed: true, Notes: []Note{{Info, s.t("terminal.new_game", map[string]any{"White": s.Name(game.White), "Black": s.Name(game.Black)})}}}
}

func (s *Session) png(path string) Reply {
	if path == "" {
		return refused(s.t("terminal.png_where", nil))
	}
	if err := s.WritePNG(path); err != nil {
		return refused(s.t("terminal.png_failed", map[string]any{"Error": err.Error()}))
	}
	return Reply{Notes: []Note{{Info, s.t("terminal.png_written", map[string]any{"Path": path})}}}
}

// WritePNG draws the board as render.PNG does, from the side the screen
// shows it, with the last move and a check marked, and writes it to path.
func (s *Session) WritePNG(path string) error {
	p := s.Position()
	opt := render.Options{Orientation: render.WhiteBottom, Words: i18n.BoardWords{Lang: s.opt.Lang}}
	if o := s.g.Outcome; o.Over() {
		opt.Title = i18n.Outcome(s.opt.Lang, o)
	}
	if s.flipped {
		opt.Orientation = render.BlackBottom
	}
	if m, ok := s.LastMove(); ok {
		opt.LastMove = m
	}
	if k, ok := p.KingSquare(p.Turn()); ok && p.InCheck() {
		opt.Highlights = append(opt.Highlights, render.Highlight{Square: k, Mark: render.Danger})
	}
	for _, sq := range s.WouldFreeze().Squares() {
		opt.Highlights = append(opt.Highlights, render.Highlight{Square: sq, Mark: render.Info})
	}
	f, err := os.Create(path) // #nosec G304 -- the file the player named to save the board in
	if err != nil {
		return err
	}
	if err := render.PNG(f, &p, opt); err != nil {
		_ = f.Close() // the drawing's error is the one to report
		return err
	}
	return f.Close()
}

// IceAgeText tells an Ice Age in lang: which men froze, or that none did.
func IceAgeText(lang i18n.Lang, e *game.IceAge) string {
	return i18n.T(lang, "iceage.title", nil) + " " + i18n.IceAgeNews(lang, e)
}

// sentence ends s with a full stop unless it has one.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

func (s *Session) turn() game.Color {
	p := s.m.Position()
	return p.Turn()
}
