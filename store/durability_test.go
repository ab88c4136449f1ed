package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

var batchModes = []struct {
	name  string
	alone bool
}{{"with one commit per write", true}, {"with batched commits", false}}

func TestConcurrentWriters(t *testing.T) {
	refs := loadRefGames(t)
	games, racers, plies := 24, 3, 60
	if testing.Short() {
		games, plies = 8, 30
	}
	for _, bc := range batchModes {
		t.Run(bc.name+", every move is played once and none is lost", func(t *testing.T) {
			s := openTest(t, &Options{Alone: bc.alone})
			svc := service(s)
			ids := make([]uint64, games)
			for i := range ids {
				ids[i] = start(t, svc, "g", fmt.Sprint("c", i), fmt.Sprint("w", i), fmt.Sprint("b", i), 1).ID
			}
			var played, stale atomic.Int64
			var wg sync.WaitGroup
			errs := make(chan error, games*racers)
			// Several goroutines race on each game, like double clicks:
			// each reads the game and plays the next reference move for
			// the player to move at the revision it saw.
			for i := 0; i < games; i++ {
				moves := refs[i%len(refs)].moves
				n := min(plies, len(moves)-1) // stop before any game could end
				for r := 0; r < racers; r++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							g, err := svc.Game(ctx, ids[i])
							if err != nil {
								errs <- err
								return
							}
							if g.Ply() >= n {
								return
							}
							_, err = svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: t0}, moves[g.Ply()])
							switch {
							case err == nil:
								played.Add(1)
							case kindOf(err) == play.Stale:
								stale.Add(1)
							default:
								errs <- fmt.Errorf("game %d at ply %d: %w", g.ID, g.Ply(), err)
								return
							}
						}
					}()
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			want := 0
			for i := 0; i < games; i++ {
				moves := refs[i%len(refs)].moves
				n := min(plies, len(moves)-1)
				want += n
				g, err := svc.Game(ctx, ids[i])
				if err != nil {
					t.Fatal(err)
				}
				if g.Ply() != n || g.Revision != n+1 {
					t.Errorf("game %d has %d moves at revision %d, want %d", g.ID, g.Ply(), g.Revision, n)
				}
				for j, m := range g.Moves {
					if m.UCI != moves[j] {
						t.Errorf("game %d move %d is %s, want %s", g.ID, j+1, m.UCI, moves[j])
						break
					}
				}
				if err := replays(&g); err != nil {
					t.Error(err)
				}
			}
			if played.Load() != int64(want) {
				t.Errorf("%d moves acknowledged, %d stored", played.Load(), want)
			}
			t.Logf("%d moves played, %d stale ones refused", played.Load(), stale.Load())
		})
	}
}

func TestSimultaneousClicks(t *testing.T) {
	for _, bc := range batchModes {
		t.Run(bc.name+", of 16 identical moves at once exactly one plays", func(t *testing.T) {
			s := openTest(t, &Options{Alone: bc.alone})
			svc := service(s)
			g := start(t, svc, "", "c", "w", "b", 0)
			const clicks = 16
			begin := make(chan struct{})
			results := make(chan error, clicks)
			for i := 0; i < clicks; i++ {
				go func() {
					<-begin
					_, err := svc.Move(ctx, play.Act{By: "w", Game: g.ID, Revision: g.Revision, At: t0}, "e2d3")
					results <- err
				}()
			}
			close(begin)
			won := 0
			for i := 0; i < clicks; i++ {
				switch err := <-results; {
				case err == nil:
					won++
				case kindOf(err) != play.Stale:
					t.Errorf("a click got %v", err)
				}
			}
			g, _ = svc.Game(ctx, g.ID)
			if won != 1 || g.Ply() != 1 || g.Revision != 2 {
				t.Fatalf("%d clicks played, the game has %d moves at revision %d", won, g.Ply(), g.Revision)
			}
		})
	}
}

func TestReopenAndLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := loadRefGames(t)[0]
	svc := service(s)
	before := playMoves(t, svc, start(t, svc, "g", "c", "w", "b", 2), ref.moves[:25])

	t.Run("a second opener fails fast with a clear error while the file is open", func(t *testing.T) {
		begin := time.Now()
		_, err := Open(path, &Options{Timeout: 100 * time.Millisecond})
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("got %v, want ErrLocked", err)
		}
		if d := time.Since(begin); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("the error does not name the file: %v", err)
		}
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	t.Run("everything is there after reopening", func(t *testing.T) {
		s := openAt(t, path, nil)
		svc := service(s)
		after, err := svc.GameIn(ctx, "c")
		if err != nil {
			t.Fatal(err)
		}
		after.V = before.V
		if fmt.Sprint(after) != fmt.Sprint(before) {
			t.Fatalf("after reopening:\n%+v\nbefore:\n%+v", after, before)
		}
		playMoves(t, svc, after, ref.moves[25:26])
	})
}

func TestBackupWhileWriting(t *testing.T) {
	refs := loadRefGames(t)
	s := openTest(t, nil)
	svc := service(s)
	var games []play.Game
	for i := 0; i < 4; i++ {
		games = append(games, start(t, svc, "g", fmt.Sprint("c", i), "w", "b", 0))
	}
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, m := range refs[i].moves[:40] {
				r, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: t0}, m)
				if err != nil {
					t.Error(err)
					return
				}
				g = r.Game
			}
		}()
	}
	out := filepath.Join(t.TempDir(), "backup.db")
	var n int64
	var err error
	for k := 0; k < 5; k++ { // several backups while the moves go on
		if n, err = s.BackupFile(out); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	st, _ := os.Stat(out)
	if st.Size() != n {
		t.Fatalf("backup of %d bytes reported as %d", st.Size(), n)
	}
	b := openAt(t, out, nil)
	for i := 0; i < 4; i++ {
		g, err := service(b).GameIn(ctx, fmt.Sprint("c", i))
		if err != nil {
			t.Fatal(err)
		}
		if err := replays(&g); err != nil {
			t.Fatalf("the backup holds an inconsistent game: %v", err)
		}
	}
	t.Run("a backup refuses to overwrite its own database", func(t *testing.T) {
		if _, err := s.BackupFile(s.Path()); !errors.Is(err, ErrInvalid) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("CopyFile waits for the lock and then says the bot runs", func(t *testing.T) {
		_, err := CopyFile(s.Path(), filepath.Join(t.TempDir(), "x.db"), 50*time.Millisecond)
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("got %v", err)
		}
	})
	for _, timeout := range []time.Duration{0, -time.Second} {
		t.Run(fmt.Sprintf("CopyFile with a timeout of %v waits the default, not for ever", timeout), func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := CopyFile(s.Path(), filepath.Join(t.TempDir(), "y.db"), timeout)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrLocked) {
					t.Fatalf("got %v", err)
				}
			case <-time.After(DefaultTimeout + 5*time.Second):
				t.Fatal("CopyFile still waits for the lock")
			}
		})
	}
}
