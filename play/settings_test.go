package play_test

import (
	"testing"

	"github.com/iceagechess/iceage/play"
)

// Settings reads a user's preferences and their server's settings in one
// read, as Prefs and ServerSettings read them one by one.
func TestSettingsReadsThePrefsAndTheServersTogether(t *testing.T) {
	svc, _ := newService(play.Options{})
	if _, err := svc.SetPrefs(ctx, ann.ID, play.Prefs{Language: "fr"}, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetServerSettings(ctx, "111", play.ServerSettings{Language: "nb"}, ann.ID, t0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		user, guild    string
		lang, language string
	}{
		{ann.ID, "111", "fr", "nb"},
		{ann.ID, "", "fr", ""}, // no server: its settings are not read
		{bob.ID, "111", "", "nb"},
		{bob.ID, "222", "", ""},
	} {
		p, s, err := svc.Settings(ctx, c.user, c.guild)
		if err != nil || p.Language != c.lang || s.Language != c.language {
			t.Errorf("Settings(%s, %q) = %q, %q, %v; want %q, %q", c.user, c.guild, p.Language, s.Language, err, c.lang, c.language)
		}
	}
}
