package tournament

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// ErrNoPairing is returned when no pairing of the round satisfies the
// absolute criteria (C.04.3 1.9.3: the chief arbiter decides).
var ErrNoPairing = errors.New("no pairing of this round meets the absolute criteria: every remaining pairing repeats a game, gives a second bye or breaks the colour limits")

// maxDutchPlayers is the most players PairDutch pairs, the TRF's four
// digits: the matcher numbers their pairs in int32 (blossom.go).
const maxDutchPlayers = 9999

// preference strengths (C.04.3 1.7)
const (
	prefNone = iota
	prefMild
	prefStrong
	prefAbsolute
)

// floats (C.04.3 1.4)
const (
	floatNone = iota
	floatDown
	floatUp
)

// dplayer is one player to be paired, with what the rules read from the
// history.
type dplayer struct {
	idx      int // index in Field.Players; the TPN is idx+1
	rank     int // pairing number among the players who count (from 0)
	score    Points
	hist     []Color // colours of the games played, oldest first
	cd       int     // colour difference, white minus black
	pref     Color
	strength int
	byeOK    bool    // C2: no PAB yet and never a win's points without playing
	float    [3]int8 // float [1] one round ago, [2] two rounds ago
	unplayed int
	top      bool // topscorer: more than half the possible points, in the last round
}

func newDPlayer(f *Field, idx int, last bool) dplayer {
	e := &f.Players[idx]
	p := dplayer{idx: idx, score: e.Score(), byeOK: true}
	for _, g := range e.Games {
		if g.Outcome.Played() {
			p.hist = append(p.hist, g.Color)
			if g.Color == White {
				p.cd++
			} else {
				p.cd--
			}
		} else {
			p.unplayed++
		}
		if g.Outcome.PairingBye() || (!g.Outcome.Played() && g.Outcome.Points() == Win.Points()) {
			p.byeOK = false
		}
	}
	h := p.hist
	switch {
	case len(h) == 0:
	case p.cd > 1:
		p.pref, p.strength = Black, prefAbsolute
	case p.cd < -1:
		p.pref, p.strength = White, prefAbsolute
	case len(h) >= 2 && h[len(h)-1] == h[len(h)-2]:
		p.pref, p.strength = h[len(h)-1].opposite(), prefAbsolute
	case p.cd == 1:
		p.pref, p.strength = Black, prefStrong
	case p.cd == -1:
		p.pref, p.strength = White, prefStrong
	default:
		p.pref, p.strength = h[len(h)-1].opposite(), prefMild
	}
	r := len(e.Games)
	for back := 1; back <= 2 && back <= r; back++ {
		k := r - back
		g := e.Games[k]
		switch {
		case !g.Outcome.Played():
			if g.Outcome.Points() > Loss.Points() {
				p.float[back] = floatDown
			}
		case g.Opponent >= 0:
			mine, theirs := e.scoreBefore(k), f.Players[g.Opponent].scoreBefore(k)
			if mine > theirs {
				p.float[back] = floatDown
			} else if mine < theirs {
				p.float[back] = floatUp
			}
		}
	}
	p.top = last && p.score > Points(r)
	return p
}

// everPaired tells whether the entrant took part in a round's pairing:
// met an opponent (or was paired and forfeited) or got the pairing's bye.
func (e *Entrant) everPaired() bool {
	for _, g := range e.Games {
		if g.Opponent >= 0 || g.Outcome.PairingBye() {
			return true
		}
	}
	return false
}

