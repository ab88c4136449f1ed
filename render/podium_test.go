package render

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestPodiumPNG(t *testing.T) {
	p := Podium{Title: "Winter Swiss", Dates: "1–20 December 2026", Places: []PodiumPlace{
		{1, "Alice", "4.5"}, {2, "Владимир Ледников", "3.5"}, {2, "A name far too long to stand on one step of the podium", "3.5"}}}
	b, err := PodiumPNG(p, Classic)
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := im.Bounds().Dx(), im.Bounds().Dy(); w != PodiumWidth || h != PodiumHeight {
		t.Fatalf("the podium is %d×%d", w, h)
	}
	if dir := os.Getenv("ICEAGE_TABLE_PNG"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "podium.png"), b, 0o600)
	}
	for _, bad := range []Podium{{}, {Places: make([]PodiumPlace, 4)}, {Places: []PodiumPlace{{Rank: 4}}}} {
		if _, err := PodiumPNG(bad, Classic); err == nil {
			t.Errorf("drew a bad podium %+v", bad)
		}
	}
}

func FuzzPodiumPNG(f *testing.F) {
	f.Add("Title", "1 December", "Alice", "2.5", 1)
	f.Fuzz(func(t *testing.T, title, dates, name, score string, rank int) {
		p := Podium{Title: title, Dates: dates, Places: []PodiumPlace{{Rank: rank, Name: name, Score: score}}}
		_, err := PodiumPNG(p, Theme(rank&7))
		if (err == nil) != (rank >= 1 && rank <= 3) {
			t.Fatalf("rank %d: %v", rank, err)
		}
	})
}

// Notes under a table wrap to its width and never make it wider.
func TestTableNotesWrap(t *testing.T) {
	tb := sampleTable(3)
	plain, err := TablePNG(tb, Classic)
	if err != nil {
		t.Fatal(err)
	}
	tb.Notes = []string{"BH-1: Buchholz without the weakest opponent · BH: Buchholz, the points of the opponents · SB: Sonneborn-Berger, the points of the opponents beaten and half of those drawn"}
	noted, err := TablePNG(tb, Classic)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := png.Decode(bytes.NewReader(plain))
	b, _ := png.Decode(bytes.NewReader(noted))
	if a.Bounds().Dx() != b.Bounds().Dx() || b.Bounds().Dy() < a.Bounds().Dy()+2*21 {
		t.Fatalf("a table of %v with notes is %v: the notes did not wrap", a.Bounds(), b.Bounds())
	}
	for _, text := range []string{"", "x", "averyveryverylongwordwithoutanyspaceatallthatcannotbreakanywhereatallreallyreallylong and more"} {
		lines := wrap(func(s string) float64 { return float64(len([]rune(s))) }, []rune(text), 10)
		for _, l := range lines {
			if len([]rune(l)) > 10 {
				t.Errorf("wrap(%q) gave a line of %d runes", text, len([]rune(l)))
			}
		}
	}
}

func BenchmarkPodiumPNG(b *testing.B) {
	p := Podium{Title: "Winter Swiss", Dates: "1–20 December 2026", Places: []PodiumPlace{{1, "Alice", "4.5"}, {2, "Bob", "4"}, {3, "Carol", "3.5"}}}
	for b.Loop() {
		if _, err := PodiumPNG(p, Classic); err != nil {
			b.Fatal(err)
		}
	}
}
