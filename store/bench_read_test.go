package store

import (
	"fmt"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

// The reads that decode whole game records, on an archive of 10,000
// finished games of reference length (149 plies on average) among 500
// players: a page of one player's history (what /history lists), one
// game exported as PGN (/pgn), and one game's record decoded.
// BenchmarkActiveGames is /games.

func BenchmarkFinishedPage(b *testing.B) {
	s := openTest(b, nil)
	fill(b, s, 10000, true, 0, 500)
	svc := service(s)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		list, err := svc.History(ctx, fmt.Sprint("u", i%500), "", 0, 20)
		if err != nil || len(list) != 20 {
			b.Fatalf("%d games, %v", len(list), err)
		}
		i++
	}
}

func BenchmarkPGN(b *testing.B) {
	s := openTest(b, nil)
	fill(b, s, 10000, true, 0, 500)
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		var g play.Game
		err := s.View(ctx, func(tx play.ReadTx) (err error) {
			g, err = tx.Game(1 + i%10000)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.PGN("bench"); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkDecodeGame decodes one stored record of a finished game of
// about 149 plies (the reference game nearest to the mean), as every read
// of a game does.
func BenchmarkDecodeGame(b *testing.B) {
	refs := loadRefGames(b)
	ref := refs[0] // the one closest to 149 plies, the reference games' mean
	for _, r := range refs {
		if abs(len(r.moves)-149) < abs(len(ref.moves)-149) {
			ref = r
		}
	}
	s := openTest(b, nil)
	svc := service(s)
	g := start(b, svc, "g", "c", "ann", "bob", 3)
	g = playMoves(b, svc, g, ref.moves)
	if !g.Over() {
		if _, err := svc.Resign(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: g.Updated}); err != nil {
			b.Fatal(err)
		}
	}
	var rec []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		rec = append(rec, tx.Bucket(bucketArchive).Get(u64(g.ID))...)
		return nil
	})
	if err != nil || rec == nil {
		b.Fatal("no record", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var d play.Game
		if err := decode("game", rec, &d); err != nil || len(d.Moves) != len(ref.moves) {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rec)), "bytes")
}

func abs(n int) int { return max(n, -n) }
