package engine

import (
	"context"
	"slices"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Scores are in centipawns from the side to move's point of view. A won
// game (checkmate, or the enemy king frozen in an Ice Age) scores Mate
// less the plies to it, so that a shorter win scores higher; a lost one
// the negation.
const (
	// Mate is the score of a game won at the root; a win n plies away
	// scores Mate - n.
	Mate = 30000
	// MaxDepth is the deepest iteration Search starts.
	MaxDepth = 64
	// MaxNodes is the hard cap on the nodes of one Search, whatever its
	// Limits say: half a minute or so of search on one core.
	MaxNodes = 100_000_000

	infinity  = Mate + 1
	mateBound = Mate - 2*maxPly // scores beyond it are wins or losses
	maxPly    = 128             // the deepest node (extensions included)

	// futilityMargin is what a quiet move is taken to gain at most, per
	// ply left, in the frontier pruning of search.
	futilityMargin = 120
)

// MateIn returns in how many moves (of the winner's) score wins or loses:
// positive when the side to move wins, negative when it loses, 0 when the
// score is no forced win or loss.
func MateIn(score int) int {
	switch {
	case score >= mateBound:
		return (Mate - score + 1) / 2
	case score <= -mateBound:
		return -(Mate + score + 1) / 2
	}
	return 0
}

// Options configure an Engine.
type Options struct {
	// TableBytes is the size of the transposition table; 0 means 16 MiB.
	// It is rounded down to a power of two of 16-byte entries (at least
	// 1024 of them).
	TableBytes int
	// Now is the clock read for Limits.Time; nil means time.Now. The clock
	// is read only when Limits.Time is set.
	Now func() time.Time
}

// Limits bound one Search and, for the weaker levels, make it play worse
// on purpose. The zero Limits means Level(8): full strength within the
// default time.
type Limits struct {
	Depth int           // deepest iteration; 0 means MaxDepth
	Nodes int64         // node budget; 0 means MaxNodes (the hard cap)
	Time  time.Duration // time budget; 0 means none (a node or depth limit then ends the search)
	// Margin, when above 0, makes the search choose at random among the
	// root moves that score within Margin centipawns of the best, with
	// Seed: the deliberate mistakes of the weaker levels.
	Margin int
	Seed   uint64
}

// Result is what a Search found.
type Result struct {
	Best  game.Move   // the move to play; game.NullMove only when there is no legal move
	Score int         // of Best, for the side to move, in centipawns (see Mate and MateIn)
	Depth int         // the deepest iteration completed
	Nodes int64       // positions visited
	PV    []game.Move // the line expected, starting with Best
}

// Engine searches positions. It keeps a transposition table and move
// ordering statistics between searches, so one Engine must not be used
// by two goroutines at once: give each goroutine its own (they share
// nothing). Given the same sequence of Search calls with node or depth
// limits (not time), an Engine returns the same results on every run.
type Engine struct {
	tt  table
	now func() time.Time

	ctx       context.Context
	lim       Limits
	maxNodes  int64
	deadline  time.Time
	timed     bool
	nodes     int64
	stop      bool
	rootDepth int

	pos     [maxPly + 2]game.Position
	keys    [maxPly + 2]uint64
	moves   [maxPly + 1][256]game.Move
	order   [maxPly + 1][256]int32
	killers [maxPly + 1][2]game.Move
	history [2][64][64]int32
	pv      [maxPly + 1][maxPly + 1]game.Move
	pvLen   [maxPly + 1]int

	partialBest int  // the best score of the current iteration's finished root moves
	noPruning   bool // switches futility pruning and reductions off, for tests that compare

	evals [1 << 14]evalEntry // static scores by key: positions recur within a search

	rootMoves  []game.Move
	rootScores []int
}

// New returns an Engine with its own transposition table.
func New(opts Options) *Engine {
	size := opts.TableBytes
	if size <= 0 {
		size = 16 << 20
	}
	e := &Engine{tt: newTable(size), now: opts.Now}
	if e.now == nil {
		e.now = time.Now
	}
	return e
}

// Reset forgets everything learnt in earlier searches (the transposition
// table, killers and history), so the next Search behaves as on a new
// Engine.
func (e *Engine) Reset() {
	e.tt.clear()
	e.evals = [1 << 14]evalEntry{}
	e.killers = [maxPly + 1][2]game.Move{}
	e.history = [2][64][64]int32{}
}

// Search looks for the best move in p within lim and returns it with its
// score, depth, node count and principal variation. It stops early when
// ctx is done, returning the best move of the iterations completed (or
// the first legal move when not even the first finished). In a finished
// position (a frozen king, checkmate, stalemate) it returns NullMove and
// the position's score: Mate or -Mate as the side to move has won or lost,
// 0 for a draw.
// Like game.Position.LegalMoves it leaves the fifty-move rule at the root
// to the caller (a Match ends the game there).
func (e *Engine) Search(ctx context.Context, p game.Position, lim Limits) Result {
	return e.searchRoot(ctx, p, lim, game.NullMove)
}

// SearchExcept is Search with the root move except left out: the best of
// the other moves, which tells whether a best move is the only good one
// (a puzzle's "only move"). When except is the only legal move it returns
// NullMove and the score of the position as Search would for one with no
// move left to the side to move, which callers should not read as a score
// of the position.
func (e *Engine) SearchExcept(ctx context.Context, p game.Position, lim Limits, except game.Move) Result {
	return e.searchRoot(ctx, p, lim, except)
}

func (e *Engine) searchRoot(ctx context.Context, p game.Position, lim Limits, except game.Move) Result {
	if lim == (Limits{}) {
		lim = Level(8)
	}
	e.ctx, e.lim = ctx, lim
	e.maxNodes = MaxNodes
	if lim.Nodes > 0 && lim.Nodes < MaxNodes {
		e.maxNodes = lim.Nodes
	}
	e.timed = lim.Time > 0
	var start time.Time
	if e.timed {
		// The hard stop comes a fiftieth early: stopping, unwinding and
		// returning take a little time too, and the budget is a promise.
		start = e.now()
		e.deadline = start.Add(lim.Time - lim.Time/50)
	}
	e.nodes, e.stop = 0, false
	e.tt.gen++
	e.killers = [maxPly + 1][2]game.Move{}
	for c := range e.history {
		for f := range e.history[c] {
			for t := range e.history[c][f] {
				e.history[c][f][t] /= 2
			}
		}
	}
	e.pos[0] = p
	e.keys[0] = zobrist(&p)

	if score, over := terminal(&p, 0); over {
		return Result{Score: score}
	}
	e.rootMoves = p.LegalMoves(e.rootMoves[:0])
	if except != game.NullMove {
		e.rootMoves = slices.DeleteFunc(e.rootMoves, func(m game.Move) bool { return m == except })
	}
	if len(e.rootMoves) == 0 {
		if p.InCheck() {
			return Result{Score: -Mate}
		}
		return Result{}
	}
	e.rootScores = slices.Grow(e.rootScores[:0], len(e.rootMoves))[:len(e.rootMoves)]
	e.orderRoot(&p)

	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxDepth {
		maxDepth = MaxDepth
	}
	if len(e.rootMoves) == 1 {
		maxDepth = min(maxDepth, 4) // a forced move: only its score is wanted
	}
	res := Result{Best: e.rootMoves[0]}
	var done []int // root scores of the last completed iteration, for Margin
	var doneMoves []game.Move
	prev := 0
	for depth := 1; depth <= maxDepth; depth++ {
		e.rootDepth = depth
		var score int
		if depth >= 5 && lim.Margin == 0 && prev > -mateBound && prev < mateBound {
			score = e.aspiration(depth, prev)
		} else {
			score = e.root(depth, -infinity, infinity)
		}
		if e.stop {
			// A partial iteration still counts once a root move has
			// finished inside the window: the first move searched is the
			// last iteration's best, so whatever beat it was found at the
			// new depth.
			if lim.Margin == 0 && e.pvLen[0] > 0 {
				res.Best, res.Score = e.pv[0][0], e.partialBest
				res.PV = append(res.PV[:0], e.pv[0][:e.pvLen[0]]...)
			}
			break
		}
		prev = score
		res.Best, res.Score, res.Depth = e.pv[0][0], score, depth
		res.PV = append(res.PV[:0], e.pv[0][:e.pvLen[0]]...)
		done = append(done[:0], e.rootScores...)
		doneMoves = append(doneMoves[:0], e.rootMoves...)
		e.sortRoot()
		if score >= mateBound && Mate-score <= depth || score <= -mateBound && Mate+score <= depth {
			break // a forced result within the horizon: deeper search finds nothing more
		}
		if e.timed && e.now().Sub(start) > lim.Time/2 {
			break // the next iteration would most likely not finish
		}
	}
	res.Nodes = e.nodes
	if lim.Margin > 0 && done != nil {
		res = e.chooseNear(res, doneMoves, done)
	}
	return res
}

// chooseNear picks, with the seed, one of the root moves that scored
// within the margin of the best in the last completed iteration.
func (e *Engine) chooseNear(res Result, moves []game.Move, scores []int) Result {
	best := slices.Max(scores)
	var near []int
	for i, s := range scores {
		if s >= best-e.lim.Margin {
			near = append(near, i)
		}
	}
	if len(near) <= 1 {
		return res
	}
	r := splitmix64(e.lim.Seed ^ e.keys[0])
	i := near[r.intn(len(near))]
	if moves[i] != res.Best {
		res.Best, res.Score, res.PV = moves[i], scores[i], []game.Move{moves[i]}
	}
	return res
}

// aspiration searches the root in a window around the last iteration's
// score, widening it on the side that failed until the score falls inside.
func (e *Engine) aspiration(depth, prev int) int {
	delta := 35
	alpha, beta := prev-delta, prev+delta
	for {
		score := e.root(depth, alpha, beta)
		if e.stop {
			return score
		}
		switch {
		case score <= alpha:
			delta *= 3
			alpha = max(prev-delta, -infinity)
			if delta > 1000 {
				alpha = -infinity
			}
		case score >= beta:
			delta *= 3
			beta = min(prev+delta, infinity)
			if delta > 1000 {
				beta = infinity
			}
		default:
			return score
		}
	}
}

// orderRoot sorts the root moves for the first iteration: the table's
// move, then captures by MVV-LVA, then the rest.
func (e *Engine) orderRoot(p *game.Position) {
	var ttMove game.Move
	if t, ok := e.tt.probe(e.keys[0]); ok {
		ttMove = t.move
	}
	keys := make(map[game.Move]int32, len(e.rootMoves))
	for _, m := range e.rootMoves {
		keys[m] = e.moveOrder(p, m, ttMove, 0)
	}
	slices.SortStableFunc(e.rootMoves, func(a, b game.Move) int { return int(keys[b]) - int(keys[a]) })
}

// sortRoot orders the root moves by the scores of the iteration just
// completed, best first (fail-low scores are bounds, but good enough for
// ordering).
func (e *Engine) sortRoot() {
	idx := make([]int, len(e.rootMoves))
	for i := range idx {
		idx[i] = i
	}
	best := e.pv[0][0]
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case e.rootMoves[a] == best:
			return -1
		case e.rootMoves[b] == best:
			return 1
		}
		return e.rootScores[b] - e.rootScores[a]
	})
	moves := make([]game.Move, len(idx))
	scores := make([]int, len(idx))
	for i, j := range idx {
		moves[i], scores[i] = e.rootMoves[j], e.rootScores[j]
	}
	copy(e.rootMoves, moves)
	copy(e.rootScores, scores)
}
