package pgstore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/play"
)

// A notification carries the game's record when it fits PostgreSQL's
// limit, and its id and revision alone otherwise.
func TestANotificationCarriesTheRecordWhenItFits(t *testing.T) {
	for _, size := range []int{0, 10, 5900, 5990, 6000, 100000} {
		g := play.Game{ID: 18446744073709551615, Revision: 1 << 30}
		rec := bytes.Repeat([]byte{0xfb}, size)
		p := notification(&g, rec)
		if len(p) > maxPayload {
			t.Fatalf("a record of %d bytes makes a notification of %d bytes", size, len(p))
		}
		c, err := parseNotification(p)
		if err != nil || c.Game != g.ID || c.Revision != g.Revision {
			t.Fatalf("%d bytes: %+v, %v", size, c, err)
		}
		fits := 21+11+(size+2)/3*4 <= maxPayload
		if fits && !bytes.Equal(c.Record, rec) || !fits && c.Record != nil {
			t.Fatalf("a record of %d bytes comes back as %d bytes", size, len(c.Record))
		}
	}
	if c, err := parseNotification("t 42"); err != nil || c.Tournament != 42 || c.Game != 0 {
		t.Fatalf("a tournament's notification reads as %+v, %v", c, err)
	}
	for _, bad := range []string{"t", "t 0", "t x", "t 1 2"} {
		if c, err := parseNotification(bad); err == nil {
			t.Errorf("%q reads as %+v", bad, c)
		}
	}
	for _, bad := range []string{"", "1", "x 1", "1 x", "1 2 !!"} {
		c, err := parseNotification(bad)
		if err == nil && (c.Record != nil || strings.Count(bad, " ") < 1) {
			t.Errorf("%q reads as %+v", bad, c)
		}
	}
}

func FuzzParseNotification(f *testing.F) {
	f.Add("12 3 AAEC")
	f.Add("12 3")
	f.Add("1 2 !!")
	f.Add("t 7")
	f.Fuzz(func(t *testing.T, p string) {
		c, err := parseNotification(p)
		if err == nil && c.Record != nil {
			g := play.Game{ID: c.Game, Revision: c.Revision}
			if back, err := parseNotification(notification(&g, c.Record)); err != nil || !bytes.Equal(back.Record, c.Record) && back.Record != nil {
				t.Fatalf("%q: %+v does not come back: %+v %v", p, c, back, err)
			}
		}
	})
}
