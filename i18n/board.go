package i18n

import (
	"strconv"
	"strings"

	"github.com/iceagechess/iceage/game"
)

// The words of a position: whose move, the Ice Age countdown, what an Ice
// Age froze, the move list, and a board's description for screen readers
// (an image's alt text). Each has its one home here, for the bot, the
// terminal and the pictures' headers alike.

// IceAgeCountdown says when the next Ice Age comes, as a sentence: "Ice
// Age in 3 Black moves", or "Ice Age after this move!" when Black is to
// play the move that brings it, or "Ice Age after Black's next move!".
func IceAgeCountdown(lang Lang, p *game.Position) string {
	return countdown(lang, p, "iceage.this_move", "iceage.next_move")
}

// countdownLabel is the countdown as a label, without exclamation:
// "Ice Age in 3 Black moves", "Ice Age after this move".
func countdownLabel(lang Lang, p *game.Position) string {
	return countdown(lang, p, "position.this_move", "position.next_move")
}

// countdown says how many Black moves are left, or, when one is, the
// message thisMove (Black to play it) or nextMove.
func countdown(lang Lang, p *game.Position, thisMove, nextMove string) string {
	n := p.BlackMovesToIceAge()
	switch {
	case n > 1:
		return Countdown(lang, n)
	case p.Turn() == game.Black:
		return T(lang, thisMove, nil)
	default:
		return T(lang, nextMove, nil)
	}
}

// IceAgeNews says what an Ice Age did: the men that froze, and that the
// game is over when a king froze; or that nothing froze.
func IceAgeNews(lang Lang, ev *game.IceAge) string {
	if len(ev.Frozen) == 0 {
		return T(lang, "iceage.none_frozen", nil)
	}
	text := Sentence(FrozenMen(lang, ev.Frozen)) + "."
	for _, f := range ev.Frozen {
		if f.Piece.Kind() == game.King {
			return text + "\n" + T(lang, "iceage.king_frozen", nil)
		}
	}
	return text
}

// NumberedMoves puts move numbers before the moves (SAN) of a game from
// start: "12. Nxf6", and "12… Nxf6" for a first move of Black's; Black's
// other moves go unnumbered after White's.
func NumberedMoves(start *game.Position, moves []string) []string {
	num, black := start.FullMoveNumber(), start.Turn() == game.Black
	parts := make([]string, len(moves))
	for i, mv := range moves {
		switch {
		case !black:
			parts[i] = MoveLabel(num, game.White, mv)
		case i == 0:
			parts[i] = MoveLabel(num, game.Black, mv)
		default:
			parts[i] = mv
		}
		if black {
			num++
		}
		black = !black
	}
	return parts
}

// MoveLabel numbers one move: "12. Nf3" for White's, "12… Nf6" for
// Black's.
func MoveLabel(number int, c game.Color, san string) string {
	if c == game.Black {
		return strconv.Itoa(number) + "… " + san
	}
	return strconv.Itoa(number) + ". " + san
}

// ToMove says whose move it is, as a label: "White to move".
func ToMove(lang Lang, c game.Color) string { return T(lang, "position.to_move."+colorKey(c), nil) }

// ManOn names a man and its square, as a label: "♘ Knight g1".
func ManOn(lang Lang, p game.Piece, s game.Square) string {
	return T(lang, "position.man_label", map[string]any{"Symbol": symbol(p), "Name": Sentence(PieceName(lang, p.Kind())), "Square": s.String()})
}

// symbol returns a man's figurine, "♘" or "♞".
func symbol(p game.Piece) string {
	const white, black = "♔♕♖♗♘♙", "♚♛♜♝♞♟"
	k := map[game.Kind]int{game.King: 0, game.Queen: 1, game.Rook: 2, game.Bishop: 3, game.Knight: 4, game.Pawn: 5}[p.Kind()]
	set := []rune(white)
	if p.Color() == game.Black {
		set = []rune(black)
	}
	if p == game.NoPiece {
		return ""
	}
	return string(set[k])
}

// placed names men on their squares with their side: "the white knight on
// d4 and the black pawn on h7".
func placed(lang Lang, men []game.Placement) string {
	items := make([]string, len(men))
	for i, m := range men {
		name := T(lang, "piece."+kindKey(m.Piece.Kind())+"."+colorKey(m.Piece.Color()), nil)
		items[i] = T(lang, "man_on", map[string]any{"Man": name, "Square": m.Square.String()})
	}
	return And(lang, items)
}

// Iced says how much an Ice Age changed: "27 squares iced, 2 men frozen".
func Iced(lang Lang, squares, frozen int) string {
	s := N(lang, "describe.iced", squares, nil)
	if frozen > 0 {
		s = T(lang, "describe.iced_and_frozen", map[string]any{"Iced": s, "Frozen": N(lang, "describe.men_frozen", frozen, nil)})
	}
	return s
}

// BoardDescription describes a position in words for a screen reader, as
// the alt text of its image: whose turn, check, every man by side and
// kind, the ice, the Ice Age countdown and the men that would freeze. It
// stays well under Discord's 1024 characters for an image description in
// any real game.
func BoardDescription(lang Lang, p *game.Position) string {
	return T(lang, "describe.board", nil) + " " + position(lang, p)
}

