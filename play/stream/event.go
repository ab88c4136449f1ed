package stream

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// Kind says what a revision of a game was.
type Kind uint8

const (
	// Sync is the whole game at a revision, for a watcher that starts or
	// missed revisions that are no longer kept: it replaces whatever the
	// watcher showed.
	Sync Kind = iota + 1
	// Started is the Sync of a game at its first revision: the game
	// began, and nothing happened since.
	Started
	Moved // a move; two when a conditional move answered it
	Offered
	Declined
	Withdrawn
	TookBack
	Ended      // resigned, agreed, aborted, claimed or timed out: see Outcome
	TimeRanOut // the deadline passed and the opponent chooses: see Flag
	// Rehomed and Reminded are notices, not revisions: the game moved to
	// another channel (Channel), or the player to move (By) was reminded
	// that their deadline nears (Hours before it). They come at the
	// revision they happened at, to the watchers watching then, and are
	// not sent again to a watcher who resumes.
	Rehomed
	Reminded
)

var kindNames = [...]string{Sync: "sync", Started: "started", Moved: "moved", Offered: "offered", Declined: "declined",
	Withdrawn: "withdrawn", TookBack: "tookback", Ended: "ended", TimeRanOut: "timeranout", Rehomed: "rehomed", Reminded: "reminded"}

// String names the kind as the JSON form does.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind %d", k)
}

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Offer names what Offered, Declined and Withdrawn are about.
type Offer uint8

const (
	Draw     Offer = 1
	Takeback Offer = 2
)

// MarshalText implements encoding.TextMarshaler.
func (o Offer) MarshalText() ([]byte, error) {
	switch o {
	case Draw:
		return []byte("draw"), nil
	case Takeback:
		return []byte("takeback"), nil
	}
	return []byte(""), nil
}

// Event is one revision of a game, as its watchers see it: what the act
// did, and the whole game after it, so that a page shows it without a
// replay and a watcher that kept only the last event is up to date.
// Events are shared by every watcher: read only.
type Event struct {
	Game     uint64    `json:"game"`
	Revision int       `json:"rev"`
	Kind     Kind      `json:"kind"`
	At       time.Time `json:"at"`
	// By is who acted, when the record tells it: the mover, who offered,
	// declined, withdrew or granted a takeback.
	By    string `json:"by,omitempty"`
	Offer Offer  `json:"offer,omitempty"`
	// Moves are the moves of a Moved revision, in order.
	Moves []Move `json:"moves,omitempty"`
	// Plies is the number of moves after the revision (TookBack: the
	// moves after Plies were taken back).
	Plies int `json:"plies"`
	// Channel is, for Rehomed, the channel the game moved to.
	Channel string `json:"channel,omitempty"`
	// Hours is, for Reminded, how many hours before the deadline the
	// reminder came.
	Hours int `json:"hours,omitempty"`

	// The game after the revision.
	White play.Seat `json:"white"`
	Black play.Seat `json:"black"`
	// SANs is every move of the game in SAN.
	SANs []string `json:"sans"`
	// FEN is the position, ice included ('*').
	FEN string `json:"fen"`
	// Outcome is the result so far; in JSON, "result" ("1-0", "0-1",
	// "1/2-1/2") and "reason" (as game.Reason says it), once over.
	Outcome game.Outcome `json:"-"`
	// Deadline is when the side to move loses on time (zero: none).
	Deadline  time.Time   `json:"deadline,omitzero"`
	DrawOffer *play.Offer `json:"drawOffer,omitempty"`
	Takeback  *play.Offer `json:"takeback,omitempty"`
	Flag      *play.Flag  `json:"flag,omitempty"`
	// IceAgeIn is how many Black moves remain until the next Ice Age,
	// counting the one that brings it; WouldFreeze the men that would
	// freeze if it came now.
	IceAgeIn    int      `json:"iceAgeIn"`
	WouldFreeze []string `json:"wouldFreeze,omitempty"`
	// Clock is a live game's clocks after the revision; nil for
	// correspondence.
	Clock *Clock `json:"clock,omitempty"`
}

// Clock is both clocks of a live game as the revision left them, in
// milliseconds at its time (Event.At): a page counts the running one
// down from when the event arrives, and each event corrects it.
type Clock struct {
	White int64 `json:"white"`
	Black int64 `json:"black"`
	// Running is the side whose clock runs, "white" or "black"; "" when
	// none does (before the first move, and once the game is over).
	Running string `json:"running,omitempty"`
	// Limit and Increment are the time control, in seconds.
	Limit     int64 `json:"limit"`
	Increment int64 `json:"increment"`
}

