package bot_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// BenchmarkMoveInteraction measures a /move from its dispatch over the
// gateway to the recorded response with its PNG, through discordgo and
// the fake Discord on loopback, with 50 games on a bbolt file moving at
// once (or in memory, or on PostgreSQL). It reports the 50th and 99th
// percentiles of that latency, and the CPU time the process (the bot,
// the fake Discord and the players; not PostgreSQL's server) spends per
// move, which a shared machine's neighbours inflate less than the
// latency.
//
// Two loads: a burst, where every game sends its move at the same instant
// and each waits for its answer before the next, and a steady load, where
// each game's player takes 250 ms over each move (50 games: 200 moves a
// second), as in a busy server.
func BenchmarkMoveInteraction(b *testing.B) {
	for _, think := range []time.Duration{0, 250 * time.Millisecond} {
		load := "burst"
		if think > 0 {
			load = "steady"
		}
		b.Run("load="+load+"/storage=bbolt", func(b *testing.B) { benchmarkMoves(b, nil, think) })
		b.Run("load="+load+"/storage=memory", func(b *testing.B) { benchmarkMoves(b, memstore.New(), think) })
		b.Run("load="+load+"/storage=postgres", func(b *testing.B) {
			st, err := pgstore.Open(context.Background(), pgtest.New(b), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(st.Close)
			benchmarkMoves(b, st, think)
		})
	}
}

func benchmarkMoves(b *testing.B, st play.Storage, think time.Duration) {
	const games = 50
	w := newWorld(b, st, "en-US")
	w.srv.SetResponseDeadline(0) // the machine may be slower than Discord allows; the figures tell
	sans := referenceGame(b, "max_plies", 300)
	type seat struct {
		thread       string
		white, black fakediscord.User
	}
	seats := make([]seat, games)
	for i := range seats {
		white := w.srv.AddUser(fakediscord.User{Username: "w", Locale: "en-US"})
		black := w.srv.AddUser(fakediscord.User{Username: "b", Locale: "fr"})
		thread, _ := w.challengeAccepted(w.chess, white, black)
		seats[i] = seat{thread, white, black}
	}
	per := (b.N + games - 1) / games
	if per > len(sans) {
		b.Fatalf("%d moves per game; the reference game has %d", per, len(sans))
	}
	lat := make([]time.Duration, 0, games*per)
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpu := cpuTime()
	b.ResetTimer()
	for k, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if think > 0 {
				// Games start spread over one think time, each at its own
				// offset, so that their moves do not arrive together.
				time.Sleep(think * time.Duration(k) / games)
			}
			for i := range per {
				if think > 0 {
					// Between a half and one and a half think times, a
					// different spread for every game and move.
					time.Sleep(think/2 + time.Duration((i*7919+k*104729)%1000)*think/1000)
				}
				by := s.white
				if i%2 == 1 {
					by = s.black
				}
				start := time.Now()
				id := w.srv.Command(by.ID, s.thread, "move", fakediscord.StringOption("move", sans[i]))
				c, err := w.srv.WaitResponse(w.ctx(), id)
				d := time.Since(start)
				if err != nil || c.Err != nil || c.Message.Ephemeral() || len(c.Message.Files) == 0 {
					b.Errorf("move %d %s: %v %v %q", i+1, sans[i], err, c.Err, c.Message.Content)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	cpu = cpuTime() - cpu
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(lat)), "cpu-ms/move")
	}
}
