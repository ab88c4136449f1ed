package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// The records and buckets of older schemas, as the migrations read them.
// Only what the migrations need is here.

// Buckets of schemas 1 and 2 that schema 3 no longer has, and the
// indexes whose keys named a channel instead of a game id.
var (
	v2Games   = []byte("games")   // channel → v2Game (active games)
	v2GameIDs = []byte("gameIDs") // id → channel (active games)
)

// v2Game is a game record of record versions 1 and 2.
type v2Game struct {
	V           int          `json:"v"`
	ID          uint64       `json:"id"`
	Guild       string       `json:"guild"`
	Channel     string       `json:"channel"`
	White       play.Seat    `json:"white"`
	Black       play.Seat    `json:"black"`
	StartFEN    string       `json:"start"`
	Moves       []play.Move  `json:"moves"`
	IceAges     []struct{}   `json:"iceAges,omitempty"` // what each Ice Age did; only their number is used
	FEN         string       `json:"fen"`
	Status      game.Outcome `json:"status"`
	Created     time.Time    `json:"created"`
	Updated     time.Time    `json:"updated"`
	Ended       time.Time    `json:"ended,omitzero"`
	Rated       bool         `json:"rated,omitempty"`
	DaysPerMove int          `json:"days,omitempty"`
	Deadline    time.Time    `json:"deadline,omitzero"`
	RemindAt    time.Time    `json:"remind,omitzero"`
	DrawOffer   string       `json:"drawOffer,omitempty"` // the id of the player who offered a draw
	Takeback    string       `json:"takeback,omitempty"`  // the id of the player who asked to take back
	// Messages (the bot's message ids) are not carried over: play's
	// records keep no front end's data.
}

// v2Summary is the part of an archived v2Game that the migration to
// schema 3 reads: it decodes without the moves.
type v2Summary struct {
	ID        uint64       `json:"id"`
	Guild     string       `json:"guild"`
	White     play.Seat    `json:"white"`
	Black     play.Seat    `json:"black"`
	Status    game.Outcome `json:"status"`
	IceAges   []struct{}   `json:"iceAges"`
	DrawOffer string       `json:"drawOffer"`
	Takeback  string       `json:"takeback"`
}

// toPlay converts a schema-2 game to play's record. A pending draw offer
// or takeback request is taken as made at the current ply (the old record
// did not say when), and a draw offer counts as the offerer's offer in
// this position. The revision starts at 1 + the number of moves, what
// play would have reached with moves alone.
func (o *v2Game) toPlay() play.Game {
	g := play.Game{ID: o.ID, Guild: o.Guild, Channel: o.Channel, White: o.White, Black: o.Black,
		StartFEN: o.StartFEN, Moves: o.Moves, FEN: o.FEN, Outcome: o.Status,
		Created: o.Created, Updated: o.Updated, Ended: o.Ended, Rated: o.Rated,
		DaysPerMove: o.DaysPerMove, Deadline: o.Deadline, RemindAt: o.RemindAt}
	if g.Moves == nil {
		g.Moves = []play.Move{}
	}
	g.Revision = 1 + len(g.Moves)
	switch {
	case g.Over():
		g.Last = play.Ended
	case len(g.Moves) > 0:
		g.Last = play.Moved
	default:
		g.Last = play.Started
	}
	if o.DrawOffer != "" && !g.Over() {
		g.DrawOffer = &play.Offer{By: o.DrawOffer, Ply: g.Ply()}
		if c, ok := g.ColorOf(o.DrawOffer); ok {
			g.LastOffer[c] = g.Ply() + 1
		}
	}
	if o.Takeback != "" && !g.Over() {
		g.Takeback = &play.Offer{By: o.Takeback, Ply: g.Ply()}
	}
	return g
}

// v3Summary is the part of an archived game of schema 3 (play's record)
// that the migration to schema 4 reads: its players, end and first two
// moves (the rest of the moves are skipped, not decoded).
type v3Summary struct {
	ID       uint64       `json:"id"`
	Guild    string       `json:"guild"`
	White    play.Seat    `json:"white"`
	Black    play.Seat    `json:"black"`
	StartFEN string       `json:"start"`
	Moves    [2]play.Move `json:"moves"`
	Outcome  game.Outcome `json:"status"`
	Ended    time.Time    `json:"ended"`
}

// readV3Summary reads the summary of an archived game stored under key k
// in a file of schema 3: JSON, or the binary form in which migrate2to3
// rewrote the games it changed.
func readV3Summary(k, v []byte) (v3Summary, error) {
	var s v3Summary
	if v, ok := jsonRecord(v); ok {
		if err := json.Unmarshal(v, &s); err != nil {
			return s, fmt.Errorf("%w: archived game %x: %v", ErrCorrupt, k, err)
		}
		return s, nil
	}
	var g play.Game
	if err := decode(fmt.Sprintf("archived game %x", k), v, &g); err != nil {
		return s, err
	}
	s = v3Summary{ID: g.ID, Guild: g.Guild, White: g.White, Black: g.Black, StartFEN: g.StartFEN, Outcome: g.Outcome, Ended: g.Ended}
	copy(s.Moves[:], g.Moves)
	return s, nil
}

// v2Players lists a schema-2 game's players, once each.
func v2Players(white, black string) []string {
	if white == black {
		return []string{white}
	}
	return []string{white, black}
}