func position(lang Lang, p *game.Position) string {
	var parts []string
	o := p.Outcome()
	parts = append(parts, T(lang, "describe.turn."+colorKey(p.Turn()), map[string]any{"Number": p.FullMoveNumber()}))
	if o.Over() {
		parts = append(parts, T(lang, "describe.over", map[string]any{"Outcome": Outcome(lang, o)}))
	}
	if p.InCheck() {
		parts = append(parts, T(lang, "describe.check."+colorKey(p.Turn()), nil))
	}
	for _, c := range []game.Color{game.White, game.Black} {
		var kinds []string
		for k := game.King; k >= game.Pawn; k-- {
			sqs := p.Pieces(c, k).Squares()
			if len(sqs) == 0 {
				continue
			}
			names := make([]string, len(sqs))
			for i, s := range sqs {
				names[i] = s.String()
			}
			form := "one"
			if len(sqs) > 1 {
				form = "many"
			}
			kinds = append(kinds, T(lang, "describe."+form+"."+kindKey(k), map[string]any{"Squares": strings.Join(names, " ")}))
		}
		men := strings.Join(kinds, ", ")
		if len(kinds) == 0 {
			men = T(lang, "describe.no_men", nil)
		}
		parts = append(parts, T(lang, "describe.side."+colorKey(c), map[string]any{"Men": men}))
	}
	parts = append(parts, ice(lang, p.Ice()))
	if o.Over() {
		return strings.Join(parts, " ")
	}
	parts = append(parts, T(lang, "describe.countdown", map[string]any{"Countdown": countdownLabel(lang, p)}))
	if w := WouldFreeze(lang, p); w != "" {
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// WouldFreeze names, when Black's next move brings the Ice Age, the men
// that stand alone and would freeze now: "Would freeze now: the white
// knight on d4."; "" when there are none or no Ice Age is due.
func WouldFreeze(lang Lang, p *game.Position) string {
	if p.BlackMovesToIceAge() != 1 || p.Outcome().Over() {
		return ""
	}
	var men []game.Placement
	for _, s := range p.WouldFreeze().Squares() {
		men = append(men, game.Placement{Piece: p.PieceAt(s), Square: s})
	}
	if len(men) == 0 {
		return ""
	}
	return T(lang, "describe.would_freeze", map[string]any{"Men": placed(lang, men)})
}

// ice names the iced squares compactly: whole ranks as ranges ("ranks
// 3–6"), the rest as runs along each rank ("a3, c3–e3").
func ice(lang Lang, ice game.Bitboard) string {
	n := ice.Count()
	switch n {
	case 0:
		return T(lang, "describe.ice_none", nil)
	case 1:
		return T(lang, "describe.ice_one", map[string]any{"Square": ice.First().String()})
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
			parts = append(parts, T(lang, "describe.rank", map[string]any{"Rank": r + 1}))
		} else {
			parts = append(parts, T(lang, "describe.ranks", map[string]any{"From": r + 1, "To": e + 1}))
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
	return N(lang, "describe.ice_many", n, map[string]any{"List": strings.Join(parts, ", ")})
}

// IceAgeDescription describes the picture of an Ice Age (its board before
// and after) in words: what froze, how many squares turned to ice, and
// the position after it.
func IceAgeDescription(lang Lang, ev *game.IceAge, after *game.Position) string {
	parts := []string{T(lang, "describe.iceage", map[string]any{"Number": ev.Before.FullMoveNumber() - 1,
		"Iced": Iced(lang, ev.Iced().Count(), len(ev.Frozen))})}
	if len(ev.Frozen) > 0 {
		parts = append(parts, T(lang, "describe.frozen", map[string]any{"Men": placed(lang, ev.Frozen)}))
	}
	parts = append(parts, T(lang, "describe.after", map[string]any{"Board": position(lang, after)}))
	return strings.Join(parts, " ")
}

// BoardWords are the words of a board picture's header in one language;
// they satisfy render.Words.
type BoardWords struct{ Lang Lang }

// ToMove is "White to move".
func (w BoardWords) ToMove(c game.Color) string { return ToMove(w.Lang, c) }

// MoveNumber is "move 12".
func (w BoardWords) MoveNumber(n int) string {
	return T(w.Lang, "position.move_number", map[string]any{"Number": n})
}

// Outcome is how the game ended.
func (w BoardWords) Outcome(o game.Outcome) string { return Outcome(w.Lang, o) }

// Countdown is the Ice Age countdown, in full and short.
func (w BoardWords) Countdown(p *game.Position) (long, short string) {
	switch n := p.BlackMovesToIceAge(); {
	case n > 1:
		short = T(w.Lang, "position.countdown_short", map[string]any{"Number": n})
	case p.Turn() == game.Black:
		short = T(w.Lang, "position.now", nil)
	default:
		short = T(w.Lang, "position.next", nil)
	}
	return countdownLabel(w.Lang, p), short
}

// Moved is "Black moved".
func (w BoardWords) Moved(c game.Color) string { return T(w.Lang, "position.moved."+colorKey(c), nil) }

// IceAge is the Ice Age's name, "Ice Age".
func (w BoardWords) IceAge() string { return Sentence(T(w.Lang, "iceage.name", nil)) }

// IceAgeNow is "Ice Age!".
func (w BoardWords) IceAgeNow() string { return T(w.Lang, "iceage.title", nil) }

// Iced is "27 squares iced, 2 men frozen".
func (w BoardWords) Iced(squares, frozen int) string { return Iced(w.Lang, squares, frozen) }
