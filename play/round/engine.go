package round

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// EngineOptions tune the engine as a player.
type EngineOptions struct {
	// MoveTime is the most one engine move may take; 0 means
	// engine.DefaultMoveTime. The levels with a time budget scale theirs
	// to it; the others also stop at it.
	MoveTime time.Duration
	// Nodes, when above 0, replaces every time budget by this node
	// budget (or the level's own, if smaller): the engine's moves are
	// then the same on every run and machine.
	Nodes int64
	// Seed is mixed into the seed of every move, so that runs of the same
	// games differ (selfplay's -seed); 0 leaves the game's own.
	Seed uint64
}

func (o EngineOptions) withDefaults() EngineOptions {
	if o.MoveTime <= 0 {
		o.MoveTime = engine.DefaultMoveTime
	}
	return o
}

// DrawMargin is how close to equal, in centipawns, the engine finds a
// position before it accepts a draw: a tenth of a pawn, dead equal.
const DrawMargin = 10

// drawNodes is the node budget of the search that decides on a draw
// offer: some hundredths of a second, so the answer comes at once.
const drawNodes = 100_000

// EngineName is the name of the engine's seat at a level.
func EngineName(level int) string { return fmt.Sprintf("Ice Age Engine (level %d)", level) }

// Limits returns the search limits of the engine's move at level in game
// id at ply: the level's, within the budget of o, seeded by the game and
// the ply so that a replayed game replays the same choices.
func (o EngineOptions) Limits(level int, id uint64, ply int) engine.Limits {
	o = o.withDefaults()
	lim := engine.Level(level)
	lim.Seed = id<<16 ^ uint64(ply) + o.Seed*0x9e3779b97f4a7c15
	switch {
	case o.Nodes > 0:
		lim.Time = 0
		if lim.Nodes == 0 || lim.Nodes > o.Nodes {
			lim.Nodes = o.Nodes
		}
	case lim.Time > 0:
		lim.Time = lim.Time * o.MoveTime / engine.DefaultMoveTime
	default:
		lim.Time = o.MoveTime
	}
	return lim
}

// UnderClock bounds the limits of a move to the engine's share of its
// time: left/30 and most of the increment (clockShare), never more than
// a quarter of what is left, and never more than the level allows (its
// own time budget, or its node budget, whichever ends first). The share
// is scaled by MoveTime as the levels' budgets are, so that a test whose
// clock runs k times fast, with MoveTime cut k times, plays the same.
func (o EngineOptions) UnderClock(lim engine.Limits, left, inc time.Duration) engine.Limits {
	o = o.withDefaults()
	// In floating point: a share of minutes times a MoveTime of seconds
	// overflows a Duration's nanoseconds.
	share := time.Duration(float64(clockShare(left, inc)) * float64(o.MoveTime) / float64(engine.DefaultMoveTime))
	if lim.Time == 0 || share < lim.Time {
		lim.Time = max(share, time.Millisecond)
	}
	return lim
}

// clockShare is the engine's time for one move with left on its clock
// and inc added after it.
func clockShare(left, inc time.Duration) time.Duration {
	return min(left/30+inc*3/4, left/4)
}

// engines holds searchers for reuse: each search resets its engine first,
// so a move does not depend on which engine computed it.
var engines = sync.Pool{New: func() any { return engine.New(engine.Options{}) }}

// search runs one search on a pooled engine.
func search(ctx context.Context, p game.Position, lim engine.Limits) engine.Result {
	e := engines.Get().(*engine.Engine)
	defer engines.Put(e)
	e.Reset()
	return e.Search(ctx, p, lim)
}

// engineOffer returns the offer pending in g that the engine must
// answer, if one is.
func engineOffer(g *play.Game) (Offer, bool) {
	if g.Over() {
		return 0, false
	}
	for _, o := range []struct {
		offer Offer
		by    *play.Offer
	}{{Draw, g.DrawOffer}, {Takeback, g.Takeback}} {
		if o.by == nil {
			continue
		}
		if c, ok := g.ColorOf(o.by.By); ok && g.Engine[c.Other()] > 0 {
			return o.offer, true
		}
	}
	return 0, false
}

