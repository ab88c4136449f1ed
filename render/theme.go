package render

import (
	"fmt"
	"image/color"
)

// Theme is a colour scheme. The zero Theme is Classic.
type Theme uint8

const (
	// Classic is a calm brown board in the manner of lichess's default.
	Classic Theme = iota
	// ColorBlind is safe for the common forms of colour blindness: a neutral
	// grey board, highlights from the Okabe–Ito palette (orange, sky blue,
	// yellow, vermilion, blue) that differ in lightness as well as hue, and
	// every mark that carries meaning also has its own shape.
	ColorBlind
	numThemes
)

// String returns the theme's name, as ParseTheme reads it.
func (t Theme) String() string {
	switch t {
	case Classic:
		return "classic"
	case ColorBlind:
		return "colorblind"
	}
	return fmt.Sprintf("Theme(%d)", uint8(t))
}

// ParseTheme reads a theme name: "classic" or "colorblind".
func ParseTheme(name string) (Theme, error) {
	for t := Theme(0); t < numThemes; t++ {
		if t.String() == name {
			return t, nil
		}
	}
	return Classic, fmt.Errorf("render: unknown theme %q: the themes are classic and colorblind", name)
}

// palette is what a Theme means in colours.
type palette struct {
	light, dark color.NRGBA // squares
	// coord writes the coordinates on both square colours: at least
	// 4.5:1 against each (WCAG AA), which only a very dark colour reaches
	// on a mid-tone dark square (TestCoordinatesContrast).
	coord         color.NRGBA
	lastMove      color.NRGBA // drawn over both square colours
	mark          [numMarks]color.NRGBA
	check         color.NRGBA // the glow under a king in check
	warn          color.NRGBA // badge on a man that would freeze
	iceTop        color.NRGBA // ice block gradient, top-left …
	iceBottom     color.NRGBA // … to bottom-right
	iceEdge       color.NRGBA
	willFill      color.NRGBA // a square the coming Ice Age fills
	frame         color.NRGBA // header and gap background
	text, dimText color.NRGBA
	warnText      color.NRGBA
}

func rgba(r, g, b, a uint8) color.NRGBA { return color.NRGBA{r, g, b, a} }

var palettes = [numThemes]palette{
	Classic: {
		light:    rgba(0xf0, 0xd9, 0xb5, 0xff),
		dark:     rgba(0xb5, 0x88, 0x63, 0xff),
		coord:    rgba(0x2a, 0x1d, 0x12, 0xff),
		lastMove: rgba(0x9b, 0xc7, 0x00, 0x69),
		mark: [numMarks]color.NRGBA{
			Hint:   rgba(0x15, 0x78, 0x1b, 0xb0),
			Danger: rgba(0xd6, 0x28, 0x28, 0xb0),
			Info:   rgba(0x00, 0x30, 0x88, 0xa0),
		},
		check:     rgba(0xff, 0x00, 0x00, 0xff),
		warn:      rgba(0xe6, 0x6a, 0x00, 0xff),
		iceTop:    rgba(0xd8, 0xef, 0xff, 0xf0),
		iceBottom: rgba(0x9c, 0xd3, 0xf5, 0xe0),
		iceEdge:   rgba(0x3f, 0x86, 0xc2, 0xff),
		willFill:  rgba(0xa6, 0xda, 0xff, 0xc8),
		frame:     rgba(0x2b, 0x29, 0x26, 0xff),
		text:      rgba(0xee, 0xec, 0xe8, 0xff),
		dimText:   rgba(0xb0, 0xad, 0xa8, 0xff),
		warnText:  rgba(0xff, 0xa2, 0x3a, 0xff),
	},
	ColorBlind: {
		light:    rgba(0xe4, 0xe4, 0xe0, 0xff),
		dark:     rgba(0x8c, 0x8c, 0x88, 0xff),
		coord:    rgba(0x1a, 0x1a, 0x1a, 0xff),
		lastMove: rgba(0xf0, 0xe4, 0x42, 0x9a), // Okabe–Ito yellow
		mark: [numMarks]color.NRGBA{
			Hint:   rgba(0x00, 0x72, 0xb2, 0xc0), // blue
			Danger: rgba(0xd5, 0x5e, 0x00, 0xc0), // vermilion
			Info:   rgba(0xcc, 0x79, 0xa7, 0xc0), // reddish purple
		},
		check:     rgba(0xd5, 0x5e, 0x00, 0xff),
		warn:      rgba(0xe6, 0x9f, 0x00, 0xff), // orange
		iceTop:    rgba(0xd8, 0xf0, 0xff, 0xf0),
		iceBottom: rgba(0x56, 0xb4, 0xe9, 0xe0), // sky blue
		iceEdge:   rgba(0x00, 0x5a, 0x9c, 0xff),
		willFill:  rgba(0xb8, 0xe4, 0xfa, 0xb0),
		frame:     rgba(0x22, 0x22, 0x22, 0xff),
		text:      rgba(0xf2, 0xf2, 0xf2, 0xff),
		dimText:   rgba(0xbb, 0xbb, 0xbb, 0xff),
		warnText:  rgba(0xe6, 0x9f, 0x00, 0xff),
	},
}

func (t Theme) colors() *palette {
	if t >= numThemes {
		t = Classic
	}
	return &palettes[t]
}
