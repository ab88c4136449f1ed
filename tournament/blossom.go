package tournament

// This file is a maximum-weight matching in a general graph: Edmonds'
// blossom algorithm in its primal-dual form (Galil, "Efficient algorithms
// for finding maximum matching in graphs", 1986), O(n³). Every vertex
// starts with the dual max weight; each stage grows alternating trees from
// the free vertices, shrinks odd cycles into blossoms, and either augments
// or changes the duals until an edge becomes tight or the vertices' duals
// reach zero — then the matching is optimal. The matcher counts weights
// four times over, so that every dual stays an integer: the duals of an
// integer problem are half-integers, and a stage halves the slack
// between two outer vertices.

// A matchEdge is an edge i-j of weight w, as a caller of
// maxWeightMatching gives it.
type matchEdge struct {
	i, j int32
	w    weight
}

// A graph is what the matcher solves: its edges, and the weights they
// name. The edges hold no weight of their own, so that the pairing's
// table of its pairs' weights (bracket.go) is the graph's without a copy
// — a copy would be 24 MB of a 1,000-player round — and a solve that
// favours a few edges (a bonus) changes no weight in the table.
type graph struct {
	edges []edge
	// weights are in the matcher's units, four times the caller's (see
	// the top of this file); weights[0] is zero, the weight of a warm solve's dummy
	// edges.
	weights []weight
	bonus   weight // what an edge with a bonus adds, in the same units
}

// matchShift is the matcher's units: weights four times the caller's,
// their fields two bits up.
const matchShift = 2

// An edge of a graph: its ends, and its weight, weights[w] when w > 0,
// weights[^w] plus the graph's bonus when w < 0. Its fields are int32
// (players number far fewer) to keep the half million edges of a
// 1,000-player round small.
type edge struct{ i, j, w int32 }

// edgeWeight is edge k's weight in the matcher's units.
func (m *matcher) edgeWeight(k int) weight {
	w := m.edges[k].w
	if w >= 0 {
		return m.weights[w]
	}
	return m.weights[^w].add(m.bonus)
}

// newGraph is the graph of edges given with their weights.
func newGraph(edges []matchEdge) graph {
	g := graph{edges: make([]edge, len(edges)), weights: make([]weight, len(edges)+1)}
	for k, e := range edges {
		g.edges[k] = edge{i: e.i, j: e.j, w: int32(k + 1)}
		g.weights[k+1] = e.w.quadruple()
	}
	return g
}

// An arc is an edge seen from one end: the vertex at the other end and
// the edge's endpoint index there (2k+1 when that is edge k's j, 2k
// when its i), side by side so that a scan reads no other array.
type arc struct{ to, p int32 }

type matcher struct {
	n       int
	edges   []edge
	weights []weight
	bonus   weight
	// The arcs of vertex v are adj[adjStart[v]:adjStart[v+1]], in the
	// order of the edges: one array for all, not a slice per vertex that
	// grows by doubling.
	adj      []arc
	adjStart []int32
	adjNext  []int32 // init's: where each vertex's next arc goes
	mate     []int

	label      []int8
	labelend   []int
	inblossom  []int
	parent     []int
	childs     [][]int
	base       []int
	endps      [][]int
	bestedge   []int
	bestedges  [][]int32 // edge numbers; see bestedgesPool
	unused     []int
	dual       []weight
	allowedge  []bool
	queue      []int
	leafBuf    []int
	leafBuf2   []int
	bestedgeto []int
	slackto    []weight

	// bestslack caches the slack of bestedge[b] while the duals do not
	// change: epoch counts the dual changes, and the cache of b is good
	// while bestslackAt[b] equals it.
	bestslack   []weight
	bestslackAt []uint64
	epoch       uint64
	// bestedgesPool keeps each blossom slot's list memory while
	// bestedges (nil for no list) forgets the list.
	bestedgesPool [][]int32
	raised        []bool // a warm start's: the duals it raised
	out           []int  // the mates a solve returns
}

// maxWeightMatching returns mate[v] for every vertex of a graph on n
// vertices (-1 when v stays single) such that the sum of the matched
// edges' weights is as large as possible. Edges of weight zero are never
// worth taking; an edge's i and j must differ and lie in [0, n).
func maxWeightMatching(n int, edges []matchEdge) []int {
	mate, _ := maxWeightMatchingDuals(n, edges)
	return mate
}

