package engine

import "github.com/iceagechess/iceage/game"

// terminal scores a position whose game is over because a king froze in
// the Ice Age just played (docs/rules.md §4.4): both kings frozen is a
// draw, one frozen king loses. over is false while both kings stand.
func terminal(p *game.Position, ply int) (score int, over bool) {
	us := p.Pieces(p.Turn(), game.King) != 0
	them := p.Pieces(p.Turn().Other(), game.King) != 0
	switch {
	case us && them:
		return 0, false
	case !us && !them:
		return 0, true
	case !us:
		return -(Mate - ply), true
	}
	return Mate - ply, true
}

// tick counts a node and decides whether the search must stop: the node
// budget every node, the context and the clock every 1024 nodes.
func (e *Engine) tick() {
	e.nodes++
	if e.nodes >= e.maxNodes {
		e.stop = true
	}
	if e.nodes&1023 == 0 {
		if e.ctx != nil && e.ctx.Err() != nil {
			e.stop = true
		}
		if e.timed && !e.now().Before(e.deadline) {
			e.stop = true
		}
	}
}

// Move ordering keys: the table's move first, then captures of men and
// queen promotions by MVV-LVA (most valuable victim, least valuable
// attacker), then the two killers, then the rest (ice captures included)
// by history.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 24
	orderKiller  = 1 << 23
	historyMax   = 1 << 20
)

// isManCapture reports whether m takes a man (en passant included).
func isManCapture(p *game.Position, m game.Move) bool {
	if p.PieceAt(m.To()) != game.NoPiece {
		return true
	}
	return m.To() == p.EnPassant() && p.PieceAt(m.From()).Kind() == game.Pawn && m.From().File() != m.To().File()
}

func (e *Engine) moveOrder(p *game.Position, m, ttMove game.Move, ply int) int32 {
	switch {
	case m == ttMove:
		return orderTT
	case isManCapture(p, m):
		victim := p.PieceAt(m.To()).Kind()
		if victim == game.NoKind {
			victim = game.Pawn
		}
		return orderCapture + int32(victim)*16 - int32(p.PieceAt(m.From()).Kind())
	case m.Promotion() == game.Queen:
		return orderCapture + int32(game.Queen)*16
	case m.Promotion() != game.NoKind:
		return -historyMax // under-promotions last
	case m == e.killers[ply][0]:
		return orderKiller
	case m == e.killers[ply][1]:
		return orderKiller - 1
	}
	return e.history[p.Turn()][m.From()][m.To()]
}

