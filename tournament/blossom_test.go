package tournament

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the largest total weight of any matching, trying
// every one.
func bruteMatching(n int, w [][]uint64) uint64 {
	used := make([]bool, n)
	var best uint64
	var rec func(v int, sum uint64)
	rec = func(v int, sum uint64) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			best = max(best, sum)
			return
		}
		used[v] = true
		rec(v+1, sum) // v stays single
		for u := v + 1; u < n; u++ {
			if !used[u] && w[v][u] > 0 {
				used[u] = true
				rec(v+1, sum+w[v][u])
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0)
	return best
}

func TestMaxWeightMatchingAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	trials := 3000
	if testing.Short() {
		trials = 600
	}
	for trial := 0; trial < trials; trial++ {
		n := 1 + r.IntN(10)
		density := r.Float64()
		maxW := uint64(1 + r.IntN(20))
		if trial%3 == 0 {
			maxW = 3 // many ties: the hard cases for blossoms
		}
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		var edges []matchEdge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() < density {
					x := 1 + r.Uint64N(maxW)
					w[i][j], w[j][i] = x, x
					edges = append(edges, matchEdge{i: int32(i), j: int32(j), w: weightOf(x)})
				}
			}
		}
		mate := maxWeightMatching(n, edges)
		var got uint64
		for v, u := range mate {
			if u < 0 {
				continue
			}
			if mate[u] != v {
				t.Fatalf("trial %d: mate is not symmetric: %v", trial, mate)
			}
			if w[v][u] == 0 {
				t.Fatalf("trial %d: matched %d-%d without an edge", trial, v, u)
			}
			if v < u {
				got += w[v][u]
			}
		}
		if want := bruteMatching(n, w); got != want {
			t.Fatalf("trial %d (n=%d): matching weighs %d, the best weighs %d; edges %v", trial, n, got, want, edges)
		}
	}
}

// The weights the pairing uses are far wider than a word: a matching
// must weigh the high words first.
func TestMaxWeightMatchingWideWeights(t *testing.T) {
	hi := func(v uint64) weight { var w weight; w[weightWords-1] = v; return w }
	// A path a-b-c-d: the middle edge is worth more in the top word than
	// both outer ones in the low words.
	edges := []matchEdge{{i: 0, j: 1, w: weightOf(1 << 62)}, {i: 1, j: 2, w: hi(1)}, {i: 2, j: 3, w: weightOf(1 << 62)}}
	mate := maxWeightMatching(4, edges)
	if mate[1] != 2 || mate[0] != -1 {
		t.Fatalf("mate = %v, want only 1-2", mate)
	}
	edges[1].w = weightOf(1)
	mate = maxWeightMatching(4, edges)
	if mate[0] != 1 || mate[2] != 3 {
		t.Fatalf("mate = %v, want 0-1 and 2-3", mate)
	}
}

func BenchmarkMaxWeightMatching200(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var edges []matchEdge
	for i := 0; i < 200; i++ {
		for j := i + 1; j < 200; j++ {
			if r.IntN(10) < 9 {
				var w weight
				w[3] = 1 + r.Uint64N(4)
				w[0] = r.Uint64N(1 << 40)
				edges = append(edges, matchEdge{i: int32(i), j: int32(j), w: w})
			}
		}
	}
	for b.Loop() {
		maxWeightMatching(200, edges)
	}
}

