package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// benchMover plays reference games in one channel after another: each
// call plays the next move, starting a new game when one ends.
type benchMover struct {
	s     *Store
	refs  []refGame
	name  string
	round int
	g     Game
}

func (m *benchMover) next(tb testing.TB) {
	if m.g.ID == 0 || m.g.Over() || m.g.Ply() >= len(m.refs[m.round%len(m.refs)].moves) {
		m.round++
		var err error
		m.g, err = m.s.CreateGame(newGame("g", fmt.Sprintf("%s-%d", m.name, m.round), "w-"+m.name, "b-"+m.name, 3))
		if err != nil {
			tb.Fatal(err)
		}
	}
	ref := m.refs[m.round%len(m.refs)]
	who, _ := m.g.ToMove()
	g, err := m.s.PlayMove(m.g.Channel, m.g.Ply(), ref.moves[m.g.Ply()], who.ID, t0)
	if err != nil {
		tb.Fatal(err)
	}
	m.g = g
}

// BenchmarkPlayMove is the latency of one acknowledged move: the whole
// read-check-apply-write transaction and its fsync, one writer alone.
func BenchmarkPlayMove(b *testing.B) {
	refs := loadRefGames(b)
	for _, bc := range []struct {
		name  string
		delay time.Duration
	}{{"alone", -1}, {"batched", DefaultBatchDelay}} {
		b.Run(bc.name, func(b *testing.B) {
			s := openTest(b, &Options{BatchDelay: bc.delay})
			m := &benchMover{s: s, refs: refs, name: "solo"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.next(b)
			}
		})
	}
}

// BenchmarkConcurrentGames is the throughput of acknowledged moves when
// 64 games move at once, each move its own PlayMove call.
func BenchmarkConcurrentGames(b *testing.B) {
	refs := loadRefGames(b)
	for _, bc := range []struct {
		name  string
		delay time.Duration
	}{{"alone", -1}, {"batched", DefaultBatchDelay}} {
		b.Run(bc.name, func(b *testing.B) {
			s := openTest(b, &Options{BatchDelay: bc.delay})
			const games = 64
			var left atomic.Int64
			left.Store(int64(b.N))
			var wg sync.WaitGroup
			start := time.Now()
			b.ResetTimer()
			for w := 0; w < games; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					m := &benchMover{s: s, refs: refs[w:], name: fmt.Sprint("p", w)}
					for left.Add(-1) >= 0 {
						m.next(b)
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
		})
	}
}

// fill stores games straight through the internal functions, many per
// transaction, to build large files quickly: active ones with n plies of
// a reference game, or archived ones with the whole reference game.
func fill(tb testing.TB, s *Store, count int, archived bool, plies int, users int) {
	tb.Helper()
	refs := loadRefGames(tb)
	// Replay each reference game once; the copies differ in ids only.
	type tmpl struct {
		moves []Move
		fen   string
		ices  []IceAge
	}
	tmpls := make([]tmpl, len(refs))
	for i, r := range refs {
		n := len(r.moves)
		if !archived {
			n = min(plies, n-1)
		}
		var ms []Move
		for j, u := range r.moves[:n] {
			ms = append(ms, Move{u, t0.Add(time.Duration(j) * time.Hour)})
		}
		p, ices, err := replay(StartFENForBench, ms)
		if err != nil {
			tb.Fatal(err)
		}
		tmpls[i] = tmpl{ms, p.FEN(), ices}
	}
	const perTx = 1000
	for done := 0; done < count; done += perTx {
		err := s.db.Update(func(tx *bolt.Tx) error {
			for i := done; i < min(done+perTx, count); i++ {
				t := tmpls[i%len(tmpls)]
				w, b := fmt.Sprint("u", i%users), fmt.Sprint("u", (i*7+1)%users)
				n := newGame(fmt.Sprint("guild", i%50), fmt.Sprint("ch", i), w, b, 3)
				g, err := createGame(tx, n)
				if err != nil {
					return err
				}
				old := g.clone()
				g.Moves, g.FEN, g.IceAges = t.moves, t.fen, t.ices
				if !archived {
					if err := putActive(tx, old, g); err != nil {
						return err
					}
					continue
				}
				p, _ := g.Position()
				g.Status = p.Outcome()
				if !g.Status.Over() {
					g.Status.Result, g.Status.Reason = 1, 6 // a resignation
				}
				g.Ended = t0
				if err := archive(tx, old, g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// StartFENForBench is the start position of the generated games.
const StartFENForBench = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// BenchmarkActiveGames lists one user's active games with 10,000 active
// games stored (2,000 users, so 10 games each on average).
func BenchmarkActiveGames(b *testing.B) {
	s := openTest(b, nil)
	fill(b, s, 10000, false, 40, 2000)
	if list, err := s.ActiveGames("u42"); err != nil || len(list) == 0 {
		b.Fatalf("%d games, %v", len(list), err)
	}
	b.ResetTimer()
	listed := 0
	for i := 0; i < b.N; i++ {
		list, err := s.ActiveGames(fmt.Sprint("u", i%2000))
		if err != nil {
			b.Fatal(err)
		}
		listed += len(list)
	}
	b.ReportMetric(float64(listed)/float64(b.N), "games/list")
}

// archive100k is the file of BenchmarkOpenArchive100k, built once per
// test process (the benchmark function runs several times) and removed by
// TestMain.
var archive100k struct {
	once sync.Once
	dir  string
	path string
	took time.Duration
}

func TestMain(m *testing.M) {
	code := m.Run()
	if archive100k.dir != "" {
		os.RemoveAll(archive100k.dir)
	}
	os.Exit(code)
}

// BenchmarkOpenArchive100k is the time to open (and close) a file holding
// 100,000 archived games of reference length; it reports the file size.
func BenchmarkOpenArchive100k(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a file of hundreds of megabytes")
	}
	archive100k.once.Do(func() {
		dir, err := os.MkdirTemp("", "iceage-bench")
		if err != nil {
			b.Fatal(err)
		}
		archive100k.dir, archive100k.path = dir, filepath.Join(dir, "archive.db")
		s, err := Open(archive100k.path, nil)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		fill(b, s, 100000, true, 0, 5000)
		archive100k.took = time.Since(start)
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	})
	path := archive100k.path
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(st.Size())/(1<<20), "MB")
	b.ReportMetric(float64(st.Size())/100000, "bytes/game")
	s, err := Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	t := time.Now()
	list, err := s.ArchiveOfPlayer("u77", 0, 20)
	if err != nil || len(list) != 20 {
		b.Fatalf("%d games, %v", len(list), err)
	}
	b.Logf("filled in %v; a page of 20 of one player's archived games read in %v", archive100k.took.Round(time.Millisecond), time.Since(t))
}
