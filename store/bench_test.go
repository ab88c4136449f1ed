package store

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// benchMover plays reference games through play, in one channel after
// another: each call plays the next move, starting a new game when one
// ends.
type benchMover struct {
	svc   *play.Service
	refs  []refGame
	name  string
	round int
	g     play.Game
	// fresh, if set, gives every game a new storage, so that what the
	// storage holds does not weigh on the move.
	fresh func() play.Storage
}

func (m *benchMover) next(tb testing.TB) {
	if m.g.ID == 0 || m.g.Over() || m.g.Ply() >= len(m.refs[m.round%len(m.refs)].moves) {
		m.round++
		if m.fresh != nil {
			m.svc = service(m.fresh())
		}
		r, err := m.svc.Start(ctx, play.NewGame{Guild: "g", Channel: fmt.Sprintf("%s-%d", m.name, m.round),
			White: play.Seat{ID: "w-" + m.name}, Black: play.Seat{ID: "b-" + m.name}, DaysPerMove: 3, At: t0})
		if err != nil {
			tb.Fatal(err)
		}
		m.g = r.Game
	}
	ref := m.refs[m.round%len(m.refs)]
	r, err := m.svc.Move(ctx, play.Act{By: m.g.ToMove().ID, Game: m.g.ID, Revision: m.g.Revision, At: t0}, ref.moves[m.g.Ply()])
	if err != nil {
		tb.Fatal(err)
	}
	m.g = r.Game
}

// storages are the storages the move benchmarks compare: bbolt with every
// write alone, bbolt with group commit, and memory (no disk).
var storages = []struct {
	name string
	open func(tb testing.TB) play.Storage
}{
	{"bbolt-alone", func(tb testing.TB) play.Storage { return openTest(tb, &Options{Alone: true}) }},
	{"bbolt-batched", func(tb testing.TB) play.Storage { return openTest(tb, nil) }},
	{"memory", func(testing.TB) play.Storage { return memstore.New() }},
}

// BenchmarkMove is the latency of one acknowledged move through
// play.Service: parsing what the user typed, the read-check-apply-write
// transaction and, on bbolt, its fsync; one writer alone, the games
// played one after another in one storage. memory-fresh plays each game
// in a new memstore: memstore finds a channel's game by scanning every
// game, so in one long-lived memstore a move costs a little more as
// games pile up; memory-fresh is play's own cost.
func BenchmarkMove(b *testing.B) {
	refs := loadRefGames(b)
	for _, st := range storages {
		b.Run(st.name, func(b *testing.B) {
			m := &benchMover{svc: service(st.open(b)), refs: refs, name: "solo"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.next(b)
			}
		})
	}
	b.Run("memory-fresh", func(b *testing.B) {
		m := &benchMover{refs: refs, name: "solo", fresh: func() play.Storage { return memstore.New() }}
		for i := 0; i < b.N; i++ {
			m.next(b)
		}
	})
}

