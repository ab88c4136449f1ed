package game

import (
	"errors"
	"strings"
	"testing"
)

// After Black's 20th move, the white bishop on h1 stands alone and
// freezes; a move that means it is told so.
func TestFrozenMeantNamesTheManAnIceAgeFroze(t *testing.T) {
	m, err := ReplayUCI("k7/pp6/8/8/8/8/P7/K6B b - - 0 20", []string{"b7b6"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := m.IceAges()[0]; ev == nil || len(ev.Frozen) != 1 || ev.Frozen[0].Square != H1 {
		t.Fatalf("the Ice Age froze %+v", ev)
	}
	pos := m.Position()
	for _, c := range []struct {
		text   string
		frozen bool
	}{
		{"Bb7", true},   // no bishop left: the one that froze could go there
		{"Bh1b7", true}, // ice on the square named
		{"h1b7", true},
		{"Bg3", false}, // the frozen bishop never went that way
		{"Bab7", false},
		{"Nb3", false}, // no knight ever
		{"a2a4", false},
	} {
		_, err := ParseMove(&pos, c.text)
		var me *MoveError
		if !errors.As(err, &me) {
			if c.frozen {
				t.Errorf("%s: %v, not a move error", c.text, err)
			}
			continue
		}
		f, ok := m.FrozenMeant(me)
		if ok != c.frozen {
			t.Errorf("%s (%s): frozen %v %+v, want %v", c.text, me.Msg, ok, f, c.frozen)
			continue
		}
		if !ok {
			continue
		}
		if f.Square != H1 || f.Piece != MakePiece(White, Bishop) || f.BlackMove != 20 {
			t.Errorf("%s: frozen %+v", c.text, f)
		}
		me.NoteFrozen(f)
		if !strings.Contains(me.Msg, "the white bishop on h1 froze in the Ice Age after Black's move 20") &&
			!strings.Contains(me.Msg, "The white bishop on h1 froze") || strings.Contains(me.Msg, "there is ice") {
			t.Errorf("%s: %q", c.text, me.Msg)
		}
	}
	if _, ok := m.FrozenMeant(nil); ok {
		t.Error("a nil error meant a frozen man")
	}
}
