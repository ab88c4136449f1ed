package web

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// view is a game as its page shows it, at one revision, in one language:
// every position from the start, so that the page replays the moves
// with their Ice Ages without asking again.
type view struct {
	Game  uint64 `json:"game"`
	Rev   int    `json:"rev"`
	Over  bool   `json:"over"`
	White seat   `json:"white"`
	Black seat   `json:"black"`
	// Plies are the start (Plies[0]) and the position after each move.
	Plies []ply `json:"plies"`
	// Status are the lines under the board: whose move, check, the Ice
	// Age countdown, the men that would freeze, the deadline; or the
	// result.
	Status []string `json:"status"`
	// Result is the outcome in words, "" while the game goes on.
	Result string `json:"result,omitempty"`
	// Deadline is when the side to move loses on time (RFC 3339), ""
	// without one: the page says it in the viewer's time zone.
	Deadline string `json:"deadline,omitempty"`
	// Clocks are a live game's clocks, in seconds (White, Black): each
	// side's time as its turn began. ClockRuns is the side whose clock
	// runs ("w" or "b"), since clockSince. The page never compares that
	// time with its own wall clock, which may be off: each view is sent
	// with "clockAge", the milliseconds the running clock had run by the
	// server's clock when it was sent (stamped), and the page counts down
	// from the moment the view arrives, by its monotonic clock.
	Clocks     []float64 `json:"clocks,omitempty"`
	ClockRuns  string    `json:"clockRuns,omitempty"`
	clockSince time.Time
	// Turn is the side to move: "w" or "b".
	Turn string `json:"turn"`
	// Description says the position in words, for a screen reader: the
	// board's label while the page follows the game.
	Description string `json:"description"`
	// Base and Prev make a view a step from revision Prev: its Plies
	// come after the first Base of that revision's, which it shares.
	// Base 0 is a whole view.
	Base int `json:"base,omitempty"`
	Prev int `json:"prev,omitempty"`
}

type seat struct {
	Name   string `json:"name"`
	Rating string `json:"rating,omitempty"`
}

