package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// bruteBest tries every pairing that meets the absolute criteria and
// returns the best of two numbers the rules put first: the lowest score
// the bye can go to (C5), and, for that, the most pairs the top score
// group can make among its own players (C6 in the first bracket).
func bruteBest(t *testing.T, f *Field) (byeScore Points, topPairs int, ok bool) {
	d, err := newDutch(f)
	if err != nil {
		t.Fatal(err)
	}
	n := len(d.ps)
	top := d.ps[0].score
	used := make([]bool, n)
	bestBye, bestTop := Points(1<<30), -1
	var rec func(bye int, pairsTop int)
	rec = func(bye int, pairsTop int) {
		a := 0
		for a < n && used[a] {
			a++
		}
		if a == n {
			bs := Points(-1)
			if bye >= 0 {
				bs = d.ps[bye].score
			}
			if bs < bestBye || bs == bestBye && pairsTop > bestTop {
				bestBye, bestTop = bs, pairsTop
			}
			ok = true
			return
		}
		used[a] = true
		if bye < 0 && n%2 == 1 && d.ps[a].byeOK {
			rec(a, pairsTop)
		}
		for b := a + 1; b < n; b++ {
			if !used[b] && d.compatible(a, b) {
				used[b] = true
				p := pairsTop
				if d.ps[a].score == top && d.ps[b].score == top {
					p++
				}
				rec(bye, p)
				used[b] = false
			}
		}
		used[a] = false
	}
	rec(-1, 0)
	return bestBye, bestTop, ok
}

// On small fields, the pairing gives the bye to the lowest score any
// legal pairing allows, and pairs as many of the top score group among
// themselves as any legal pairing with that bye can.
func TestDutchAgainstBruteForceOnSmallFields(t *testing.T) {
	seeds := uint64(12)
	if testing.Short() {
		seeds = 3
	}
	for n := 3; n <= 10; n++ {
		for seed := uint64(0); seed < seeds; seed++ {
			t.Run(fmt.Sprintf("%d players seed %d", n, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed+7, uint64(n)*31))
				f := newField(n, n-1+n%2)
				for round := 0; round < f.Rounds; round++ {
					for i := range f.Players {
						f.Players[i].Out = r.IntN(12) == 0
					}
					wantBye, wantTop, ok := bruteBest(t, f)
					p, err := PairDutch(f)
					if !ok {
						if err == nil {
							t.Fatalf("round %d: paired %+v where no pairing is legal", round+1, p)
						}
						return
					}
					if err != nil {
						t.Fatalf("round %d: %v, but a legal pairing exists", round+1, err)
					}
					checkRound(t, f, p)
					d, _ := newDutch(f)
					top := d.ps[0].score
					gotBye := Points(-1)
					if p.Bye >= 0 {
						gotBye = f.Players[p.Bye].Score()
					}
					gotTop := 0
					for _, pr := range p.Pairs {
						if f.Players[pr.White].Score() == top && f.Players[pr.Black].Score() == top {
							gotTop++
						}
					}
					if gotBye != wantBye || gotTop != wantTop {
						t.Fatalf("round %d: bye at score %v with %d top pairs; the best legal pairing has the bye at %v with %d", round+1, gotBye, gotTop, wantBye, wantTop)
					}
					playRoundWithAbsences(f, p, r)
				}
			})
		}
	}
}
