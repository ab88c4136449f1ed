package tournament

import (
	"fmt"
	"math/bits"
)

// A bracket is paired with one weighted matching over every player not
// yet paired: the bracket's own players and all those below it, so that
// whatever the bracket does, the rest of the round can still be paired
// (C4). An edge's weight packs the criteria into fields, the most
// important in the highest bits: a heavier matching is a better pairing
// by the rules' own order of criteria. What the criteria leave equal is
// decided by the order in which the rules generate candidates (C.04.3
// Article 4) — first the moved-down players to pair, then their
// opponents, then the exchanges between S1 and S2 of the remainder, then
// the transpositions — each decision fixed in turn by asking the matching
// whether an equally good pairing exists that takes it.

type field struct{ shift, width uint }

type layout struct {
	hint, trial, e2, e1, fix field
	floats                   [4]field            // C14 … C17
	floatScores              [4]map[Points]field // C18 … C21, a field a score
	colors                   [4]field            // C10 … C13
	c9, c8p, c6, top         field
	c8s, c7                  map[Points]field
	quality                  uint // lowest bit of the quality criteria
	cur                      uint
}

func (l *layout) add(maxSum int) field {
	f := field{shift: l.cur, width: uint(bits.Len(uint(maxSum)))}
	if f.width == 0 {
		f.width = 1
	}
	l.cur += f.width
	return f
}

type bracketPairing struct {
	d       *dutch
	score   Points
	bracket []int // positions in d.ps: moved-down players, then residents
	lower   []int
	nextEnd int
	noHint  bool
	// byeHere: the bye goes to this bracket's one downfloater, so C9
	// (fewest unplayed games for the bye) is compared here.
	byeHere bool

	v        []int // local index → position in d.ps
	nb, nmdp int
	inNext   []bool
	has      [][]bool
	base     [][]weight
	active   []bool
	fixed    [][2]int
	fixedSum weight
	lay      layout
	cur      []int
	curSum   weight

	// warm is the last solve's solution, by local index, that the next
	// one starts from (in one of the round's d.localWarm).
	warm *warmStart
	// During a solve of tryFirst, the player whose partners it ranks and,
	// by the partner's local index, where the weight of their pair with
	// its bonus lies in d.baseBuf (0 for none).
	prefer     int
	preferSlot []int32
}

func (b *bracketPairing) resident(a int) bool  { return a >= b.nmdp && a < b.nb }
func (b *bracketPairing) inBracket(a int) bool { return a < b.nb }

// internal is an edge of the bracket proper: a moved-down player or a
// resident against a resident.
func (b *bracketPairing) internal(a, c int) bool {
	return b.inBracket(a) && b.resident(c)
}

func (b *bracketPairing) edge(a, c int) bool {
	if a > c {
		a, c = c, a
	}
	return b.has[a][c]
}

