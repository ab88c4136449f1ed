package puzzle

import (
	"slices"
	"testing"
)

// The shipped set's bar: at least 300 puzzles, a fifth or more proven,
// every theme of the variant and every goal present, ratings from
// beginner to expert.
func TestTheShippedSetMeetsTheBar(t *testing.T) {
	set := Set()
	if len(set) < 300 {
		t.Errorf("%d puzzles shipped; at least 300 wanted", len(set))
	}
	proven, goals, themes := 0, map[Goal]int{}, map[Theme]int{}
	var ratings []int
	for _, pz := range set {
		if pz.Proven {
			proven++
		}
		goals[pz.Goal]++
		for _, th := range pz.Themes {
			themes[th]++
		}
		ratings = append(ratings, pz.Rating)
	}
	if proven*5 < len(set) {
		t.Errorf("%d of %d puzzles proven; a fifth wanted", proven, len(set))
	}
	for _, g := range []Goal{Mate, Freeze, Advantage} {
		if goals[g] == 0 {
			t.Errorf("no puzzle of goal %s", g)
		}
	}
	for _, th := range VariantThemes {
		if themes[th] == 0 {
			t.Errorf("no puzzle of the theme %s", th)
		}
	}
	slices.Sort(ratings)
	if len(ratings) == 0 || ratings[0] > 1000 || ratings[len(ratings)-1] < 2000 {
		t.Errorf("ratings from %v to %v: want beginner (below 1000) to expert (2000 and up)", ratings[0], ratings[len(ratings)-1])
	}
	// Spread: each band of 400 points from 600 up has its share.
	bands := map[int]int{}
	for _, r := range ratings {
		bands[(r-CalibratedMin)/400]++
	}
	for b := 0; b < (CalibratedMax-CalibratedMin)/400; b++ {
		if bands[b]*10 < len(set) {
			t.Errorf("only %d puzzles rated %d–%d", bands[b], CalibratedMin+400*b, CalibratedMin+400*b+399)
		}
	}
}
