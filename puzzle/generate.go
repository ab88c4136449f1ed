package puzzle

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
)

// The generator follows the ideas of Lichess's puzzle generator, for this
// variant's engine:
//   - a puzzle starts where the winning chances of the side to move jump
//     after the opponent's move (a mistake), or where the engine sees a
//     mate or a freeze within MaxProvenMoves moves;
//   - the solver's move must be the only one: the best beats the second
//     best by a wide margin in winning chances, on a deeper search;
//   - the line is extended while the solver's next move is again the only
//     one that keeps the win, and ends on the solver's move;
//   - an engine-judged puzzle of one move that takes a man is left out
//     (taking a piece left hanging is no puzzle);
//   - a mate or a freeze within MaxProvenMoves is kept only when the
//     exhaustive search (Winners) proves that its first move, and no
//     other, forces it.
// Around each Ice Age the positions one move off the game's path are
// searched too, for mates, freezes and kings in danger: the Ice Age makes
// the variant's own puzzles there. Elsewhere they are searched for mates
// in one only, which the exhaustive search finds at little cost.

// Options tune the generator. The zero Options are the defaults.
type Options struct {
	// Nodes is the engine's budget for each position of a game scanned;
	// 0 means 60,000.
	Nodes int64
	// DeepNodes is the budget for judging a candidate (best and second
	// best moves, the defence); 0 means 400,000.
	DeepNodes int64
	// MaxPlies ends a self-play game; 0 means 160 (past the second Ice Age).
	MaxPlies int
}

func (o Options) withDefaults() Options {
	if o.Nodes <= 0 {
		o.Nodes = 60_000
	}
	if o.DeepNodes <= 0 {
		o.DeepNodes = 400_000
	}
	if o.MaxPlies <= 0 {
		o.MaxPlies = 160
	}
	return o
}

// selfPlayLevels are the pairs of engine levels of the self-play games,
// chosen by a game's seed: a weaker side makes the mistakes a puzzle
// starts from, the stronger side punishes them. Levels above 6 think for
// a time, so they are left out: a game must depend on its seed alone.
var selfPlayLevels = [][2]int{{1, 6}, {6, 1}, {2, 6}, {6, 2}, {1, 5}, {5, 1}, {3, 6}, {6, 3}, {2, 2}, {4, 4}}

