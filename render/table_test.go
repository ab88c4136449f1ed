package render

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleTable(rows int) Table {
	tb := Table{Title: "Winter Swiss — standings after round 3", Columns: []string{"#", "Player", "Pts", "BH-1", "BH", "SB"}, Podium: 3, Left: []int{1}}
	names := []string{"Alice", "Bob", "Carol", "Dan", "Ærøskøbing Ølstad", "Владимир"}
	for i := 0; i < rows; i++ {
		tb.Rows = append(tb.Rows, []string{strings.Repeat("", 0) + string(rune('1'+i%9)), names[i%len(names)], "2.5", "4", "5.5", "3.25"})
	}
	return tb
}

func TestTablePNG(t *testing.T) {
	b, err := TablePNG(sampleTable(6), Classic)
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := im.Bounds().Dx(), im.Bounds().Dy(); w < 320 || h < 6*30 {
		t.Fatalf("a table of 6 rows is %d×%d", w, h)
	}
	if dir := os.Getenv("ICEAGE_TABLE_PNG"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "table.png"), b, 0o600)
	}
	for _, bad := range []Table{{Columns: nil}, {Columns: []string{"a"}, Rows: [][]string{{"a", "b"}}}, sampleTable(maxTableRows + 1)} {
		if _, err := TablePNG(bad, Classic); err == nil {
			t.Errorf("drew a bad table %d×%d", len(bad.Rows), len(bad.Columns))
		}
	}
}

func FuzzTablePNG(f *testing.F) {
	f.Add("Title", "Alice", "2.5", 3)
	f.Fuzz(func(t *testing.T, title, name, pts string, podium int) {
		tb := Table{Title: title, Columns: []string{"#", "Player", "Pts"}, Rows: [][]string{{"1", name, pts}, {"2", pts, name}}, Podium: podium, Left: []int{1, 7, -1}}
		if _, err := TablePNG(tb, Theme(podium&7)); err != nil {
			t.Fatal(err)
		}
	})
}
