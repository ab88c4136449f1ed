package pgstore_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// benchPlayers is how many games each process plays at once, one
// goroutine each: a busy bot's concurrent interactions.
const benchPlayers = 8

// playMoves plays moves in games of their own through each service,
// benchPlayers at once per service, until n moves were acknowledged in
// all; a game that ends is replaced by a new one.
func playMoves(b *testing.B, svcs []*play.Service, n int64) {
	var left atomic.Int64
	left.Store(n)
	var wg sync.WaitGroup
	for p, svc := range svcs {
		for w := range benchPlayers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ch := fmt.Sprintf("bench%d_%d_%d", b.N, p, w)
				var legal []game.Move
				var g play.Game
				for left.Add(-1) >= 0 {
					if g.ID == 0 || g.Over() || g.Ply() > 80 {
						if g.ID != 0 && !g.Over() {
							if _, err := svc.Resign(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: time.Now()}); err != nil {
								b.Error(err)
								return
							}
						}
						r, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: ch, White: play.Seat{ID: ch + "w"}, Black: play.Seat{ID: ch + "b"}, DaysPerMove: 3, At: time.Now()})
						if err != nil {
							b.Error(err)
							return
						}
						g = r.Game
					}
					pos, err := g.Position()
					if err != nil {
						b.Error(err)
						return
					}
					legal = pos.LegalMoves(legal[:0])
					if len(legal) == 0 {
						g.Outcome.Result = game.Draw // start another
						continue
					}
					r, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: time.Now()}, legal[(g.Ply()*7)%len(legal)].UCI())
					if err != nil {
						b.Error(err)
						return
					}
					g = r.Game
				}
			}()
		}
	}
	wg.Wait()
}

// BenchmarkMoves measures acknowledged moves per second: 1, 2 and 4
// processes (a pool and a play.Service each) on one PostgreSQL database,
// against one process on a bbolt file, each process playing
// benchPlayers games at once.
func BenchmarkMoves(b *testing.B) {
	b.Run("bbolt/processes=1", func(b *testing.B) {
		s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchMoves(b, []*play.Service{play.New(s, play.Options{})})
	})
	for _, procs := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("postgres/processes=%d", procs), func(b *testing.B) {
			first, url := openTest(b, nil)
			svcs := []*play.Service{play.New(first, play.Options{})}
			for range procs - 1 {
				s, err := pgstore.Open(ctx, url, nil)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				svcs = append(svcs, play.New(s, play.Options{}))
			}
			benchMoves(b, svcs)
		})
	}
}

func benchMoves(b *testing.B, svcs []*play.Service) {
	b.ResetTimer()
	start := time.Now()
	playMoves(b, svcs, int64(b.N))
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
}

// BenchmarkClaims measures how fast schedulers claim due items: each
// iteration claims a batch of 100 of 10,000 due deadlines.
func BenchmarkClaims(b *testing.B) {
	s, _ := openTest(b, nil)
	now := dueGames(b, s, 10000)
	b.ResetTimer()
	claimed := 0
	start := time.Now()
	for i := range b.N {
		got, err := s.Claimer(fmt.Sprint("bench", i), time.Hour).Claim(ctx, play.DueDeadline, now, 100)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) == 0 {
			b.StopTimer()
			if _, err := s.Pool().Exec(ctx, `DELETE FROM claims`); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		claimed += len(got)
	}
	b.ReportMetric(float64(claimed)/time.Since(start).Seconds(), "claims/s")
}