// Engine does what the engine has to do in game id now: answer an offer
// made to it — a draw only when it finds the position dead equal
// (DrawMargin), a takeback always (play refuses them in rated games) —
// or play its move. ok is false when it has nothing to do. A game changed
// meanwhile is read again; a cancelled ctx plays nothing, and the
// engine's item in the outbox brings the turn back.
func (r *Round) Engine(ctx context.Context, id uint64) (out Outcome, ok bool, err error) {
	return r.engine(ctx, id, false)
}

// engine is Engine; answers holds the engine's board for the front end,
// as Act.Answers, when it answers an act the front end shows.
func (r *Round) engine(ctx context.Context, id uint64, answers bool) (out Outcome, ok bool, err error) {
	for range 3 {
		g, err := r.play.Game(ctx, id)
		if err != nil {
			return Outcome{}, false, err
		}
		a, ok, err := r.engineAct(ctx, &g)
		if err != nil || !ok {
			return Outcome{}, false, err
		}
		a.Answers = answers
		res, board, keys, err := r.apply(ctx, a)
		// A game changed meanwhile (another process's engine answered, a
		// player acted) refuses the act: read it again.
		var x *play.Refusal
		if errors.As(err, &x) {
			continue
		}
		if err != nil {
			return Outcome{}, false, fmt.Errorf("round: the engine's %v in game %d (%s): %w", a.Kind, id, a.Text, err)
		}
		return Outcome{Result: res, Game: res.Game, Events: board.Events, Boards: []Delivery{board}, Keys: keys}, true, nil
	}
	return Outcome{}, false, fmt.Errorf("round: game %d kept changing under the engine", id)
}

// EngineTurn is Engine for the engine's item key in the outbox: once
// the engine has done its part, or found nothing to do, the item is done.
// A cancelled ctx leaves it pending, for the next process.
func (r *Round) EngineTurn(ctx context.Context, id uint64, key string) (Outcome, bool, error) {
	out, ok, err := r.Engine(ctx, id)
	if err != nil || ctx.Err() != nil {
		return out, ok, err
	}
	return out, ok, r.Done(ctx, key)
}

// engineAct decides the engine's act in g: ok false when it has none, or
// ctx ended while it thought.
func (r *Round) engineAct(ctx context.Context, g *play.Game) (Act, bool, error) {
	now := r.opts.Now()
	if offer, ok := engineOffer(g); ok {
		var by *play.Offer
		kind := AcceptTakeback
		if offer == Draw {
			by = g.DrawOffer
		} else {
			by = g.Takeback
		}
		asker, _ := g.ColorOf(by.By)
		if offer == Draw {
			pos, err := g.Position()
			if err != nil {
				return Act{}, false, err
			}
			res := search(ctx, pos, engine.Limits{Nodes: drawNodes})
			if ctx.Err() != nil {
				return Act{}, false, nil
			}
			kind = DeclineDraw
			if abs(res.Score) <= DrawMargin {
				kind = AcceptDraw
			}
		}
		return Act{Act: play.Act{By: g.Seat(asker.Other()).ID, Game: g.ID, Revision: g.Revision, At: now}, Kind: kind}, true, nil
	}
	level := g.EngineToMove()
	if level == 0 {
		return Act{}, false, nil
	}
	pos, err := g.Position()
	if err != nil {
		return Act{}, false, err
	}
	lim := r.opts.Engine.Limits(level, g.ID, g.Ply())
	if k := g.Clock; k != nil && k.Running() {
		turn := g.Turn()
		lim = r.opts.Engine.UnderClock(lim, k.LeftAt(turn, turn, now), k.Increment)
	}
	res := search(ctx, pos, lim)
	if ctx.Err() != nil || res.Best == game.NullMove {
		return Act{}, false, nil
	}
	// The move is made when the search ends: under a clock, the
	// engine's thought is charged to it like anyone's.
	at := r.opts.Now()
	return Act{Act: play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: at, Sent: at}, Kind: Move, Text: res.Best.UCI()}, true, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
