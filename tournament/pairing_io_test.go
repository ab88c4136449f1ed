package tournament

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/store"
)

// TestPairingASwissLetsEveryOtherWriteGoOn pairs round 2 of a 400-player
// Swiss on a bbolt file while moves are played in another server's
// games. The pairing runs outside any write transaction: a move made from
// inside the pairing's own function, where a write transaction would hold
// bbolt's only writer's lock, goes through at once. The moves played
// while the pairing runs are timed too: their median stays within 50 ms
// of theirs before it (the median, since on a shared machine the slowest
// of a few hundred bbolt commits says more of the disk and the scheduler
// than of the pairing); inside the write transaction, as before, the
// first move would wait for the whole pairing.
func TestPairingASwissLetsEveryOtherWriteGoOn(t *testing.T) {
	if testing.Short() {
		t.Skip("pairs 400 players")
	}
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := play.New(db, play.Options{OnEnd: []func(play.Tx, *play.Game) error{OnEnd}})
	r := &Runner{Round: mustRound(t, svc), MaxPlayers: 400, Channel: func(_ context.Context, tr *Tournament, board int) (string, error) {
		return fmt.Sprintf("t%d-r%d-b%d", tr.ID, len(tr.Played), board+1), nil
	}}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Open", Organiser: "org", System: Swiss, Rounds: 9, DaysPerMove: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Do(ctx, tr.ID, now, func(t *Tournament) error {
		for i := range 400 {
			if err := t.Join(Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("Player %d", i), Rating: 1000 + (i*7919)%1400}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Round 1 of a field nobody has played in is paired at once (S1
	// against S2); round 2, with its score groups and colours, is the
	// work to overlap with the moves.
	_, err = r.DoPairing(ctx, tr.ID, now, func(t *Tournament) error { _, err := t.Start("org", now); return err })
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Do(ctx, tr.ID, now, func(t *Tournament) error {
		for b := range t.Played[0].Boards {
			if err := t.Record(b, []Outcome{Win, Draw, Loss}[b%3]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Another server's games, a move to play in each.
	var games []play.Game
	for i := range 400 {
		res, err := svc.Start(ctx, play.NewGame{Guild: "g2", Channel: fmt.Sprintf("c%d", i), White: play.Seat{ID: fmt.Sprintf("w%d", i)},
			Black: play.Seat{ID: fmt.Sprintf("b%d", i)}, DaysPerMove: 3, At: now})
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, res.Game)
	}

	play1 := func(g play.Game) time.Duration {
		start := time.Now()
		if _, err := svc.Move(ctx, play.Act{By: g.White.ID, Game: g.ID, Revision: g.Revision, At: now.Add(time.Minute)}, "h2g3"); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		time.Sleep(5 * time.Millisecond)
		return took
	}
	var before []time.Duration
	for _, g := range games[:100] {
		before = append(before, play1(g))
	}
	games = games[100:]

	var pairing atomic.Bool
	pairing.Store(true)
	var wg sync.WaitGroup
	wg.Add(1)
	var paired time.Duration
	go func() {
		defer wg.Done()
		defer pairing.Store(false)
		start := time.Now()
		_, err := r.DoPairing(ctx, tr.ID, now, func(tr *Tournament) error {
			// Were this inside a write transaction, this move would wait
			// for bbolt's writer's lock until the pairing was written.
			done := make(chan error, 1)
			go func() {
				g := games[len(games)-1]
				_, err := svc.Move(ctx, play.Act{By: g.White.ID, Game: g.ID, Revision: g.Revision, At: now.Add(time.Minute)}, "h2g3")
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					return fmt.Errorf("a move made while pairing: %w", err)
				}
			case <-time.After(30 * time.Second):
				return errors.New("a move made while pairing waited 30 s: the pairing holds the write transaction")
			}
			_, err := tr.Next(now)
			return err
		})
		paired = time.Since(start)
		if err != nil {
			t.Error(err)
		}
	}()
	var during []time.Duration
	for _, g := range games[:len(games)-1] {
		if !pairing.Load() {
			break
		}
		during = append(during, play1(g))
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if len(during) < 2 {
		t.Fatalf("the pairing took %v: too short to play moves during it", paired)
	}
	slices.Sort(before)
	slices.Sort(during)
	p99 := func(d []time.Duration) time.Duration { return d[len(d)*99/100] }
	t.Logf("round 2 of 400 paired in %v; %d moves meanwhile: median %v, p99 %v, slowest %v; before it: median %v, p99 %v, slowest %v",
		paired, len(during), during[len(during)/2], p99(during), during[len(during)-1], before[len(before)/2], p99(before), before[len(before)-1])
	if med, was := during[len(during)/2], before[len(before)/2]; med > was+50*time.Millisecond {
		t.Errorf("the pairing (%v) delayed the moves by more than 50 ms: median %v, against %v before it", paired, med, was)
	}
}

// interleaving is a storage that runs before, once, just before the
// first write transaction after arm: another process's act between a
// pairing's snapshot and its write.
type interleaving struct {
	round.Storage
	mu     sync.Mutex
	before func()
}

func (s *interleaving) Update(ctx context.Context, fn func(play.Tx) error) error {
	s.mu.Lock()
	before := s.before
	s.before = nil
	s.mu.Unlock()
	if before != nil {
		before()
	}
	return s.Storage.Update(ctx, fn)
}

func TestAPairingOfATournamentChangedMeanwhileIsMadeAgain(t *testing.T) {
	ctx := context.Background()
	st := &interleaving{Storage: memstore.New()}
	svc := play.New(st, play.Options{OnEnd: []func(play.Tx, *play.Game) error{OnEnd}})
	r := &Runner{Round: mustRound(t, svc), Channel: func(_ context.Context, tr *Tournament, board int) (string, error) {
		return fmt.Sprintf("t%d-r%d-b%d", tr.ID, len(tr.Played), board+1), nil
	}}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Swiss", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	join := func(id string) {
		t.Helper()
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(Member{ID: id, Name: id}) }); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"a", "b", "c"} {
		join(id)
	}
	// Dan signs up while round 1 is paired without him.
	pairings := 0
	st.before = func() { join("d") }
	got, err := r.DoPairing(ctx, tr.ID, now, func(t *Tournament) error { pairings++; _, err := t.Start("org", now); return err })
	if err != nil {
		t.Fatal(err)
	}
	if pairings != 2 || len(got.Members) != 4 || len(got.Played[0].Boards) != 2 || got.Played[0].Bye != -1 {
		t.Fatalf("after %d pairings: %d members, round 1 %+v; want Dan paired too", pairings, len(got.Members), got.Played[0])
	}
	// A tournament that never stops changing gives up.
	tr2, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Busy", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	_, err = r.DoPairing(ctx, tr2.ID, now, func(t *Tournament) error {
		n++
		st.before = func() {
			if _, err := r.Do(ctx, tr2.ID, now, func(t *Tournament) error { t.Name += "!"; return nil }); err != nil {
				panic(err)
			}
		}
		return nil
	})
	if !errors.Is(err, errChanged) || n != pairAttempts {
		t.Fatalf("a tournament changed at every try: %v after %d tries", err, n)
	}
}

