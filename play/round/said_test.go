package round_test

import (
	"math/rand/v2"
	"testing"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Said tells each move as Played does, replaying nothing: random games
// from starts with either side to move and Ice Ages near and far.
func TestSaidTellsEachMoveAsPlayedDoes(t *testing.T) {
	starts := []string{
		game.StartFEN,
		"rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 0 19",
		"rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 20",
		"rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR b KQkq - 0 20",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	iceAges := 0
	for _, fen := range starts {
		for range 3 {
			pos, err := game.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			g := play.Game{ID: 1, StartFEN: fen, White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}}
			for range 90 {
				legal := pos.LegalMoves(nil)
				if len(legal) == 0 {
					break
				}
				mv := legal[rng.IntN(len(legal))]
				g.Moves = append(g.Moves, play.Move{UCI: mv.UCI(), SAN: pos.SAN(mv)})
				pos = pos.Apply(mv)
			}
			for ply := 1; ply <= len(g.Moves); ply++ {
				want, err := round.Played(&g, ply)
				if err != nil {
					t.Fatal(err)
				}
				got, ice, ok := round.Said(&g, ply)
				if !ok || got.By != g.Seat(want.By).ID || got.SAN != want.SAN || got.UCI != want.UCI || got.Ply != ply || ice != (want.IceAge != nil) {
					t.Fatalf("from %s, ply %d: Said %+v, Ice Age %v, %v; Played %s %s by %v, Ice Age %v",
						fen, ply, got, ice, ok, want.SAN, want.UCI, want.By, want.IceAge != nil)
				}
				if ice {
					iceAges++
				}
			}
		}
	}
	if iceAges == 0 {
		t.Error("no game reached an Ice Age")
	}
	// A move that carries no SAN, or a ply the game does not have, is
	// not said.
	g := play.Game{StartFEN: game.StartFEN, Moves: []play.Move{{UCI: "h2g3"}}}
	for _, ply := range []int{0, 1, 2} {
		if _, _, ok := round.Said(&g, ply); ok {
			t.Errorf("Said(%d) of a move without its SAN is ok", ply)
		}
	}
}
