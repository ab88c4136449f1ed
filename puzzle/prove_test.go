package puzzle

import (
	"slices"
	"testing"

	"github.com/iceagechess/iceage/game"
)

func mustFEN(t testing.TB, fen string) game.Position {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func moves(t testing.TB, ucis ...string) []game.Move {
	t.Helper()
	var out []game.Move
	for _, u := range ucis {
		m, err := game.ParseUCI(u)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func TestWinnersFindEveryForcedWinAndNoOther(t *testing.T) {
	for _, tc := range []struct {
		name string
		fen  string
		n    int
		want []string
	}{
		{"a back-rank mate in one has one solution", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, []string{"a1a8"}},
		{"two rooks mate on the back rank two ways", "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1", 1, []string{"a1a8", "b1b8"}},
		{"ice on a4 blocks the rook: no mate", "6k1/5ppp/8/8/*7/8/8/R5K1 w - - 0 1", 1, nil},
		{"the rook takes the ice on a8 and mates", "*5k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, []string{"a1a8"}},
		{"a knight jumps the ice: smothered mate", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1, []string{"g5f7"}},
		{"a lone king frozen by the Ice Age of the reply", "7k/8/8/8/8/8/PP6/K7 w - - 0 20", 1,
			[]string{"a1b1", "a2a3", "a2a4", "b2b3", "b2b4"}},
		{"no Ice Age on the reply: no freeze", "7k/8/8/8/8/8/PP6/K7 w - - 0 19", 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			var got []string
			for _, m := range Winners(&p, tc.n) {
				got = append(got, m.UCI())
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("winners within %d: %v, want %v", tc.n, got, tc.want)
			}
		})
	}
}

func TestReachesJudgesTheGoalsOfTheLastMove(t *testing.T) {
	mate := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	freeze := mustFEN(t, "7k/8/8/8/8/8/PP6/K7 w - - 0 20")
	for _, tc := range []struct {
		name string
		p    game.Position
		move string
		goal Goal
		want bool
	}{
		{"a mate reaches mate", mate, "a1a8", Mate, true},
		{"a mate reaches freeze too: the win is the same", mate, "a1a8", Freeze, true},
		{"a check that is no mate reaches nothing", mate, "a1a7", Mate, false},
		{"a freeze by the reply's Ice Age reaches freeze", freeze, "a2a3", Freeze, true},
		{"but no mate", freeze, "a2a3", Mate, false},
		{"an illegal move reaches nothing", mate, "a1h8", Mate, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := moves(t, tc.move)[0]
			if got := Reaches(&tc.p, m, tc.goal); got != tc.want {
				t.Fatalf("Reaches(%s, %s) = %v", tc.move, tc.goal, got)
			}
		})
	}
}

func TestMateThroughIceNeedsTheIce(t *testing.T) {
	// The rook mates on the eighth rank: Black's rook would take it, but
	// the ice on a4 is in its way.
	p := mustFEN(t, "R5k1/5ppp/8/8/*7/8/7K/r7 b - - 0 1")
	if p.Outcome().Reason != game.Checkmate {
		t.Fatalf("not mate: %v", p.Outcome())
	}
	if mateWithoutIce(&p) {
		t.Fatal("still mate without the ice on g7")
	}
	q := mustFEN(t, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
	if !mateWithoutIce(&q) {
		t.Fatal("a mate without ice lost without the ice")
	}
}
