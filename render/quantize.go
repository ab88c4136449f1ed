package render

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sync"
)

// The images are paletted: a board is a few flat colours plus the
// anti-aliased edges of men, ice and text. A paletted PNG is several times
// smaller and faster to compress than an RGBA one, and fewer colours
// compress better still: on the benchmark board 255 colours take 30 %
// more bytes than 96 at the same zlib level. 96 colours chosen for the
// theme still draw the edges smoothly; only the check glow shows faint
// rings. The index after the last colour is the transparent colour of GIF
// frames.
const maxColors = 96

// quantizer maps colours to the nearest entry of a fixed palette. Lookups
// are memoised: the images are made of few distinct colours.
type quantizer struct {
	pal  []color.RGBA
	mu   sync.Mutex
	memo map[uint32]uint8
}

func newQuantizer(pal []color.RGBA) *quantizer {
	return &quantizer{pal: pal, memo: make(map[uint32]uint8, 4096)}
}

// palette returns the opaque colours as a color.Palette.
func (q *quantizer) palette() color.Palette {
	p := make(color.Palette, len(q.pal))
	for i, c := range q.pal {
		p[i] = c
	}
	return p
}

// index returns the palette index nearest to the opaque colour r, g, b.
func (q *quantizer) index(r, g, b uint8) uint8 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.lookupLocked(r, g, b)
}

// lookupLocked is index for a caller that holds q.mu.
func (q *quantizer) lookupLocked(r, g, b uint8) uint8 {
	key := uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	i, ok := q.memo[key]
	if !ok {
		i = q.nearest(r, g, b)
		q.memo[key] = i
	}
	return i
}

func (q *quantizer) nearest(r, g, b uint8) uint8 {
	best, bestD := 0, math.MaxInt
	for i, c := range q.pal {
		// Weights near the eye's sensitivity to each channel, so that an
		// edge pixel keeps its lightness rather than its hue.
		dr, dg, db := int(c.R)-int(r), int(c.G)-int(g), int(c.B)-int(b)
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
			if d == 0 {
				break
			}
		}
	}
	return uint8(best)
}

// quantize converts an opaque RGBA image to palette indices, row by row,
// into dst (len w*h).
func (q *quantizer) quantize(dst []uint8, src *image.RGBA) {
	b := src.Bounds()
	w := b.Dx()
	q.mu.Lock()
	defer q.mu.Unlock()
	// Runs of one colour are common (a chart's background, a square's
	// flat colour): look a colour up once per run.
	var last [3]uint8
	var li uint8
	have := false
	for y := 0; y < b.Dy(); y++ {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		for x := 0; x < w; x++ {
			c := [3]uint8{row[4*x], row[4*x+1], row[4*x+2]}
			if !have || c != last {
				last, li, have = c, q.lookupLocked(c[0], c[1], c[2]), true
			}
			dst[y*w+x] = li
		}
	}
}

// histogram counts the colours of opaque RGBA images.
type histogram map[uint32]int

func (h histogram) add(im *image.RGBA) {
	b := im.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		off := im.PixOffset(b.Min.X, y)
		row := im.Pix[off : off+4*b.Dx()]
		for x := 0; x < len(row); x += 4 {
			h[uint32(row[x])<<16|uint32(row[x+1])<<8|uint32(row[x+2])]++
		}
	}
}

type hcolor struct {
	c [3]uint8
	n int
}

// medianCut chooses at most n colours for the histogram. The colours that
// cover large flat areas (squares, highlights, the header) are kept
// exactly, so that a board's flat colours are its theme's own; the rest of
// the palette is shared out by median cut over the edge and gradient
// colours.
func medianCut(h histogram, n int, flatMin int) []color.RGBA {
	var flat, rest []hcolor
	for k, v := range h {
		c := hcolor{[3]uint8{uint8(k >> 16), uint8(k >> 8), uint8(k)}, v}
		if v >= flatMin {
			flat = append(flat, c)
		} else {
			rest = append(rest, c)
		}
	}
	// Deterministic order whatever the map's iteration order.
	cmp := func(a, b hcolor) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return int(a.c[0])<<16 | int(a.c[1])<<8 | int(a.c[2]) - (int(b.c[0])<<16 | int(b.c[1])<<8 | int(b.c[2]))
	}
	slices.SortFunc(flat, cmp)
	slices.SortFunc(rest, cmp)
	if len(flat) > n/4 {
		rest = append(rest, flat[n/4:]...)
		flat = flat[:n/4]
	}
	out := make([]color.RGBA, 0, n)
	for _, c := range flat {
		out = append(out, color.RGBA{c.c[0], c.c[1], c.c[2], 0xff})
	}
	boxes := [][]hcolor{rest}
	for len(out)+len(boxes) < n {
		// Split the box whose colours spread furthest, weighted by how
		// many pixels it covers.
		bi, bestScore, bestCh := -1, 0.0, 0
		for i, box := range boxes {
			if len(box) < 2 {
				continue
			}
			ch, spread := widest(box)
			total := 0
			for _, c := range box {
				total += c.n
			}
			score := float64(spread) * math.Sqrt(float64(total))
			if score > bestScore {
				bi, bestScore, bestCh = i, score, ch
			}
		}
		if bi < 0 {
			break
		}
		box := boxes[bi]
		slices.SortStableFunc(box, func(a, b hcolor) int { return int(a.c[bestCh]) - int(b.c[bestCh]) })
		total := 0
		for _, c := range box {
			total += c.n
		}
		cut, acc := 1, 0
		for i, c := range box[:len(box)-1] {
			acc += c.n
			cut = i + 1
			if acc*2 >= total {
				break
			}
		}
		boxes[bi] = box[:cut]
		boxes = append(boxes, box[cut:])
	}
	for _, box := range boxes {
		if len(box) == 0 {
			continue
		}
		var sum [3]int
		total := 0
		for _, c := range box {
			for i := range sum {
				sum[i] += int(c.c[i]) * c.n
			}
			total += c.n
		}
		out = append(out, color.RGBA{uint8((sum[0] + total/2) / total), uint8((sum[1] + total/2) / total), uint8((sum[2] + total/2) / total), 0xff})
	}
	return out
}

func widest(box []hcolor) (ch int, spread int) {
	lo := [3]uint8{255, 255, 255}
	var hi [3]uint8
	for _, c := range box {
		for i := range 3 {
			lo[i] = min(lo[i], c.c[i])
			hi[i] = max(hi[i], c.c[i])
		}
	}
	for i := range 3 {
		if d := int(hi[i]) - int(lo[i]); d > spread {
			ch, spread = i, d
		}
	}
	return ch, spread
}
