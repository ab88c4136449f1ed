package round

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// Storage is what a Round plays on: play's records and their outbox.
// store, pgstore and memstore are all one.
type Storage interface {
	play.Storage
	play.Outbox
}

// The kinds of outbox items a Round writes (play.OutboxItem.Kind).
const (
	// KindBoard: the board after an act, for the game's channel.
	KindBoard = "board"
	// KindTell: the players to tell of an act (Tell events) in their own
	// way, a direct message say.
	KindTell = "tell"
	// KindEngine: the engine has something to do in a game: a move, or
	// an answer to an offer. Engine does it.
	KindEngine = "engine"
)

// DefaultHold is how long an act's board waits in the outbox for the
// front end to show it itself (Act.Answers) before the outbox delivers it
// anyway: Discord's window for an interaction's answer is 3 seconds, and
// a 429 in it may ask to wait a few more.
const DefaultHold = 15 * time.Second

// Options tune a Round. The zero value gives the defaults.
type Options struct {
	// Engine tunes the engine's play.
	Engine EngineOptions
	// Hold is how long the board of an act that the front end answers
	// itself waits before the outbox delivers it; 0 means DefaultHold.
	Hold time.Duration
	// Now is the clock of the engine's acts; nil means time.Now.
	Now func() time.Time
	// Think takes the engine's turn in a game: the front end runs
	// Round.Engine(ctx, game) when it can, then Round.Done(ctx, key), and
	// returns how many engine turns wait before this one (ok false when
	// it cannot take it, say while stopping: the outbox keeps the turn).
	// nil: the engine's turns wait in the outbox (KindEngine) for a
	// delivery loop, or the caller takes them with Engine.
	Think func(game uint64, key string) (ahead int, ok bool)
	// Committed, when set, hears of every act once its transaction has
	// committed, whatever its door, with the board the act wrote in the
	// outbox: a front end wakes its delivery loop with it.
	Committed func(d *Delivery)
}

// Round plays acts and everything that follows from them. It is safe for
// concurrent use.
type Round struct {
	play *play.Service
	st   Storage
	opts Options
}

// New returns a Round that plays through svc, whose storage must keep an
// outbox.
func New(svc *play.Service, opts Options) (*Round, error) {
	st, ok := svc.Storage().(Storage)
	if !ok {
		return nil, fmt.Errorf("round: the storage %T keeps no outbox", svc.Storage())
	}
	if opts.Hold <= 0 {
		opts.Hold = DefaultHold
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Engine = opts.Engine.withDefaults()
	return &Round{play: svc, st: st, opts: opts}, nil
}

// Service returns the play.Service the Round plays through.
func (r *Round) Service() *play.Service { return r.play }

// Kind names an act.
type Kind uint8

const (
	Move Kind = iota + 1
	OfferDraw
	AcceptDraw
	DeclineDraw
	RequestTakeback
	AcceptTakeback
	DeclineTakeback
	Resign
	Abort
	// ClaimWin and ClaimDraw are the choice of a player whose opponent
	// ran out of time (Game.Flag).
	ClaimWin
	ClaimDraw
	// Premove queues conditional moves (Act.Lines): private to their
	// author, it changes no revision and leaves nothing to deliver.
	Premove
	WithdrawDraw
	WithdrawTakeback
	// The acts that are not a player's act on a game, named for the
	// boards they leave (Delivery.Act): a game started (Start, Accept),
	// a deadline passed (TimeOut), a game moved (Rehome).
	Begin
	Accept
	TimeOut
	Rehome
	// Adjudicate: a game ended unfinished by a rule of its event (a
	// tournament's round that closed).
	Adjudicate
)

var kindNames = [...]string{Move: "move", OfferDraw: "offer a draw", AcceptDraw: "accept a draw",
	DeclineDraw: "decline a draw", RequestTakeback: "ask for a takeback", AcceptTakeback: "accept a takeback",
	DeclineTakeback: "decline a takeback", Resign: "resign", Abort: "abort", ClaimWin: "claim the win",
	ClaimDraw: "claim a draw", Premove: "queue conditional moves", WithdrawDraw: "withdraw a draw offer",
	WithdrawTakeback: "withdraw a takeback request", Begin: "start a game", Accept: "accept a challenge",
	TimeOut: "time out", Rehome: "move to another channel", Adjudicate: "adjudicate"}

// String names the act in English, for logs.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("act %d", k)
}

