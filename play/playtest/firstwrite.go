package playtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// runFirstWriteSuite checks that a record read to be updated is updated
// by each of several transactions at once even when none of them finds
// it yet: the first writes of a new player's, puzzle's or server's
// records must all be kept, none overwritten by another's insert.
func runFirstWriteSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	const writers = 2
	for _, c := range []struct {
		name string
		// bump adds the i-th write to the record, made anew if missing,
		// calling read once it has read the record.
		bump func(tx play.Tx, i int, read func()) error
		// count returns how many writes the record kept.
		count func(tx play.ReadTx) (int, error)
	}{{
		name: "a new player's puzzle tries at once are all counted",
		bump: func(tx play.Tx, i int, read func()) error {
			p, err := tx.Puzzler("g1", "u1")
			read()
			if errors.Is(err, play.ErrNotFound) {
				p = play.NewPuzzler("g1", "u1")
			} else if err != nil {
				return err
			}
			p.Rated++
			p.Tried = append(p.Tried, fmt.Sprintf("p%d", i))
			return tx.PutPuzzler(p)
		},
		count: func(tx play.ReadTx) (int, error) {
			p, err := tx.Puzzler("g1", "u1")
			if len(p.Tried) != p.Rated {
				return 0, fmt.Errorf("%d rated, %v tried", p.Rated, p.Tried)
			}
			return p.Rated, err
		},
	}, {
		name: "a new puzzle's rating moved by solvers at once keeps every try",
		bump: func(tx play.Tx, _ int, read func()) error {
			s, err := tx.PuzzleStats("fresh")
			read()
			if errors.Is(err, play.ErrNotFound) {
				s = play.NewPuzzleStats("fresh", 1500)
			} else if err != nil {
				return err
			}
			s.Tries++
			s.Rating.Rating += 10
			return tx.PutPuzzleStats(s)
		},
		count: func(tx play.ReadTx) (int, error) {
			s, err := tx.PuzzleStats("fresh")
			if s.Rating.Rating != 1500+10*float64(s.Tries) {
				return 0, fmt.Errorf("rating %v after %d tries", s.Rating.Rating, s.Tries)
			}
			return s.Tries, err
		},
	}, {
		name: "a new player's games ended at once are all counted",
		bump: func(tx play.Tx, _ int, read func()) error {
			p, err := tx.Player("g1", "u1")
			read()
			if errors.Is(err, play.ErrNotFound) {
				p = play.NewPlayer("g1", "u1")
			} else if err != nil {
				return err
			}
			p.RatedGames++
			return tx.PutPlayer(p)
		},
		count: func(tx play.ReadTx) (int, error) {
			p, err := tx.Player("g1", "u1")
			return p.RatedGames, err
		},
	}, {
		name: "a new server's first games ended at once are all counted",
		bump: func(tx play.Tx, _ int, read func()) error {
			st, err := tx.Stats("g1")
			read()
			if err != nil {
				return err
			}
			st.Scope = "g1"
			st.Draws++
			return tx.PutStats(st)
		},
		count: func(tx play.ReadTx) (int, error) {
			st, err := tx.Stats("g1")
			return st.Draws, err
		},
	}, {
		name: "a user's first posts at once are all capped",
		bump: func(tx play.Tx, i int, read func()) error {
			r, err := tx.Recent("u1")
			read()
			if err != nil {
				return err
			}
			r.Posts = append(r.Posts, T0.Add(time.Duration(i)*time.Second))
			return tx.PutRecent("u1", r)
		},
		count: func(tx play.ReadTx) (int, error) {
			r, err := tx.Recent("u1")
			return len(r.Posts), err
		},
	}} {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			// The writers meet once they have all read, so that each
			// decides before another committed; a storage that makes
			// the later ones wait for the first is let go on after a
			// while.
			var mu sync.Mutex
			reads, met := 0, make(chan struct{})
			read := func() {
				mu.Lock()
				if reads++; reads == writers {
					close(met)
				}
				mu.Unlock()
				select {
				case <-met:
				case <-time.After(250 * time.Millisecond):
				}
			}
			// Readers at once first, so that a storage with a pool of
			// connections has one ready for each writer: writers that
			// waited to connect would run one after the other.
			var wg sync.WaitGroup
			viewers, seen := sync.WaitGroup{}, make(chan struct{})
			viewers.Add(writers)
			go func() { viewers.Wait(); close(seen) }()
			for range writers {
				wg.Go(func() {
					_ = st.View(ctx, func(play.ReadTx) error {
						viewers.Done()
						select {
						case <-seen:
						case <-time.After(time.Second):
						}
						return nil
					})
				})
			}
			wg.Wait()
			for i := range writers {
				wg.Go(func() {
					if err := st.Update(ctx, func(tx play.Tx) error { return c.bump(tx, i, read) }); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			var n int
			err := st.View(ctx, func(tx play.ReadTx) error {
				var err error
				n, err = c.count(tx)
				return err
			})
			if err != nil || n != writers {
				t.Fatalf("%d of %d writes kept, %v", n, writers, err)
			}
		})
	}
}
