package store

import (
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
)

// A game set up at a high move number stays playable: every position the
// engine writes into the record reads back on the next move.
func TestHighMoveNumbersStayPlayable(t *testing.T) {
	for _, start := range []string{
		"4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 0 10000",
		"4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 0 999999",
	} {
		t.Run("from "+start, func(t *testing.T) {
			s := openTest(t, nil)
			n := newGame("g", "c", "w", "b", 0)
			n.StartFEN = start
			g, err := s.CreateGame(n)
			if err != nil {
				t.Fatal(err)
			}
			// Kings walk to and fro, through an Ice Age and past it.
			for i, m := range []string{"f2f3", "f7f6", "e1f2", "e8f8", "f2e1", "f8e8", "e1f2", "e8f8"} {
				g, err = s.PlayMove("c", g.Ply(), m, mover(t, g), t0.Add(time.Duration(i+1)*time.Minute))
				if err != nil {
					t.Fatalf("move %d (%s): %v", i+1, m, err)
				}
			}
			p, err := g.Position()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := game.ParseFEN(p.FEN()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