// clockOf is g's Clock at its last update; nil without one.
func clockOf(g *play.Game) *Clock {
	k := g.Clock
	if k == nil {
		return nil
	}
	turn := g.Turn()
	c := &Clock{White: k.LeftAt(game.White, turn, g.Updated).Milliseconds(), Black: k.LeftAt(game.Black, turn, g.Updated).Milliseconds(),
		Limit: int64(k.Limit / time.Second), Increment: int64(k.Increment / time.Second)}
	if k.Running() && !g.Over() {
		c.Running = turn.String()
	}
	return c
}

// MarshalJSON writes the event with its outcome in words.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	out := struct {
		plain
		Result string `json:"result,omitempty"`
		Reason string `json:"reason,omitempty"`
	}{plain: plain(e)}
	if e.Outcome.Over() {
		out.Result, out.Reason = e.Outcome.Result.String(), e.Outcome.Reason.String()
	}
	return json.Marshal(out)
}

// Move is one move of a Moved revision.
type Move struct {
	Ply int        `json:"ply"` // 1 for the first move of the game
	By  game.Color `json:"-"`   // in JSON, "white" or "black"
	SAN string     `json:"san"`
	UCI string     `json:"uci"`
	// IceAge is what the Ice Age that the move brought did; nil if none.
	IceAge *IceAge `json:"iceAge,omitempty"`
	// Reply is set on a conditional move that took effect: the
	// opponent's queued reply (play.Premove), played in the same act as
	// the move before it.
	Reply bool `json:"reply,omitempty"`
}

// MarshalJSON writes the move with its colour in words.
func (m Move) MarshalJSON() ([]byte, error) {
	type plain Move
	return json.Marshal(struct {
		plain
		By string `json:"by"`
	}{plain(m), m.By.String()})
}

// IceAge is what an Ice Age did: the men that froze, and the empty
// squares that filled with ice.
type IceAge struct {
	Frozen []Frozen `json:"frozen"`
	Filled []string `json:"filled"`
}

// Frozen is a man that froze: its square and its FEN letter.
type Frozen struct {
	Square string `json:"square"`
	Man    string `json:"man"`
}

// followed is what a follow knows of its game: the game as last applied
// and its moves in SAN (shared with the events, so appended to only
// past their ends, and copied when moves are taken back).
type followed struct {
	game play.Game
	sans []string
}

// load reads a whole game, with the SANs its moves carry (a record
// that does not keep them is replayed once for them).
func load(g play.Game) (followed, error) {
	sans, err := g.SANs()
	if err != nil {
		return followed{}, err
	}
	return followed{game: g, sans: sans}, nil
}

