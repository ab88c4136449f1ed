package bot_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// BenchmarkOutboxDelivery measures the outbox's delivery lag: Discord
// refuses the answer of every /move (a 503), and the board reaches the
// game's thread through the outbox instead. The lag is from the refused
// answer to the board's post, both as the fake Discord recorded them,
// with 50 games on a bbolt file (or in memory) under the steady load of
// BenchmarkMoveInteraction: each player takes about 250 ms over a move.
func BenchmarkOutboxDelivery(b *testing.B) {
	b.Run("storage=bbolt", func(b *testing.B) { benchmarkDelivery(b, nil) })
	b.Run("storage=memory", func(b *testing.B) { benchmarkDelivery(b, memstore.New()) })
}

func benchmarkDelivery(b *testing.B, st play.Storage) {
	const games = 50
	const think = 250 * time.Millisecond
	w := newWorld(b, st, "en-US")
	sans := referenceGame(b, "max_plies", 300)
	type seat struct {
		thread       string
		white, black fakediscord.User
	}
	seats := make([]seat, games)
	for i := range seats {
		white := w.srv.AddUser(fakediscord.User{Username: "w", Locale: "en-US"})
		black := w.srv.AddUser(fakediscord.User{Username: "b", Locale: "en-US"})
		thread, _ := w.challengeAccepted(w.chess, white, black)
		seats[i] = seat{thread, white, black}
	}
	per := (b.N + games - 1) / games
	if per > len(sans) {
		b.Fatalf("%d moves per game; the reference game has %d", per, len(sans))
	}
	w.srv.Refuse(fakediscord.RouteCallback, fakediscord.Refusal{Status: http.StatusServiceUnavailable, Times: -1})
	lag := make([]time.Duration, 0, games*per)
	var mu sync.Mutex
	var wg sync.WaitGroup
	b.ResetTimer()
	for k, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(think * time.Duration(k) / games)
			for i := range per {
				time.Sleep(think/2 + time.Duration((i*7919+k*104729)%1000)*think/1000)
				by := s.white
				if i%2 == 1 {
					by = s.black
				}
				id := w.srv.Command(by.ID, s.thread, "move", fakediscord.StringOption("move", sans[i]))
				refused, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
					return c.Kind == fakediscord.KindResponse && c.InteractionID == id && c.Refused != nil
				})
				if err != nil {
					b.Errorf("move %d %s: the answer was not refused: %v", i+1, sans[i], err)
					return
				}
				played := "played **" + sans[i] + "**"
				posted, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
					return c.Kind == fakediscord.KindMessage && c.Seq > refused.Seq && c.Message.ChannelID == s.thread &&
						strings.Contains(c.Message.Content, played) && c.Err == nil
				})
				if err != nil {
					b.Errorf("move %d %s: the board was not posted: %v", i+1, sans[i], err)
					return
				}
				mu.Lock()
				lag = append(lag, posted.At.Sub(refused.At))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	slices.Sort(lag)
	if len(lag) > 0 {
		b.ReportMetric(float64(lag[len(lag)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lag[len(lag)*99/100].Microseconds())/1000, "p99-ms")
	}
}