// dutch holds one round's pairing: the players in pairing order (score,
// then TPN) and which of them may meet.
type dutch struct {
	f      *Field
	ps     []dplayer
	met    [][]bool
	odd    bool
	byeMax Points // C5: the lowest score the bye can go to
	// byeInTop: the bye goes to the top bracket's single downfloater, so
	// C9 applies there (see bracketPairing.byeHere).
	byeInTop bool
	// warm is the last bracket's final matching, by position, that the
	// next bracket's starts from (nil, or lastWarm).
	warm    *warmStart
	initial Color

	// The memory of the round's matchings, reused from one to the next:
	// each bracket's edges' presence and weights, the graph of the last
	// matching and its matcher.
	hasBuf  []bool
	baseBuf []weight
	edgeBuf []edge
	mbuf    *matcher
	// The players of a solve and their places in it (bracketPairing.solve).
	idxBuf, locBuf []int
	// The warm starts: the last bracket's by position, two for a
	// bracket's solves by local index (its last, and the next), and the
	// one a solve gives the matcher.
	lastWarm, solveWarm warmStart
	localWarm           [2]warmStart
	// A bracket's current pairing and the next solve's (freeMate).
	mates [2][]int
	// tryFirst's ranks of a player's partners.
	preferBuf []int32
}

// newDutch reads the field: the players to pair in pairing order, what
// each one's history says, and who met whom.
func newDutch(f *Field) (*dutch, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if len(f.Players) > maxDutchPlayers {
		return nil, fmt.Errorf("%d players are more than a round's pairing takes (%d, as many as a TRF numbers)", len(f.Players), maxDutchPlayers)
	}
	d := &dutch{f: f, initial: f.InitialColor, ps: make([]dplayer, 0, len(f.Players))}
	if d.initial == NoColor {
		d.initial = White
	}
	last := f.Rounds > 0 && f.Played()+1 >= f.Rounds
	rank := 0
	for i := range f.Players {
		e := &f.Players[i]
		if !e.Out {
			p := newDPlayer(f, i, last)
			p.rank = rank
			d.ps = append(d.ps, p)
		}
		// An entrant who sits out and was never paired (absent from round
		// 1, or a late entry not yet playing) takes no pairing number, as
		// the pairing programs count them: it would shift the colours of
		// 5.2.5 for everyone below.
		if !e.Out || e.everPaired() {
			rank++
		}
	}
	sort.SliceStable(d.ps, func(a, b int) bool {
		if d.ps[a].score != d.ps[b].score {
			return d.ps[a].score > d.ps[b].score
		}
		return d.ps[a].idx < d.ps[b].idx
	})
	n := len(d.ps)
	pos := make(map[int]int, n)
	for i, p := range d.ps {
		pos[p.idx] = i
	}
	d.met = make([][]bool, n)
	met := make([]bool, n*n)
	for i := range d.met {
		d.met[i] = met[i*n : (i+1)*n : (i+1)*n]
	}
	for i, p := range d.ps {
		for _, g := range f.Players[p.idx].Games {
			if g.Outcome.Played() && g.Opponent >= 0 {
				if j, ok := pos[g.Opponent]; ok {
					d.met[i][j] = true
				}
			}
		}
	}
	d.odd = n%2 == 1
	return d, nil
}

// PairDutch pairs the next round of f by the FIDE Dutch system (C.04.3,
// in force from 1 February 2026). Entrants marked Out are not paired.
// The result is ErrNoPairing when no pairing meets the absolute criteria
// (two players met already, a second bye, colour limits), or an error
// naming what is inconsistent in f.
func PairDutch(f *Field) (Pairing, error) {
	d, err := newDutch(f)
	if err != nil {
		return Pairing{}, err
	}
	n := len(d.ps)
	res := Pairing{Bye: -1}
	if n == 0 {
		return res, nil
	}
	if err := d.findByeScore(); err != nil {
		return Pairing{}, err
	}
	pairs, bye, err := d.pairFresh()
	if pairs == nil && err == nil {
		pairs, bye, err = d.pairBrackets()
	}
	if err != nil {
		return Pairing{}, err
	}
	for _, pr := range pairs {
		w := d.colorOf(pr[0], pr[1])
		a, b := d.ps[pr[0]].idx, d.ps[pr[1]].idx
		if w == White {
			res.Pairs = append(res.Pairs, Pair{White: a, Black: b})
		} else {
			res.Pairs = append(res.Pairs, Pair{White: b, Black: a})
		}
	}
	if bye >= 0 {
		res.Bye = d.ps[bye].idx
	}
	d.orderBoards(&res)
	return res, nil
}

