package i18n

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/game"
)

func fen(t *testing.T, s string) game.Position {
	t.Helper()
	p, err := game.ParseFEN(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBoardDescription(t *testing.T) {
	strict(t)
	start := game.StartPosition()
	check := fen(t, "4k3/3*4/8/2*5/7q/8/7P/4K3 w - - 0 30")
	warn := fen(t, "4k3/8/1p6/8/3*4/5N2/PP6/4K2R w K - 0 20")
	frozen := fen(t, "********/********/********/********/********/********/P*******/R******K w - - 1 21")
	cases := []struct {
		name string
		lang Lang
		p    *game.Position
		want []string
	}{
		{"a finished game says how it ended", English, &frozen, []string{
			"Game over: White wins: Black's king froze in the Ice Age.", "Black: no men.", "Ice on 61 squares: all of ranks 3–8, b1–g1, b2–h2."}},
		{"the start position lists both armies and four iced ranks", English, &start, []string{
			"Ice Age Chess board. White to move, move 1.", "White: king e1, queen d1, rooks a1 h1", "pawns a7 b7", "Ice on 32 squares: all of ranks 3–6.", "Ice Age in 20 Black moves."}},
		{"a check is said", English, &check, []string{"White is in check.", "Ice on 2 squares: c5, d7.", "Black: king e8, queen h4."}},
		{"the men that would freeze are named before an Ice Age", English, &warn, []string{
			"Ice Age after Black's next move.", "Would freeze now: the white king on e1, the white rook on h1, the white knight on f3, the black pawn on b6 and the black king on e8."}},
		{"in French", French, &start, []string{"Échiquier des Échecs de l'Âge de Glace. Trait aux Blancs, coup 1.", "Blancs\u00a0: roi e1, dame d1, tours a1 h1",
			"Glace sur 32 cases\u00a0: toutes les rangées 3 à 6.", "Âge de Glace dans 20 coups des Noirs."}},
		{"in Russian", Russian, &check, []string{"Белым шах.", "Лёд на 2 полях: c5, d7.", "Чёрные: король e8, ферзь h4."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := BoardDescription(c.lang, c.p)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("the description lacks %q:\n%s", w, got)
				}
			}
		})
	}
	if got := BoardDescription(English, &frozen); strings.Contains(got, "Ice Age in") {
		t.Errorf("a finished game's description has a countdown: %s", got)
	}
}

// TestDescriptionsFitDiscord: Discord takes 1024 characters of an
// image's description; a full board with scattered ice, in the wordiest
// language, stays well under.
func TestDescriptionsFitDiscord(t *testing.T) {
	p := fen(t, "r1bqkb1r/p**p*pp*/*n**n*p*/*p*p*p**/**P*P*P*/*N*B*N**/P**P*PP*/R*BQK**R w KQkq - 0 19")
	for _, l := range Languages() {
		if n := len([]rune(BoardDescription(l, &p))); n > 900 {
			t.Errorf("%s: %d characters", l, n)
		}
	}
}

func TestIceAgeDescription(t *testing.T) {
	strict(t)
	p := fen(t, "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20")
	mv, err := game.ParseUCI("h7h8")
	if err != nil {
		t.Fatal(err)
	}
	after, ev := p.ApplyWithEvent(mv)
	if ev == nil {
		t.Fatal("no Ice Age")
	}
	got := IceAgeDescription(English, ev, &after)
	for _, w := range []string{"Ice Age after Black's move 20: 36 squares iced, 1 man frozen.", "Frozen: the black rook on h8.", "After the Ice Age: White to move, move 21."} {
		if !strings.Contains(got, w) {
			t.Errorf("the description lacks %q:\n%s", w, got)
		}
	}
	if got := IceAgeDescription(Spanish, ev, &after); !strings.Contains(got, "Edad de Hielo tras la jugada 20 de las negras: 36 casillas cubiertas de hielo, 1 pieza congelada.") {
		t.Errorf("in Spanish: %s", got)
	}
}

func TestNumberedMoves(t *testing.T) {
	start := game.StartPosition()
	if got := strings.Join(NumberedMoves(&start, []string{"hxg3", "Nxf6", "gxh4"}), " "); got != "1. hxg3 Nxf6 2. gxh4" {
		t.Errorf("from the start: %q", got)
	}
	black := fen(t, "4k3/8/8/8/8/8/8/4K3 b - - 0 12")
	if got := strings.Join(NumberedMoves(&black, []string{"Kd7", "Kd2"}), " "); got != "12… Kd7 13. Kd2" {
		t.Errorf("from Black's move: %q", got)
	}
}

func TestManOn(t *testing.T) {
	if got := ManOn(English, game.MakePiece(game.White, game.Knight), game.G1); got != "♘ Knight g1" {
		t.Errorf("%q", got)
	}
	if got := ManOn(French, game.MakePiece(game.Black, game.Queen), game.D8); got != "♛ Dame d8" {
		t.Errorf("%q", got)
	}
}

func TestBoardWordsInEveryLanguage(t *testing.T) {
	strict(t)
	start := game.StartPosition()
	for _, l := range Languages() {
		w := BoardWords{Lang: l}
		long, short := w.Countdown(&start)
		for _, s := range []string{w.ToMove(game.White), w.MoveNumber(3), long, short, w.Moved(game.Black), w.IceAge(), w.IceAgeNow(), w.Iced(27, 2)} {
			checkText(t, string(l), s)
		}
	}
}
