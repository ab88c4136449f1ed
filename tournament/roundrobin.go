package tournament

import "fmt"

// BergerRound is round r (1-based) of a round-robin of n players by the
// Berger tables (FIDE C.05, Annex 1), by index (player 1 is 0). With an
// odd n the table of n+1 is used and the player drawn against the extra
// number has the round off, returned as bye (else -1). With cycles = 2
// the second cycle repeats the first with the colours reversed.
func BergerRound(n, cycles, r int) (pairs []Pair, bye int, err error) {
	if n < 2 {
		return nil, -1, fmt.Errorf("a round-robin needs at least 2 players, not %d", n)
	}
	if cycles != 1 && cycles != 2 {
		return nil, -1, fmt.Errorf("a round-robin has 1 or 2 cycles, not %d", cycles)
	}
	m := n + n%2 // the table's size
	per := m - 1
	if r < 1 || r > per*cycles {
		return nil, -1, fmt.Errorf("a round-robin of %d players has rounds 1 to %d, not %d", n, per*cycles, r)
	}
	reverse := r > per
	rr := (r-1)%per + 1
	// In round rr the players 1 … m-1 stand in a circle starting at
	// start; the first meets player m, and the others pair off from the
	// ends of the circle inwards, the earlier one with White.
	start := ((rr - 1) * (m / 2)) % per
	circle := func(k int) int { return (start+k)%per + 1 }
	bye = -1
	add := func(w, b int) {
		if reverse {
			w, b = b, w
		}
		switch {
		case w > n:
			bye = b - 1
		case b > n:
			bye = w - 1
		default:
			pairs = append(pairs, Pair{White: w - 1, Black: b - 1})
		}
	}
	if rr%2 == 1 {
		add(circle(0), m)
	} else {
		add(m, circle(0))
	}
	for k := 1; k < m/2; k++ {
		add(circle(k), circle(per-k))
	}
	return pairs, bye, nil
}

// BergerRounds is the number of rounds of a round-robin.
func BergerRounds(n, cycles int) int {
	return (n + n%2 - 1) * cycles
}