// duals is the optimal dual solution that proves a matching optimal: an
// edge whose reduced cost (tight) is positive is in no maximum-weight
// matching at all, which lets a caller rule out a choice without
// solving again.
type duals struct {
	m *matcher
}

// tight tells whether edge i-j of weight w has zero reduced cost. An
// edge that is not tight is in no optimal matching.
func (d duals) tight(i, j int, w weight) bool {
	m := d.m
	if m == nil {
		return true
	}
	s := m.dual[i].add(m.dual[j])
	// Blossoms that hold both ends add twice their dual.
	ci, cj := m.chain(i), m.chain(j)
	for x, y := len(ci)-1, len(cj)-1; x >= 0 && y >= 0 && ci[x] == cj[y]; x, y = x-1, y-1 {
		s = s.add(m.dual[ci[x]].double())
	}
	return s == w.quadruple()
}

// free tells whether vertex v may stay single in an optimal matching.
func (d duals) free(v int) bool { return d.m == nil || d.m.dual[v].isZero() }

// chain lists the blossoms that hold v, innermost first.
func (m *matcher) chain(v int) []int {
	var c []int
	for b := m.parent[v]; b >= 0; b = m.parent[b] {
		c = append(c, b)
	}
	return c
}

// maxWeightMatchingDuals is maxWeightMatching with the dual solution.
func maxWeightMatchingDuals(n int, edges []matchEdge) ([]int, duals) {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	if n == 0 || len(edges) == 0 {
		return mate, duals{}
	}
	return solveCold(nil, n, newGraph(edges))
}

// solveCold is maxWeightMatchingDuals on a graph, which it neither keeps
// nor changes.
//
// A matcher m given is reused, its memory with it (nil for a new one);
// the result's duals are that matcher, and the mates are in its memory
// until its next solve.
func solveCold(m *matcher, n int, g graph) ([]int, duals) {
	if n == 0 || len(g.edges) == 0 {
		return fill(make([]int, n), -1), duals{}
	}
	if m == nil {
		m = &matcher{}
	}
	mate := fill(grow(m.out, n), -1)
	m.out = mate
	m.n, m.edges, m.weights, m.bonus = n, g.edges, g.weights, g.bonus
	var maxw weight
	for k := range g.edges {
		if w := m.edgeWeight(k); maxw.less(w) {
			maxw = w
		}
	}
	// Every vertex's dual starts at the largest weight, in the units in
	// which a dual is an integer: twice the caller's.
	m.run(maxw.half())
	for v := 0; v < n; v++ {
		if m.mate[v] >= 0 {
			mate[v] = m.end(m.mate[v])
		}
	}
	return mate, duals{m}
}

func (m *matcher) run(maxw weight) {
	m.init()
	for i := 0; i < m.n; i++ {
		m.dual[i] = maxw
	}
	m.loop(false)
}

// init builds the adjacency and the empty state: no pairs, no blossoms.
func (m *matcher) init() {
	n := m.n
	ne := len(m.edges)
	// A matcher used before keeps its memory: a round solves hundreds of
	// matchings of nearly the same size.
	m.adjStart = growZero(m.adjStart, n+1)
	for _, e := range m.edges {
		m.adjStart[e.i+1]++
		m.adjStart[e.j+1]++
	}
	for v := 0; v < n; v++ {
		m.adjStart[v+1] += m.adjStart[v]
	}
	m.adj = grow(m.adj, 2*ne)
	next := append(m.adjNext[:0], m.adjStart[:n]...) // where v's next arc goes
	m.adjNext = next
	for k, e := range m.edges {
		m.adj[next[e.i]] = arc{e.j, int32(2*k + 1)}
		next[e.i]++
		m.adj[next[e.j]] = arc{e.i, int32(2 * k)}
		next[e.j]++
	}
	m.mate = fill(grow(m.mate, n), -1)
	m.label = growZero(m.label, 2*n)
	m.labelend = fill(grow(m.labelend, 2*n), -1)
	m.inblossom = grow(m.inblossom, n)
	for i := range m.inblossom {
		m.inblossom[i] = i
	}
	m.parent = fill(grow(m.parent, 2*n), -1)
	m.childs = truncateAll(m.childs, 2*n)
	m.base = grow(m.base, 2*n)
	for i := range m.base {
		if i < n {
			m.base[i] = i
		} else {
			m.base[i] = -1
		}
	}
	m.endps = truncateAll(m.endps, 2*n)
	m.bestedge = fill(grow(m.bestedge, 2*n), -1)
	m.bestedges = growZero(m.bestedges, 2*n)
	m.bestedgesPool = truncateAll(m.bestedgesPool, 2*n)
	m.bestslack = grow(m.bestslack, 2*n)
	m.bestslackAt = growZero(m.bestslackAt, 2*n)
	m.epoch = 1
	m.slackto = grow(m.slackto, 2*n)
	m.unused = m.unused[:0]
	for b := n; b < 2*n; b++ {
		m.unused = append(m.unused, b)
	}
	m.dual = growZero(m.dual, 2*n)
	m.allowedge = growZero(m.allowedge, ne)
	m.bestedgeto = grow(m.bestedgeto, 2*n)
}

