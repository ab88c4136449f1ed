package tournament

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
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

// BenchmarkPairDutchTRF pairs rounds 1 and 5 of Swiss tournaments of 200
// and 1,000 players from the TRF files in testdata/bench, the files the
// endorsed engine is timed on for comparison. The 1,000-player rounds
// run only with TOURNAMENT_BENCH_LARGE=1: they take seconds each. Beside
// the wall time, cpu-sec/op is the CPU time the process used (the
// garbage collector's included), which a busy machine does not inflate
// as much.
func BenchmarkPairDutchTRF(b *testing.B) {
	for _, bf := range benchFields {
		b.Run(fmt.Sprintf("%d players round %d", bf.n, bf.round), func(b *testing.B) {
			if bf.n > 200 && os.Getenv("TOURNAMENT_BENCH_LARGE") == "" {
				b.Skip("set TOURNAMENT_BENCH_LARGE=1 for the 1,000-player rounds")
			}
			text, err := os.ReadFile(benchFile(bf.n, bf.round))
			if err != nil {
				b.Fatal(err)
			}
			trf, err := ReadTRF(bytes.NewReader(text))
			if err != nil {
				b.Fatal(err)
			}
			start := cpuTime()
			for b.Loop() {
				if _, err := PairDutch(&trf.Field); err != nil {
					b.Fatal(err)
				}
			}
			if used := cpuTime() - start; used > 0 {
				b.ReportMetric(used.Seconds()/float64(b.N), "cpu-sec/op")
			}
		})
	}
}