func (b *bracketPairing) setup() error {
	d := b.d
	b.v = append(append([]int{}, b.bracket...), b.lower...)
	n := len(b.v)
	b.nb = len(b.bracket)
	for b.nmdp < b.nb && d.ps[b.v[b.nmdp]].score > b.score {
		b.nmdp++
	}
	b.inNext = make([]bool, n)
	nnext := 0
	for a := b.nb; a < n; a++ {
		if b.v[a] < b.nextEnd {
			b.inNext[a] = true
			nnext++
		}
	}
	played := d.f.Played()
	nb := b.nb

	l := &b.lay
	*l = layout{}
	hint := !b.noHint
	if hint {
		l.hint = l.add(nb*nb*(nb/2+1) + 1)
	} else {
		l.hint = l.add(1)
	}
	l.trial = l.add(n/2 + 2)
	l.e2 = l.add(nb*nb + 1)
	l.e1 = l.add(nb + 1)
	l.fix = l.add(nb + 1)
	l.quality = l.cur
	// C18 … C21 compare scores from the highest down, not summed: a
	// field for each score, the higher scores in the higher bits, each
	// wide enough for every player of that score in the bracket.
	count := map[Points]int{}
	for a := 0; a < nb; a++ {
		count[d.ps[b.v[a]].score]++
	}
	for i := 3; i >= 0; i-- {
		l.floatScores[i] = map[Points]field{}
		for _, s := range sortedScores(count) {
			l.floatScores[i][s] = l.add(count[s] + 1)
		}
	}
	for i := 3; i >= 0; i-- {
		l.floats[i] = l.add(2*nb + 1)
	}
	for i := 3; i >= 0; i-- {
		l.colors[i] = l.add(2*nb + 1)
	}
	l.c9 = l.add(2*nb*(played+1) + 1)
	countNext := map[Points]int{}
	for a := 0; a < n; a++ {
		s := d.ps[b.v[a]].score
		if a < nb || b.inNext[a] {
			countNext[s]++
		}
	}
	l.c8s = map[Points]field{}
	for _, s := range sortedScores(countNext) {
		l.c8s[s] = l.add(countNext[s] + 1)
	}
	l.c8p = l.add(nb + nnext + 1)
	l.c7 = map[Points]field{}
	for _, s := range sortedScores(count) {
		l.c7[s] = l.add(count[s] + 1)
	}
	l.c6 = l.add(nb + 1)
	// The top criterion sits at the same bits in every bracket of the
	// round, so that the pairs far below, weighted by it alone, weigh the
	// same from one bracket to the next and the next bracket's matching
	// can start from this one's. Above it stay the bits the matching
	// needs: two for doubling, and a sign for its warm starts.
	l.top = d.topField()
	if l.cur > l.top.shift {
		if hint {
			// The hint only saves work; a wide bracket goes without it.
			b.noHint = true
			return b.setup()
		}
		return fmt.Errorf("a bracket of %d players with %d below it needs %d bits of weight, more than the %d the pairing has", nb, n-nb, l.cur+l.top.width+topMargin, weightWords*64)
	}

	c9 := b.byeHere
	b.has = triangle(&d.hasBuf, n)
	b.base = triangle(&d.baseBuf, n)
	b.active = make([]bool, n)
	for a := 0; a < n; a++ {
		b.active[a] = true
		for c := a + 1; c < n; c++ {
			pa, pc := b.v[a], b.v[c]
			if !d.compatible(pa, pc) {
				continue
			}
			b.has[a][c] = true
			var w weight
			top := uint64(1)
			if d.odd {
				if !d.byeCandidate(pa) {
					top++
				}
				if !d.byeCandidate(pc) {
					top++
				}
			}
			w = w.addAt(l.top.shift, top)
			A, C := &d.ps[pa], &d.ps[pc]
			switch {
			case b.internal(a, c):
				w = w.addAt(l.c6.shift, 1)
				w = w.addAt(l.c7[A.score].shift, 1)
				if c9 {
					var u uint64
					if d.byeCandidate(pa) {
						u += uint64(A.unplayed)
					}
					if d.byeCandidate(pc) {
						u += uint64(C.unplayed)
					}
					w = w.addAt(l.c9.shift, u)
				}
				for i, r := range d.colorRewards(pa, pc) {
					w = w.addAt(l.colors[i].shift, r)
				}
				mdp := !b.resident(a)
				for back := 1; back <= 2; back++ {
					k := (back - 1) * 2 // C14/C15 one round ago, C16/C17 two
					// C14/C16: a resident who floated down then and is
					// paired here does not float down again.
					var down uint64
					if b.resident(a) && A.float[back] == floatDown {
						down++
					}
					if C.float[back] == floatDown {
						down++
					}
					w = w.addAt(l.floats[k].shift, down)
					// C15/C17: a moved-down player's opponent who floated
					// up then floats up again.
					upAgain := mdp && C.float[back] == floatUp
					w = w.addAt(l.floats[k+1].shift, b2u(!upAgain))
					// C18/C20: the scores of the players who floated down
					// then and float again, the moved-down ones included;
					// pairing one here spares its score.
					if A.float[back] == floatDown {
						w = w.addAt(l.floatScores[k][A.score].shift, 1)
					}
					if C.float[back] == floatDown {
						w = w.addAt(l.floatScores[k][C.score].shift, 1)
					}
					// C19/C21: the scores of the moved-down players whose
					// opponents float up again.
					if !upAgain {
						w = w.addAt(l.floatScores[k+1][A.score].shift, 1)
					}
				}
				if hint {
					w = w.addAt(l.hint.shift, uint64((nb-a)*(nb-c)))
				}
			case b.inNext[c] && (a < nb || b.inNext[a]):
				w = w.addAt(l.c8p.shift, 1)
				w = w.addAt(l.c8s[A.score].shift, 1)
			}
			b.base[a][c] = w.quadruple() // the matcher's units (blossom.go)
		}
	}
	return nil
}