// arcs returns the arcs of vertex v.
func (m *matcher) arcs(v int) []arc { return m.adj[m.adjStart[v]:m.adjStart[v+1]] }

// end returns the vertex at endpoint p: edge p/2's i when p is even, its
// j when odd. It is read from the edge, not kept in an array of its own
// that would add 8 bytes to each of a big round's half million edges.
func (m *matcher) end(p int) int {
	e := &m.edges[p>>1]
	if p&1 == 0 {
		return int(e.i)
	}
	return int(e.j)
}

// grow returns s with length n, reusing its memory when it can; the
// values are left to the caller.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// truncateAll returns s with length n and every slice in it empty,
// keeping their memory.
func truncateAll[T any](s [][]T, n int) [][]T {
	if cap(s) < n {
		s = append(s[:cap(s)], make([][]T, n-cap(s))...)
	}
	s = s[:n]
	for i := range s {
		s[i] = s[i][:0]
	}
	return s
}

// growZero is grow with every value zero.
func growZero[T any](s []T, n int) []T {
	s = grow(s, n)
	clear(s)
	return s
}

// loop runs the stages. For a maximum-weight matching the vertices' duals
// start equal and it stops when they reach zero (delta type 1). With
// perfect, it looks for a maximum-weight perfect matching from whatever
// feasible duals and tight pairs it was given: duals are then unbounded
// (they wrap around as two's complement, and only slacks, never negative,
// are compared). It says whether it found what it looked for; a perfect
// run gives up (false) when no perfect matching exists or when half an
// odd slack would be needed, which a warm start can cause.
func (m *matcher) loop(perfect bool) bool {
	n := m.n
	for stage := 0; stage < n; stage++ {
		if perfect {
			free := false
			for v := 0; v < n; v++ {
				if m.mate[v] == -1 {
					free = true
					break
				}
			}
			if !free {
				return true
			}
		}
		for i := range m.label {
			m.label[i] = 0
		}
		m.epoch++
		fill(m.bestedge, -1)
		clear(m.bestedges[n:])
		for k := range m.allowedge {
			m.allowedge[k] = false
		}
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				dv := m.dual[v] // no vertex's dual changes during a scan
				for _, a := range m.arcs(v) {
					p, w := int(a.p), int(a.to)
					k := p / 2
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack weight
					if !m.allowedge[k] {
						kslack = dv.add(m.dual[w]).sub(m.edgeWeight(k))
						if kslack.isZero() {
							m.allowedge[k] = true
						}
					}
					if m.allowedge[k] {
						if m.label[m.inblossom[w]] == 0 {
							m.assignLabel(w, 2, p^1)
						} else if m.label[m.inblossom[w]] == 1 {
							if b := m.scanBlossom(v, w); b >= 0 {
								m.addBlossom(b, k)
							} else {
								m.augmentMatching(k)
								augmented = true
								break
							}
						} else if m.label[w] == 0 {
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					} else if m.label[m.inblossom[w]] == 1 {
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack.less(m.bestSlack(b)) {
							m.setBest(b, k, kslack)
						}
					} else if m.label[w] == 0 {
						if m.bestedge[w] == -1 || kslack.less(m.bestSlack(w)) {
							m.setBest(w, k, kslack)
						}
					}
				}
			}
			if augmented {
				break
			}
			deltatype := -1
			var delta weight
			if !perfect {
				deltatype = 1
				delta = m.dual[0]
				for v := 1; v < n; v++ {
					if m.dual[v].less(delta) {
						delta = m.dual[v]
					}
				}
			}
			deltaedge, deltablossom := -1, -1
			for v := 0; v < n; v++ {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					if d := m.bestSlack(v); deltatype == -1 || d.less(delta) {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.parent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					sl := m.bestSlack(b)
					if d := sl.half(); deltatype == -1 || d.less(delta) {
						if perfect && sl[0]&1 != 0 {
							return false
						}
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (deltatype == -1 || m.dual[b].less(delta)) {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			if deltatype == -1 {
				return false // no perfect matching
			}
			m.epoch++
			for v := 0; v < n; v++ {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dual[v] = m.dual[v].sub(delta)
				case 2:
					m.dual[v] = m.dual[v].add(delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] = m.dual[b].add(delta)
					case 2:
						m.dual[b] = m.dual[b].sub(delta)
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				m.allowedge[deltaedge] = true
				i, j := int(m.edges[deltaedge].i), int(m.edges[deltaedge].j)
				if m.label[m.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				m.queue = append(m.queue, i)
			case 3:
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, int(m.edges[deltaedge].i))
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			return !perfect
		}
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b].isZero() {
				m.expandBlossom(b, true)
			}
		}
	}
	if perfect {
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 {
				return false
			}
		}
	}
	return true
}

func fill(s []int, v int) []int {
	for i := range s {
		s[i] = v
	}
	return s
}

func (m *matcher) slack(k int) weight {
	e := &m.edges[k]
	return m.dual[e.i].add(m.dual[e.j]).sub(m.edgeWeight(k))
}

// bestSlack is the slack of bestedge[b], which must be an edge.
func (m *matcher) bestSlack(b int) weight {
	if m.bestslackAt[b] != m.epoch {
		m.bestslack[b] = m.slack(m.bestedge[b])
		m.bestslackAt[b] = m.epoch
	}
	return m.bestslack[b]
}

// setBest makes edge k, of slack sl, the best edge of b.
func (m *matcher) setBest(b, k int, sl weight) {
	m.bestedge[b] = k
	m.bestslack[b] = sl
	m.bestslackAt[b] = m.epoch
}

// leaves appends the vertices inside blossom b to out.
func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, t := range m.childs[b] {
		out = m.leaves(t, out)
	}
	return out
}

