package playtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// runLessonsSuite checks that a storage keeps each user's progress in
// the lessons: read back equal, the best stars of a step kept, one
// user's progress apart from another's, and stars earned at once by two
// acts both kept.
func runLessonsSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()

	t.Run("progress is read back equal, and a user with none has none", func(t *testing.T) {
		st := open(t)
		want := play.LessonProgress{Stars: map[string][]int{"ice-blocks": {3, 0, 2}}, Updated: T0}
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutLessonProgress("ann", want) }); err != nil {
			t.Fatal(err)
		}
		err := st.View(ctx, func(tx play.ReadTx) error {
			got, err := tx.LessonProgress("ann")
			if err != nil || fmt.Sprint(got.Stars) != fmt.Sprint(want.Stars) || !got.Updated.Equal(T0) {
				return fmt.Errorf("ann's progress read back %+v, %v", got, err)
			}
			if none, err := tx.LessonProgress("bob"); err != nil || none.Stars != nil {
				return fmt.Errorf("bob, who did no lesson: %+v, %v", none, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("a step keeps its best stars, through play", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		for _, stars := range []int{2, 1, 3, 2} {
			if _, err := svc.EarnLessonStars(ctx, "ann", "countdown", 1, stars, T0); err != nil {
				t.Fatal(err)
			}
		}
		p, err := svc.LessonProgress(ctx, "ann")
		if err != nil || p.Best("countdown", 1) != 3 || p.Best("countdown", 0) != 0 || p.Total("countdown") != 3 {
			t.Fatalf("ann's progress %+v, %v", p, err)
		}
		for _, bad := range []struct {
			lesson      string
			step, stars int
		}{{"", 0, 1}, {"x", -1, 1}, {"x", play.MaxLessonSteps, 1}, {"x", 0, 0}, {"x", 0, play.MaxStarsPerStep + 1}} {
			if q, _ := svc.EarnLessonStars(ctx, "ann", bad.lesson, bad.step, bad.stars, T0); q.Total(bad.lesson) != 0 {
				t.Errorf("%+v was kept: %+v", bad, q)
			}
		}
		if _, err := svc.EarnLessonStars(ctx, "", "countdown", 0, 1, T0); err == nil {
			t.Error("progress without a user was kept")
		}
	})

	t.Run("stars earned at once at two steps are both kept", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		var wg sync.WaitGroup
		for step := range 2 {
			wg.Go(func() {
				if _, err := svc.EarnLessonStars(ctx, "ann", "sheltered", step, 3, T0.Add(time.Duration(step)*time.Second)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if p, err := svc.LessonProgress(ctx, "ann"); err != nil || p.Total("sheltered") != 6 {
			t.Fatalf("ann's progress %+v, %v", p, err)
		}
	})
}
