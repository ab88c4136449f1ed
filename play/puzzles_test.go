package play_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

func TestDailyKeysReadBackAndNothingElseDoes(t *testing.T) {
	key := play.DailyKey("g1", "2026-12-04", 18)
	if g, d, h, ok := play.ParseDailyKey(key); !ok || g != "g1" || d != "2026-12-04" || h != 18 {
		t.Fatalf("ParseDailyKey(%q) = %q %q %d %v", key, g, d, h, ok)
	}
	for _, bad := range []string{"", "puzzle.daily:g1:2026-12-04", "puzzle.daily:g1:2026-13-04:18", "puzzle.daily:g1:2026-12-04:24", "g12:x:y:z", "puzzle.daily::2026-12-04:1"} {
		if _, _, _, ok := play.ParseDailyKey(bad); ok {
			t.Errorf("ParseDailyKey(%q) read it", bad)
		}
	}
}

func TestTheNextPostIsAtTheHourToday(t *testing.T) {
	d := play.DailyPuzzle{Hour: 18}
	at := time.Date(2026, 12, 4, 17, 30, 0, 0, time.UTC)
	if got := d.NextPost(at); !got.Equal(time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("before the hour: %v", got)
	}
	if got := d.NextPost(at.Add(time.Hour)); !got.Equal(time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("after the hour: %v", got)
	}
}

func FuzzParseDailyKey(f *testing.F) {
	f.Add("puzzle.daily:g1:2026-12-04:18")
	f.Fuzz(func(t *testing.T, key string) {
		g, d, h, ok := play.ParseDailyKey(key)
		if ok && play.DailyKey(g, d, h) != key {
			t.Fatalf("%q read as %q %q %d", key, g, d, h)
		}
	})
}

// A member can solve the puzzle of the day from its post before the post
// is recorded (its record follows the post): the solve is counted then.
func TestADailySolveBeforeThePostIsRecordedCounts(t *testing.T) {
	ctx := context.Background()
	svc := play.New(memstore.New(), play.Options{})
	at := time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)
	if _, err := svc.SetDailyPuzzle(ctx, "1001", "2002", 18, at); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.DailyPosted(ctx, "1001", "2026-12-03", "p1", "3003", at.Add(-24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"4004", "4004", "5005"} {
		if _, _, err := svc.DailySolved(ctx, "1001", "2026-12-04", u); err != nil {
			t.Fatal(err)
		}
	}
	if _, added, _ := svc.DailySolved(ctx, "1001", "2026-12-02", "6006"); added {
		t.Error("a solve of a day before the last post's was counted")
	}
	if d, _ := svc.DailyPuzzleOf(ctx, "1001"); len(d.Solvers) != 0 {
		t.Errorf("yesterday's post counts today's solvers: %v", d.Solvers)
	}
	d, err := svc.DailyPosted(ctx, "1001", "2026-12-04", "p2", "3004", at)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Solvers, []string{"4004", "5005"}) || d.Early != nil || d.Next != "" {
		t.Errorf("the post recorded after two solves: %+v", d)
	}
	if _, added, _ := svc.DailySolved(ctx, "1001", "2026-12-04", "5005"); added {
		t.Error("a solver counted early was counted again")
	}
	d, _ = svc.DailyPosted(ctx, "1001", "2026-12-05", "p3", "3005", at.Add(24*time.Hour))
	if len(d.Solvers) != 0 {
		t.Errorf("the next day's post starts with solvers: %v", d.Solvers)
	}
}
