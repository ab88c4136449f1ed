package round

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Event is one thing that happened in a round: a closed set of types,
// each a fact a front end puts into words of its own. Events carry users
// as play's opaque ids and moves in SAN, never sentences.
type Event interface {
	// name is the event's stable name in the outbox.
	name() string
}

// Started: a game began.
type Started struct {
	White, Black string
}

// Moved: a move was played. Reply is true for a conditional move that
// answered the move before it (play.Premove), played in the same act.
// FEN is the position after it (and its Ice Age), as the act computed
// it: a front end shows the move from the event, replaying nothing.
type Moved struct {
	By    string
	SAN   string
	UCI   string
	Ply   int // the move's number of half-moves from the start, 1 for the first
	Reply bool
	FEN   string `json:",omitempty"`
}

// IceAge: the move at Ply brought an Ice Age: Frozen men froze and
// Filled empty squares filled with ice. Before is the position just
// before it (FEN), Men the men that froze and Ice the squares filled, as
// the act computed them ("" and nil in items written before they were
// kept).
type IceAge struct {
	Ply    int
	Frozen int              // men that froze
	Filled int              // empty squares filled with ice
	Before string           `json:",omitempty"`
	Men    []game.Placement `json:",omitempty"`
	Ice    game.Bitboard    `json:",omitempty"`
}

// Detail returns the Ice Age as package game tells it, and the position
// after the move (after, the FEN of its Moved event); ok is false when
// the event does not carry them (an item written before they were
// kept), or they do not read.
func (e *IceAge) Detail(after string) (ice *game.IceAge, pos game.Position, ok bool) {
	if e.Before == "" || after == "" {
		return nil, game.Position{}, false
	}
	before, err := game.ParseFEN(e.Before)
	if err != nil {
		return nil, game.Position{}, false
	}
	if pos, err = game.ParseFEN(after); err != nil {
		return nil, game.Position{}, false
	}
	return &game.IceAge{Before: before, Frozen: e.Men, Filled: e.Ice}, pos, true
}

// Ended: the game ended. By is who ended it by an act (resigned,
// aborted, agreed to a draw, claimed); "" when the board ended it.
type Ended struct {
	Outcome game.Outcome
	By      string
}

// Offer names what a player offers: a draw, or to take back a move.
type Offer uint8

const (
	Draw     Offer = 1
	Takeback Offer = 2
)

// Offered: By offers To a draw or a takeback.
type Offered struct {
	Offer Offer
	By    string
	To    string
}

// Declined: By declined the offer.
type Declined struct {
	Offer Offer
	By    string
}

// Lapsed: the offer By made lapsed, because its opponent played a
// move instead of answering it.
type Lapsed struct {
	Offer Offer
	By    string
}

// TookBack: By granted a takeback; Plies moves were taken back.
type TookBack struct {
	By    string
	Plies int
}

// Dropped: the conditional moves of By were dropped, because the
// opponent played a move they did not expect.
type Dropped struct {
	By string
}

// TimedOut: the deadline of the side to move passed at Due, and the
// scheduler found it Late after. Chooser is "" when the game ended on
// time (an Ended event follows); otherwise it names the opponent, who
// now chooses between claiming the win and a draw until the game's
// Deadline (Game.Flag).
type TimedOut struct {
	Due     time.Time
	Late    time.Duration
	Chooser string
}

// Rehomed: the game moved from the channel From to To, for Why.
type Rehomed struct {
	From, To string
	Why      Moving `json:",omitempty"`
}

// Moving says why a game moved to another channel.
type Moving uint8

const (
	// ThreadGone: its thread was deleted or locked.
	ThreadGone Moving = 0
	// OwnThread: it started in its channel, Discord refusing a thread
	// then, and now has a thread of its own.
	OwnThread Moving = 1
)

// Why says what a user must be told.
type Why uint8

