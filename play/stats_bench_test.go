package play_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// benchNow is the time of the benchmarks' queries.
var benchNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// BenchmarkLeaderboard ranks a server of 10,000 rated players (each with
// a global record too, as play keeps them) and returns a page from the
// middle. Target: under 10 ms.
func BenchmarkLeaderboard(b *testing.B) {
	st := memstore.New()
	rng := rand.New(rand.NewPCG(1, 2))
	var ps []play.Player
	for i := range 10_000 {
		user := fmt.Sprintf("%018d", 100000000000000000+i)
		at := benchNow.Add(-time.Duration(rng.IntN(120*24)) * time.Hour) // a quarter are inactive
		games := 1 + rng.IntN(300)
		won := rng.IntN(games + 1)
		for _, scope := range []string{"", "guild"} {
			ps = append(ps, rated(scope, user, 800+rng.Float64()*1600, 45+rng.Float64()*300, at, won, 0, games-won))
		}
	}
	putPlayers(b, st, ps...)
	svc := play.New(st, play.Options{})
	b.ReportAllocs()
	for b.Loop() {
		s, err := svc.Leaderboard(context.Background(), "guild", 300, 10, benchNow)
		if err != nil || len(s.Rows) != 10 {
			b.Fatalf("%d rows, %v", len(s.Rows), err)
		}
	}
}

// BenchmarkPlayerStats reads the statistics of a player of 5,000 games,
// 3,000 of them rated, against one of their opponents. Target: under
// 10 ms.
func BenchmarkPlayerStats(b *testing.B) {
	st := memstore.New()
	firsts := []string{"hxg3", "Nxf3", "exd3", "gxh3", "Nxa3"}
	p := rated("guild", "ann", 1700, 60, benchNow, 2000, 500, 2500)
	putPlayers(b, st, p)
	err := st.Update(context.Background(), func(tx play.Tx) error {
		for i := range 5000 {
			e := play.LogEntry{Scope: "guild", User: "ann", Game: uint64(i + 1), Ended: benchNow.Add(time.Duration(i-5000) * time.Hour),
				Color: game.Color(i % 2), Opponent: fmt.Sprint("opponent-", i%40), Outcome: game.WinFor(game.Color(i%3%2), game.Resignation),
				First: firsts[i%len(firsts)], Rated: i%5 < 3, Rating: 1500 + float64(i%400), Deviation: 60}
			if err := tx.PutLogEntry(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	svc := play.New(st, play.Options{})
	b.ReportAllocs()
	for b.Loop() {
		pr, err := svc.PlayerStats(context.Background(), "guild", "ann", "opponent-7")
		if err != nil || pr.Logged != 5000 || len(pr.History) != 3000 {
			b.Fatalf("%d games, %d points, %v", pr.Logged, len(pr.History), err)
		}
	}
}