// BenchmarkConcurrentGames is the throughput of acknowledged moves when
// 64 games move at once, each move its own act, and the 50th and 99th
// percentiles of a move's latency.
func BenchmarkConcurrentGames(b *testing.B) {
	refs := loadRefGames(b)
	for _, st := range storages {
		b.Run(st.name, func(b *testing.B) {
			svc := service(st.open(b))
			const games = 64
			var left atomic.Int64
			left.Store(int64(b.N))
			var wg sync.WaitGroup
			lat := make([][]time.Duration, games)
			begin := time.Now()
			b.ResetTimer()
			for w := 0; w < games; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					m := &benchMover{svc: svc, refs: refs[w:], name: fmt.Sprint("p", w)}
					for left.Add(-1) >= 0 {
						start := time.Now()
						m.next(b)
						lat[w] = append(lat[w], time.Since(start))
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(begin).Seconds(), "moves/s")
			all := slices.Concat(lat...)
			slices.Sort(all)
			b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// fill stores count games straight through the storage, 1000 per
// transaction, to build large files quickly: active ones with at most
// plies plies of a reference game, or finished ones with the whole
// reference game. users players meet in 50 guilds.
func fill(tb testing.TB, s *Store, count int, finished bool, plies int, users int) {
	tb.Helper()
	refs := loadRefGames(tb)
	// Replay each reference game once; the copies differ in ids only.
	type tmpl struct {
		moves   []play.Move
		fen     string
		outcome game.Outcome
	}
	tmpls := make([]tmpl, len(refs))
	for i, r := range refs {
		n := len(r.moves)
		if !finished {
			n = min(plies, n-1)
		}
		m, err := game.ReplayUCI(game.StartFEN, r.moves[:n])
		if err != nil {
			tb.Fatal(err)
		}
		var ms []play.Move
		for j, u := range r.moves[:n] {
			ms = append(ms, play.Move{UCI: u, At: t0.Add(time.Duration(j) * time.Hour)})
		}
		o := m.Outcome()
		if finished && !o.Over() {
			o = game.WinFor(game.White, game.Resignation)
		}
		tmpls[i] = tmpl{ms, m.FEN(), o}
	}
	const perTx = 1000
	for done := 0; done < count; done += perTx {
		err := s.Update(ctx, func(tx play.Tx) error {
			for i := done; i < min(done+perTx, count); i++ {
				t := tmpls[i%len(tmpls)]
				id, err := tx.NextID()
				if err != nil {
					return err
				}
				g := play.Game{ID: id, Revision: 1 + len(t.moves), Guild: fmt.Sprint("guild", i%50), Channel: fmt.Sprint("ch", i),
					White: play.Seat{ID: fmt.Sprint("u", i%users)}, Black: play.Seat{ID: fmt.Sprint("u", (i*7+1)%users)},
					StartFEN: game.StartFEN, Moves: t.moves, FEN: t.fen, Created: t0, Updated: t0, DaysPerMove: 3}
				if finished {
					g.Outcome, g.Ended = t.outcome, t0
				} else {
					g.Deadline, g.RemindAt = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i)*time.Second-time.Hour)
				}
				if err := tx.PutGame(g); err != nil {
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

// BenchmarkActiveGames lists one user's active games with 10,000 active
// games stored (2,000 users, so 10 games each on average).
func BenchmarkActiveGames(b *testing.B) {
	s := openTest(b, nil)
	fill(b, s, 10000, false, 40, 2000)
	listed := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := s.View(ctx, func(tx play.ReadTx) error {
			list, err := tx.ActiveGames(fmt.Sprint("u", i%2000))
			listed += len(list)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if listed == 0 {
		b.Fatal("listed nothing")
	}
	b.ReportMetric(float64(listed)/float64(b.N), "games/list")
}

// BenchmarkDue reads the first 100 due deadlines with 10,000 active games.
func BenchmarkDue(b *testing.B) {
	s := openTest(b, nil)
	fill(b, s, 10000, false, 40, 2000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := s.View(ctx, func(tx play.ReadTx) error {
			d, err := tx.Due(play.DueDeadline, t0.Add(time.Hour), 100)
			if len(d) != 100 {
				return fmt.Errorf("%d due", len(d))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// archives are the files of the archive benchmarks, each built once per
// test process (a benchmark function runs several times) and removed by
// TestMain.
var archives struct {
	sync.Mutex
	dir   string
	files map[int]archiveFile
}

type archiveFile struct {
	path string
	took time.Duration // to fill it
}

// archive returns a file holding games finished games of reference
// length (149 plies on average) among users players in 50 guilds.
func archive(b *testing.B, games, users int) archiveFile {
	archives.Lock()
	defer archives.Unlock()
	if f, ok := archives.files[games]; ok {
		return f
	}
	if archives.dir == "" {
		dir, err := os.MkdirTemp("", "iceage-bench")
		if err != nil {
			b.Fatal(err)
		}
		archives.dir, archives.files = dir, map[int]archiveFile{}
	}
	f := archiveFile{path: filepath.Join(archives.dir, fmt.Sprintf("archive%d.db", games))}
	s, err := Open(f.path, nil)
	if err != nil {
		b.Fatal(err)
	}
	// Synced once at the end, not at each of the thousands of commits.
	s.db.NoSync = true
	begin := time.Now()
	fill(b, s, games, true, 0, users)
	if err := s.db.Sync(); err != nil {
		b.Fatal(err)
	}
	f.took = time.Since(begin)
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	archives.files[games] = f
	return f
}

func TestMain(m *testing.M) {
	code := m.Run()
	if archives.dir != "" {
		os.RemoveAll(archives.dir)
	}
	os.Exit(code)
}

// BenchmarkOpenArchive100k is the time to open (and close) a file holding
// 100,000 finished games of reference length; it reports the file size
// and the time the check of the whole file takes in the background, and
// logs the time to read a page of one player's games.
func BenchmarkOpenArchive100k(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a file of a hundred megabytes")
	}
	f := archive(b, 100000, 5000)
	st, err := os.Stat(f.path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := Open(f.path, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(st.Size())/(1<<20), "MB")
	b.ReportMetric(float64(st.Size())/100000, "bytes/game")
	s, err := Open(f.path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	begin := time.Now()
	if err := s.Checked(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(time.Since(begin).Seconds(), "check-s")
	begin = time.Now()
	err = s.View(ctx, func(tx play.ReadTx) error {
		list, err := tx.Finished("u77", "", 0, 20)
		if err == nil && len(list) != 20 {
			err = fmt.Errorf("%d games", len(list))
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled in %v; a page of 20 of one player's finished games read in %v", f.took.Round(time.Millisecond), time.Since(begin))
}

// archive1M enables BenchmarkArchive1M, whose file takes minutes to build.
var archive1M = flag.Bool("archive1m", false, "run BenchmarkArchive1M, which builds a file of a million games (go test ./store -run '^$' -bench Archive1M -archive1m)")

// BenchmarkArchive1M is a server after years: a file of 1,000,000
// finished games of reference length among 20,000 players. It measures
// the open (and close), a page of 20 of one player's finished games
// (/history), a backup of the whole file (Backup, the copy alone, and
// BackupFile, which checks the copy before it keeps it: the check Open
// runs in the background), and reports the file's size. It runs only
// with -archive1m.
func BenchmarkArchive1M(b *testing.B) {
	if testing.Short() || !*archive1M {
		b.Skip("builds a file of a million games: run with -archive1m")
	}
	const games, users = 1000000, 20000
	f := archive(b, games, users)
	st, err := os.Stat(f.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("filled in %v", f.took.Round(time.Second))
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(f.path, nil)
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
		b.ReportMetric(float64(st.Size())/(1<<20), "MB")
		b.ReportMetric(float64(st.Size())/games, "bytes/game")
	})
	s, err := Open(f.path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.Run("page", func(b *testing.B) {
		i := 0
		for b.Loop() {
			err := s.View(ctx, func(tx play.ReadTx) error {
				list, err := tx.Finished(fmt.Sprint("u", i*7919%users), "", 0, 20)
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
	})
	b.Run("backup", func(b *testing.B) {
		for b.Loop() {
			out, err := os.Create(filepath.Join(b.TempDir(), "backup.db"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Backup(out); err != nil {
				b.Fatal(err)
			}
			if err := out.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("backup-checked", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.BackupFile(filepath.Join(b.TempDir(), "backup.db")); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchNow is the time of the leaderboard and statistics benchmarks'
// queries, as in play's.
var benchNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// BenchmarkLeaderboard is play's BenchmarkLeaderboard on bbolt: a page
// from the middle of the board of a server of 10,000 rated players (a
// quarter of them inactive), each with a global record too. Target:
// under 10 ms. The board walks the rating index and decodes no player
// record.
func BenchmarkLeaderboard(b *testing.B) {
	s := openTest(b, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	var ps []play.Player
	for i := range 10_000 {
		user := fmt.Sprintf("%018d", 100000000000000000+i)
		at := benchNow.Add(-time.Duration(rng.IntN(120*24)) * time.Hour)
		games := 1 + rng.IntN(300)
		won := rng.IntN(games + 1)
		for _, scope := range []string{"", "guild"} {
			p := play.NewPlayer(scope, user)
			p.Name = "Player " + user[12:]
			p.Rating = play.Rating{Rating: 800 + rng.Float64()*1600, Deviation: 45 + rng.Float64()*300, Volatility: 0.06, Updated: at}
			p.RatedTally = play.Tally{Won: won, Lost: games - won}
			p.RatedGames = games
			ps = append(ps, p)
		}
	}
	for len(ps) > 0 {
		n := min(len(ps), 2000)
		err := s.Update(ctx, func(tx play.Tx) error {
			for _, p := range ps[:n] {
				if err := tx.PutPlayer(p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		ps = ps[n:]
	}
	svc := service(s)
	b.ReportAllocs()
	for b.Loop() {
		st, err := svc.Leaderboard(ctx, "guild", 300, 10, benchNow)
		if err != nil || len(st.Rows) != 10 || st.Ranked < 7000 {
			b.Fatalf("%d rows of %d, %v", len(st.Rows), st.Ranked, err)
		}
	}
}

// BenchmarkPlayerStats is play's BenchmarkPlayerStats on bbolt: the
// statistics of a player of 5,000 games, 3,000 of them rated, against one
// of their opponents. Target: under 10 ms.
func BenchmarkPlayerStats(b *testing.B) {
	s := openTest(b, nil)
	firsts := []string{"hxg3", "Nxf3", "exd3", "gxh3", "Nxa3"}
	p := play.NewPlayer("guild", "ann")
	p.Rating = play.Rating{Rating: 1700, Deviation: 60, Volatility: 0.06, Updated: benchNow}
	p.RatedTally, p.RatedGames = play.Tally{Won: 2000, Drawn: 500, Lost: 2500}, 5000
	err := s.Update(ctx, func(tx play.Tx) error {
		if err := tx.PutPlayer(p); err != nil {
			return err
		}
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
	svc := service(s)
	b.ReportAllocs()
	for b.Loop() {
		pr, err := svc.PlayerStats(ctx, "guild", "ann", "opponent-7")
		if err != nil || pr.Logged != 5000 || len(pr.History) != 3000 {
			b.Fatalf("%d games, %d points, %v", pr.Logged, len(pr.History), err)
		}
	}
}