// An edge the duals call not tight is in no maximum-weight matching:
// forcing it in must lose weight.
func TestDualsRuleOutOnlyLosingEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 400; trial++ {
		n := 2 + r.IntN(8)
		w := make([][]uint64, n)
		for i := range w {
			w[i] = make([]uint64, n)
		}
		var edges []matchEdge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.IntN(3) > 0 {
					x := 1 + r.Uint64N(4)
					w[i][j], w[j][i] = x, x
					edges = append(edges, matchEdge{i: int32(i), j: int32(j), w: weightOf(x)})
				}
			}
		}
		_, d := maxWeightMatchingDuals(n, edges)
		best := bruteMatching(n, w)
		for _, e := range edges {
			// The best matching that takes e.
			rest := make([][]uint64, n)
			for i := range rest {
				rest[i] = append([]uint64{}, w[i]...)
				if i == int(e.i) || i == int(e.j) {
					for j := range rest[i] {
						rest[i][j] = 0
					}
				}
				rest[i][e.i], rest[i][e.j] = 0, 0
			}
			with := bruteMatching(n, rest) + w[e.i][e.j]
			if !d.tight(int(e.i), int(e.j), e.w) && with == best {
				t.Fatalf("trial %d: edge %d-%d is in a best matching but the duals rule it out", trial, e.i, e.j)
			}
		}
		for v := 0; v < n; v++ {
			if d.free(v) {
				continue
			}
			rest := make([][]uint64, n)
			for i := range rest {
				rest[i] = append([]uint64{}, w[i]...)
				for j := range rest[i] {
					if i == v || j == v {
						rest[i][j] = 0
					}
				}
			}
			if bruteMatching(n, rest) == best {
				t.Fatalf("trial %d: vertex %d can stay single in a best matching but the duals rule it out", trial, v)
			}
		}
	}
}

// brutePerfect returns the largest total weight of a matching that pairs
// everyone (ok false when none does).
func brutePerfect(n int, w [][]uint64, has [][]bool) (best uint64, ok bool) {
	used := make([]bool, n)
	var rec func(sum uint64)
	rec = func(sum uint64) {
		v := 0
		for v < n && used[v] {
			v++
		}
		if v == n {
			if !ok || sum > best {
				best, ok = sum, true
			}
			return
		}
		used[v] = true
		for u := v + 1; u < n; u++ {
			if !used[u] && has[v][u] {
				used[u] = true
				rec(sum + w[v][u])
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0)
	return best, ok
}

// A warm start from the solution of other weights on the same graph
// gives a perfect matching as heavy as any, or gives up; it never
// returns a worse one.
func TestWarmPerfectMatchingAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	trials := 3000
	if testing.Short() {
		trials = 600
	}
	gaveUp := 0
	for trial := 0; trial < trials; trial++ {
		n := 2 * (1 + r.IntN(5))
		density := 0.4 + 0.6*r.Float64()
		maxW := uint64(1 + r.IntN(20))
		if trial%3 == 0 {
			maxW = 3
		}
		has := make([][]bool, n)
		w0 := make([][]uint64, n)
		w1 := make([][]uint64, n)
		for i := range has {
			has[i], w0[i], w1[i] = make([]bool, n), make([]uint64, n), make([]uint64, n)
		}
		var e0, e1 []matchEdge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() < density {
					a, b := 1+r.Uint64N(maxW), 1+r.Uint64N(maxW)
					if r.IntN(3) > 0 {
						b = a // most weights stay as they were
					}
					has[i][j], has[j][i] = true, true
					w0[i][j], w1[i][j] = a, b
					e0 = append(e0, matchEdge{i: int32(i), j: int32(j), w: weightOf(a + 100)})
					e1 = append(e1, matchEdge{i: int32(i), j: int32(j), w: weightOf(b + 100)})
				}
			}
		}
		want, ok := brutePerfect(n, w1, has)
		_, du := maxWeightMatchingDuals(n, e0)
		if du.m == nil {
			continue
		}
		mate, _, done := maxWeightPerfectWarm(nil, n, newGraph(e1), du.m.state())
		if !done {
			gaveUp++
			continue
		}
		if !ok {
			t.Fatalf("trial %d: a perfect matching %v where none exists", trial, mate)
		}
		var got uint64
		for v, u := range mate {
			if u < 0 || mate[u] != v || !has[v][u] {
				t.Fatalf("trial %d: %d paired with %d", trial, v, u)
			}
			if u > v {
				got += w1[v][u]
			}
		}
		if got != want {
			t.Fatalf("trial %d: weight %d, the best perfect matching has %d", trial, got, want)
		}
	}
	t.Logf("gave up %d times of %d", gaveUp, trials)
	if gaveUp > trials/2 {
		t.Fatalf("the warm start gave up %d times of %d", gaveUp, trials)
	}
}
