package engine

import (
	"context"
	"sync"

	"github.com/iceagechess/iceage/game"
)

// player chooses moves in ladder games. Each game gets fresh players, so
// games are independent of one another and of the order they run in.
type player interface {
	// move returns the move and, for an engine, its score for the mover
	// (ok false for players without one).
	move(p *game.Position) (m game.Move, score int, ok bool)
}

// enginePlayer plays a level with a small table of its own.
type enginePlayer struct {
	e     *Engine
	lim   Limits
	ply   uint64
	nodes int64 // searched in this game
}

func newEnginePlayer(lim Limits, seed uint64) *enginePlayer {
	lim.Seed = seed
	return &enginePlayer{e: New(Options{TableBytes: 1 << 20}), lim: lim}
}

func (x *enginePlayer) move(p *game.Position) (game.Move, int, bool) {
	lim := x.lim
	lim.Seed += x.ply // a new draw every move
	x.ply++
	r := x.e.Search(context.Background(), *p, lim)
	x.nodes += r.Nodes
	return r.Best, r.Score, true
}

// randomPlayer plays any legal move.
type randomPlayer struct{ r splitmix64 }

func (x *randomPlayer) move(p *game.Position) (game.Move, int, bool) {
	var buf [256]game.Move
	moves := p.LegalMoves(buf[:0])
	return moves[x.r.intn(len(moves))], 0, false
}

// greedyPlayer takes the most valuable man it can (with the least
// valuable attacker), mates when it can in one, and otherwise plays a
// random move.
type greedyPlayer struct{ r splitmix64 }

func (x *greedyPlayer) move(p *game.Position) (game.Move, int, bool) {
	var buf [256]game.Move
	moves := p.LegalMoves(buf[:0])
	best, bestKey := game.NullMove, -1
	for _, m := range moves {
		q := p.Apply(m)
		if o := q.Outcome(); o.Over() {
			if w, ok := o.Winner(); ok && w == p.Turn() {
				return m, 0, false
			}
		}
		if isManCapture(p, m) {
			v := max(pieceValue[p.PieceAt(m.To()).Kind()], pieceValue[game.Pawn])
			if k := v*16 - int(p.PieceAt(m.From()).Kind()); k > bestKey {
				best, bestKey = m, k
			}
		}
	}
	if best != game.NullMove {
		return best, 0, false
	}
	return moves[x.r.intn(len(moves))], 0, false
}

// opening returns the position after plies random moves from the ice
// start, chosen by seed: ladder games start from it so that players
// without randomness of their own still play many different games.
func opening(seed uint64, plies int) game.Position {
	return randomGame(game.StartPosition(), seed^0x0BE4, plies, nil)
}

// Adjudication: when both players are engines and both have scored the
// game at least adjudicateScore for the same side over the last
// adjudicatePlies plies, that side is given the win. A lead of ten pawns
// is not lost between engines; converting it (often by waiting for the
// next Ice Age) would only make the ladder slower.
const (
	adjudicateScore = 1000
	adjudicatePlies = 8
)

// playGame plays white against black from start until the game ends, is
// adjudicated, or maxPlies have been played (then it is scored a draw),
// and returns the outcome and the number of plies.
func playGame(white, black player, start game.Position, maxPlies int) (game.Outcome, int) {
	p := start
	run := 0 // plies in a row with White (positive) or Black (negative) scored winning by its mover
	for ply := 0; ply < maxPlies; ply++ {
		if o := p.Outcome(); o.Over() {
			return o, ply
		}
		pl := white
		if p.Turn() == game.Black {
			pl = black
		}
		m, score, ok := pl.move(&p)
		if p.Turn() == game.Black {
			score = -score
		}
		switch {
		case !ok:
			run = 0
		case score >= adjudicateScore:
			run = max(run, 0) + 1
		case score <= -adjudicateScore:
			run = min(run, 0) - 1
		default:
			run = 0
		}
		p = p.Apply(m)
		switch {
		case run >= adjudicatePlies && !p.Outcome().Over():
			return game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}, ply + 1
		case run <= -adjudicatePlies && !p.Outcome().Over():
			return game.Outcome{Result: game.BlackWins, Reason: game.Resignation}, ply + 1
		}
	}
	if o := p.Outcome(); o.Over() {
		return o, maxPlies
	}
	return game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}, maxPlies
}

// match is a series of games between two players, colours alternating.
type match struct {
	a, b       func(seed uint64) player
	games      int
	seed       uint64
	maxPlies   int
	openPlies  int
	aWins      int
	bWins      int
	draws      int
	whiteWins  int
	blackWins  int
	plies      int
	iceAgeWins int // games won by a frozen king
	adjudged   int // games given to the side both engines saw winning
	reasons    map[game.Reason]int
	nodes      int64 // searched by the engines, all games
}

// score returns a's share of the points.
func (m *match) score() float64 {
	return (float64(m.aWins) + float64(m.draws)/2) / float64(m.games)
}

// run plays the games on workers goroutines. Game i starts from the
// opening of seed+i/2, so both colours play each opening; a plays White
// in the even games.
func (m *match) run(workers int) {
	type out struct {
		o     game.Outcome
		plies int
		aIsW  bool
		nodes int64
	}
	results := make([]out, m.games)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := m.seed + uint64(i)
				start := opening(m.seed+uint64(i/2), m.openPlies)
				a, b := m.a(s), m.b(s^0xB1AC)
				var r out
				if i%2 == 0 {
					r.o, r.plies = playGame(a, b, start, m.maxPlies)
					r.aIsW = true
				} else {
					r.o, r.plies = playGame(b, a, start, m.maxPlies)
				}
				for _, x := range []player{a, b} {
					if e, ok := x.(*enginePlayer); ok {
						r.nodes += e.nodes
					}
				}
				results[i] = r
			}
		}()
	}
	for i := range m.games {
		next <- i
	}
	close(next)
	wg.Wait()
	m.reasons = map[game.Reason]int{}
	for _, r := range results {
		m.plies += r.plies
		m.nodes += r.nodes
		m.reasons[r.o.Reason]++
		switch r.o.Reason {
		case game.KingFrozen:
			m.iceAgeWins++
		case game.Resignation:
			m.adjudged++
		}
		switch w, ok := r.o.Winner(); {
		case !ok:
			m.draws++
		case (w == game.White) == r.aIsW:
			m.aWins++
		default:
			m.bWins++
		}
		switch r.o.Result {
		case game.WhiteWins:
			m.whiteWins++
		case game.BlackWins:
			m.blackWins++
		}
	}
}