func (m *matcher) assignLabel(w int, t int8, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.leafBuf = m.leaves(b, m.leafBuf[:0])
		m.queue = append(m.queue, m.leafBuf...)
	} else {
		base := m.base[b]
		m.assignLabel(m.end(m.mate[base]), 1, m.mate[base]^1)
	}
}

func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.end(m.labelend[b])
			b = m.inblossom[v]
			v = m.end(m.labelend[b])
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *matcher) addBlossom(base, k int) {
	v, w := int(m.edges[k].i), int(m.edges[k].j)
	bb := m.inblossom[base]
	bv, bw := m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	path, endps := m.childs[b][:0], m.endps[b][:0]
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.end(m.labelend[bv])
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.end(m.labelend[bw])
		bw = m.inblossom[w]
	}
	m.childs[b] = path
	m.endps[b] = endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = weight{}
	m.leafBuf2 = m.leaves(b, m.leafBuf2[:0])
	for _, x := range m.leafBuf2 {
		if m.label[m.inblossom[x]] == 2 {
			m.queue = append(m.queue, x)
		}
		m.inblossom[x] = b
	}
	bestto := fill(m.bestedgeto, -1)
	for _, c := range path {
		if m.bestedges[c] == nil {
			m.leafBuf2 = m.leaves(c, m.leafBuf2[:0])
			for _, x := range m.leafBuf2 {
				dx := m.dual[x]
				for _, a := range m.arcs(x) {
					// x is in b: the other end is a.to.
					j := int(a.to)
					bj := m.inblossom[j]
					if bj == b || m.label[bj] != 1 {
						continue
					}
					k := int(a.p / 2)
					if sl := dx.add(m.dual[j]).sub(m.edgeWeight(k)); m.bestedgeto[bj] == -1 || sl.less(m.slackto[bj]) {
						m.bestedgeto[bj] = k
						m.slackto[bj] = sl
					}
				}
			}
		} else {
			for _, kk := range m.bestedges[c] {
				m.considerBest(b, int(kk))
			}
		}
		m.bestedges[c] = nil
		m.bestedge[c] = -1
	}
	best := m.bestedgesPool[b][:0]
	m.bestedge[b] = -1
	for bj, kk := range bestto {
		if kk != -1 {
			best = append(best, int32(kk))
			if sl := m.slackto[bj]; m.bestedge[b] == -1 || sl.less(m.bestSlack(b)) {
				m.setBest(b, kk, sl)
			}
		}
	}
	m.bestedgesPool[b] = best
	m.bestedges[b] = nil
	if len(best) > 0 {
		m.bestedges[b] = best
	}
}

