package bot

import (
	"context"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// BenchmarkBoardMessage measures building the message of a board after a
// move: the PNG, the embed with the move list, the buttons.
func BenchmarkBoardMessage(b *testing.B) {
	for _, plies := range []int{2, 120} {
		m := game.NewMatch(game.StartPosition())
		var moves []play.Move
		for range plies {
			pos := m.Position()
			legal := pos.SANs()
			if len(legal) == 0 {
				break
			}
			p, err := m.PlayMove(legal[len(moves)*7%len(legal)].Move)
			if err != nil {
				b.Fatal(err)
			}
			moves = append(moves, play.Move{UCI: p.UCI})
			if m.Outcome().Over() {
				break
			}
		}
		g := play.Game{ID: 1, Revision: 1, White: play.Seat{ID: "1"}, Black: play.Seat{ID: "2"},
			StartFEN: game.StartFEN, FEN: m.FEN(), Moves: moves}
		bot := &boards{shared: &shared{cfg: Config{Now: time.Now}, play: play.New(memstore.New(), play.Options{})}, self: newIdentity()}
		b.Run("plies="+itoa(len(moves)), func(b *testing.B) {
			for b.Loop() {
				if _, err := bot.boardMessage(context.Background(), i18n.English, view{g: &g, buttons: true, ping: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// BenchmarkMenMenu measures the menu of the men that can move that every
// board carries, in the start position and in a middlegame of 16 men
// that can move.
func BenchmarkMenMenu(b *testing.B) {
	for name, fen := range map[string]string{"start": game.StartFEN, "sixteen": "4k3/8/8/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1"} {
		pos, err := game.ParseFEN(fen)
		if err != nil {
			b.Fatal(err)
		}
		g := play.Game{ID: 1, Revision: 1, StartFEN: fen, FEN: fen}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, ok := menMenuOf(i18n.English, &g, &pos); !ok {
					b.Fatal("no men")
				}
			}
		})
	}
}
