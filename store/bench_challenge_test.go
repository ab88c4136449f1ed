package store

import (
	"fmt"
	"testing"

	"github.com/iceagechess/iceage/play"
)

// BenchmarkChallenge is the latency of one challenge to a person through
// play.Service, each between two players of their own: its transaction
// reads both players' records of what they did lately, the lock under
// which two challenges that cross are decided one after the other, and
// their challenges waiting.
func BenchmarkChallenge(b *testing.B) {
	for _, st := range storages {
		b.Run(st.name, func(b *testing.B) {
			svc := service(st.open(b))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g", Channel: "c", From: play.Seat{ID: fmt.Sprintf("x%d", i)},
					To: play.Seat{ID: fmt.Sprintf("y%d", i)}, DaysPerMove: 3, At: t0}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
