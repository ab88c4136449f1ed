package play_test

import (
	"context"
	"errors"
	"testing"

	"github.com/iceagechess/iceage/play"
)

func TestABoardThemeIsKeptOrRefused(t *testing.T) {
	d := newDesk(t, play.Options{})
	ctx := context.Background()
	for _, theme := range append([]string{""}, play.Themes...) {
		saved, err := d.svc.SetPrefs(ctx, "u", play.Prefs{Theme: theme}, d.now)
		if err != nil || saved.Theme != theme {
			t.Fatalf("theme %q: saved %q, %v", theme, saved.Theme, err)
		}
		if p, err := d.svc.Prefs(ctx, "u"); err != nil || p.Theme != theme {
			t.Errorf("theme %q reads back as %q, %v", theme, p.Theme, err)
		}
	}
	var x *play.Refusal
	if _, err := d.svc.SetPrefs(ctx, "u", play.Prefs{Theme: "pink"}, d.now); !errors.As(err, &x) || x.Kind != play.BadSettings {
		t.Errorf("an unknown theme: %v", err)
	}
}
