package playtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// runPuzzleSuite checks the puzzle records: a player's per scope, a
// puzzle's stats, a server's daily puzzle; rated once per puzzle.
func runPuzzleSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	t.Run("puzzle records are kept per scope, read back equal, and walked by scope", func(t *testing.T) {
		st := open(t)
		a := play.NewPuzzler("g1", "u1")
		a.Name, a.Current, a.Ply, a.Tried = "Ann", "abc123", 1, []string{"x1", "x2"}
		b := play.NewPuzzler("g1", "u2")
		c := play.NewPuzzler("", "u1")
		err := st.Update(ctx, func(tx play.Tx) error {
			return errors.Join(tx.PutPuzzler(a), tx.PutPuzzler(b), tx.PutPuzzler(c),
				tx.PutPuzzleStats(play.NewPuzzleStats("abc123", 1234)), tx.PutPuzzleStats(play.NewPuzzleStats("abc124", 1700)),
				tx.PutDailyPuzzle(play.DailyPuzzle{Guild: "g1", Channel: "c1", Hour: 7, Day: "2026-12-01", Puzzle: "abc123", Message: "m1", Solvers: []string{"u1"}}))
		})
		if err != nil {
			t.Fatal(err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			got, err := tx.Puzzler("g1", "u1")
			if err != nil || got.Name != "Ann" || got.Current != "abc123" || got.Ply != 1 || fmt.Sprint(got.Tried) != "[x1 x2]" || got.Rating.Rating != play.DefaultRating {
				return fmt.Errorf("puzzle record %+v, %v", got, err)
			}
			if _, err := tx.Puzzler("g2", "u1"); !errors.Is(err, play.ErrNotFound) {
				return fmt.Errorf("a user with no puzzle record in g2: %v", err)
			}
			var users []string
			if err := tx.Puzzlers("g1", func(p play.Puzzler) error { users = append(users, p.User); return nil }); err != nil || len(users) != 2 {
				return fmt.Errorf("puzzle records of g1: %v, %v", users, err)
			}
			s, err := tx.PuzzleStats("abc123")
			if err != nil || s.Rating.Rating != 1234 || s.Rating.Deviation != play.DefaultDeviation {
				return fmt.Errorf("puzzle stats %+v, %v", s, err)
			}
			if _, err := tx.PuzzleStats("never"); !errors.Is(err, play.ErrNotFound) {
				return fmt.Errorf("a puzzle never tried: %v", err)
			}
			tried := map[string]float64{}
			if err := tx.TriedPuzzles(func(s play.PuzzleStats) error { tried[s.ID] = s.Rating.Rating; return nil }); err != nil || fmt.Sprint(tried) != "map[abc123:1234 abc124:1700]" {
				return fmt.Errorf("the puzzles tried: %v, %v", tried, err)
			}
			d, err := tx.DailyPuzzle("g1")
			if err != nil || d.Channel != "c1" || d.Hour != 7 || d.Message != "m1" || fmt.Sprint(d.Solvers) != "[u1]" {
				return fmt.Errorf("daily puzzle %+v, %v", d, err)
			}
			if none, err := tx.DailyPuzzle("g9"); err != nil || none.On() {
				return fmt.Errorf("the daily puzzle of a server that has none: %+v, %v", none, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a first try is rated once: both ratings move, the streak follows", func(t *testing.T) {
		st := open(t)
		at := T0
		for i, solved := range []bool{true, true, false, true} {
			err := st.Update(ctx, func(tx play.Tx) error {
				p, err := tx.Puzzler("g1", "u1")
				if errors.Is(err, play.ErrNotFound) {
					p = play.NewPuzzler("g1", "u1")
				} else if err != nil {
					return err
				}
				id := fmt.Sprintf("p%d", i)
				s, err := tx.PuzzleStats(id)
				if errors.Is(err, play.ErrNotFound) {
					s = play.NewPuzzleStats(id, 1500)
				} else if err != nil {
					return err
				}
				play.RatePuzzle(&p, &s, solved, at)
				play.RatePuzzle(&p, &s, solved, at) // the same puzzle again: not rated twice
				return errors.Join(tx.PutPuzzler(p), tx.PutPuzzleStats(s))
			})
			if err != nil {
				t.Fatal(err)
			}
			at = at.Add(time.Minute)
		}
		err := st.View(ctx, func(tx play.ReadTx) error {
			p, err := tx.Puzzler("g1", "u1")
			if err != nil || p.Rated != 4 || p.Solved != 3 || p.Streak != 1 || p.BestStreak != 2 || len(p.Tried) != 4 {
				return fmt.Errorf("after four first tries: %+v, %v", p, err)
			}
			s, err := tx.PuzzleStats("p2")
			if err != nil || s.Tries != 1 || s.Solved != 0 || s.Rating.Rating <= 1500 {
				return fmt.Errorf("a puzzle that beat its solver: %+v, %v", s, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
