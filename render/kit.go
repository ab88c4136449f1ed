package render

import (
	"image"
	"image/color"
	"image/draw"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"github.com/iceagechess/iceage/game"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
)

// A kit holds what never changes for one theme and board size: the
// palette, the men scaled to the square size, and every square and header
// drawn so far, already in palette indices. Drawing a board is then copying
// 64 tiles and a header strip; gg only runs when a kit meets a square or a
// header it has not drawn before.
type kit struct {
	theme    Theme
	size, sq int // board side and square side in pixels
	head     int // header height in pixels
	quant    *quantizer
	pngPal   color.Palette // the opaque colours
	gifPal   color.Palette // pngPal and a transparent colour at index transparent
	clear    uint8         // the transparent index

	mu      sync.RWMutex
	tiles   map[tileKey][]uint8   // sq*sq indices
	headers map[headerKey][]uint8 // size*head indices
	// Used only while mu is held for writing: font faces are not safe for
	// concurrent use.
	sprites   [16]*image.RGBA
	coordFace font.Face
	headFace  font.Face
	dimFace   font.Face
}

// Caches are bounded so that a long-running bot cannot grow them without
// limit; a full cache starts afresh (refilling costs a few milliseconds).
const (
	maxTiles   = 2048
	maxHeaders = 512
)

type kitKey struct {
	theme Theme
	size  int
}

var (
	kits    sync.Map // kitKey → *kit
	kitsMu  sync.Mutex
	fonts   struct{ bold, medium, regular *truetype.Font }
	fontsMu sync.Once
)

func loadFonts() {
	fontsMu.Do(func() {
		// The Go fonts are part of golang.org/x/image; they parse or the
		// build is broken.
		fonts.bold, _ = truetype.Parse(gobold.TTF)
		fonts.medium, _ = truetype.Parse(gomedium.TTF)
		fonts.regular, _ = truetype.Parse(goregular.TTF)
	})
}

func face(f *truetype.Font, px float64) font.Face {
	return truetype.NewFace(f, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull})
}

// coordPx is the coordinates' font size for a square of side sq: 16 px
// on a 512 px board, which a phone shows at about 400 px.
func coordPx(sq int) float64 { return float64(sq) / 4 }

// headerHeight returns the header's height for a board of square side sq.
func headerHeight(sq int) int { return max(24, sq*5/8) }

// kitFor returns the kit of a theme and board size, building it once.
func kitFor(t Theme, size int) *kit {
	if t >= numThemes {
		t = Classic // as Theme.colors does: an unknown theme is no reason to fail
	}
	key := kitKey{t, size}
	if k, ok := kits.Load(key); ok {
		return k.(*kit)
	}
	kitsMu.Lock()
	defer kitsMu.Unlock()
	if k, ok := kits.Load(key); ok {
		return k.(*kit)
	}
	loadFonts()
	sq := size / 8
	q := themeQuantizer(t)
	k := &kit{
		theme:     t,
		size:      size,
		sq:        sq,
		head:      headerHeight(sq),
		quant:     q,
		pngPal:    q.palette(),
		tiles:     make(map[tileKey][]uint8),
		headers:   make(map[headerKey][]uint8),
		sprites:   loadSprites(sq),
		coordFace: face(fonts.bold, coordPx(sq)),
	}
	k.headFace = face(fonts.medium, float64(k.head)*headerFontScale)
	k.dimFace = face(fonts.regular, float64(k.head)*headerFontScale)
	k.clear = uint8(len(k.pngPal))
	k.gifPal = append(append(color.Palette{}, k.pngPal...), color.RGBA{})
	kits.Store(key, k)
	return k
}

var (
	themeQuants [numThemes]*quantizer
	themeOnce   [numThemes]sync.Once
)

