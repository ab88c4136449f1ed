package pgstore_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// BenchmarkArchiveRows stores 2,000 finished games of the reference set
// (149 plies on average) and reads pages of 20 of one player's games; it
// reports the size of a game's record as stored (pg_column_size) and the
// bytes a game takes in the table with its indexes and TOAST.
func BenchmarkArchiveRows(b *testing.B) {
	s, url := openTest(b, nil)
	f, err := os.Open(filepath.Join("..", "game", "testdata", "games.txt"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var refs [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && line[0] != '#' {
			refs = append(refs, strings.Fields(strings.Split(line, ";")[0]))
		}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const games, users = 2000, 100
	for done := 0; done < games; done += 500 {
		err := s.Update(ctx, func(tx play.Tx) error {
			for i := done; i < done+500; i++ {
				ucis := refs[i%len(refs)]
				m, err := game.ReplayUCI(game.StartFEN, ucis)
				if err != nil {
					return err
				}
				id, err := tx.NextID()
				if err != nil {
					return err
				}
				g := play.Game{ID: id, Revision: 1 + len(ucis), Guild: "guild", Channel: fmt.Sprint("ch", i),
					White: play.Seat{ID: fmt.Sprint("u", i%users)}, Black: play.Seat{ID: fmt.Sprint("u", (i*7+1)%users)},
					StartFEN: game.StartFEN, FEN: m.FEN(), Outcome: game.WinFor(game.White, game.Resignation),
					Created: t0, Updated: t0, Ended: t0, DaysPerMove: 3}
				for j, u := range ucis {
					g.Moves = append(g.Moves, play.Move{UCI: u, At: t0.Add(time.Duration(j) * time.Hour)})
				}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var record, total float64
	if _, err := conn.Exec(ctx, `VACUUM ANALYZE games`); err != nil {
		b.Fatal(err)
	}
	err = conn.QueryRow(ctx, `SELECT avg(pg_column_size(rec)), pg_total_relation_size('games')::float8 / count(*) FROM games`).Scan(&record, &total)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		err := s.View(ctx, func(tx play.ReadTx) error {
			list, err := tx.Finished(fmt.Sprint("u", i%users), "", 0, 20)
			if err == nil && len(list) != 20 {
				err = fmt.Errorf("%d games", len(list))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(record, "record-bytes")
	b.ReportMetric(total, "table-bytes/game")
}
