package round

import (
	"encoding/json"
	"fmt"

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
type Moved struct {
	By    string
	SAN   string
	UCI   string
	Ply   int // the move's number of half-moves from the start, 1 for the first
	Reply bool
}

// IceAge: the move at Ply brought an Ice Age.
type IceAge struct {
	Ply    int
	Frozen int // men that froze
	Filled int // empty squares filled with ice
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

// Why says what a user must be told.
type Why uint8

const (
	YourMove     Why = 1 // it is their move
	OfferMade    Why = 2 // they are offered a draw or a takeback
	GameOver     Why = 3 // their opponent ended the game
	QueueDropped Why = 4 // their conditional moves were dropped; private to them
)

// Tell: User must be told, for Why. A front end tells them in its own
// way: a mention, a direct message, a line on the screen.
type Tell struct {
	User string
	Why  Why
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