// ply is one position of the game and the move that led to it.
type ply struct {
	// Label is the move numbered, "12. Nxf6" or "12… Nxf6"; SAN alone.
	Label string `json:"label,omitempty"`
	SAN   string `json:"san,omitempty"`
	// Number is the move's number; Black says it was Black's.
	Number int  `json:"number,omitempty"`
	Black  bool `json:"black,omitempty"`
	// Board is the position's board: FEN's first field, '*' for ice.
	Board string `json:"board"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	// Check is the square of the king in check, if one is.
	Check string `json:"check,omitempty"`
	// Freeze are the men that would freeze in the Ice Age to come, while
	// it is near.
	Freeze []string `json:"freeze,omitempty"`
	// Countdown says when the next Ice Age comes.
	Countdown string `json:"countdown"`
	// IceAge says what the Ice Age this move brought did; Frozen and
	// Filled are its squares.
	IceAge string   `json:"iceAge,omitempty"`
	Frozen []string `json:"frozen,omitempty"`
	Filled []string `json:"filled,omitempty"`
}

// freezeNear is how many Black moves before an Ice Age the page marks
// the men that would freeze.
const freezeNear = 5

// makeView builds the view of g in lang.
func (s *Server) makeView(ctx context.Context, g *play.Game, lang i18n.Lang) (*view, error) {
	start, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return nil, err
	}
	v := &view{Game: g.ID, Rev: g.Revision, Over: g.Over(), White: s.seat(ctx, g, game.White, lang), Black: s.seat(ctx, g, game.Black, lang)}
	m := game.NewMatch(start)
	v.Plies = append(v.Plies, plyOf(lang, &start, nil))
	for _, mv := range g.Moves {
		x, err := game.ParseUCI(mv.UCI)
		if err != nil {
			return nil, err
		}
		before := m.Position()
		p, err := m.PlayMove(x)
		if err != nil {
			return nil, err
		}
		after := m.Position()
		pl := plyOf(lang, &after, &p)
		pl.Label = i18n.MoveLabel(before.FullMoveNumber(), before.Turn(), p.SAN)
		pl.Number, pl.Black = before.FullMoveNumber(), before.Turn() == game.Black
		v.Plies = append(v.Plies, pl)
	}
	pos := m.Position()
	v.Description = i18n.BoardDescription(lang, &pos)
	v.Turn = "w"
	if pos.Turn() == game.Black {
		v.Turn = "b"
	}
	if k := g.Clock; k != nil {
		v.Clocks = []float64{k.Left[game.White].Seconds(), k.Left[game.Black].Seconds()}
		if k.Running() && !g.Over() {
			v.ClockRuns, v.clockSince = v.Turn, k.Since
		}
	}
	if g.Over() {
		v.Result = i18n.Outcome(lang, g.Outcome)
		v.Status = append(v.Status, v.Result)
		// The last position shows no would-be freeze of a game over.
		last := &v.Plies[len(v.Plies)-1]
		last.Freeze = nil
		return v, nil
	}
	turn := "board.turn.white"
	if pos.Turn() == game.Black {
		turn = "board.turn.black"
	}
	v.Status = append(v.Status, i18n.T(lang, turn, map[string]any{"Player": g.ToMove().Name, "Number": pos.FullMoveNumber()}))
	if pos.InCheck() {
		v.Status = append(v.Status, i18n.T(lang, "board.check", nil))
	}
	v.Status = append(v.Status, i18n.IceAgeCountdown(lang, &pos))
	if w := i18n.WouldFreeze(lang, &pos); w != "" {
		v.Status = append(v.Status, w)
	}
	if o := g.DrawOffer; o != nil {
		v.Status = append(v.Status, i18n.T(lang, "board.draw_offered", marksIn(g, lang).PlayerData(lang, o.By)))
	}
	if !g.Deadline.IsZero() && g.EngineToMove() == 0 && g.Clock == nil {
		v.Deadline = g.Deadline.UTC().Format(time.RFC3339)
	}
	return v, nil
}

// plyOf describes pos, reached by p (nil for the start).
func plyOf(lang i18n.Lang, pos *game.Position, p *game.Played) ply {
	fen := pos.FEN()
	board, _, _ := strings.Cut(fen, " ")
	out := ply{Board: board, Countdown: i18n.IceAgeCountdown(lang, pos)}
	if p != nil {
		out.SAN = p.SAN
		if len(p.UCI) >= 4 {
			out.From, out.To = p.UCI[:2], p.UCI[2:4]
		}
		if e := p.IceAge; e != nil {
			out.IceAge = i18n.IceAgeNews(lang, e)
			for _, f := range e.Frozen {
				out.Frozen = append(out.Frozen, f.Square.String())
			}
			for _, sq := range e.Filled.Squares() {
				out.Filled = append(out.Filled, sq.String())
			}
		}
	}
	if pos.InCheck() {
		if k, ok := pos.KingSquare(pos.Turn()); ok {
			out.Check = k.String()
		}
	}
	if !pos.Outcome().Over() && pos.BlackMovesToIceAge() <= freezeNear {
		for _, sq := range pos.WouldFreeze().Squares() {
			out.Freeze = append(out.Freeze, sq.String())
		}
	}
	return out
}

// seat is a player as the page names them, with their rating in the
// game's server, of the game's speed: a blitz game shows blitz ratings.
func (s *Server) seat(ctx context.Context, g *play.Game, c game.Color, lang i18n.Lang) seat {
	st := g.Seat(c)
	out := seat{Name: nameIn(g, st.ID, lang)}
	if g.Engine[c&1] > 0 || s.opts.Play == nil {
		return out
	}
	p, err := s.opts.Play.Player(ctx, play.RatingScope(g.Guild, g.Speed()), st.ID)
	if err != nil {
		return out
	}
	r := p.Rating.At(s.opts.Now())
	out.Rating = i18n.Decimal(lang, math.Round(r.Rating), 0)
	if r.Provisional() {
		out.Rating += "?"
	}
	return out
}

// marksIn write the players of g as nameIn does, telling those called
// by their colour, so that a sentence agrees with the colour's noun.
func marksIn(g *play.Game, lang i18n.Lang) i18n.EventMarks {
	return i18n.EventMarks{Player: func(id string) string { return nameIn(g, id, lang) }, Side: func(id string) (game.Color, bool) {
		for _, c := range []game.Color{game.White, game.Black} {
			if st := g.Seat(c); st.ID == id {
				return c, st.Name == ""
			}
		}
		return game.White, false
	}}
}

// nameIn is the name of the player user of g: their display name, or
// the colour they play.
func nameIn(g *play.Game, user string, lang i18n.Lang) string {
	for _, c := range []game.Color{game.White, game.Black} {
		if st := g.Seat(c); st.ID == user {
			if st.Name != "" {
				return st.Name
			}
			return i18n.ColorName(lang, c)
		}
	}
	return ""
}

// views keeps the views last made, as JSON, so that a revision is made
// once for all its watchers in a language, however many there are:
// whole, and as a step from the revision before (the positions it adds
// to those the watchers have), which is what a watcher that saw that
// revision is sent.
type views struct {
	s *Server
	// mu is read-locked by every watcher of a revision whose views are
	// made, which is most of them: they do not wait for each other.
	mu    sync.RWMutex
	games map[uint64]*gameViews
}

type gameViews struct {
	rev    int
	used   atomic.Int64 // last asked for (Unix ns), for the eviction of the least used
	byLang map[i18n.Lang]*madeView
	// prev are the views of the revision before, while this one's are
	// made from them.
	prev *gameViews
}

type madeView struct {
	once sync.Once
	prev *madeView // the revision before's, in the same language; nil if none
	rev  int
	v    *view // set under views.mu once made
	data []byte
	// step is the view as a step from revision prevRev: the positions
	// after the Base first, which it shares; nil when it has none.
	prevRev int
	step    []byte
	err     error
	// clockSince is when the running clock's turn began; zero when no
	// clock runs.
	clockSince time.Time
	// frames are the event-stream frames last made, whole and as a step.
	frames [2]atomic.Pointer[sharedFrame]
}

// stamped is data (the view, or its step) as sent at now: with the
// milliseconds the running clock has run since its turn began, measured
// by the server, so that the page ticks from the moment it receives it.
// It is added as the object's first field, the view itself being made
// once for every watcher.
func (mv *madeView) stamped(data []byte, now time.Time) []byte {
	age := mv.age(now)
	if age < 0 {
		return data
	}
	return appendStamped(make([]byte, 0, len(data)+32), data, age)
}

// age is the milliseconds the running clock has run at now, or -1 when
// none runs.
func (mv *madeView) age(now time.Time) int64 {
	if mv.clockSince.IsZero() {
		return -1
	}
	return max(now.Sub(mv.clockSince).Milliseconds(), 0)
}

// appendStamped appends data to b with the clock's age as its first
// field (none when age < 0).
func appendStamped(b, data []byte, age int64) []byte {
	if age < 0 || len(data) < 2 || data[0] != '{' {
		return append(b, data...)
	}
	b = append(b, `{"clockAge":`...)
	b = strconv.AppendInt(b, age, 10)
	b = append(b, ',')
	return append(b, data[1:]...)
}

// frame is the server-sent event of mv for a watcher that has revision
// seen, stamped at now. Every watcher sent the same frame in the same
// millisecond of the clock's age shares one, made by the first of them:
// a move's thousand watchers cost a few frames, not a thousand.
func (mv *madeView) frame(seen int, now time.Time) []byte {
	data, k := mv.data, 0
	if mv.step != nil && seen == mv.prevRev {
		data, k = mv.step, 1
	}
	age := mv.age(now)
	if f := mv.frames[k].Load(); f != nil && f.age == age {
		return f.b
	}
	b := sseEvent(mv.rev, data, age)
	mv.frames[k].Store(&sharedFrame{age: age, b: b})
	return b
}

// sharedFrame is a frame and the clock's age it was stamped with.
type sharedFrame struct {
	age int64
	b   []byte
}

// maxViewedGames bounds the games whose views are kept (each holds its
// last two revisions in the languages asked for): past it, the game
// asked for least lately is dropped, and made again if asked for.
const maxViewedGames = 512

func newViews(s *Server) *views { return &views{s: s, games: map[uint64]*gameViews{}} }

// get returns game id's view in lang at revision rev or later, reading
// the game once for every watcher of the revision.
func (vs *views) get(ctx context.Context, id uint64, rev int, lang i18n.Lang) (*madeView, error) {
	vs.mu.RLock()
	if gv := vs.games[id]; gv != nil && gv.rev >= rev {
		if mv := gv.byLang[lang]; mv != nil {
			vs.mu.RUnlock()
			gv.used.Store(time.Now().UnixNano())
			return vs.made(ctx, id, lang, gv, mv)
		}
	}
	vs.mu.RUnlock()
	vs.mu.Lock()
	gv := vs.games[id]
	if gv == nil || gv.rev < rev {
		if gv == nil && len(vs.games) >= maxViewedGames {
			vs.evict()
		}
		if gv != nil {
			gv.prev = nil // one revision back is all a step needs
		}
		gv = &gameViews{rev: rev, byLang: map[i18n.Lang]*madeView{}, prev: gv}
		vs.games[id] = gv
	}
	gv.used.Store(time.Now().UnixNano())
	mv := gv.byLang[lang]
	if mv == nil {
		mv = &madeView{}
		if gv.prev != nil {
			mv.prev = gv.prev.byLang[lang]
		}
		gv.byLang[lang] = mv
	}
	vs.mu.Unlock()
	return vs.made(ctx, id, lang, gv, mv)
}

// made returns mv of gv once made, by the first to ask.
func (vs *views) made(ctx context.Context, id uint64, lang i18n.Lang, gv *gameViews, mv *madeView) (*madeView, error) {
	mv.once.Do(func() { vs.make(ctx, id, lang, mv) })
	if mv.err != nil {
		vs.mu.Lock()
		if cur := vs.games[id]; cur == gv {
			delete(vs.games, id) // an error is not kept
		}
		vs.mu.Unlock()
		return nil, mv.err
	}
	return mv, nil
}

// evict drops the game asked for least lately; views.mu is held.
func (vs *views) evict() {
	var oldest uint64
	var at int64
	for id, gv := range vs.games {
		if used := gv.used.Load(); at == 0 || used < at {
			oldest, at = id, used
		}
	}
	delete(vs.games, oldest)
}

// make makes mv: the game read, its view, and the step from the view
// before when that was made.
func (vs *views) make(ctx context.Context, id uint64, lang i18n.Lang, mv *madeView) {
	g, err := vs.s.opts.Play.Game(ctx, id)
	if err != nil {
		mv.err = err
		return
	}
	v, err := vs.s.makeView(ctx, &g, lang)
	if err != nil {
		mv.err = err
		return
	}
	mv.rev, mv.clockSince = v.Rev, v.clockSince
	if mv.data, mv.err = json.Marshal(v); mv.err != nil {
		return
	}
	vs.mu.Lock()
	mv.v = v
	var prev *view
	if mv.prev != nil {
		prev = mv.prev.v
		mv.prev = nil
	}
	vs.mu.Unlock()
	if prev == nil || prev.Rev >= v.Rev {
		return
	}
	k := 0
	for k < len(prev.Plies) && k < len(v.Plies) && prev.Plies[k].Board == v.Plies[k].Board && prev.Plies[k].SAN == v.Plies[k].SAN {
		k++
	}
	if k == 0 {
		return
	}
	step := *v
	step.Plies, step.Base, step.Prev = v.Plies[k:], k, prev.Rev
	if b, err := json.Marshal(step); err == nil {
		mv.prevRev, mv.step = prev.Rev, b
	}
}
