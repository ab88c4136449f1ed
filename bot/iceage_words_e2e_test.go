package bot_test

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

// Black's 20th move brings the Ice Age: the board names the men that
// would freeze, the moves' previews say whose men they leave alone, and
// once the bishop on h1 froze, a move that means it says so.
func TestTheIceAgeInWords(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.gameFrom("k7/pp6/8/8/8/8/P7/K6B b - - 0 20")
	board := w.command(w.bob, w.chess.ID, "board")
	if d := board.Embeds[0].Description; !strings.Contains(d, "⚠️ Would freeze now: the white bishop on h1.") {
		t.Errorf("the countdown board says %q", d)
	}
	// a5 leaves Bob's pawn alone as it brings the Ice Age: its preview,
	// in his French, says one of the men it freezes is his.
	moves := w.pickMan(w.bob, board, "♟ Pawn a7")
	found := false
	for _, o := range menu(t, moves).Options {
		if o.Label == "a5" {
			found = true
			if !strings.Contains(o.Description, "dont une des tiennes") {
				t.Errorf("a5 is described %q", o.Description)
			}
		}
	}
	if !found {
		t.Error("a5 is not offered")
	}

	w.command(w.bob, w.chess.ID, "move", fakediscord.StringOption("move", "b6"))
	for text, want := range map[string]string{
		"Bb7":   "You have no bishop. The white bishop on h1 froze in the Ice Age after Black's move 20: it is ice now",
		"Bh1b7": "The white bishop on h1 froze in the Ice Age after Black's move 20: it is ice now",
	} {
		got := w.command(w.alice, w.chess.ID, "move", fakediscord.StringOption("move", text))
		if !got.Ephemeral() || !strings.HasPrefix(got.Content, want) {
			t.Errorf("%s was answered %q (ephemeral %v), want %q", text, got.Content, got.Ephemeral(), want)
		}
	}
}

// A White move the turn before the Ice Age that leaves a man alone says
// so in its preview.
func TestAMovesPreviewSaysWhatItLeavesToFreeze(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.gameFrom("k7/pp6/8/8/8/8/PN6/K7 w - - 0 20")
	board := w.command(w.alice, w.chess.ID, "board")
	moves := w.pickMan(w.alice, board, "♘ Knight b2")
	got := map[string]string{}
	for _, o := range menu(t, moves).Options {
		got[o.Label] = o.Description
	}
	if d := got["Nd3"]; !strings.Contains(d, "leaves one of your men to freeze in the coming Ice Age") {
		t.Errorf("Nd3 is described %q", d)
	}
	moves = w.pickMan(w.alice, board, "♔ King a1")
	for _, o := range menu(t, moves).Options {
		if o.Label == "Kb1" && strings.Contains(o.Description, "freeze") {
			t.Errorf("Kb1, beside its men, is described %q", o.Description)
		}
	}
}