// SelfPlay plays the engine against itself from the ice start, the game
// of seed: a few random opening plies, then engine levels chosen by the
// seed, until the game ends or maxPlies. It returns the moves played.
func SelfPlay(ctx context.Context, seed uint64, maxPlies int) []game.Move {
	rng := seed*0x9E3779B97F4A7C15 + 1
	next := func() uint64 { // splitmix64
		rng += 0x9E3779B97F4A7C15
		z := rng
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	levels := selfPlayLevels[seed%uint64(len(selfPlayLevels))]
	openings := 2 + int(next()%6)
	p := game.StartPosition()
	var moves []game.Move
	var buf [256]game.Move
	for ply := 0; ply < maxPlies && ctx.Err() == nil; ply++ {
		if p.Outcome().Over() {
			break
		}
		var m game.Move
		if ply < openings {
			legal := p.LegalMoves(buf[:0])
			m = legal[next()%uint64(len(legal))]
		} else {
			m = engine.Choose(ctx, p, levels[ply%2], next())
		}
		if m == game.NullMove {
			break
		}
		moves = append(moves, m)
		p = p.Apply(m)
	}
	return moves
}

// WinChances turns a score in centipawns (for the side to move) into the
// chances of winning, from -1 (lost) to 1 (won), on Lichess's curve.
func WinChances(score int) float64 {
	if engine.MateIn(score) > 0 {
		return 1
	}
	if engine.MateIn(score) < 0 {
		return -1
	}
	return 2/(1+math.Exp(-0.00368208*float64(score))) - 1
}

// Thresholds of the generator, in winning chances (WinChances).
const (
	jump = 0.3 // a mistake: the chances of the side to move rose this much with the opponent's move
	gift = 120 // or its score rose this much, in centipawns
	// notYetWon is the most the side to move may have had before the
	// mistake: a puzzle is no mopping up of a game long won.
	notYetWon = 500
	onlyGap   = 0.5 // an only move: the best move's chances beat the second best's by this much
	winning   = 200 // centipawns: the least score of a winning line
	saveGap   = 0.7 // a king saved: every other move is this much worse
	// asidePerGame bounds the mates in one found one move off a game's
	// path, so that they do not crowd out the rest.
	asidePerGame = 6
	// branchBack is how many plies before an Ice Age a branch starts,
	// and branchesPerIceAge how many branches each Ice Age gets.
	branchBack        = 8
	branchesPerIceAge = 6
)

// Scanner finds puzzles in games. It keeps an engine: one Scanner per
// goroutine. The same calls on a new Scanner give the same puzzles.
type Scanner struct {
	opt   Options
	e     *engine.Engine
	judge *engine.Engine // for ratings, reset before each puzzle
	seen  map[string]bool
	aside int // mates in one found one move aside
}

// NewScanner returns a Scanner with its own engines.
func NewScanner(opt Options) *Scanner {
	return &Scanner{opt: opt.withDefaults(), e: engine.New(engine.Options{TableBytes: 8 << 20}),
		judge: engine.New(engine.Options{TableBytes: 2 << 20}), seen: map[string]bool{}}
}

func (s *Scanner) search(ctx context.Context, p game.Position, nodes int64) engine.Result {
	return s.e.Search(ctx, p, engine.Limits{Nodes: nodes})
}

// Game scans one game, from start through moves, and returns the puzzles
// found in it, in the order of its plies. source names the game in each
// puzzle's Source.
func (s *Scanner) Game(ctx context.Context, start game.Position, moves []game.Move, source string) []Puzzle {
	var out []Puzzle
	positions := replay(start, moves)
	s.scan(ctx, positions, moves, source, false, &out)
	return out
}

// replay returns the positions of a game: start, then after each move
// (as far as the moves are legal).
func replay(start game.Position, moves []game.Move) []game.Position {
	positions := []game.Position{start}
	for _, m := range moves {
		p := positions[len(positions)-1]
		if !p.IsLegal(m) {
			break
		}
		positions = append(positions, p.Apply(m))
	}
	return positions
}

// scan looks for puzzles at each position of a line (moves[i] leads from
// positions[i] to positions[i+1]), or only at those near an Ice Age, and
// adds them to out.
func (s *Scanner) scan(ctx context.Context, positions []game.Position, moves []game.Move, source string, nearOnly bool, out *[]Puzzle) {
	keep := func(pz *Puzzle, ply int, aside bool) {
		if pz == nil || s.seen[pz.FEN] {
			return
		}
		s.seen[pz.FEN] = true
		pz.Source = fmt.Sprintf("%s, ply %d", source, ply+1)
		if aside {
			pz.Source += ", one move aside"
		}
		*out = append(*out, *pz)
	}
	prev, searched := 0, -1 // the score of the last position searched, for its side to move, and its index
	for i, p := range positions {
		if ctx.Err() != nil || p.Outcome().Over() {
			break
		}
		near := iceAgeNear(&p)
		if nearOnly && !near {
			continue
		}
		r := s.search(ctx, p, s.opt.Nodes)
		if i > 0 {
			before := 0
			if searched == i-1 {
				before = -prev
			}
			keep(s.candidate(ctx, p, r, before), i, false)
		}
		if i > 0 {
			// One move aside: the positions the previous move could have
			// made.
			before := positions[i-1]
			var buf [256]game.Move
			for _, m := range before.LegalMoves(buf[:0]) {
				if m == moves[i-1] {
					continue
				}
				q := before.Apply(m)
				if q.Outcome().Over() {
					continue
				}
				if !near {
					if s.aside < asidePerGame && WinsWithin(&q, 1) {
						if pz := s.proven(ctx, q); pz != nil && !s.seen[pz.FEN] {
							s.aside++
							keep(pz, i, true)
							break // one a ply: the next ply's are others
						}
					}
					continue
				}
				rq := s.search(ctx, q, s.opt.Nodes/4)
				if n := engine.MateIn(rq.Score); (n >= 1 && n <= MaxProvenMoves) || kingInDanger(&q) {
					keep(s.candidate(ctx, q, rq, 0), i, true)
				}
			}
		}
		prev, searched = r.Score, i
	}
}

// Branches plays, from a few moves before each Ice Age of a self-play
// game, other lines to it (weaker levels, other seeds), and scans them
// near the Ice Age only: the variant's own puzzles (freezes, kings to
// save, men lost to the ice) are there, and a game passes an Ice Age
// only once or twice.
func (s *Scanner) Branches(ctx context.Context, positions []game.Position, seed uint64, source string) []Puzzle {
	var out []Puzzle
	for i, p := range positions {
		if !p.IceAgeNow() || i < branchBack {
			continue
		}
		for b := range branchesPerIceAge {
			bseed := seed*1_000_003 + uint64(i)*101 + uint64(b)
			from := positions[i-branchBack]
			line := []game.Position{from}
			var moves []game.Move
			q := from
			for ply := 0; ply < branchBack+2 && !q.Outcome().Over() && ctx.Err() == nil; ply++ {
				m := engine.Choose(ctx, q, 1+int((bseed+uint64(ply))%4), bseed+uint64(ply))
				if m == game.NullMove {
					break
				}
				moves = append(moves, m)
				q = q.Apply(m)
				line = append(line, q)
			}
			s.scan(ctx, line, moves, fmt.Sprintf("%s, branch %d at ply %d", source, b+1, i-branchBack+1), true, &out)
		}
	}
	return out
}

// iceAgeNear reports whether the Ice Age comes with the move of the side
// to move or with the reply.
func iceAgeNear(p *game.Position) bool {
	return p.IceAgeNow() || p.Turn() == game.White && p.BlackMovesToIceAge() == 1
}

// kingInDanger reports whether the side to move's king would freeze at
// an Ice Age that comes with its move or the reply.
func kingInDanger(p *game.Position) bool {
	return iceAgeNear(p) && p.WouldFreeze()&p.Pieces(p.Turn(), game.King) != 0
}

// candidate judges position p, scored r by the scan, where the solver's
// chances before the opponent's last move were before (centipawns): a
// proven mate or freeze, a saved king, or an only move after a mistake.
func (s *Scanner) candidate(ctx context.Context, p game.Position, r engine.Result, before int) *Puzzle {
	if n := engine.MateIn(r.Score); n >= 1 && n <= MaxProvenMoves {
		return s.proven(ctx, p)
	}
	if kingInDanger(&p) {
		return s.saveKing(ctx, p)
	}
	if r.Score >= winning && before < notYetWon && (WinChances(r.Score) > WinChances(before)+jump || r.Score-before >= gift) {
		return s.advantage(ctx, p, nil)
	}
	return nil
}

// proven returns the puzzle of a mate or freeze within MaxProvenMoves in
// p, when exactly one first move forces it; nil otherwise.
func (s *Scanner) proven(ctx context.Context, p game.Position) *Puzzle {
	for n := 1; n <= MaxProvenMoves; n++ {
		w := Winners(&p, n)
		if len(w) == 0 {
			continue
		}
		if len(w) > 1 {
			return nil // more than one way: no puzzle
		}
		line := []game.Move{w[0]}
		q := p
		for k := 1; k < n; k++ {
			a := q.Apply(line[len(line)-1])
			reply := s.defence(ctx, a, q.Turn())
			if reply == game.NullMove {
				return nil
			}
			b := a.Apply(reply)
			m := s.finish(ctx, b, n-k)
			if m == game.NullMove {
				return nil
			}
			line = append(line, reply, m)
			q = b
		}
		last := line[len(line)-1]
		goal := Freeze
		if Reaches(&q, last, Mate) {
			goal = Mate
		}
		pz := s.make(ctx, p, line, goal)
		pz.Proven = true
		return pz
	}
	return nil
}

// defence chooses the reply in a, the defender to move, that resists
// longest: one that does not lose at once, the engine's choice when it
// is one.
func (s *Scanner) defence(ctx context.Context, a game.Position, solver game.Color) game.Move {
	var buf [256]game.Move
	var ok []game.Move
	for _, r := range a.LegalMoves(buf[:0]) {
		b := a.Apply(r)
		if w, won := b.Outcome().Winner(); won && w == solver {
			continue
		}
		if b.Outcome().Over() {
			return game.NullMove // a drawing or winning defence: no forced win
		}
		ok = append(ok, r)
	}
	if len(ok) == 0 {
		return game.NullMove
	}
	if best := s.search(ctx, a, s.opt.Nodes).Best; slices.Contains(ok, best) {
		return best
	}
	return ok[0]
}

// finish returns a move that wins in b within n moves, the engine's
// choice when it is one.
func (s *Scanner) finish(ctx context.Context, b game.Position, n int) game.Move {
	w := Winners(&b, n)
	if len(w) == 0 {
		return game.NullMove
	}
	if best := s.search(ctx, b, s.opt.Nodes).Best; slices.Contains(w, best) {
		return best
	}
	return w[0]
}

// onlyMove returns the engine's best move in p and whether it is the only
// good one: its chances beat the second best's by gap. second is the
// second best's score.
func (s *Scanner) onlyMove(ctx context.Context, p game.Position, gap float64) (best engine.Result, second int, only bool) {
	best = s.search(ctx, p, s.opt.DeepNodes)
	if best.Best == game.NullMove {
		return best, 0, false
	}
	alt := s.e.SearchExcept(ctx, p, engine.Limits{Nodes: s.opt.DeepNodes}, best.Best)
	if alt.Best == game.NullMove {
		return best, 0, false // a forced move is no puzzle
	}
	return best, alt.Score, WinChances(best.Score) > WinChances(alt.Score)+gap
}

// advantage returns the puzzle of an only move that keeps a winning
// advantage in p, extended while the next solver move is again the only
// one; nil when the first is not, or when the line is one move long and
// the king was not in danger.
func (s *Scanner) advantage(ctx context.Context, p game.Position, themes []Theme) *Puzzle {
	best, second, only := s.onlyMove(ctx, p, onlyGap)
	if !only || best.Score < winning || engine.MateIn(best.Score) >= 1 && engine.MateIn(best.Score) <= MaxProvenMoves {
		return nil
	}
	if second <= -winning {
		themes = append(themes, OnlyMove)
	}
	line := []game.Move{best.Best}
	q := p.Apply(best.Best)
	for len(line) < 5 && !q.Outcome().Over() {
		reply := s.search(ctx, q, s.opt.DeepNodes).Best
		if reply == game.NullMove {
			break
		}
		b := q.Apply(reply)
		if b.Outcome().Over() {
			break
		}
		next, _, only := s.onlyMove(ctx, b, onlyGap)
		if !only || next.Score < winning {
			break
		}
		line = append(line, reply, next.Best)
		q = b.Apply(next.Best)
	}
	if len(line) == 1 && p.PieceAt(line[0].To()) != game.NoPiece && !slices.Contains(themes, SaveKing) {
		return nil // one capture after a mistake: a giveaway, no puzzle
	}
	pz := s.make(ctx, p, line, Advantage)
	pz.Themes = mergeThemes(pz.Themes, themes)
	return pz
}

// saveKing returns the puzzle of a king that would freeze at the coming
// Ice Age and has one way out.
func (s *Scanner) saveKing(ctx context.Context, p game.Position) *Puzzle {
	best, _, only := s.onlyMove(ctx, p, saveGap)
	if !only || engine.MateIn(best.Score) < 0 || best.Score <= -winning {
		return nil
	}
	if best.Score >= winning {
		if pz := s.advantage(ctx, p, []Theme{SaveKing}); pz != nil {
			return pz
		}
	}
	pz := s.make(ctx, p, []game.Move{best.Best}, Advantage)
	pz.Themes = mergeThemes(pz.Themes, []Theme{SaveKing, OnlyMove})
	return pz
}

// make builds the puzzle of p and line: its themes, its rating, its id.
func (s *Scanner) make(ctx context.Context, p game.Position, line []game.Move, goal Goal) *Puzzle {
	ucis := make([]string, len(line))
	for i, m := range line {
		ucis[i] = m.UCI()
	}
	fen := p.FEN()
	pz := &Puzzle{ID: ID(fen, ucis), FEN: fen, Moves: ucis, Goal: goal}
	pz.Themes = themesOf(p, line, goal)
	pz.Rating = s.rate(ctx, p, line, pz.Themes, goal)
	return pz
}

func mergeThemes(a, b []Theme) []Theme {
	for _, t := range b {
		if !slices.Contains(a, t) {
			a = append(a, t)
		}
	}
	slices.SortFunc(a, func(x, y Theme) int { return slices.Index(Themes, x) - slices.Index(Themes, y) })
	return a
}

// themesOf finds the themes a line shows.
func themesOf(p game.Position, line []game.Move, goal Goal) []Theme {
	var t []Theme
	solver := p.Turn()
	if goal == Freeze {
		t = append(t, FreezeKing)
	}
	if kingInDanger(&p) {
		t = append(t, SaveKing)
	}
	if p.IsIce(line[0].To()) {
		t = append(t, BreakIce)
	}
	q := p
	for _, m := range line {
		next, ev := q.ApplyWithEvent(m)
		if ev != nil {
			for _, f := range ev.Frozen {
				if f.Piece.Color() != solver && f.Piece.Kind() != game.King {
					t = append(t, LostToIceAge)
					break
				}
			}
		}
		q = next
	}
	if o := q.Outcome(); o.Reason == game.Checkmate && !mateWithoutIce(&q) {
		t = append(t, MateThroughIce)
	}
	switch n := (len(line) + 1) / 2; {
	case n == 1:
		t = append(t, OneMove)
	case n == 2:
		t = append(t, Short)
	default:
		t = append(t, Long)
	}
	return mergeThemes(nil, t)
}

// mateWithoutIce reports whether the mated position q is still mate with
// its ice gone: when it is not, the ice made the mate.
func mateWithoutIce(q *game.Position) bool {
	fields := strings.Fields(q.FEN())
	var b strings.Builder
	empty := 0
	for _, c := range fields[0] {
		switch {
		case c == '*':
			empty++
		case c >= '1' && c <= '8':
			empty += int(c - '0')
		default:
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteRune(c)
		}
	}
	if empty > 0 {
		b.WriteByte(byte('0' + empty))
	}
	fields[0] = b.String()
	bare, err := game.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		return true // no position without the ice: do not claim the theme
	}
	return bare.Outcome().Reason == game.Checkmate
}
