package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/iceagechess/iceage/game"
)

// tacticsBudget is the node budget every tactic must be solved within:
// a few milliseconds of search.
const tacticsBudget = 60_000

func mustFEN(t testing.TB, fen string) game.Position {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func search(t testing.TB, p game.Position, nodes int64) Result {
	t.Helper()
	return New(Options{TableBytes: 1 << 20}).Search(context.Background(), p, Limits{Nodes: nodes})
}

// TestFindsForcedWins checks positions where the side to move wins by
// force (checkmate, or the enemy king frozen by the Ice Age) in n moves.
// The exhaustive solver confirms each puzzle first: the solution wins in
// n, and no move wins sooner; where the solution is unique the engine
// must play it, otherwise any move that wins in n.
func TestFindsForcedWins(t *testing.T) {
	cases := []struct {
		name   string
		fen    string
		n      int
		unique string // the only winning first move, or "" when there are several
	}{
		{"mate in 1 on the back rank", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"},
		{"mate in 1 where ice walls the king in and bishops guard the ice",
			"7k/6**/8/8/8/8/1B6/RB4K1 w - - 0 1", 1, "a1a8"},
		{"an ice capture that opens a mating line: Bxe6 uncovers the rook and guards the ice on g8",
			"6*k/6p1/4*3/8/8/7B/8/K6R w - - 0 1", 1, "h3e6"},
		{"mate in 2 with two rooks", "8/8/4RK2/8/8/4R3/k7/8 w - - 0 5", 2, "e6b6"},
		{"mate in 2 with a queen, the king walking up", "5Q2/8/8/8/1K6/8/8/k7 w - - 0 5", 2, "b4b3"},
		{"mate in 2 where ice on h5 takes the king's flight square", "8/3R4/7k/K6*/8/8/3R4/8 w - - 0 5", 2, "d2g2"},
		{"mate in 2 with queen and knight beside ice on h7", "4K2k/3Q3*/7N/8/8/8/8/8 w - - 0 5", 2, "h6f5"},
		{"mate in 3 with rook and bishop", "8/8/8/k7/3K4/8/2R3B1/8 w - - 0 5", 3, "d4c5"},
		{"mate in 3 with queen and knight", "8/8/Q7/8/4K1kN/8/8/8 w - - 0 5", 3, "a6g6"},
		{"mate in 3 that starts with the king taking ice", "8/4K3/5**k/7*/8/1R6/8/8 w - - 0 5", 3, "e7f6"},
		{"mate in 3 with a queen among ice", "1*6/k7/1*5p/3K4/8/8/8/3Q4 w - - 0 5", 3, "d5c6"},
		{"Black freezes White's king: the rook that keeps it company leaves on the Ice-Age move",
			"k7/p7/8/8/3PP3/8/6r1/7K b - - 0 20", 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			if c.n > 1 && !testing.Short() {
				if w := winningMoves(p, c.n-1); len(w) > 0 {
					t.Fatalf("puzzle broken: %v already win in %d", w, c.n-1)
				}
			}
			if c.unique != "" && (c.n <= 2 || !testing.Short()) {
				w := winningMoves(p, c.n)
				if len(w) != 1 || w[0].UCI() != c.unique {
					t.Fatalf("puzzle broken: the moves winning in %d are %v, want only %s", c.n, w, c.unique)
				}
			}
			r := search(t, p, tacticsBudget)
			if c.unique != "" && r.Best.UCI() != c.unique {
				t.Fatalf("played %s (score %d, pv %v), want %s", r.Best, r.Score, r.PV, c.unique)
			}
			if !forcesWin(p, r.Best, c.n) {
				t.Fatalf("played %s (score %d, pv %v), which does not win in %d", r.Best, r.Score, r.PV, c.n)
			}
			if got := MateIn(r.Score); got != c.n {
				t.Errorf("score %d reads as a win in %d, want %d", r.Score, got, c.n)
			}
			if r.Nodes > tacticsBudget {
				t.Errorf("used %d nodes, budget %d", r.Nodes, tacticsBudget)
			}
		})
	}
}

// TestSavesItsKingFromFreezing checks moves just before an Ice Age whose
// king stands alone: every move but a few lets the king freeze and lose
// the game. The engine must find one that keeps it alive.
func TestSavesItsKingFromFreezing(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		n    int      // the opponent's moves within which it would win after a bad move
		want []string // the saving moves, sorted; nil: any the solver finds safe
	}{
		{"on the Ice-Age move itself only Ra7 brings company to the king on a8",
			"k7/8/8/8/3PP3/8/7K/r6R b - - 0 20", 1, []string{"a1a7"}},
		{"White, one move before the Ice Age, must put the rook beside its king",
			"k7/p7/8/8/8/8/7K/R7 w - - 0 20", 1, []string{"a1g1", "a1h1"}},
		{"White must also keep the king's company out of Black's reach",
			"k7/p7/8/8/8/8/7K/R5n1 w - - 0 20", 1, nil},
		{"two Black moves before the Ice Age the king and the knight must start towards each other, or the knight threaten the white king's company",
			"7k/8/8/3n4/8/8/1P6/K7 b - - 0 19", 2, []string{"d5c3", "d5e7", "d5f6", "h8g7"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			them := p.Turn().Other()
			var safe, lost []string
			for _, m := range p.LegalMoves(nil) {
				q := p.Apply(m)
				if wonBy(&q, them) || !q.Outcome().Over() && canWin(q, c.n) {
					lost = append(lost, m.UCI())
				} else {
					safe = append(safe, m.UCI())
				}
			}
			if len(lost) == 0 || len(safe) == 0 {
				t.Fatalf("puzzle broken: safe moves %v, losing moves %v", safe, lost)
			}
			slices.Sort(safe)
			if c.want != nil && !slices.Equal(safe, c.want) {
				t.Fatalf("puzzle broken: the safe moves are %v, want %v", safe, c.want)
			}
			r := search(t, p, tacticsBudget)
			if !slices.Contains(safe, r.Best.UCI()) {
				t.Fatalf("played %s (score %d, pv %v): the king freezes; safe were %v", r.Best, r.Score, r.PV, safe)
			}
			if r.Score <= -mateBound {
				t.Errorf("score %d says the game is lost", r.Score)
			}
		})
	}
}

// TestSeesTheIceAgeExactly checks that the score of a position whose
// next move brings the Ice Age counts what the Ice Age freezes.
func TestSeesTheIceAgeExactly(t *testing.T) {
	// Black to make the Ice-Age move; the white knight on a1 and the black
	// one on f8 stand alone. Whatever Black plays, the white knight
	// freezes; Black's own knight is saved only by moving next to a man
	// (Nd7, Ne6) or by the king stepping next to it (Ke7).
	p := mustFEN(t, "5n2/8/3k4/3p4/3P4/3K4/8/N7 b - - 0 20")
	r := search(t, p, tacticsBudget)
	q := p.Apply(r.Best)
	if q.Pieces(game.Black, game.Knight) == 0 {
		t.Errorf("played %s: the black knight froze", r.Best)
	}
	if q.Pieces(game.White, game.Knight) != 0 {
		t.Fatalf("the white knight survived the Ice Age after %s: the test is wrong", r.Best)
	}
	if r.Score < pieceValue[game.Knight]-100 {
		t.Errorf("score %d, want about a knight up for Black", r.Score)
	}
}
