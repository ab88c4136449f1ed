package activity

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

func TestTimeControlsOfTheLobby(t *testing.T) {
	for text, want := range map[string]string{"": "", " ": "", "1+0": "1+0", "5+3": "5+3", "10 + 5": "10+5", "180+180": "180+180", "15": "15+0"} {
		r := challengeRequest{Time: text}
		tc, err := r.timeControl()
		if err != nil || tc.String() != want {
			t.Errorf("%q reads as %q, %v; want %q", text, tc, err, want)
		}
	}
	for _, text := range []string{"0+0", "181+0", "1+181", "blitz", "1+", "-1+0", "1.5+0"} {
		r := challengeRequest{Time: text}
		var bad *play.TimeControlError
		if _, err := r.timeControl(); !errors.As(err, &bad) {
			t.Errorf("%q: %v, want a time control's error", text, err)
		}
	}
}

// TestARefusalsTimesAreTheViewers: a time in a refusal reads as the
// viewer's clock does, in the zone their page names; in UTC, said so,
// when it names none the server knows.
func TestARefusalsTimesAreTheViewers(t *testing.T) {
	at := time.Date(2026, 12, 31, 23, 30, 0, 0, time.UTC)
	x := &play.Refusal{Kind: play.TimeUp, Deadline: at}
	for zoneName, want := range map[string]string{
		"Europe/Oslo":      "1 Jan 2027 00:30",
		"America/New_York": "31 Dec 2026 18:30",
		"":                 "31 Dec 2026 23:30 UTC",
		"Mars/Olympus":     "31 Dec 2026 23:30 UTC",
	} {
		got := refusalText(i18n.English, x, zone(zoneName))
		if !strings.Contains(got, want) {
			t.Errorf("in %q the refusal reads %q, want %q in it", zoneName, got, want)
		}
	}
	if got := refusalText(i18n.French, x, zone("Europe/Paris")); !strings.Contains(got, "1 janv. 2027 00:30") {
		t.Errorf("in French, in Paris: %q", got)
	}
}

func TestValidZone(t *testing.T) {
	for s, want := range map[string]bool{"": true, "Europe/Oslo": true, "America/Argentina/Buenos_Aires": true, "Etc/GMT+5": true, "UTC": true,
		"Local": false, "../etc/passwd": false, "/etc/localtime": false, "Europe/Oslo\x00": false, "a b": false, strings.Repeat("A", 65): false} {
		if got := validZone(s); got != want {
			t.Errorf("validZone(%q) = %v", s, got)
		}
	}
}

// FuzzParseChallengeRequest: no input panics, and one accepted names an
// instance of Discord's shape, a user by id or nobody, a colour play
// knows, a time control short enough to read and a zone that names no
// path; its time control reads as a valid one or as a time control's
// error, never anything else.
func FuzzParseChallengeRequest(f *testing.F) {
	f.Add([]byte(`{"instance":"i-1-gc-2-3","to":"4","time":"5+3","color":"white","rated":true,"tz":"Europe/Oslo"}`))
	f.Add([]byte(`{"instance":"i-1-gc-2-3","to":"","time":"","color":"random"}`))
	f.Add([]byte(`{"instance":"i-1-gc-2-3","time":"9999+9999","color":"black","tz":"../x"}`))
	f.Add([]byte(`{"to":1}`))
	f.Add([]byte(`{"instance":"i-1-gc-2-3","engine":true,"level":3,"time":"1+0","color":"white"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseChallengeRequest(body)
		if err != nil {
			return
		}
		if !validInstance(r.Instance) || r.To != "" && !snowflake(r.To) || len(r.Time) > maxTimeText || !validZone(r.Zone) ||
			r.Color != string(play.Random) && r.Color != string(play.WhiteSide) && r.Color != string(play.BlackSide) {
			t.Errorf("accepted %+v", r)
		}
		if r.Engine && r.To != "" || r.Level < 0 || r.Level > 8 || !r.Engine && r.Level != 0 {
			t.Errorf("accepted the engine's terms %+v", r)
		}
		if strings.Contains(r.Zone, "..") || strings.HasPrefix(r.Zone, "/") {
			t.Errorf("accepted the zone %q, a path", r.Zone)
		}
		tc, err := r.timeControl()
		var bad *play.TimeControlError
		if err != nil && !errors.As(err, &bad) || err == nil && !tc.Valid() {
			t.Errorf("%q reads as %v, %v", r.Time, tc, err)
		}
	})
}

func FuzzParseAnswerRequest(f *testing.F) {
	f.Add([]byte(`{"instance":"i-1-gc-2-3","challenge":7,"accept":true}`))
	f.Add([]byte(`{"instance":"i-1-gc-2-3","challenge":0}`))
	f.Add([]byte(`{"challenge":-1,"tz":"Local"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseAnswerRequest(body)
		if err == nil && (!validInstance(r.Instance) || r.Challenge == 0 || !validZone(r.Zone)) {
			t.Errorf("accepted %+v", r)
		}
	})
}