// orderBoards sorts the games as boards are numbered (C.04.2): by the
// higher score of the two, then the sum of their scores, then the better
// pairing number.
func (d *dutch) orderBoards(res *Pairing) {
	score := func(i int) Points { return d.f.Players[i].Score() }
	sort.SliceStable(res.Pairs, func(a, b int) bool {
		pa, pb := res.Pairs[a], res.Pairs[b]
		ha, hb := max(score(pa.White), score(pa.Black)), max(score(pb.White), score(pb.Black))
		if ha != hb {
			return ha > hb
		}
		sa, sb := score(pa.White)+score(pa.Black), score(pb.White)+score(pb.Black)
		if sa != sb {
			return sa > sb
		}
		return min(pa.White, pa.Black) < min(pb.White, pb.Black)
	})
}

// compatible is the absolute criteria C1 and C3 for two players.
func (d *dutch) compatible(a, b int) bool {
	if d.met[a][b] {
		return false
	}
	pa, pb := &d.ps[a], &d.ps[b]
	if pa.strength == prefAbsolute && pb.strength == prefAbsolute && pa.pref == pb.pref && !pa.top && !pb.top {
		return false
	}
	return true
}

func (d *dutch) byeCandidate(a int) bool {
	return d.ps[a].byeOK && d.ps[a].score <= d.byeMax
}

// findByeScore checks that a complete pairing exists (C4) and, for an odd
// number of players, finds the lowest score that its bye can go to (C5).
func (d *dutch) findByeScore() error {
	n := len(d.ps)
	top := d.ps[0].score
	if d.everyoneMayMeet() {
		// Any player can be left out and the rest still paired: the bye
		// goes to the lowest score of those who may have it.
		if !d.odd {
			return nil
		}
		found := false
		for i := n - 1; i >= 0; i-- {
			if d.ps[i].byeOK {
				d.byeMax = d.ps[i].score
				found = true
				break
			}
		}
		if !found {
			return ErrNoPairing
		}
		// Whether the top bracket is closed needs the matching below
		// unless the bye is lower or everyone is in it.
		if d.byeMax < top {
			return nil
		}
		if d.ps[n-1].score == top {
			d.byeInTop = true
			return nil
		}
	}
	groups := d.scoreRanks()
	rankBits := uint(bits.Len(uint(2*n*len(groups) + 1)))
	// Every pair, and a warm solve's dummy vertex later: the round's
	// largest graph, allocated once; its weights in the memory the first
	// bracket's table takes next (the same size: every player is in it),
	// weights[0] zero.
	edges := grow(d.edgeBuf, n*(n-1)/2+n+1)[:0]
	d.baseBuf = growZero(d.baseBuf, n+n*(n-1)/2)
	weights := d.baseBuf[:1]
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if !d.compatible(a, b) {
				continue
			}
			var w weight
			top := uint64(1)
			if d.odd {
				if !d.ps[a].byeOK {
					top++
				}
				if !d.ps[b].byeOK {
					top++
				}
				w = w.addAt(0, uint64(groups[d.ps[a].score]+groups[d.ps[b].score]))
			}
			w = w.addAt(rankBits, top)
			edges = append(edges, edge{i: int32(a), j: int32(b), w: int32(len(weights))})
			weights = append(weights, w.quadruple())
		}
	}
	d.edgeBuf = edges
	mate, du := solveCold(d.mbuf, n, graph{edges: edges, weights: weights})
	if du.m != nil {
		d.mbuf = du.m
	}
	single := -1
	for v, u := range mate {
		if u < 0 {
			if single >= 0 || !d.odd || !d.ps[v].byeOK {
				return ErrNoPairing
			}
			single = v
		}
	}
	if d.odd {
		if single < 0 {
			return ErrNoPairing
		}
		d.byeMax = d.ps[single].score
		// C9 applies in the top bracket when the bye comes from it: the
		// top scorers are paired among themselves but one.
		d.byeInTop = d.byeMax >= top
		for v := 0; v < n && d.ps[v].score == top; v++ {
			if u := mate[v]; u >= 0 && d.ps[u].score < top {
				d.byeInTop = false
			}
		}
	}
	return nil
}

