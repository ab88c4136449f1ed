package bot

import (
	"bytes"
	"flag"
	"fmt"
	stdimage "image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/tournament"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden pictures in testdata/")

// goldenTournament is a Swiss of six in the stage asked: "before" the
// first round, "during" round 2 (one game over), "after" round 2, or
// "final" after its three rounds.
func goldenTournament(t *testing.T, stage string) *tournament.Tournament {
	t.Helper()
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	tr := &tournament.Tournament{Name: "Кубок зимы · Coupe d'hiver", Organiser: "org", System: tournament.Swiss, Rounds: 3}
	names := []string{"Алёна", "Bérénice", "Дмитрий", "Jérôme", "Ольга", "Zoë"}
	for i, n := range names {
		if err := tr.Join(tournament.Member{ID: fmt.Sprint(i), Name: n, Rating: 1900 - 60*i}); err != nil {
			t.Fatal(err)
		}
	}
	if stage == "before" {
		return tr
	}
	if _, err := tr.Start("org", start); err != nil {
		t.Fatal(err)
	}
	results := []tournament.Outcome{tournament.Win, tournament.Draw, tournament.Loss}
	for round := 1; round <= 3; round++ {
		r := &tr.Played[len(tr.Played)-1]
		for b := range r.Boards {
			if stage == "during" && round == 2 && b > 0 {
				return tr
			}
			if err := tr.Record(b, results[(b+round)%3]); err != nil {
				t.Fatal(err)
			}
		}
		if stage == "after" && round == 2 {
			return tr
		}
		if _, err := tr.Next(start.Add(time.Duration(round) * 7 * 24 * time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// TestTournamentGoldenPictures: the standings before, during and after
// a round and at the end, and the podium, in French and in Russian, as
// the bot draws them.
func TestTournamentGoldenPictures(t *testing.T) {
	b := &tournaments{shared: &shared{}}
	for _, lang := range []i18n.Lang{i18n.French, i18n.Russian} {
		for _, stage := range []string{"before", "during", "after", "final"} {
			tr := goldenTournament(t, stage)
			m, err := b.standingsMessage(lang, tr)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, fmt.Sprintf("standings-%s-%s", stage, lang), m.images[0].data)
		}
		tr := goldenTournament(t, "final")
		m, err := b.podiumMessage(lang, tr)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.images) != 2 || m.images[0].name != "podium.png" {
			t.Fatalf("the final post's pictures: %d", len(m.images))
		}
		checkGolden(t, fmt.Sprintf("podium-%s", lang), m.images[0].data)
	}
}

func checkGolden(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("testdata", "tournament", name+".png")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bot -run TestTournamentGoldenPictures -update to create it)", err)
	}
	want, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if msg := pictureDiff(want, got); msg != "" {
		actual := filepath.Join("testdata", "tournament", name+".actual.png")
		_ = os.WriteFile(actual, data, 0o644)
		t.Errorf("%s differs from %s: %s (written to %s; run with -update if the change is wanted)", name, path, msg, actual)
	}
}

// pictureDiff allows what a different encoder or anti-aliasing changes:
// at most 0.2 % of the pixels may differ by more than 24 in a channel.
func pictureDiff(want, got stdimage.Image) string {
	if want.Bounds() != got.Bounds() {
		return fmt.Sprintf("size %v, want %v", got.Bounds(), want.Bounds())
	}
	bad := 0
	r := want.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			a := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			c := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA)
			for _, d := range []int{int(a.R) - int(c.R), int(a.G) - int(c.G), int(a.B) - int(c.B), int(a.A) - int(c.A)} {
				if d > 24 || d < -24 {
					bad++
					break
				}
			}
		}
	}
	if limit := r.Dx() * r.Dy() / 500; bad > limit {
		return fmt.Sprintf("%d pixels differ (at most %d may)", bad, limit)
	}
	return ""
}