// Act is an act of a player on a game: play.Act (who, which game, at
// which revision, when), what they do and, for a move, the move as
// typed.
type Act struct {
	play.Act
	Kind Kind
	Text string
	// Lines are the lines of conditional moves of a Premove, each a
	// sequence of moves as typed.
	Lines [][]string
	// Channel is, for Rehome, the channel the game leaves.
	Channel string
	// moving is why a game moves, for Rehome.
	moving Moving
	// Answers is set when the front end shows the act's board to the
	// asker itself (an interaction's answer): the board waits in the
	// outbox (Options.Hold) until the front end says it was shown
	// (Shown) or could not be (NotShown), or the hold ends.
	Answers bool
}

// Outcome is what an act and everything that followed did.
type Outcome struct {
	// Result is play's result of the act itself.
	Result play.Result
	// Game is the game after everything: the act and the engine's
	// answer, if it answered at once.
	Game play.Game
	// Events are what happened, in order.
	Events Events
	// Boards are the board items of the act and of the engine's answer
	// to it, in order: a front end that answers the act (Act.Answers)
	// shows the last, then calls Shown or NotShown.
	Boards []Delivery
	// Keys are the keys of every outbox item the act and its answer
	// wrote, for a front end that delivers all itself (Done).
	Keys []string
}

// Delivery is the body of a board or tell item: the game as the act left
// it and what happened.
type Delivery struct {
	Key    string    `json:"-"`
	Game   play.Game `json:"game"`
	Act    Kind      `json:"act,omitempty"`
	By     string    `json:"by,omitempty"`
	Events Events    `json:"events"`
	// Theme is the board theme (play.Prefs.Theme) of the player the
	// game waits for — the player to move, or the person facing the
	// engine — as the act read their settings; "" for the default, and
	// when the game is over.
	Theme string `json:"theme,omitempty"`
}

// DecodeDelivery reads the body of a board or tell item.
func DecodeDelivery(it play.OutboxItem) (Delivery, error) {
	var d Delivery
	if err := json.Unmarshal(it.Body, &d); err != nil {
		return Delivery{}, fmt.Errorf("round: outbox item %q: %w", it.Key, err)
	}
	d.Key = it.Key
	return d, nil
}

// Keys of the outbox items of a game at a revision: unique, since every
// act bumps the revision, and the same however often a transaction runs.
func itemKey(game uint64, rev int, kind string) string {
	return fmt.Sprintf("g%d.r%d.%s", game, rev, kind)
}

// EngineKey is the key of the engine's item of a game at a revision.
func EngineKey(game uint64, rev int) string { return itemKey(game, rev, KindEngine) }

// Do plays the act and what follows from it: the engine's answer to an
// offer made to it (at once: it decides in milliseconds), and the
// engine's turn, which it hands to Options.Think. The act's events and
// the items to deliver are written in the act's transaction. A refusal
// is play's *play.Refusal, with nothing written.
func (r *Round) Do(ctx context.Context, a Act) (Outcome, error) {
	res, board, keys, err := r.apply(ctx, a)
	if err != nil {
		r.flagFell(ctx, a, err)
		return Outcome{}, err
	}
	out := Outcome{Result: res, Game: res.Game, Events: board.Events, Keys: keys}
	if board.Key != "" {
		out.Boards = []Delivery{board}
	}
	if _, answers := engineOffer(&res.Game); answers {
		eo, ok, err := r.engine(ctx, res.Game.ID, a.Answers)
		if err != nil {
			return out, fmt.Errorf("round: the engine answering in game %d: %w", res.Game.ID, err)
		}
		if ok {
			out.Game = eo.Game
			out.Events = append(out.Events, eo.Events...)
			out.Boards = append(out.Boards, eo.Boards...)
			out.Keys = append(out.Keys, eo.Keys...)
		}
		if err := r.Done(ctx, EngineKey(res.Game.ID, res.Game.Revision)); err != nil {
			return out, err
		}
	}
	if e, ok := r.think(&out.Game); ok {
		out.Events = append(out.Events, e)
	}
	return out, nil
}