// themeQuantizer returns the palette of a theme, chosen once from a sample
// of everything the theme draws: all men, ice, frozen men, badges and
// highlights on both square colours, coordinates, headers and arrows. The
// sample is drawn at the default size; the colours do not depend on size.
func themeQuantizer(t Theme) *quantizer {
	themeOnce[t].Do(func() {
		loadFonts()
		const sq = 64
		sprites := loadSprites(sq)
		cf := face(fonts.bold, coordPx(sq))
		h := make(histogram)
		for _, dark := range []bool{false, true} {
			for _, u := range []under{underNone, underLast, underMark} {
				marks := []Mark{Hint}
				if u == underMark {
					marks = []Mark{Hint, Danger, Info}
				}
				for _, m := range marks {
					for x := game.NoPiece; x < 16; x++ {
						if x != game.NoPiece && (x.Kind() == game.NoKind || x.Kind() > game.King) {
							continue
						}
						h.add(drawTile(tileKey{dark: dark, under: u, mark: m, piece: x}, sq, t, &sprites, cf))
					}
					h.add(drawTile(tileKey{dark: dark, under: u, mark: m, ice: true, rank: '4', file: 'c'}, sq, t, &sprites, cf))
				}
			}
			for _, k := range []game.Piece{game.MakePiece(game.White, game.King), game.MakePiece(game.Black, game.King)} {
				h.add(drawTile(tileKey{dark: dark, under: underCheck, piece: k}, sq, t, &sprites, cf))
				h.add(drawTile(tileKey{dark: dark, piece: k, badge: badgeWarn, rank: '8'}, sq, t, &sprites, cf))
				h.add(drawTile(tileKey{dark: dark, piece: k, ice: true}, sq, t, &sprites, cf))
			}
			h.add(drawTile(tileKey{dark: dark, badge: badgeWillFill, file: 'e'}, sq, t, &sprites, cf))
		}
		head := headerHeight(sq)
		hf, df := face(fonts.medium, float64(head)*headerFontScale), face(fonts.regular, float64(head)*headerFontScale)
		for _, hk := range []headerKey{
			{disc: discWhite, left: "White to move", leftDim: "  •  move 12", right: "Ice Age in 9 Black moves", icon: true},
			{disc: discBlack, left: "Black to move", leftDim: "  •  move 20", right: "Ice Age after this move", warn: true, icon: true},
		} {
			h.add(drawHeader(hk, 8*sq, head, t, hf, df))
		}
		for m := Hint; m < numMarks; m++ {
			im := image.NewRGBA(image.Rect(0, 0, 2*sq, 2*sq))
			c := t.colors()
			draw.Draw(im, image.Rect(0, 0, sq, 2*sq), image.NewUniform(c.light), image.Point{}, draw.Src)
			draw.Draw(im, image.Rect(sq, 0, 2*sq, 2*sq), image.NewUniform(c.dark), image.Point{}, draw.Src)
			dc := gg.NewContextForRGBA(im)
			drawArrow(dc, float64(sq)/2, float64(sq)/2, float64(sq)*1.5, float64(sq)*1.5, float64(sq), c.mark[m])
			h.add(im)
		}
		// A colour is "flat" when it fills at least a sixth of a square.
		themeQuants[t] = newQuantizer(medianCut(h, maxColors, sq*sq/6))
	})
	return themeQuants[t]
}

// tileLocked returns the palette indices of a square, drawing it if new. The
// caller holds k.mu for writing.
func (k *kit) tileLocked(key tileKey) []uint8 {
	if t, ok := k.tiles[key]; ok {
		return t
	}
	if len(k.tiles) >= maxTiles {
		k.tiles = make(map[tileKey][]uint8)
	}
	im := drawTile(key, k.sq, k.theme, &k.sprites, k.coordFace)
	t := make([]uint8, k.sq*k.sq)
	k.quant.quantize(t, im)
	k.tiles[key] = t
	return t
}

// headerLocked is tileLocked for header strips.
func (k *kit) headerLocked(key headerKey) []uint8 {
	if h, ok := k.headers[key]; ok {
		return h
	}
	if len(k.headers) >= maxHeaders {
		k.headers = make(map[headerKey][]uint8)
	}
	im := drawHeader(key, k.size, k.head, k.theme, k.headFace, k.dimFace)
	h := make([]uint8, k.size*k.head)
	k.quant.quantize(h, im)
	k.headers[key] = h
	return h
}

// compose copies a header (if hk is not nil) and 64 squares into dst with
// the header's top-left corner at origin. keys are in display order: row 0
// is the top row, column 0 the left column.
func (k *kit) compose(dst *image.Paletted, origin image.Point, hk *headerKey, keys *[64]tileKey) {
	var tiles [64][]uint8
	var head []uint8
	missing := false
	k.mu.RLock()
	for i := range keys {
		tiles[i] = k.tiles[keys[i]]
		missing = missing || tiles[i] == nil
	}
	if hk != nil {
		head = k.headers[*hk]
		missing = missing || head == nil
	}
	k.mu.RUnlock()
	if missing {
		k.mu.Lock()
		for i := range keys {
			if tiles[i] == nil {
				tiles[i] = k.tileLocked(keys[i])
			}
		}
		if hk != nil && head == nil {
			head = k.headerLocked(*hk)
		}
		k.mu.Unlock()
	}
	top := origin.Y
	if hk != nil {
		copyBlock(dst, origin.X, top, k.size, k.head, head)
		top += k.head
	}
	for i := range keys {
		copyBlock(dst, origin.X+(i&7)*k.sq, top+(i>>3)*k.sq, k.sq, k.sq, tiles[i])
	}
}

// drawCaption draws a caption strip of height h over a board's width
// into dst at origin. Captions are rare (an Ice Age's picture) and not
// kept.
func (k *kit) drawCaption(dst *image.Paletted, origin image.Point, h int, text string) {
	loadFonts()
	f := face(fonts.medium, float64(h)*headerFontScale)
	im := drawHeader(headerKey{left: text, caption: true}, k.size, h, k.theme, f, f)
	block := make([]uint8, k.size*h)
	k.quant.quantize(block, im)
	copyBlock(dst, origin.X, origin.Y, k.size, h, block)
}

// copyBlock copies a w×h block of indices into dst at (x, y).
func copyBlock(dst *image.Paletted, x, y, w, h int, src []uint8) {
	for r := range h {
		off := dst.PixOffset(x, y+r)
		copy(dst.Pix[off:off+w], src[r*w:(r+1)*w])
	}
}
