package render

import (
	"strconv"
	"strings"

	"github.com/iceagechess/iceage/game"
)

// AltText describes a position in words for a screen reader, as the alt
// text of its image: whose turn, check, every man by side and kind, the
// ice, the Ice Age countdown and the men that would freeze. It stays well
// under Discord's 1024-character limit for an image description in any
// real game.
func AltText(p *game.Position) string {
	var b strings.Builder
	b.WriteString("Ice Age Chess board. ")
	b.WriteString(sideName(p.Turn()))
	b.WriteString(" to move, move ")
	b.WriteString(strconv.Itoa(p.FullMoveNumber()))
	b.WriteString(".")
	o := p.Outcome()
	if o.Over() {
		b.WriteString(" Game over: " + outcomeText(o) + ".")
	}
	if p.InCheck() {
		b.WriteString(" " + sideName(p.Turn()) + " is in check.")
	}
	for _, c := range []game.Color{game.White, game.Black} {
		b.WriteString(" " + sideName(c) + ":")
		if p.Men(c) == 0 {
			b.WriteString(" no men.")
			continue
		}
		first := true
		for k := game.King; k >= game.Pawn; k-- {
			sqs := p.Pieces(c, k).Squares()
			if len(sqs) == 0 {
				continue
			}
			if !first {
				b.WriteString(",")
			}
			first = false
			name := k.Name()
			if len(sqs) > 1 {
				name += "s"
			}
			b.WriteString(" " + name)
			for _, s := range sqs {
				b.WriteString(" " + s.String())
			}
		}
		b.WriteString(".")
	}
	b.WriteString(" " + describeIce(p.Ice()))
	if o.Over() {
		return b.String()
	}
	switch n := p.BlackMovesToIceAge(); {
	case n > 1:
		b.WriteString(" Ice Age in " + strconv.Itoa(n) + " Black moves.")
	case p.Turn() == game.Black:
		b.WriteString(" Ice Age after this move.")
	default:
		b.WriteString(" Ice Age after Black's next move.")
	}
	if p.BlackMovesToIceAge() == 1 {
		if f := p.WouldFreeze(); f != 0 {
			b.WriteString(" Would freeze now:")
			for i, s := range f.Squares() {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(" " + p.PieceAt(s).String() + " " + s.String())
			}
			b.WriteString(".")
		}
	}
	return b.String()
}

func sideName(c game.Color) string {
	if c == game.White {
		return "White"
	}
	return "Black"
}

// describeIce names the iced squares compactly: whole ranks as ranges
// ("ranks 3–6"), the rest as runs along each rank ("a3, c3–e3").
func describeIce(ice game.Bitboard) string {
	n := ice.Count()
	switch n {
	case 0:
		return "No ice."
	case 1:
		return "Ice on " + ice.First().String() + "."
	}
	var parts []string
	full := func(r int) bool { return ice&(game.Bitboard(0xff)<<(8*r)) == game.Bitboard(0xff)<<(8*r) }
	for r := 0; r < 8; {
		if !full(r) {
			r++
			continue
		}
		e := r
		for e+1 < 8 && full(e+1) {
			e++
		}
		if e == r {
			parts = append(parts, "all of rank "+strconv.Itoa(r+1))
		} else {
			parts = append(parts, "all of ranks "+strconv.Itoa(r+1)+"–"+strconv.Itoa(e+1))
		}
		r = e + 1
	}
	for r := 0; r < 8; r++ {
		if full(r) {
			continue
		}
		for f := 0; f < 8; {
			if !ice.Has(game.SquareAt(f, r)) {
				f++
				continue
			}
			e := f
			for e+1 < 8 && ice.Has(game.SquareAt(e+1, r)) {
				e++
			}
			s := game.SquareAt(f, r).String()
			if e > f {
				s += "–" + game.SquareAt(e, r).String()
			}
			parts = append(parts, s)
			f = e + 1
		}
	}
	return "Ice on " + strconv.Itoa(n) + " squares: " + strings.Join(parts, ", ") + "."
}

// IceAgeAltText describes an Ice Age image (see IceAge) in words: what
// froze, how many squares turned to ice, and the position after it.
func IceAgeAltText(ev *game.IceAge, after *game.Position) string {
	var b strings.Builder
	b.WriteString("Ice Age after Black's move ")
	b.WriteString(strconv.Itoa(ev.Before.FullMoveNumber() - 1))
	b.WriteString(": ")
	b.WriteString(icedText(ev))
	b.WriteString(".")
	if len(ev.Frozen) > 0 {
		b.WriteString(" Frozen:")
		for i, f := range ev.Frozen {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + f.Piece.String() + " " + f.Square.String())
		}
		b.WriteString(".")
	}
	if o := after.Outcome(); o.Over() {
		b.WriteString(" " + outcomeText(o) + ".")
	}
	b.WriteString(" After the Ice Age: ")
	b.WriteString(strings.TrimPrefix(AltText(after), "Ice Age Chess board. "))
	return b.String()
}
