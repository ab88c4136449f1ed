package bot

import (
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

func TestBoardScopes(t *testing.T) {
	for _, sp := range play.Speeds {
		for _, scope := range []string{scopeServer, scopeGlobal} {
			s, got, ok := parseBoardScope(boardScope(scope, sp))
			if !ok || s != scope || got != sp {
				t.Errorf("%s of %v reads back as %s, %v, %v", scope, sp, s, got, ok)
			}
		}
	}
	for _, bad := range []string{"", "here", "server~", "server~fast", "global~correspondence", "server~BLITZ", "~blitz", "server~blitz~x"} {
		if _, _, ok := parseBoardScope(bad); ok {
			t.Errorf("%q reads as a leaderboard", bad)
		}
	}
}

func TestTimeChoices(t *testing.T) {
	for typed, want := range map[string][]string{
		"":      {"1+0", "3+2", "5+3", "10+5", "15+10"},
		"1":     {"1+0", "10+5", "15+10"},
		"4+2":   {"4+2", "1+0", "3+2", "5+3", "10+5", "15+10"},
		"zzz":   {"1+0", "3+2", "5+3", "10+5", "15+10"},
		"999+0": {"1+0", "3+2", "5+3", "10+5", "15+10"},
	} {
		var got []string
		for _, c := range timeChoices(i18n.English, typed) {
			got = append(got, c.Value.(string))
		}
		if len(got) != len(want) {
			t.Errorf("%q offers %v, want %v", typed, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q offers %v, want %v", typed, got, want)
				break
			}
		}
	}
}

// A move's lag is measured from the time in its interaction's id, when
// that time is believable.
func TestSentAt(t *testing.T) {
	at := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	id := func(sent time.Time) string {
		return strconv.FormatUint(uint64(sent.UnixMilli()-1420070400000)<<22, 10)
	}
	for _, tt := range []struct {
		name string
		id   string
		want time.Time
	}{
		{"300 ms on the way", id(at.Add(-300 * time.Millisecond)), at.Add(-300 * time.Millisecond)},
		{"stamped after it arrived", id(at.Add(time.Second)), time.Time{}},
		{"a minute off", id(at.Add(-time.Minute)), time.Time{}},
		{"no snowflake", "abc", time.Time{}},
	} {
		in := &interaction{i: &discordgo.Interaction{ID: tt.id}}
		if got := in.sentAt(at); !got.Equal(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
