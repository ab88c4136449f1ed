package pgstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/schedule/clocktest"
)

// counter is a Notifier that counts, per game, the timeouts announced:
// the boards with a timeout that the round writes in the outbox of its
// storage (count), once their transaction commits.
type counter struct {
	mu       sync.Mutex
	timeouts map[uint64]int
	n        int
}

func (c *counter) Remind(context.Context, round.Reminder) error { return nil }
func (c *counter) Expired(context.Context, round.Expired) error { return nil }

// count returns st, whose committed timeouts c counts.
func (c *counter) count(st *pgstore.Store) round.Storage { return counted{st, c} }

type counted struct {
	*pgstore.Store
	c *counter
}

func (s counted) Update(ctx context.Context, fn func(play.Tx) error) error {
	var games []uint64
	err := s.Store.Update(ctx, func(tx play.Tx) error {
		games = games[:0]
		return fn(countedTx{tx, &games})
	})
	if err == nil && len(games) > 0 {
		s.c.mu.Lock()
		defer s.c.mu.Unlock()
		if s.c.timeouts == nil {
			s.c.timeouts = map[uint64]int{}
		}
		for _, id := range games {
			s.c.timeouts[id]++
			s.c.n++
		}
	}
	return err
}

type countedTx struct {
	play.Tx
	games *[]uint64
}

func (t countedTx) PutOutbox(items ...play.OutboxItem) error {
	for _, it := range items {
		if it.Kind != round.KindBoard {
			continue
		}
		d, err := round.DecodeDelivery(it)
		if err != nil {
			return err
		}
		for _, e := range d.Events {
			if _, ok := e.(round.TimedOut); ok {
				*t.games = append(*t.games, d.Game.ID)
			}
		}
	}
	return t.Tx.PutOutbox(items...)
}

// newRound is a round on st.
func newRound(t testing.TB, st round.Storage) *round.Round {
	t.Helper()
	r, err := round.New(play.New(st, play.Options{}), round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// dueGames writes n active games whose deadlines (a day per move) have
// passed by the time it returns, one move played in each.
func dueGames(t testing.TB, st play.Storage, n int) time.Time {
	t.Helper()
	now := time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC)
	pos := game.StartPosition()
	mv, err := game.ParseMove(&pos, "hxg3")
	if err != nil {
		t.Fatal(err)
	}
	after := pos.Apply(mv)
	fen := after.FEN()
	for start := 0; start < n; start += 500 {
		err = st.Update(ctx, func(tx play.Tx) error {
			for i := start; i < min(n, start+500); i++ {
				id, err := tx.NextID()
				if err != nil {
					return err
				}
				at := now.Add(-48*time.Hour + time.Duration(i)*time.Second)
				g := play.Game{ID: id, Revision: 2, Last: play.Moved, Guild: "g", Channel: fmt.Sprint("c", i),
					White: play.Seat{ID: fmt.Sprint("w", i)}, Black: play.Seat{ID: fmt.Sprint("b", i)},
					StartFEN: game.StartFEN, FEN: fen, Moves: []play.Move{{UCI: "h2g3", At: at}}, Created: at, Updated: at,
					DaysPerMove: 1, Deadline: at.Add(24 * time.Hour), RemindAt: at.Add(23 * time.Hour)}
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return now
}

// TestTwoSchedulers runs the schedulers of two processes — two pools on
// one database, each with its own claims — over 1,000 due deadlines at
// once: every game times out, and each timeout is announced once.
func TestTwoSchedulers(t *testing.T) {
	const games = 1000
	// Every timeout writes the same statistics rows, so the two processes
	// take turns on their locks: on a loaded machine one transaction may
	// wait longer than the default's 2 s. What is tested is that each
	// timeout is announced once, not how fast.
	opts := &pgstore.Options{TxTimeout: time.Minute}
	a, url := openTest(t, opts)
	now := dueGames(t, a, games)
	b, err := pgstore.Open(ctx, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	var wg sync.WaitGroup
	notes := make([]*counter, 2)
	for i, st := range []*pgstore.Store{a, b} {
		notes[i] = &counter{}
		sch := schedule.New(schedule.Options{Clock: clocktest.New(now), Claimer: st.Claimer(fmt.Sprint("process", i), 0), Logger: quiet})
		r := newRound(t, notes[i].count(st))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := sch.RunDue(ctx, r, notes[i]); err != nil {
				t.Errorf("scheduler %d: %v", i, err)
			}
		}()
	}
	wg.Wait()

	total := map[uint64]int{}
	for _, c := range notes {
		for id, n := range c.timeouts {
			total[id] += n
		}
	}
	for id, n := range total {
		if n != 1 {
			t.Errorf("game %d: announced %d times", id, n)
		}
	}
	if len(total) != games {
		t.Errorf("%d games announced, want %d", len(total), games)
	}
	t.Logf("the two schedulers announced %d and %d timeouts", notes[0].n, notes[1].n)
	err = a.View(ctx, func(tx play.ReadTx) error {
		if d, _ := tx.Due(play.DueDeadline, now, 10); len(d) != 0 {
			return fmt.Errorf("still due: %+v", d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestClaimsOfADeadProcessAreTakenOver: a process claims due items and
// dies before it handles them; once its claims lapse another takes them.
func TestClaimsOfADeadProcessAreTakenOver(t *testing.T) {
	st, _ := openTest(t, nil)
	now := dueGames(t, st, 10)
	dead := st.Claimer("dead", 500*time.Millisecond)
	got, err := dead.Claim(ctx, play.DueDeadline, now, 100)
	if err != nil || len(got) != 10 {
		t.Fatalf("the first claim: %d items, %v; want 10", len(got), err)
	}
	alive := st.Claimer("alive", 0)
	if got, err := alive.Claim(ctx, play.DueDeadline, now, 100); err != nil || len(got) != 0 {
		t.Fatalf("claimed items held by another: %d, %v", len(got), err)
	}
	time.Sleep(time.Second)
	note := &counter{}
	sch := schedule.New(schedule.Options{Clock: clocktest.New(now), Claimer: alive, Logger: quiet})
	if _, _, err := sch.RunDue(ctx, newRound(t, note.count(st)), note); err != nil {
		t.Fatal(err)
	}
	if note.n != 10 {
		t.Fatalf("%d timeouts announced after the claims lapsed, want 10", note.n)
	}
}

var quiet = slog.New(slog.DiscardHandler)
