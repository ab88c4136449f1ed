package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/iceagechess/iceage/game"
)

// recordVersion is the version written into every record this code stores
// (the "v" field). A reader accepts any version up to its own and treats
// missing fields as zero; migrations rewrite older records when a change is
// more than an added field.
const recordVersion = 2

// Seat is one player of a game: an opaque user id and the display name the
// user had when the game began (names change; the record keeps history).
type Seat struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// Move is one move of a game: UCI text and the time it was acknowledged.
// It is stored as a two-element JSON array, ["e2d3", 1764468000123]
// (Unix milliseconds), because a long correspondence game holds hundreds of
// them and the archive holds hundreds of thousands of games.
type Move struct {
	UCI string
	At  time.Time
}

// MarshalJSON encodes the move as [uci, unix milliseconds].
func (m Move) MarshalJSON() ([]byte, error) {
	if !plainUCI(m.UCI) {
		return json.Marshal([2]any{m.UCI, m.At.UnixMilli()})
	}
	b := make([]byte, 0, 32)
	b = append(b, '[', '"')
	b = append(b, m.UCI...)
	b = append(b, '"', ',')
	b = strconv.AppendInt(b, m.At.UnixMilli(), 10)
	return append(b, ']'), nil
}

// UnmarshalJSON decodes [uci, unix milliseconds]. Listing games decodes
// thousands of moves, so the form the store writes is read by hand; any
// other valid JSON of that shape takes the slow general path.
func (m *Move) UnmarshalJSON(b []byte) error {
	if len(b) > 4 && b[0] == '[' && b[1] == '"' && b[len(b)-1] == ']' {
		if q := bytes.IndexByte(b[2:], '"'); q >= 0 && 2+q+1 < len(b) && b[2+q+1] == ',' {
			uci := string(b[2 : 2+q])
			if ms, err := strconv.ParseInt(string(b[2+q+2:len(b)-1]), 10, 64); err == nil && plainUCI(uci) {
				m.UCI, m.At = uci, time.UnixMilli(ms).UTC()
				return nil
			}
		}
	}
	var raw [2]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("move %s: %w", b, err)
	}
	var ms int64
	if err := json.Unmarshal(raw[0], &m.UCI); err != nil {
		return fmt.Errorf("move %s: %w", b, err)
	}
	if err := json.Unmarshal(raw[1], &ms); err != nil {
		return fmt.Errorf("move %s: %w", b, err)
	}
	m.At = time.UnixMilli(ms).UTC()
	return nil
}

// plainUCI reports whether s needs no escaping in JSON: letters and digits.
func plainUCI(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// IceAge records what an Ice Age did, for replaying, telling and showing
// it without recomputing. Ply is the number of moves played when it came
// (it belongs to the Black move Moves[Ply-1]).
type IceAge struct {
	Ply    int      `json:"ply"`
	Frozen []string `json:"frozen,omitempty"` // men that froze, as FEN letter and square: "Pe4", "kh8"
	Filled []string `json:"filled,omitempty"` // empty squares filled with ice: "d5"
}

// Game is one game, active or archived. Values returned by the store are
// copies: changing them changes nothing stored.
type Game struct {
	V       int    `json:"v"`       // record version, see recordVersion
	ID      uint64 `json:"id"`      // unique, increasing with creation
	Guild   string `json:"guild"`   // server id ("" for a direct-message game)
	Channel string `json:"channel"` // channel or thread id: the key while active

	White Seat `json:"white"`
	Black Seat `json:"black"`

	StartFEN string   `json:"start"`
	Moves    []Move   `json:"moves"`
	IceAges  []IceAge `json:"iceAges,omitempty"`
	FEN      string   `json:"fen"` // the current position, so no replay is needed per move

	// Status is the outcome so far: zero while the game goes on. Result
	// and Reason are game's stable numbers.
	Status game.Outcome `json:"status"`

	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Ended   time.Time `json:"ended,omitzero"`

	Rated bool `json:"rated,omitempty"`

	// DaysPerMove is the correspondence time control (0: no clock). The
	// side to move loses on time at Deadline; RemindAt is when to remind
	// it (zero once reminded). Both are indexed for the scheduler.
	DaysPerMove int       `json:"days,omitempty"`
	Deadline    time.Time `json:"deadline,omitzero"`
	RemindAt    time.Time `json:"remind,omitzero"`

	// DrawOffer and Takeback hold the id of the player who offered a draw
	// or asked to take back, or "".
	DrawOffer string `json:"drawOffer,omitempty"`
	Takeback  string `json:"takeback,omitempty"`

	// Messages are the ids of the bot's messages that show the game, so
	// they can be edited.
	Messages []string `json:"messages,omitempty"`
}

// Ply returns the number of moves played: the game's version for the
// optimistic checks of PlayMove and UpdateGame.
func (g *Game) Ply() int { return len(g.Moves) }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Status.Over() }