// pick moves the best-ordered move of moves[i:] to i (selection sort, one
// step at a time: most nodes cut off after a move or two).
func pick(moves []game.Move, keys []int32, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if keys[j] > keys[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	keys[i], keys[best] = keys[best], keys[i]
}

// root searches every root move at depth, PVS as in search, and records
// each move's score in rootScores (exact inside the window, a bound
// outside). With a Margin it searches every move with a window that
// starts Margin below the best, so every move near the best gets a true
// score to choose from.
func (e *Engine) root(depth, alpha, beta int) int {
	p := &e.pos[0]
	e.pvLen[0] = 0
	best := -infinity
	e.partialBest = -infinity
	for i, m := range e.rootMoves {
		e.rootScores[i] = -infinity
		e.pos[1] = p.Apply(m)
		e.keys[1] = childKey(e.keys[0], p, &e.pos[1])
		var score int
		switch {
		case i == 0:
			score = -e.search(1, depth-1, -beta, -alpha)
		case e.lim.Margin > 0:
			floor := max(best-e.lim.Margin-1, -infinity)
			score = -e.search(1, depth-1, -beta, -floor)
		default:
			score = -e.search(1, depth-1, -alpha-1, -alpha)
			if score > alpha && score < beta {
				score = -e.search(1, depth-1, -beta, -alpha)
			}
		}
		if e.stop {
			return best
		}
		e.rootScores[i] = score
		if score > best {
			best = score
			if score > alpha || i == 0 {
				e.partialBest = score
				e.setPV(0, m)
			}
			if score > alpha {
				alpha = score
			}
			if score >= beta {
				break
			}
		}
	}
	return best
}

// setPV makes m followed by the child's line the principal variation at
// ply.
func (e *Engine) setPV(ply int, m game.Move) {
	e.pv[ply][ply] = m
	n := e.pvLen[ply+1]
	if n < ply+1 {
		n = ply + 1
	}
	copy(e.pv[ply][ply+1:n], e.pv[ply+1][ply+1:n])
	e.pvLen[ply] = n
}

// search is negamax alpha-beta with principal variation search: the first
// move gets the full window, the rest a null window and a re-search when
// they beat alpha. Late quiet moves are reduced by a ply (two when very
// late), except near an Ice Age, where any king step may decide the game.
// A node in check is extended by a ply. At the horizon Black's Ice-Age
// move is still searched (game.Apply plays the Ice Age with it), so the
// search never stands pat in front of an Ice Age; otherwise the horizon
// hands over to quiescence.
func (e *Engine) search(ply, depth, alpha, beta int) int {
	p := &e.pos[ply]
	e.pvLen[ply] = ply
	if score, over := terminal(p, ply); over {
		return score
	}
	if ply >= maxPly-1 {
		return evaluate(p)
	}
	inCheck := p.InCheck()
	if inCheck && ply < 2*e.rootDepth+8 {
		depth++
	}
	if depth <= 0 {
		if !p.IceAgeNow() {
			return e.qsearch(ply, 0, alpha, beta)
		}
		depth = 1
	}
	e.tick()
	if e.stop {
		return 0
	}

	// Mate distance: no line from here can beat a mate already found
	// nearer the root.
	alpha = max(alpha, -(Mate - ply))
	beta = min(beta, Mate-ply-1)
	if alpha >= beta {
		return alpha
	}

	key := e.keys[ply]
	pvNode := beta-alpha > 1
	var ttMove game.Move
	if t, ok := e.tt.probe(key); ok {
		ttMove = t.move
		if !pvNode && int(t.depth) >= depth && p.HalfMoveClock() < 90 {
			s := fromTT(int(t.score), ply)
			switch {
			case t.bound == boundExact,
				t.bound == boundLower && s >= beta,
				t.bound == boundUpper && s <= alpha:
				return s
			}
		}
	}

	moves := p.LegalMoves(e.moves[ply][:0])
	if len(moves) == 0 {
		if inCheck {
			return -(Mate - ply)
		}
		return 0
	}
	if p.HalfMoveClock() >= 100 {
		return 0 // the fifty-move rule, after mate and stalemate (docs/rules.md §5)
	}
	keys := e.order[ply][:len(moves)]
	for i, m := range moves {
		keys[i] = e.moveOrder(p, m, ttMove, ply)
	}
	// Near an Ice Age the evaluation guesses what the search would see
	// exactly a few plies on, so nothing is pruned or reduced there.
	calm := !inCheck && pliesToIceAge(p) > 4 && !e.noPruning
	reduce := calm && depth >= 3

	// Pruning at the frontier, in null-window nodes: a position whose
	// static score beats beta by a margin per ply left is taken to hold
	// (reverse futility); at the last ply, quiet moves that cannot lift a
	// hopeless static score to alpha are skipped (futility), unless they
	// give check.
	futile := false
	if calm && !pvNode && depth <= 3 && beta < mateBound && alpha > -mateBound {
		static := e.evaluate(ply)
		if static-futilityMargin*depth >= beta {
			return static
		}
		futile = depth == 1 && static+futilityMargin <= alpha
	}

	best, bestMove, b := -infinity, game.NullMove, boundUpper
	us := p.Turn()
	for i := range moves {
		pick(moves, keys, i)
		m := moves[i]
		quiet := !isManCapture(p, m) && m.Promotion() == game.NoKind
		child := &e.pos[ply+1]
		*child = p.Apply(m)
		if futile && quiet && i > 0 && !child.InCheck() {
			continue
		}
		e.keys[ply+1] = childKey(key, p, child)
		var score int
		if i == 0 {
			score = -e.search(ply+1, depth-1, -beta, -alpha)
		} else {
			r := 0
			if reduce && quiet && i >= 3 && keys[i] < orderKiller-1 && !child.InCheck() {
				r = 1
				if i >= 8 && depth >= 5 {
					r = 2
				}
			}
			score = -e.search(ply+1, depth-1-r, -alpha-1, -alpha)
			if score > alpha && r > 0 {
				score = -e.search(ply+1, depth-1, -alpha-1, -alpha)
			}
			if score > alpha && score < beta {
				score = -e.search(ply+1, depth-1, -beta, -alpha)
			}
		}
		if e.stop {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				b = boundExact
				e.setPV(ply, m)
				if score >= beta {
					b = boundLower
					if quiet {
						if e.killers[ply][0] != m {
							e.killers[ply][1], e.killers[ply][0] = e.killers[ply][0], m
						}
						h := &e.history[us][m.From()][m.To()]
						*h += int32(depth * depth)
						if *h > historyMax {
							for f := range e.history[us] {
								for t := range e.history[us][f] {
									e.history[us][f][t] /= 2
								}
							}
						}
					}
					break
				}
			}
		}
	}
	e.tt.store(key, bestMove, toTT(best, ply), depth, b)
	return best
}
