package bot

import (
	"testing"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// The Ice Age a delivered board shows is the one its act's events carry;
// an item written before they carried its detail is shown without its
// picture, and nothing replays the game for it.
func TestAnIceAgeIsShownFromTheEventsAlone(t *testing.T) {
	before := "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 21"
	after := "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 21"
	moved := round.Moved{By: "b", SAN: "e5", UCI: "e7e5", Ply: 40, FEN: after}
	g := play.Game{StartFEN: game.StartFEN, Moves: make([]play.Move, 40)}
	for _, tt := range []struct {
		name   string
		events round.Events
		want   bool
	}{
		{"the events carry it", round.Events{moved, round.IceAge{Ply: 40, Frozen: 1, Before: before, Men: []game.Placement{{Square: 3, Piece: 5}}}}, true},
		{"an item from before they did", round.Events{round.Moved{By: "b", SAN: "e5", UCI: "e7e5", Ply: 40}, round.IceAge{Ply: 40, Frozen: 1, Filled: 3}}, false},
		{"no Ice Age", round.Events{moved}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			replays := play.Replays()
			d := &round.Delivery{Game: g, Events: tt.events}
			ice, _ := iceAgeOf(d, tt.events[0].(round.Moved))
			if (ice != nil) != tt.want {
				t.Errorf("Ice Age %+v, want one: %v", ice, tt.want)
			}
			if n := play.Replays() - replays; n != 0 {
				t.Errorf("the game was replayed %d times", n)
			}
		})
	}
}
