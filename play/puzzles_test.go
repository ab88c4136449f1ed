package play_test

import (
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
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
