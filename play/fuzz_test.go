package play_test

import (
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// fuzzStarts are the positions FuzzMove types into: the ice start and
// positions with a promotion, castling, en passant, an Ice-Age move, ice
// in the way and a check to answer.
var fuzzStarts = []string{
	"",
	"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
	"4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20",
	"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1",
	"4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
	"r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20",
}

// FuzzMove types any text into Service.Move: it never panics, and either
// plays exactly the legal move game.ParseMove reads, or is refused as
// not a move or an illegal one, with legal suggestions, changing nothing.
func FuzzMove(f *testing.F) {
	for i, text := range []string{"hxg3", "h2g3", "Nxf6", "g8f6", "b8=Q", "b7b8q", "b8", "O-O", "0-0-0", "e1g1",
		"exd6", "exd6 e.p.", "Bd6", "e7d6", "Ra5", "Rxa3", "Kxd2", "Ke2", "", "  ", "hello", "♘f3", "Nbd2",
		"e9", "a1a1", "Qxh8#", "h7h8", "Rh8", "K", "x", "=", "e4!?", "E4", "bxc3", "B8=Q", "\x00", "O-O-O-O"} {
		f.Add(uint8(i), text)
	}
	f.Fuzz(func(t *testing.T, start uint8, text string) {
		svc, st := newService(play.Options{})
		g := startFrom(t, svc, fuzzStarts[int(start)%len(fuzzStarts)], 3)
		before := must(g.Position())(t)
		snapshot := dump(t, st)
		res, err := svc.Move(ctx, act(g.ToMove(), g, t0.Add(time.Minute)), text)
		if err == nil {
			m := res.Move
			want, perr := game.ParseMove(&before, text)
			after := before.Apply(want)
			switch {
			case perr != nil:
				t.Fatalf("%q was played as %s, but game reads no move: %v", text, m.Move.UCI(), perr)
			case m == nil || m.Move != want || !before.IsLegal(m.Move):
				t.Fatalf("%q was played as %+v, want the legal %s", text, m, want.UCI())
			case res.Game.Ply() != 1 || res.Game.Moves[0].UCI != want.UCI() || res.Game.FEN != after.FEN():
				t.Fatalf("%q: game %+v", text, res.Game)
			case m.SAN != before.SAN(want):
				t.Fatalf("%q: SAN %q, want %q", text, m.SAN, before.SAN(want))
			}
			if err := replays(&res.Game); err != nil {
				t.Fatal(err)
			}
			return
		}
		x := refusal(t, err)
		var me *game.MoveError
		var se *game.SyntaxError
		switch {
		case x.Kind == play.IllegalMove && errors.As(err, &me):
		case x.Kind == play.NotAMove && errors.As(err, &se):
		default:
			t.Fatalf("%q refused as %q: %v (%T)", text, x.Kind, err, x.Err)
		}
		if len(x.Suggestions) > play.MaxSuggestions {
			t.Fatalf("%q: %d suggestions", text, len(x.Suggestions))
		}
		for _, s := range x.Suggestions {
			mv, err := game.ParseMove(&before, s)
			if err != nil || before.SAN(mv) != s {
				t.Fatalf("%q: suggestion %q is no legal move's SAN: %v", text, s, err)
			}
		}
		unchanged(t, st, snapshot)
	})
}