// everyoneMayMeet tells whether no absolute criterion forbids any pair,
// as in round 1, when completion needs no matching to prove it.
func (d *dutch) everyoneMayMeet() bool {
	for a := range d.ps {
		for b := a + 1; b < len(d.ps); b++ {
			if !d.compatible(a, b) {
				return false
			}
		}
	}
	return true
}

// scoreRanks numbers the distinct scores from the lowest (0) up.
func (d *dutch) scoreRanks() map[Points]int {
	r := map[Points]int{}
	for i := len(d.ps) - 1; i >= 0; i-- {
		if _, ok := r[d.ps[i].score]; !ok {
			r[d.ps[i].score] = len(r)
		}
	}
	return r
}

// pairFresh pairs a round 1 in which nobody has played yet: one
// homogeneous bracket in which no pair is forbidden and no colour or
// float criterion can be broken, so the first candidate of Article 4 is
// the pairing — S1 against S2 in order, the lowest player floating to the
// bye — and no matching is needed (this is most of the work of a large
// first round). It returns nil pairs when the round is not such a one.
func (d *dutch) pairFresh() ([][2]int, int, error) {
	n := len(d.ps)
	if d.f.Played() > 0 || n < 2 {
		return nil, -1, nil
	}
	for i := range d.ps {
		p := &d.ps[i]
		if p.score != d.ps[0].score || len(p.hist) > 0 || p.float != [3]int8{} || !p.byeOK {
			return nil, -1, nil
		}
	}
	half := n / 2
	pairs := make([][2]int, 0, half)
	for i := 0; i < half; i++ {
		pairs = append(pairs, [2]int{i, half + i})
	}
	bye := -1
	if d.odd {
		bye = n - 1
	}
	return pairs, bye, nil
}

// pairBrackets pairs bracket after bracket from the top score down and
// returns the pairs (by position in d.ps) and the bye (or -1).
func (d *dutch) pairBrackets() ([][2]int, int, error) {
	var scores []Points
	for i, p := range d.ps {
		if i == 0 || p.score != d.ps[i-1].score {
			scores = append(scores, p.score)
		}
	}
	var all [][2]int
	var mdps []int
	start := 0
	byeHere := d.byeInTop
	for gi, g := range scores {
		end := start
		for end < len(d.ps) && d.ps[end].score == g {
			end++
		}
		bracket := append(append([]int{}, mdps...), seq(start, end)...)
		lower := seq(end, len(d.ps))
		nextEnd := end
		if gi+1 < len(scores) {
			for nextEnd < len(d.ps) && d.ps[nextEnd].score == scores[gi+1] {
				nextEnd++
			}
		}
		b := &bracketPairing{d: d, score: g, bracket: bracket, lower: lower, nextEnd: nextEnd, byeHere: byeHere}
		pairs, floaters, err := b.pair()
		if err != nil {
			return nil, -1, err
		}
		byeHere = b.closedBelow()
		all = append(all, pairs...)
		mdps = floaters
		start = end
	}
	switch {
	case len(mdps) == 0 && !d.odd:
		return all, -1, nil
	case len(mdps) == 1 && d.odd:
		return all, mdps[0], nil
	}
	return nil, -1, fmt.Errorf("pairing left %d players unpaired: %w", len(mdps), ErrNoPairing)
}

func seq(a, b int) []int {
	s := make([]int, 0, b-a)
	for i := a; i < b; i++ {
		s = append(s, i)
	}
	return s
}