func TestATournamentTakesUpToItsPlayers(t *testing.T) {
	tr := Tournament{System: Swiss, Rounds: 3, MaxPlayers: 3}
	for _, id := range []string{"a", "b", "c"} {
		if err := tr.Join(Member{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Join(Member{ID: "d"}); !errors.Is(err, ErrFull) {
		t.Fatalf("a fourth player of three: %v", err)
	}
	if err := tr.Withdraw("b"); err != nil {
		t.Fatal(err)
	}
	if err := tr.Join(Member{ID: "d"}); err != nil {
		t.Fatalf("a player in the place of one who left: %v", err)
	}
	open := Tournament{System: Swiss, Rounds: 3}
	for i := range DefaultMaxPlayers {
		if err := open.Join(Member{ID: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := open.Join(Member{ID: "one more"}); !errors.Is(err, ErrFull) {
		t.Fatalf("player %d of a tournament that sets no cap: %v", DefaultMaxPlayers+1, err)
	}
	// Create gives a tournament the runner's cap.
	r, _ := newRunner(t)
	r.MaxPlayers = 10
	made, err := r.Create(context.Background(), Tournament{Guild: "g1", Name: "Small", Organiser: "org", System: Swiss, Rounds: 3}, time.Now())
	if err != nil || made.MaxPlayers != 10 {
		t.Fatalf("created %+v, %v", made, err)
	}
}