// next returns the event of g, one revision after f, and what follows
// it. ok is false when the record does not tell it as one step from f
// (moves that do not continue f's): the caller makes it a Sync.
func (f *followed) next(g play.Game) (*Event, followed, bool) {
	prev := &f.game
	n := followed{game: g}
	ev := &Event{}
	switch g.Last {
	case play.Moved:
		if len(g.Moves) <= len(prev.Moves) || !samePrefix(prev.Moves, g.Moves) {
			return nil, followed{}, false
		}
		pos, err := prev.Position()
		if err != nil {
			return nil, followed{}, false
		}
		m := game.NewMatch(pos)
		sans := f.sans
		for i := len(prev.Moves); i < len(g.Moves); i++ {
			mv, err := game.ParseUCI(g.Moves[i].UCI)
			if err != nil {
				return nil, followed{}, false
			}
			before := m.Position()
			by := before.Turn()
			p, err := m.PlayMove(mv)
			if err != nil {
				return nil, followed{}, false
			}
			ev.Moves = append(ev.Moves, Move{Ply: i + 1, By: by, SAN: p.SAN, UCI: p.UCI, IceAge: iceAge(p.IceAge), Reply: i > len(prev.Moves)})
			sans = append(sans, p.SAN)
			if i == len(prev.Moves) {
				ev.By = g.Seat(by).ID
			}
		}
		if m.FEN() != g.FEN {
			return nil, followed{}, false
		}
		ev.Kind, n.sans = Moved, sans
	case play.TookBack:
		if len(g.Moves) >= len(prev.Moves) || !samePrefix(g.Moves, prev.Moves) {
			return nil, followed{}, false
		}
		ev.Kind = TookBack
		// Later moves must not write over the earlier events' SANs.
		n.sans = slices.Clip(f.sans[:len(g.Moves)])
		if o := prev.Takeback; o != nil {
			ev.By = other(prev, o.By)
		}
	default:
		if len(g.Moves) != len(prev.Moves) {
			return nil, followed{}, false
		}
		n.sans = f.sans
		switch g.Last {
		case play.DrawOffered, play.TakebackRequested:
			ev.Kind, ev.Offer = Offered, Draw
			o := g.DrawOffer
			if g.Last == play.TakebackRequested {
				ev.Offer, o = Takeback, g.Takeback
			}
			if o != nil {
				ev.By = o.By
			}
		case play.DrawDeclined, play.DrawWithdrawn, play.TakebackDeclined, play.TakebackWithdrawn:
			ev.Kind, ev.Offer = Declined, Draw
			o := prev.DrawOffer
			if g.Last == play.TakebackDeclined || g.Last == play.TakebackWithdrawn {
				ev.Offer, o = Takeback, prev.Takeback
			}
			if g.Last == play.DrawWithdrawn || g.Last == play.TakebackWithdrawn {
				ev.Kind = Withdrawn
			}
			if o != nil {
				ev.By = o.By
				if ev.Kind == Declined {
					ev.By = other(prev, o.By)
				}
			}
		case play.Ended:
			ev.Kind = Ended
		case play.TimeRanOut:
			ev.Kind = TimeRanOut
			if g.Flag != nil {
				ev.By = g.Flag.By
			}
		default:
			return nil, followed{}, false
		}
	}
	n.fill(ev)
	return ev, n, true
}

// notice returns the notice that g, written at f's revision, tells
// (Rehomed, Reminded), and what follows it; ok is false when the write
// changed nothing a watcher is told of (conditional moves queued, which
// are private, a vacation's deadline).
func (f *followed) notice(g play.Game) (*Event, followed, bool) {
	prev := &f.game
	if g.Revision != prev.Revision || len(g.Moves) != len(prev.Moves) {
		return nil, followed{}, false
	}
	n := followed{game: g, sans: f.sans}
	ev := &Event{}
	switch {
	case g.Channel != prev.Channel:
		ev.Kind, ev.Channel = Rehomed, g.Channel
	case len(g.Reminded) > len(prev.Reminded):
		ev.Kind, ev.By, ev.Hours = Reminded, g.ToMove().ID, g.Reminded[len(g.Reminded)-1]
	default:
		return nil, n, false
	}
	n.fill(ev)
	return ev, n, true
}

// sync returns the Sync event of f's game: Started at its first
// revision.
func (f *followed) sync() *Event {
	ev := &Event{Kind: Sync}
	if g := &f.game; g.Revision == 1 && g.Last == play.Started {
		ev.Kind = Started
	}
	f.fill(ev)
	return ev
}

// fill sets what every event tells of the game after it.
func (f *followed) fill(ev *Event) {
	g := &f.game
	ev.Game, ev.Revision, ev.At = g.ID, g.Revision, g.Updated
	ev.Plies = len(g.Moves)
	ev.White, ev.Black = g.White, g.Black
	ev.SANs = f.sans[:len(f.sans):len(f.sans)]
	ev.FEN, ev.Outcome, ev.Deadline = g.FEN, g.Outcome, g.Deadline
	ev.DrawOffer, ev.Takeback, ev.Flag = g.DrawOffer, g.Takeback, g.Flag
	ev.Clock = clockOf(g)
	if pos, err := g.Position(); err == nil {
		ev.IceAgeIn = pos.BlackMovesToIceAge()
		if !g.Over() {
			for _, s := range pos.WouldFreeze().Squares() {
				ev.WouldFreeze = append(ev.WouldFreeze, squareNames[s&63])
			}
		}
	}
}

// squareNames are the squares' names, made once: every event names
// some.
var squareNames = func() (n [64]string) {
	for s := range n {
		n[s] = game.Square(s).String()
	}
	return n
}()

