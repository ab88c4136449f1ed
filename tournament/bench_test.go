package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkPairDutch200 pairs one round of a 200-player Swiss after the
// given number of rounds: round 1 is one bracket of everyone; later
// rounds have many brackets, floaters and colour constraints.
func BenchmarkPairDutch200(b *testing.B) {
	for _, played := range []int{0, 5} {
		b.Run(fmt.Sprintf("after %d rounds", played), func(b *testing.B) {
			if testing.Short() && played > 0 {
				b.Skip("building the field pairs five rounds of 200 players")
			}
			f := newField(199, 9)
			r := rand.New(rand.NewPCG(5, 5))
			for round := 0; round < played; round++ {
				p, err := PairDutch(f)
				if err != nil {
					b.Fatal(err)
				}
				playRound(f, p, r)
			}
			for b.Loop() {
				if _, err := PairDutch(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
