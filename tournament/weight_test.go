package tournament

import (
	"math/rand/v2"
	"testing"
)

func TestQuadrupleIsDoubleTwice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		var w weight
		for i := range w {
			w[i] = r.Uint64()
		}
		if got, want := w.quadruple(), w.double().double(); got != want {
			t.Fatalf("%x.quadruple() = %x, want %x", w, got, want)
		}
	}
}
