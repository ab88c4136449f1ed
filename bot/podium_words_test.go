package bot

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/render"
)

// The final post speaks every language: its words, the podium's
// picture and the picture's alt text say the scores as the reader's
// language writes numbers ("1,5" in French, not "1.5"), under the
// language's title, with the final table beside the podium.
func TestTheFinalPostSpeaksEveryLanguage(t *testing.T) {
	b := &tournaments{shared: &shared{}}
	tn := goldenTournament(t, "final")
	st := tn.Standings()
	for _, lang := range i18n.Languages() {
		t.Run(string(lang), func(t *testing.T) {
			m, err := b.podiumMessage(lang, tn)
			if err != nil {
				t.Fatal(err)
			}
			if want := "**" + tr(lang, "tournament.final.title", map[string]any{"Name": tn.Name}) + "**"; !strings.HasPrefix(m.Content, want) {
				t.Errorf("the post begins %q, want %q", m.Content, want)
			}
			if len(m.Embeds) != 2 || m.Embeds[0].Title != truncate(tr(lang, "tournament.final.table", map[string]any{"Name": tn.Name}), 250) {
				t.Fatalf("the post's embeds: %d, the first titled %q", len(m.Embeds), m.Embeds[0].Title)
			}
			if len(m.images) != 2 || m.images[0].name != "podium.png" || m.images[1].name != "standings.png" {
				t.Fatalf("the post's pictures: %+v", m.images)
			}
			lines := strings.Split(m.Content, "\n")[1:]
			if len(lines) != 3 {
				t.Fatalf("%d lines for the podium, want 3:\n%s", len(lines), m.Content)
			}
			for i, line := range lines {
				score := i18n.Points(lang, int(st[i].Score), 2)
				if !strings.HasSuffix(line, " ("+score+")") {
					t.Errorf("place %d is written %q, want the score as %q", i+1, line, score)
				}
				if want := fmt.Sprintf("%d. %s %s", min(st[i].Rank, 3), tn.Members[st[i].Player].Name, score); !strings.Contains(m.images[0].alt, want) {
					t.Errorf("the podium's alt text %q does not say %q", m.images[0].alt, want)
				}
			}
			im, err := png.Decode(bytes.NewReader(m.images[0].data))
			if err != nil || im.Bounds().Dx() != render.PodiumWidth || im.Bounds().Dy() != render.PodiumHeight {
				t.Fatalf("the podium's picture: %v, %v", im.Bounds(), err)
			}
			if dir := os.Getenv("ICEAGE_TOURNAMENT_PNG"); dir != "" {
				_ = os.WriteFile(filepath.Join(dir, "podium-"+string(lang)+".png"), m.images[0].data, 0o600)
			}
		})
	}
}