// flagFell ends on time, at once, a live game whose act was refused
// because the flag of the side to move fell (play.TimeUp): the refusal
// is the asker's to hear, the end everyone's, and the scheduler need
// not come first. The deadline decided it inside the act's own
// transaction; TimeOut decides again in its own, so a move that came
// between them keeps its win (TimeOut is then refused, as is the
// scheduler's, and nothing is written).
func (r *Round) flagFell(ctx context.Context, a Act, err error) {
	var x *play.Refusal
	if !errors.As(err, &x) || x.Kind != play.TimeUp || x.Game == 0 || a.At.IsZero() {
		return
	}
	g, gerr := r.play.Game(ctx, x.Game)
	if gerr != nil || g.Clock == nil || g.Over() {
		return
	}
	// A refusal or a failure here leaves the flag to the scheduler.
	_, _ = r.TimeOut(ctx, x.Game, a.At)
}

// think hands the engine's turn in g, if it has one, to Options.Think.
func (r *Round) think(g *play.Game) (EngineThinking, bool) {
	if g.EngineToMove() == 0 || r.opts.Think == nil {
		return EngineThinking{}, false
	}
	ahead, ok := r.opts.Think(g.ID, EngineKey(g.ID, g.Revision))
	return EngineThinking{Ahead: ahead}, ok
}

// Start starts a game and, when the engine has the first move, hands it
// to Options.Think.
func (r *Round) Start(ctx context.Context, n play.NewGame) (Outcome, error) {
	return r.StartWith(ctx, n, nil)
}

// StartWith is Start with fn run in the game's transaction once the game
// is decided, before its items are written: a tournament records there
// which board the game is (an error from fn starts nothing).
func (r *Round) StartWith(ctx context.Context, n play.NewGame, fn func(tx play.Tx, g *play.Game) error) (Outcome, error) {
	a := Act{Act: play.Act{At: n.At}, Kind: Begin}
	return r.door(ctx, a, fn, func(svc *play.Service) (play.Result, error) { return svc.Start(ctx, n) })
}

// Accept turns challenge id into a game between its challenger and by,
// played in channel ("" for the challenge's own), as play.Service.Accept
// does, and writes the game's first board and the players to tell in the
// same transaction. answers is Act.Answers: the front end shows the
// board itself (Shown, NotShown).
func (r *Round) Accept(ctx context.Context, id uint64, by play.Seat, channel string, at time.Time, answers bool) (Outcome, error) {
	a := Act{Act: play.Act{By: by.ID, At: at}, Kind: Accept, Answers: answers}
	return r.door(ctx, a, nil, func(svc *play.Service) (play.Result, error) { return svc.Accept(ctx, id, by, channel, at) })
}

// TimeOut acts on game id's deadline, passed at now, as
// play.Service.TimeOut does: the board that says so (TimedOut, Ended)
// and the players to tell are written in the same transaction.
func (r *Round) TimeOut(ctx context.Context, id uint64, now time.Time) (Outcome, error) {
	a := Act{Act: play.Act{Game: id, At: now}, Kind: TimeOut}
	return r.door(ctx, a, nil, func(svc *play.Service) (play.Result, error) { return svc.TimeOut(ctx, id, now) })
}

