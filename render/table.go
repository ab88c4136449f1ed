package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"unicode/utf8"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// Table is a table of standings to draw: a title, the column headers
// and the rows, every word given by the caller in the reader's language.
// The first Podium rows are marked gold, silver and bronze.
type Table struct {
	Title   string
	Columns []string
	Rows    [][]string
	Podium  int
	// Left are the columns written from the left (names); the others are
	// numbers, written from the right.
	Left []int
	// Notes are lines written under the table (what its abbreviations
	// mean), wrapped to its width.
	Notes []string
}

// Limits on what a table draws, so that no input makes a huge picture.
const (
	maxTableRows  = 200
	maxTableCols  = 12
	maxCellRunes  = 40
	maxNoteRunes  = 1200
	maxTitleRunes = 120
)

// TablePNG draws a table of standings in the theme's colours as a PNG.
// Errors: too many rows or columns, or rows of the wrong width.
func TablePNG(tb Table, t Theme) ([]byte, error) {
	if len(tb.Rows) > maxTableRows || len(tb.Columns) > maxTableCols || len(tb.Columns) == 0 || len(tb.Notes) > maxTableCols {
		return nil, fmt.Errorf("render: a table of %d rows and %d columns; at most %d rows and 1 to %d columns", len(tb.Rows), len(tb.Columns), maxTableRows, maxTableCols)
	}
	for i, r := range tb.Rows {
		if len(r) != len(tb.Columns) {
			return nil, fmt.Errorf("render: table row %d has %d cells for %d columns", i+1, len(r), len(tb.Columns))
		}
	}
	if t >= numThemes {
		t = Classic
	}
	col := chartColorsOf(t)
	loadFonts()
	head, body, title, note := face(fonts.bold, 15), face(fonts.regular, 15), face(fonts.medium, 19), face(fonts.regular, 15)
	cut := func(s string) string {
		if utf8.RuneCountInString(s) <= maxCellRunes {
			return s
		}
		r := []rune(s)
		return string(r[:maxCellRunes-1]) + "…"
	}
	measure := gg.NewContext(1, 1)
	width := func(f font.Face, s string) float64 {
		measure.SetFontFace(f)
		w, _ := measure.MeasureString(s)
		return w
	}
	const pad, rowH, titleH = 11.0, 30.0, 40.0
	widths := make([]float64, len(tb.Columns))
	for c, h := range tb.Columns {
		widths[c] = width(head, cut(h))
	}
	for _, r := range tb.Rows {
		for c, s := range r {
			widths[c] = max(widths[c], width(body, cut(s)))
		}
	}
	total := pad
	for _, w := range widths {
		total += w + 2*pad
	}
	// A long title wraps rather than widen the table past its columns
	// (or 480 px): a phone shows a wide picture small.
	tr := []rune(tb.Title)
	titles := wrap(func(s string) float64 { return width(title, s) }, tr[:min(len(tr), maxTitleRunes)], max(total, 480)-2*pad)
	for _, l := range titles {
		total = max(total, width(title, l)+2*pad)
	}
	total = max(total, 320)
	top := titleH + 26*float64(max(len(titles), 1)-1)
	const noteH = 21.0
	var notes []string
	for _, n := range tb.Notes {
		notes = append(notes, wrap(func(s string) float64 { return width(note, s) }, []rune(n)[:min(len([]rune(n)), maxNoteRunes)], total-2*pad)...)
	}
	h := top + rowH*float64(len(tb.Rows)+1) + pad
	if len(notes) > 0 {
		h += pad/2 + noteH*float64(len(notes))
	}
	dc := gg.NewContext(int(total), int(h))
	dc.SetColor(col.bg)
	dc.Clear()
	dc.SetColor(col.text)
	dc.SetFontFace(title)
	for i, l := range titles {
		dc.DrawStringAnchored(l, pad, titleH/2+2+26*float64(i), 0, 0.5)
	}
	left := map[int]bool{}
	for _, c := range tb.Left {
		left[c] = true
	}
	medals := []color.NRGBA{{0xd4, 0xaf, 0x37, 0xff}, {0xb4, 0xb8, 0xbd, 0xff}, {0xcd, 0x7f, 0x32, 0xff}}
	drawRow := func(y float64, cells []string, f font.Face, c color.Color) {
		dc.SetFontFace(f)
		dc.SetColor(c)
		x := pad
		for i, s := range cells {
			x += pad
			if left[i] {
				dc.DrawStringAnchored(cut(s), x, y+rowH/2, 0, 0.5)
			} else {
				dc.DrawStringAnchored(cut(s), x+widths[i], y+rowH/2, 1, 0.5)
			}
			x += widths[i] + pad
		}
	}
	y := top
	dc.SetColor(col.grid)
	dc.DrawRectangle(pad/2, y, total-pad, rowH)
	dc.Fill()
	drawRow(y, tb.Columns, head, col.text)
	for i, r := range tb.Rows {
		y += rowH
		if i < tb.Podium && i < len(medals) {
			m := medals[i]
			m.A = 0x60
			dc.SetColor(m)
			dc.DrawRectangle(pad/2, y, total-pad, rowH)
			dc.Fill()
		} else if i%2 == 1 {
			dc.SetColor(mix(col.bg, col.grid, 0.5))
			dc.DrawRectangle(pad/2, y, total-pad, rowH)
			dc.Fill()
		}
		drawRow(y, r, body, col.text)
	}
	y += rowH + pad/2
	dc.SetFontFace(note)
	dc.SetColor(col.label)
	for _, n := range notes {
		dc.DrawStringAnchored(n, pad, y+noteH/2, 0, 0.5)
		y += noteH
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image().(*image.RGBA)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// wrap breaks text into lines no wider than w, at spaces where it can.
func wrap(measure func(string) float64, text []rune, w float64) []string {
	var lines []string
	for len(text) > 0 {
		if measure(string(text)) <= w {
			lines = append(lines, string(text))
			break
		}
		// The longest prefix that fits, then back to its last space.
		n := 1
		for n < len(text) && measure(string(text[:n+1])) <= w {
			n++
		}
		end := n
		for i := n; i > 0; i-- {
			if text[i] == ' ' {
				end = i
				break
			}
		}
		lines = append(lines, strings.TrimSpace(string(text[:end])))
		text = []rune(strings.TrimLeft(string(text[end:]), " "))
	}
	return lines
}