func iceAge(e *game.IceAge) *IceAge {
	if e == nil {
		return nil
	}
	out := &IceAge{Frozen: []Frozen{}, Filled: []string{}}
	for _, f := range e.Frozen {
		out.Frozen = append(out.Frozen, Frozen{Square: squareNames[f.Square&63], Man: string(f.Piece.FENLetter())})
	}
	for _, s := range e.Filled.Squares() {
		out.Filled = append(out.Filled, squareNames[s&63])
	}
	return out
}

// samePrefix reports whether short's moves begin long's.
func samePrefix(short, long []play.Move) bool {
	if len(short) > len(long) {
		return false
	}
	for i := range short {
		if short[i].UCI != long[i].UCI {
			return false
		}
	}
	return true
}

// other returns the player of g who is not user.
func other(g *play.Game, user string) string {
	if user == g.White.ID {
		return g.Black.ID
	}
	return g.White.ID
}

// fromRecord returns the events of the revisions the game's record can
// tell, up to its own, the last; none when it cannot tell its own. A
// follow that began after a revision a watcher resumes from makes them
// once, so that the watcher gets each revision it missed even from a
// hub that never followed the game (a restart, another process, a game
// unwatched for Options.Linger).
//
// The record keeps each move's revision (play.Move.Rev) but no other
// act: going back from its revision, the events go as far as each
// revision made a move (or a move and the conditional move that answered
// it), the last one any act but a decline, a withdrawal or a takeback,
// which the record keeps no trace of (who offered, the moves taken
// back). What stops them — an offer, a decline, a withdrawal, a
// takeback, a timeout whose choice was made, a move of a record of
// version 5 and before, the game's start — is where a watcher from
// further back gets a Sync instead. An event before the last carries
// the game as it was at its revision, but for what the record keeps
// only as it is now: its clocks and its deadline (Clock, Deadline) are
// left out. Its offers and flag are none: every move clears them.
//
// It replays the game's moves once, from its start.
func (f *followed) fromRecord() []*Event {
	g := &f.game
	n, rev := len(g.Moves), g.Revision
	switch g.Last {
	case play.Moved:
		// The last revision's moves: one, or two of a conditional reply.
		k := 0
		for k < 2 && n-k > 0 && g.Moves[n-k-1].Rev == rev {
			k++
		}
		if k == 0 {
			return nil
		}
		n -= k
	case play.Ended, play.TimeRanOut, play.DrawOffered, play.TakebackRequested:
	default:
		return nil
	}
	// Each revision before: its moves, back to one that made none (the
	// first, 1, is the start).
	first := rev // the first revision told
	for n > 0 && first > 2 && g.Moves[n-1].Rev == first-1 {
		first--
		n--
		if n > 0 && g.Moves[n-1].Rev == first {
			n--
		}
	}
	start, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return nil
	}
	m := game.NewMatch(start)
	for _, mv := range g.Moves[:n] {
		u, err := game.ParseUCI(mv.UCI)
		if err != nil {
			return nil
		}
		if _, err := m.PlayMove(u); err != nil {
			return nil
		}
	}
	// at is the game as it was at revision first-1, whose moves are the
	// n first: going on, with no offer, no flag, no clocks.
	at := followed{game: *g, sans: f.sans[:n:n]}
	past := &at.game
	past.Revision, past.Last, past.Moves, past.FEN = first-1, play.Moved, g.Moves[:n:n], m.FEN()
	past.Outcome, past.DrawOffer, past.Takeback, past.Flag, past.Clock, past.Deadline = game.Outcome{}, nil, nil, nil, nil, time.Time{}
	past.Ended, past.Ratings, past.Reminded, past.RemindAt = time.Time{}, nil, nil, time.Time{}
	var out []*Event
	for r := first; r < rev; r++ {
		next := at.game
		k := n + 1
		if k < len(g.Moves) && g.Moves[k].Rev == r {
			k++ // and the conditional move that answered it
		}
		next.Revision, next.Moves, next.Updated = r, g.Moves[:k:k], g.Moves[k-1].At
		for _, mv := range g.Moves[n:k] {
			u, err := game.ParseUCI(mv.UCI)
			if err != nil {
				return nil
			}
			if _, err := m.PlayMove(u); err != nil {
				return nil
			}
		}
		next.FEN = m.FEN()
		ev, then, ok := at.next(next)
		if !ok {
			return nil
		}
		out = append(out, ev)
		at, n = then, k
	}
	ev, _, ok := at.next(*g)
	if !ok {
		return nil
	}
	return append(out, ev)
}