// Adjudicate ends game id, unfinished, as decide rules from the game as
// the act's transaction reads it (play.Service.Adjudicate): a
// tournament's round that closes scores its games so. The board that
// says so and the players to tell are written in the same transaction.
func (r *Round) Adjudicate(ctx context.Context, id uint64, decide func(g *play.Game) game.Result, at time.Time) (Outcome, error) {
	a := Act{Act: play.Act{Game: id, At: at}, Kind: Adjudicate}
	return r.door(ctx, a, nil, func(svc *play.Service) (play.Result, error) { return svc.Adjudicate(ctx, id, decide, at) })
}

// Rehome moves game id, which goes on, from channel from to to, for
// why, as play.Service.Rehome does, and writes the board for its new
// channel, telling both players (Rehomed), in the same transaction. The
// move changes no revision: the board's item is keyed by the new
// channel.
func (r *Round) Rehome(ctx context.Context, id uint64, from, to string, why Moving, at time.Time) (Outcome, error) {
	a := Act{Act: play.Act{Game: id, At: at}, Kind: Rehome, Channel: from, moving: why}
	return r.door(ctx, a, nil, func(svc *play.Service) (play.Result, error) {
		g, err := svc.Rehome(ctx, id, from, to)
		return play.Result{Game: g, Event: play.Rehomed}, err
	})
}

// door runs an act of play's that is not a player's act on a game (do),
// on a Service that writes the act's items in its transaction, after fn.
func (r *Round) door(ctx context.Context, a Act, fn func(tx play.Tx, g *play.Game) error, do func(svc *play.Service) (play.Result, error)) (Outcome, error) {
	var board Delivery
	var keys []string
	res, err := do(r.play.Then(func(tx play.Tx, res *play.Result) error {
		if fn != nil {
			if err := fn(tx, &res.Game); err != nil {
				return err
			}
		}
		var err error
		board, keys, err = r.record(tx, a, res)
		return err
	}))
	if err != nil {
		return Outcome{}, err
	}
	r.committed(&board)
	out := Outcome{Result: res, Game: res.Game, Events: board.Events, Boards: []Delivery{board}, Keys: keys}
	if e, ok := r.think(&out.Game); ok {
		out.Events = append(out.Events, e)
	}
	return out, nil
}

// apply runs one act through play, writing its items in its transaction.
func (r *Round) apply(ctx context.Context, a Act) (play.Result, Delivery, []string, error) {
	var board Delivery
	var keys []string
	svc := r.play.Then(func(tx play.Tx, res *play.Result) error {
		var err error
		board, keys, err = r.record(tx, a, res)
		return err
	})
	var res play.Result
	var err error
	switch a.Kind {
	case Move:
		res, err = svc.Move(ctx, a.Act, a.Text)
	case OfferDraw:
		res, err = svc.OfferDraw(ctx, a.Act)
	case AcceptDraw:
		res, err = svc.AcceptDraw(ctx, a.Act)
	case DeclineDraw:
		res, err = svc.DeclineDraw(ctx, a.Act)
	case RequestTakeback:
		res, err = svc.RequestTakeback(ctx, a.Act)
	case AcceptTakeback:
		res, err = svc.AcceptTakeback(ctx, a.Act)
	case DeclineTakeback:
		res, err = svc.DeclineTakeback(ctx, a.Act)
	case Resign:
		res, err = svc.Resign(ctx, a.Act)
	case Abort:
		res, err = svc.Abort(ctx, a.Act)
	case ClaimWin:
		res, err = svc.ClaimWin(ctx, a.Act)
	case ClaimDraw:
		res, err = svc.ClaimDraw(ctx, a.Act)
	case WithdrawDraw:
		res, err = svc.WithdrawDraw(ctx, a.Act)
	case WithdrawTakeback:
		res, err = svc.WithdrawTakeback(ctx, a.Act)
	case Premove:
		// Private to its author: no board, nothing to tell.
		res, err = r.play.Premove(ctx, a.Act, a.Lines)
	default:
		return play.Result{}, Delivery{}, nil, fmt.Errorf("round: %v is no act", a.Kind)
	}
	if err == nil {
		r.committed(&board)
	}
	return res, board, keys, err
}