// Seat returns the seat of colour c.
func (g *Game) Seat(c game.Color) Seat {
	if c == game.White {
		return g.White
	}
	return g.Black
}

// ColorOf returns the colour the user plays; ok is false if the user does
// not play in the game. (A user playing both sides gets White.)
func (g *Game) ColorOf(user string) (c game.Color, ok bool) {
	switch user {
	case g.White.ID:
		return game.White, true
	case g.Black.ID:
		return game.Black, true
	}
	return game.White, false
}

// Position decodes the current position.
func (g *Game) Position() (game.Position, error) {
	p, err := game.ParseFEN(g.FEN)
	if err != nil {
		return p, fmt.Errorf("%w: game %d has an unreadable position %q: %v", ErrCorrupt, g.ID, g.FEN, err)
	}
	return p, nil
}

// ToMove returns the seat whose turn it is.
func (g *Game) ToMove() (Seat, error) {
	p, err := g.Position()
	if err != nil {
		return Seat{}, err
	}
	return g.Seat(p.Turn()), nil
}

// LastIceAge returns the Ice Age brought by the last move, or nil.
func (g *Game) LastIceAge() *IceAge {
	if n := len(g.IceAges); n > 0 && g.IceAges[n-1].Ply == len(g.Moves) {
		e := g.IceAges[n-1]
		return &e
	}
	return nil
}

func (g *Game) players() []string {
	if g.White.ID == g.Black.ID {
		return []string{g.White.ID}
	}
	return []string{g.White.ID, g.Black.ID}
}

// clone returns a deep copy, so that an UpdateGame callback cannot reach
// the record being compared against.
func (g *Game) clone() *Game {
	c := *g
	c.Moves = append([]Move(nil), g.Moves...)
	c.IceAges = append([]IceAge(nil), g.IceAges...)
	c.Messages = append([]string(nil), g.Messages...)
	return &c
}

func iceAgeRecord(ply int, e *game.IceAge) IceAge {
	r := IceAge{Ply: ply}
	for _, f := range e.Frozen {
		r.Frozen = append(r.Frozen, string(f.Piece.FENLetter())+f.Square.String())
	}
	for _, s := range e.Filled.Squares() {
		r.Filled = append(r.Filled, s.String())
	}
	return r
}

// encode and decode are the only places records meet JSON. JSON is the
// stored format because the records are small, read far more often than
// written, and must stay readable by tools (bbolt's CLI, jq) and by later
// versions of this program: unknown fields are ignored and missing ones
// read as zero, so most schema changes need no rewrite.
func encode(v any) ([]byte, error) { return json.Marshal(v) }

// decode refuses a record of a newer version than recordVersion: its new
// fields would be dropped unseen, and lost for good when this program
// wrote the record back.
func decode(what string, b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, what, err)
	}
	var version int
	switch r := v.(type) {
	case *Game:
		version = r.V
	case *Challenge:
		version = r.V
	case *Player:
		version = r.V
	case *Prefs:
		version = r.V
	case *Stats:
		version = r.V
	}
	if version > recordVersion {
		return fmt.Errorf("%w: %s has record version %d, this program knows up to %d", ErrNewerSchema, what, version, recordVersion)
	}
	return nil
}