// triangle is n rows of zero values, row a holding the pairs (a, c) for
// c > a as rows[a][c], in the memory of *flat, which the brackets of a
// round share one after the other: half of a square's. Row a's indexes
// up to a fall on the row before (or on padding): they are never used.
// Pair (a, c) is (*flat)[rowStart(n, a)+c]. The first n values are
// padding, which the weights' table uses: (*flat)[0] stays zero (the
// weight of a warm solve's dummy edges), and tryFirst writes its
// candidates' weights in the rest.
func triangle[T any](flat *[]T, n int) [][]T {
	*flat = growZero(*flat, n+n*(n-1)/2)
	rows := make([][]T, n)
	start := n // where row a's pair (a, a+1) lies
	for a := range rows {
		end := start + n - a - 1
		rows[a] = (*flat)[start-a-1 : end : end]
		start = end
	}
	return rows
}

// rowStart is where row a of a triangle of n rows starts in its flat
// memory: the pairs of the rows before it follow n values of padding.
func rowStart(n, a int) int {
	return n + a*(n-1) - a*(a-1)/2 - a - 1
}

func b2u(x bool) uint64 {
	if x {
		return 1
	}
	return 0
}

func sortedScores(m map[Points]int) []Points {
	var s []Points
	for k := range m {
		s = append(s, k)
	}
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// solve finds the best matching of the active players, with one added
// in the trial field to the pairs for which bonus(a, c) holds; it
// returns the mates (local, -1 for none) and the weight of the fixed
// pairs and the matching without the bonus.
func (b *bracketPairing) solve(bonus func(a, c int) bool) ([]int, weight) {
	n := len(b.v)
	// idx and loc are read only during the solve: the many solves of a
	// round share their memory.
	idx := grow(b.d.idxBuf, n)[:0]
	loc := grow(b.d.locBuf, n)
	defer func() { b.d.idxBuf, b.d.locBuf = idx, loc }()
	for a := 0; a < n; a++ {
		loc[a] = -1
		if b.active[a] {
			loc[a] = len(idx)
			idx = append(idx, a)
		}
	}
	// Room for every pair and a warm solve's dummy, made before the graph
	// is built: growing it by appending would leave behind copies of the
	// largest array of the round.
	k := len(idx)
	g := graph{edges: grow(b.d.edgeBuf, k*(k-1)/2+k+1)[:0], weights: b.d.baseBuf}
	if bonus != nil {
		g.bonus = weight{}.addAt(b.lay.trial.shift, 1).quadruple()
	}
	g.edges = b.rebuild(idx, g.edges, bonus)
	b.d.edgeBuf = g.edges
	m := b.solveWarm(idx, loc, g)
	if m == nil {
		var du duals
		m, du = solveCold(b.d.mbuf, len(idx), g)
		if du.m != nil {
			b.d.mbuf = du.m
		}
		b.keepWarm(idx, du.m)
	}
	mate := fill(b.freeMate(), -1)
	for x, y := range m {
		if y >= 0 && y < len(idx) {
			mate[idx[x]] = idx[y]
		}
	}
	return mate, b.sumOf(mate)
}

// rebuild appends the edges of the active players idx to edges, their
// weights those of the bracket's table (d.baseBuf), with the graph's
// bonus where bonus holds.
func (b *bracketPairing) rebuild(idx []int, edges []edge, bonus func(a, c int) bool) []edge {
	n := len(b.v)
	for x, a := range idx {
		row := rowStart(n, a)
		for y := x + 1; y < len(idx); y++ {
			if c := idx[y]; b.has[a][c] {
				w := int32(row + c)
				if bonus != nil && bonus(a, c) {
					w = ^w
				}
				if b.preferSlot != nil && (a == b.prefer || c == b.prefer) {
					o := c
					if c == b.prefer {
						o = a
					}
					if s := b.preferSlot[o]; s > 0 {
						w = s
					}
				}
				edges = append(edges, edge{i: int32(x), j: int32(y), w: w})
			}
		}
	}
	return edges
}

// solveWarm solves the active players (idx) from the previous solution,
// as a perfect matching — the top criterion makes every best pairing one
// of the most pairs, so with an odd count a dummy vertex pairs the one
// left single. It returns the mates by position in idx, or nil when
// there is no previous solution or the warm run gave up.
func (b *bracketPairing) solveWarm(idx, loc []int, g graph) []int {
	if b.warm == nil {
		return nil
	}
	n := len(idx)
	// The warm start of this solve, in memory kept for the next; room
	// for the dummy.
	buf := &b.d.solveWarm
	ws := warmStart{dual: grow(buf.dual[:cap(buf.dual)], n+1)[:n], mate: grow(buf.mate[:cap(buf.mate)], n+1)[:n]}
	defer func() { *buf = ws }()
	low := weight{}
	for x, a := range idx {
		ws.dual[x] = b.warm.dual[a]
		ws.mate[x] = -1
		if c := b.warm.mate[a]; c >= 0 && loc[c] >= 0 {
			ws.mate[x] = loc[c]
		}
		if x == 0 || ws.dual[x].sub(low).negative() {
			low = ws.dual[x]
		}
	}
	nv := n
	if n%2 == 1 {
		// The dummy's dual makes its edges (weight zero: weights[0])
		// feasible and tight to the lowest dual; the single left is
		// paired to it.
		nv++
		ws.dual = append(ws.dual, weight{}.sub(low))
		ws.mate = append(ws.mate, -1)
		for x := 0; x < n; x++ {
			g.edges = append(g.edges, edge{i: int32(x), j: int32(n)})
			if ws.mate[x] < 0 && ws.mate[n] < 0 && ws.dual[x] == low {
				ws.mate[x], ws.mate[n] = n, x
			}
		}
	}
	mate, m, ok := maxWeightPerfectWarm(b.d.mbuf, nv, g, ws)
	if !ok {
		return nil
	}
	b.d.mbuf = m
	b.keepWarm(idx, m)
	return mate[:n]
}

// keepWarm keeps the solution of matcher m over the players idx (by
// local index) for the next solve; a nil m forgets it.
func (b *bracketPairing) keepWarm(idx []int, m *matcher) {
	if m == nil {
		b.warm = nil
		return
	}
	w := b.freeWarm()
	clear(w.dual)
	fill(w.mate, -1)
	for x, a := range idx {
		w.dual[a] = m.foldedDual(x)
		if p := m.mate[x]; p >= 0 {
			if y := m.end(p); y < len(idx) {
				w.mate[a] = idx[y]
			}
		}
	}
	b.warm = w
}

// freeWarm is memory for a warm start over the bracket's players: of the
// two the round keeps, the one that is not the bracket's last solution,
// which the next solve no longer needs once it has its own.
func (b *bracketPairing) freeWarm() *warmStart {
	w := &b.d.localWarm[0]
	if b.warm == w {
		w = &b.d.localWarm[1]
	}
	w.dual, w.mate = grow(w.dual, len(b.v)), grow(w.mate, len(b.v))
	return w
}

// freeMate is memory for a solve's mates: of the two the round keeps,
// the one that does not hold the bracket's current pairing (b.cur), which
// a solve's pairing replaces or is dropped for.
func (b *bracketPairing) freeMate() []int {
	m := &b.d.mates[0]
	if cap(*m) > 0 && len(b.cur) > 0 && &(*m)[:1][0] == &b.cur[0] {
		m = &b.d.mates[1]
	}
	*m = grow(*m, len(b.v))
	return *m
}

func (b *bracketPairing) sumOf(mate []int) weight {
	s := b.fixedSum
	for a, c := range mate {
		if c > a && b.active[a] {
			s = s.add(b.base[a][c])
		}
	}
	return s
}

// try makes prop true if an equally good pairing (compared from bit
// shift up) allows it, and says whether it did.
func (b *bracketPairing) try(possible func() bool, prop func(mate []int) bool, bonus func(a, c int) bool, shift uint) bool {
	if prop(b.cur) {
		return true
	}
	if !possible() {
		return false
	}
	mate, sum := b.solve(bonus)
	// The sums are in the matcher's units, the fields matchShift bits up.
	if !prop(mate) || sum.above(shift+matchShift) != b.curSum.above(shift+matchShift) {
		return false
	}
	b.cur, b.curSum = mate, sum
	return true
}

// tryFirst pairs a with the first of cands (local indexes, in the
// rules' order, each joined to a by an edge, all before a's partner in
// b.cur) that an equally good pairing (compared from bit shift up)
// allows, and says whether it did. Trying each in turn takes a solve
// each, and most fail: one solve in which a's pair with cands[i] gains
// len(cands)-i in the trial field, which ranks below every criterion
// compared and above the hint alone, pairs a with the first it can, or
// as b.cur does when it can none. Only the fields between the trial
// field and shift must weigh nothing, as they do where it is called
// (fix: before the remainder's exchanges are weighed; e2: the lowest).
func (b *bracketPairing) tryFirst(a int, cands []int, shift uint) bool {
	n := len(b.v)
	if len(cands) == 0 {
		return false
	}
	if len(cands) >= n || uint64(len(cands)) >= 1<<b.lay.trial.width {
		// The padding has room for n-1 weights, and the trial field for
		// one pair's rank; this cannot happen, but trying each in turn
		// gives the same answer.
		for _, c := range cands {
			if b.try(func() bool { return true }, func(mate []int) bool { return mate[a] == c },
				func(x, y int) bool { return (x == a && y == c) || (x == c && y == a) }, shift) {
				return true
			}
		}
		return false
	}
	slot := growZero(b.d.preferBuf, n)
	weights := b.d.baseBuf
	for i, c := range cands {
		slot[c] = int32(i + 1)
		weights[i+1] = b.base[min(a, c)][max(a, c)].addAt(b.lay.trial.shift+matchShift, uint64(len(cands)-i))
	}
	b.prefer, b.preferSlot = a, slot
	mate, sum := b.solve(nil)
	b.preferSlot, b.d.preferBuf = nil, slot
	if sum.above(shift+matchShift) != b.curSum.above(shift+matchShift) || mate[a] < 0 || slot[mate[a]] == 0 {
		return false
	}
	b.cur, b.curSum = mate, sum
	return true
}

func (b *bracketPairing) fixPair(a, c int) {
	if a > c {
		a, c = c, a
	}
	b.fixed = append(b.fixed, [2]int{a, c})
	b.fixedSum = b.fixedSum.add(b.base[a][c])
	b.active[a], b.active[c] = false, false
}

func (b *bracketPairing) cut(a, c int) {
	if a > c {
		a, c = c, a
	}
	b.has[a][c] = false
}

// pair pairs the bracket: it returns the pairs (positions in d.ps) and
// the downfloaters, in pairing order.
func (b *bracketPairing) pair() ([][2]int, []int, error) {
	if err := b.setup(); err != nil {
		return nil, nil, err
	}
	b.warm = b.warmFor()
	b.cur, b.curSum = b.solve(nil)
	fixShift := b.lay.fix.shift
	eShift := b.lay.e2.shift
	anyEdge := func(a int, ok func(c int) bool) bool {
		for c := range b.v {
			if c != a && b.active[c] && ok(c) && b.edge(a, c) {
				return true
			}
		}
		return false
	}

	// The moved-down players to pair: the set with the smallest
	// differing BSN among the best (4.4), so in order, each if it can.
	need := 0
	for m := 0; m < b.nmdp; m++ {
		if b.resident(b.cur[m]) {
			need++
		}
	}
	var paired []int
	for m := 0; m < b.nmdp; m++ {
		ok := need > 0 && b.try(func() bool { return anyEdge(m, b.resident) }, func(mate []int) bool { return b.resident(mate[m]) },
			func(a, c int) bool { return (a == m && b.resident(c)) || (c == m && b.resident(a)) }, fixShift)
		if !ok {
			for c := b.nmdp; c < b.nb; c++ {
				b.cut(m, c)
			}
			continue
		}
		need--
		paired = append(paired, m)
		for c := b.nmdp; c < b.nb; c++ {
			if b.has[m][c] {
				b.base[m][c] = b.base[m][c].addAt(b.lay.fix.shift+matchShift, 1)
			}
		}
		b.curSum = b.sumOf(b.cur)
	}
	// Their opponents: the first transposition of S2 (4.2).
	var cands []int
	for _, m := range paired {
		cands = cands[:0]
		for c := b.nmdp; c < b.nb && c != b.cur[m]; c++ {
			if b.active[c] && b.edge(m, c) {
				cands = append(cands, c)
			}
		}
		b.tryFirst(m, cands, fixShift)
		b.fixPair(m, b.cur[m])
	}

	// The remainder, or the whole of a homogeneous bracket.
	var rem []int
	posInRem := map[int]int{}
	for a := b.nmdp; a < b.nb; a++ {
		if b.active[a] {
			posInRem[a] = len(rem)
			rem = append(rem, a)
		}
	}
	inRem := func(a int) bool { _, ok := posInRem[a]; return ok && b.active[a] }
	pairsInRem := 0
	for _, a := range rem {
		if c := b.cur[a]; c > a && inRem(c) {
			pairsInRem++
		}
	}
	if pairsInRem > 0 {
		for _, a := range rem {
			for _, c := range rem {
				if c > a && b.has[a][c] {
					i := posInRem[a]
					// In the matcher's units, matchShift bits up.
					w := b.base[a][c].addAt(b.lay.e1.shift+matchShift, b2u(i < pairsInRem))
					b.base[a][c] = w.addAt(b.lay.e2.shift+matchShift, uint64(len(rem)-i))
				}
			}
		}
		b.cur, b.curSum = b.solve(nil)
		higher := func(mate []int, a int) bool { c := mate[a]; return c > a && inRem(c) }
		exchanges := 0
		for _, a := range rem[:pairsInRem] {
			if !higher(b.cur, a) {
				exchanges++
			}
		}
		// Which S1 players go to S2: the largest BSNs first (4.3.3).
		left := exchanges
		for i := pairsInRem - 1; i >= 0 && left > 0; i-- {
			a := rem[i]
			if b.try(func() bool { return true }, func(mate []int) bool { return !higher(mate, a) },
				func(x, y int) bool { return !(x == a && y > a && inRem(y)) }, eShift) {
				left--
				for _, c := range rem[i+1:] {
					b.cut(a, c)
				}
			}
		}
		// Which S2 players go to S1: the smallest BSNs first (4.3.4).
		left = exchanges
		for i := pairsInRem; i < len(rem) && left > 0; i++ {
			y := rem[i]
			above := func(c int) bool { return c > y && inRem(c) }
			if b.try(func() bool { return anyEdge(y, above) }, func(mate []int) bool { return higher(mate, y) },
				func(x, z int) bool { return x == y && z > y && inRem(z) }, eShift) {
				left--
			} else {
				for _, c := range rem[i+1:] {
					b.cut(y, c)
				}
			}
		}
		// Fix the roles: S1 players pair downwards inside the remainder,
		// S2 players upwards or not at all.
		var s1 []int
		isS1 := map[int]bool{}
		for _, a := range rem {
			if higher(b.cur, a) {
				s1 = append(s1, a)
				isS1[a] = true
			}
		}
		for a := 0; a < len(b.v); a++ {
			for c := a + 1; c < len(b.v); c++ {
				if !b.has[a][c] {
					continue
				}
				switch {
				case isS1[a] && !(inRem(c) && !isS1[c]):
					b.cut(a, c)
				case isS1[c]:
					b.cut(a, c)
				case inRem(a) && inRem(c) && !isS1[a] && !isS1[c]:
					b.cut(a, c)
				}
			}
		}
		// Each S1 player, in order, gets the first S2 player it can (4.2).
		for _, a := range s1 {
			cands = cands[:0]
			for _, c := range rem {
				if c == b.cur[a] {
					break
				}
				if c > a && b.active[c] && !isS1[c] && b.edge(a, c) {
					cands = append(cands, c)
				}
			}
			b.tryFirst(a, cands, eShift)
			b.fixPair(a, b.cur[a])
		}
	}

	var pairs [][2]int
	for _, pr := range b.fixed {
		pairs = append(pairs, [2]int{b.v[pr[0]], b.v[pr[1]]})
	}
	var floaters []int
	for a := 0; a < b.nb; a++ {
		if b.active[a] {
			floaters = append(floaters, b.v[a])
		}
	}
	b.d.keepWarm(b.v, b.warm)
	return pairs, floaters, nil
}

// topMargin is the bits above the top criterion: the matching doubles
// weights twice, and its warm starts need a sign.
const topMargin = 5

// topField is where the top criterion (pairs, and the bye to a
// candidate) lies in every bracket of the round.
func (d *dutch) topField() field {
	width := uint(bits.Len(uint(3*len(d.ps) + 3)))
	return field{shift: weightWords*64 - topMargin - width, width: width}
}

// warmFor is the last bracket's final matching over the bracket's
// players, by local index, to start the next from; nil when there is
// none.
func (b *bracketPairing) warmFor() *warmStart {
	d, v := b.d, b.v
	if d.warm == nil {
		return nil
	}
	loc := fill(grow(d.locBuf, len(d.ps)), -1)
	d.locBuf = loc
	for a, p := range v {
		loc[p] = a
	}
	w := b.freeWarm()
	for a, p := range v {
		w.dual[a] = d.warm.dual[p]
		w.mate[a] = -1
		if q := d.warm.mate[p]; q >= 0 {
			w.mate[a] = loc[q]
		}
	}
	return w
}

// keepWarm keeps a bracket's final matching by position in d.ps.
func (d *dutch) keepWarm(v []int, w *warmStart) {
	if w == nil {
		d.warm = nil
		return
	}
	n := len(d.ps)
	k := &d.lastWarm
	k.dual, k.mate = growZero(k.dual, n), fill(grow(k.mate, n), -1)
	for a, p := range v {
		k.dual[p] = w.dual[a]
		if c := w.mate[a]; c >= 0 {
			k.mate[p] = v[c]
		}
	}
	d.warm = k
}

// closedBelow tells whether, in the bracket's final matching, the
// players who go on to the next bracket (its downfloaters and the next
// score group) are all paired among themselves or left single: then the
// next bracket's single downfloater is the bye (C9 applies there).
func (b *bracketPairing) closedBelow() bool {
	d := b.d
	if !d.odd || len(b.lower) == 0 {
		return false
	}
	nextScore := d.ps[b.v[b.nb]].score
	if d.byeMax < nextScore {
		return false
	}
	for a := range b.v {
		if (a < b.nb && !b.active[a]) || (a >= b.nb && !b.inNext[a]) {
			continue
		}
		if c := b.cur[a]; c >= 0 && d.ps[b.v[c]].score < nextScore {
			return false
		}
	}
	return true
}