// committed tells Options.Committed of an act's board, if it wrote one.
func (r *Round) committed(d *Delivery) {
	if r.opts.Committed != nil && d.Key != "" {
		r.opts.Committed(d)
	}
}

// record writes, in the act's transaction, the items that follow from
// it: the board, the players to tell, the engine's turn.
func (r *Round) record(tx play.Tx, a Act, res *play.Result) (Delivery, []string, error) {
	g := &res.Game
	if res.Event == play.Queued {
		return Delivery{}, nil, nil
	}
	d := Delivery{Game: *g, Act: a.Kind, By: a.By, Events: events(a, res)}
	err := decideTells(tx, g, d.Events, a.At)
	if err != nil {
		return Delivery{}, nil, fmt.Errorf("round: reading the settings of the players of game %d: %w", g.ID, err)
	}
	if d.Theme, err = waitingTheme(tx, g); err != nil {
		return Delivery{}, nil, fmt.Errorf("round: reading the settings of a player of game %d: %w", g.ID, err)
	}
	d.Key = itemKey(g.ID, g.Revision, KindBoard)
	if a.Kind == Rehome {
		// The same revision as the board before the move: a key, and so
		// a nonce, of its own.
		d.Key = itemKey(g.ID, g.Revision, KindBoard+"."+g.Channel)
	}
	body, err := json.Marshal(d)
	if err != nil {
		return Delivery{}, nil, fmt.Errorf("round: encoding the board of game %d: %w", g.ID, err)
	}
	at := res.Game.Updated
	due := at
	if a.Answers {
		due = at.Add(r.opts.Hold)
	}
	items := []play.OutboxItem{{Key: d.Key, Game: g.ID, Kind: KindBoard, Body: body, Due: due, Created: at}}
	for _, e := range d.Events {
		if t, ok := e.(Tell); ok && t.How == DirectMessage {
			items = append(items, play.OutboxItem{Key: itemKey(g.ID, g.Revision, KindTell), Game: g.ID, Kind: KindTell, Body: body, Due: at, Created: at})
			break
		}
	}
	// The engine's turn: Do answers an offer at once, and Think takes a
	// move at once, so then the item is only the turn's keeper should the
	// process die, and is due when the hold ends.
	_, answers := engineOffer(g)
	if answers || g.EngineToMove() > 0 {
		due := at
		if answers || r.opts.Think != nil {
			due = at.Add(r.opts.Hold)
		}
		items = append(items, play.OutboxItem{Key: EngineKey(g.ID, g.Revision), Game: g.ID, Kind: KindEngine, Due: due, Created: at})
	}
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = it.Key
	}
	return d, keys, tx.PutOutbox(items...)
}

// Shown tells the outbox that the front end showed the boards of an act
// (Act.Answers) itself: they are not delivered again.
func (r *Round) Shown(ctx context.Context, out *Outcome) error {
	var keys []string
	for _, d := range out.Boards {
		keys = append(keys, d.Key)
	}
	return r.Done(ctx, keys...)
}

// NotShown tells the outbox that the front end could not show the boards
// of an act: the outbox delivers the last, which shows the game as the
// act left it, at once, and drops those before it.
func (r *Round) NotShown(ctx context.Context, out *Outcome) error {
	n := len(out.Boards)
	if n == 0 {
		return nil
	}
	for _, d := range out.Boards[:n-1] {
		if err := r.Done(ctx, d.Key); err != nil {
			return err
		}
	}
	key := out.Boards[n-1].Key
	if err := r.st.RetryOutbox(ctx, key, "", r.opts.Now()); err != nil {
		return fmt.Errorf("round: releasing the board %q: %w", key, err)
	}
	return nil
}

// Done marks outbox items delivered.
func (r *Round) Done(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	return r.st.DoneOutbox(ctx, keys...)
}