const (
	YourMove     Why = 1 // it is their move
	OfferMade    Why = 2 // they are offered a draw or a takeback
	GameOver     Why = 3 // their opponent, or the clock, ended the game
	QueueDropped Why = 4 // their conditional moves were dropped; private to them
	Choose       Why = 5 // their opponent ran out of time: they choose the win or a draw
	MovedAway    Why = 6 // the game moved to another channel (Rehomed)
	Paired       Why = 7 // a tournament's round started their game, and it is not their move
	// Remind: their deadline nears (Round.Remind).
	Remind Why = 8
	// Bye: a tournament's round gives them a bye, or they sit it out.
	Bye Why = 9
	// ChallengeExpired: their private challenge expired unanswered
	// (Round.Expire).
	ChallengeExpired Why = 10
	// OpponentAway: their opponent went on vacation, or came back
	// (Round.Vacation): a note without a ping where the game is played.
	OpponentAway Why = 11
)

// How is how a player is told, as the act decided from their settings:
// a front end does it, and decides nothing of it itself.
type How uint8

const (
	// Mention: in the game's channel, naming them so that they are
	// notified. The zero value, as in items written before the act
	// decided.
	Mention How = 0
	// DirectMessage: privately; should that be refused, the front end
	// mentions them after all.
	DirectMessage How = 1
	// Silently: not at all; a board names them without notifying them.
	Silently How = 2
)

// Tell: User must be told, for Why, as How says, in Lang (the language
// they chose in their settings; "" when they chose none, and the front
// end says it in the language it knows for them).
type Tell struct {
	User string
	Why  Why
	How  How    `json:",omitempty"`
	Lang string `json:",omitempty"`
}

// EngineThinking: the engine's turn is taken; Ahead other engine moves
// wait before it (0: it starts at once). It is about the asker's act and
// not kept in the outbox.
type EngineThinking struct {
	Ahead int
}

func (Started) name() string        { return "started" }
func (Moved) name() string          { return "moved" }
func (IceAge) name() string         { return "iceage" }
func (Ended) name() string          { return "ended" }
func (Offered) name() string        { return "offered" }
func (Declined) name() string       { return "declined" }
func (TookBack) name() string       { return "tookback" }
func (Lapsed) name() string         { return "lapsed" }
func (Dropped) name() string        { return "dropped" }
func (Tell) name() string           { return "tell" }
func (TimedOut) name() string       { return "timedout" }
func (Rehomed) name() string        { return "rehomed" }
func (EngineThinking) name() string { return "thinking" }

// Events is a list of events that reads and writes itself as JSON, each
// event tagged with its name.
type Events []Event

type taggedEvent struct {
	T string          `json:"t"`
	E json.RawMessage `json:"e"`
}

// MarshalJSON implements json.Marshaler.
func (es Events) MarshalJSON() ([]byte, error) {
	out := make([]taggedEvent, 0, len(es))
	for _, e := range es {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		out = append(out, taggedEvent{e.name(), b})
	}
	return json.Marshal(out)
}

// UnmarshalJSON implements json.Unmarshaler. An unknown name is an
// error: an outbox written by a newer program is not guessed at.
func (es *Events) UnmarshalJSON(b []byte) error {
	var in []taggedEvent
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	out := make(Events, 0, len(in))
	for _, t := range in {
		var e Event
		var err error
		switch t.T {
		case "started":
			e, err = decode[Started](t.E)
		case "moved":
			e, err = decode[Moved](t.E)
		case "iceage":
			e, err = decode[IceAge](t.E)
		case "ended":
			e, err = decode[Ended](t.E)
		case "offered":
			e, err = decode[Offered](t.E)
		case "declined":
			e, err = decode[Declined](t.E)
		case "tookback":
			e, err = decode[TookBack](t.E)
		case "lapsed":
			e, err = decode[Lapsed](t.E)
		case "dropped":
			e, err = decode[Dropped](t.E)
		case "tell":
			e, err = decode[Tell](t.E)
		case "thinking":
			e, err = decode[EngineThinking](t.E)
		case "timedout":
			e, err = decode[TimedOut](t.E)
		case "rehomed":
			e, err = decode[Rehomed](t.E)
		default:
			return fmt.Errorf("round: an event named %q", t.T)
		}
		if err != nil {
			return fmt.Errorf("round: event %q: %w", t.T, err)
		}
		out = append(out, e)
	}
	*es = out
	return nil
}

func decode[E Event](b json.RawMessage) (Event, error) {
	var e E
	err := json.Unmarshal(b, &e)
	return e, err
}