// considerBest keeps edge kk, leaving the new blossom b, as the best
// edge to the S-blossom at its other end if it has the least slack yet
// (bestedgeto and slackto, by that blossom).
func (m *matcher) considerBest(b, kk int) {
	e := &m.edges[kk]
	j := e.j
	if m.inblossom[j] == b {
		j = e.i
	}
	bj := m.inblossom[j]
	if bj == b || m.label[bj] != 1 {
		return
	}
	sl := m.slack(kk)
	if m.bestedgeto[bj] == -1 || sl.less(m.slackto[bj]) {
		m.bestedgeto[bj] = kk
		m.slackto[bj] = sl
	}
}

// rotate moves s[i:] to the front of s, in place.
func rotate(s []int, i int) {
	reverse(s[:i])
	reverse(s[i:])
	reverse(s)
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// at indexes a blossom's cyclic lists the way the algorithm walks them,
// with negative positions counted from the end.
func at(s []int, j int) int {
	l := len(s)
	return s[((j%l)+l)%l]
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		if s < m.n {
			m.inblossom[s] = s
		} else if endstage && m.dual[s].isZero() {
			m.expandBlossom(s, endstage)
		} else {
			m.leafBuf2 = m.leaves(s, m.leafBuf2[:0])
			for _, v := range m.leafBuf2 {
				m.inblossom[v] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		childs, endps := m.childs[b], m.endps[b]
		entry := m.inblossom[m.end(m.labelend[b]^1)]
		j := indexOf(childs, entry)
		var jstep, trick int
		if j&1 != 0 {
			j -= len(childs)
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.end(p^1)] = 0
			m.label[m.end(at(endps, j-trick)^trick^1)] = 0
			m.assignLabel(m.end(p^1), 2, p)
			m.allowedge[at(endps, j-trick)/2] = true
			j += jstep
			p = at(endps, j-trick) ^ trick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := at(childs, j)
		m.label[m.end(p^1)], m.label[bv] = 2, 2
		m.labelend[m.end(p^1)], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for at(childs, j) != entry {
			bv = at(childs, j)
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			m.leafBuf2 = m.leaves(bv, m.leafBuf2[:0])
			for _, x := range m.leafBuf2 {
				v = x
				if m.label[x] != 0 {
					break
				}
			}
			if v >= 0 && m.label[v] != 0 {
				m.label[v] = 0
				m.label[m.end(m.mate[m.base[bv]])] = 0
				m.assignLabel(v, 2, m.labelend[v])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.childs[b], m.endps[b] = m.childs[b][:0], m.endps[b][:0]
	m.base[b] = -1
	m.bestedges[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.childs[b], m.endps[b]
	i := indexOf(childs, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(childs)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(childs, j)
		p := at(endps, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.end(p))
		}
		j += jstep
		t = at(childs, j)
		if t >= m.n {
			m.augmentBlossom(t, m.end(p^1))
		}
		m.mate[m.end(p)] = p ^ 1
		m.mate[m.end(p^1)] = p
	}
	rotate(childs, i)
	rotate(endps, i)
	m.base[b] = m.base[childs[0]]
}

func (m *matcher) augmentMatching(k int) {
	v, w := int(m.edges[k].i), int(m.edges[k].j)
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.end(m.labelend[bs])
			bt := m.inblossom[t]
			s = m.end(m.labelend[bt])
			j := m.end(m.labelend[bt] ^ 1)
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

// A warmStart carries a solution over to new weights: each vertex's dual
// with the duals of the blossoms around it added in, so that no blossom
// is needed (edges inside a blossom keep their slack, edges leaving it
// gain some), and the pairs.
type warmStart struct {
	dual []weight // by vertex
	mate []int    // by vertex, -1 when single
}

// state is the matcher's solution as a warm start.
func (m *matcher) state() warmStart {
	ws := warmStart{dual: make([]weight, m.n), mate: make([]int, m.n)}
	for v := 0; v < m.n; v++ {
		ws.dual[v] = m.foldedDual(v)
		ws.mate[v] = -1
		if m.mate[v] >= 0 {
			ws.mate[v] = m.end(m.mate[v])
		}
	}
	return ws
}

// foldedDual is vertex v's dual with those of the blossoms around it.
func (m *matcher) foldedDual(v int) weight {
	d := m.dual[v]
	for b := m.parent[v]; b >= 0; b = m.parent[b] {
		d = d.add(m.dual[b])
	}
	return d
}

// negative tells whether a two's complement weight is below zero.
func (a weight) negative() bool { return a[weightWords-1]>>63 != 0 }

// maxWeightPerfectWarm finds a maximum-weight perfect matching of a graph
// on n vertices, starting from ws: duals are raised where an edge
// became heavier than they allow, and the pairs that stay tight are
// kept, so that a solve after a few weights changed costs a few
// augmentations instead of a whole run. It neither keeps nor changes
// the graph; the mates are in m's memory until its next solve. ok is
// false when it could not
// (no perfect matching, or the warm duals lost the parity the halving
// needs); the caller then solves from scratch.
func maxWeightPerfectWarm(m *matcher, n int, g graph, ws warmStart) (mate []int, _ *matcher, ok bool) {
	if m == nil {
		m = &matcher{}
	}
	m.n, m.edges, m.weights, m.bonus = n, g.edges, g.weights, g.bonus
	m.init()
	copy(m.dual, ws.dual)
	m.raised = growZero(m.raised, n)
	raised := m.raised
	// pairEdge is the edge of each vertex to its mate in ws, if any.
	pairEdge := fill(grow(m.bestedgeto, n), -1)
	for k := range m.edges {
		e := &m.edges[k]
		if ws.mate[e.i] == int(e.j) {
			pairEdge[e.i] = k
		}
		if sl := m.slack(k); sl.negative() {
			v := e.i
			if ws.mate[e.i] >= 0 && ws.mate[e.j] < 0 {
				v = e.j
			}
			m.dual[v] = m.dual[v].sub(sl)
			raised[v] = true
		}
	}
	for _, k := range pairEdge {
		if k < 0 {
			continue
		}
		e := &m.edges[k]
		if !raised[e.i] && !raised[e.j] && m.slack(k).isZero() {
			m.mate[e.i], m.mate[e.j] = 2*k+1, 2*k
		}
	}
	// The single vertices are the roots of every stage's trees and their
	// duals fall together, while tight edges give every vertex of a tree
	// its root's parity: when the roots share a parity, so do all outer
	// vertices, and the slack between two of them, which the stage
	// halves, is even. Raising a single vertex's dual keeps the duals
	// feasible.
	parity := -1
	for v := 0; v < n; v++ {
		if m.mate[v] != -1 {
			continue
		}
		switch p := int(m.dual[v][0] & 1); {
		case parity < 0:
			parity = p
		case p != parity:
			m.dual[v] = m.dual[v].add(weightOf(1))
		}
	}
	// Two single vertices joined by a tight edge are paired at once, as
	// the first stage would pair them, without a stage each.
	for v := n - 1; v >= 0; v-- {
		if m.mate[v] != -1 {
			continue
		}
		for _, a := range m.arcs(v) {
			w, k := int(a.to), int(a.p/2)
			if m.mate[w] == -1 && m.slack(k).isZero() {
				m.mate[v], m.mate[w] = int(a.p), int(a.p^1)
				break
			}
		}
	}
	if !m.loop(true) {
		return nil, nil, false
	}
	mate = grow(m.out, n)
	m.out = mate
	for v := range mate {
		mate[v] = m.end(m.mate[v])
	}
	return mate, m, true
}
