package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
)

// checkResult fails unless r's move is legal in p (or NullMove exactly
// when p has none) and its principal variation plays.
func checkResult(t *testing.T, p game.Position, r Result) {
	t.Helper()
	legal := p.LegalMoves(nil)
	over := p.Outcome().Over() && p.Outcome().Reason != game.FiftyMoveRule
	switch {
	case len(legal) == 0 || over && len(legal) == 0:
		if r.Best != game.NullMove {
			t.Fatalf("%s: no legal move, but Search returned %s", p.FEN(), r.Best)
		}
		return
	case r.Best == game.NullMove:
		t.Fatalf("%s: Search returned no move, with %d legal", p.FEN(), len(legal))
	case !p.IsLegal(r.Best):
		t.Fatalf("%s: Search returned %s, which is not legal", p.FEN(), r.Best)
	}
	if len(r.PV) > 0 && r.PV[0] != r.Best {
		t.Fatalf("%s: PV %v does not start with the best move %s", p.FEN(), r.PV, r.Best)
	}
	q := p
	for i, m := range r.PV {
		if !q.IsLegal(m) {
			t.Fatalf("%s: PV %v: move %d (%s) is not legal", p.FEN(), r.PV, i+1, m)
		}
		q = q.Apply(m)
	}
}

func TestSearchPlaysLegalMovesInRandomPositions(t *testing.T) {
	games, budgets := 30, []int64{1, 7, 300, 3000}
	if testing.Short() {
		games = 8
	}
	e := New(Options{TableBytes: 1 << 20})
	positions := 0
	for seed := range uint64(games) {
		randomGame(game.StartPosition(), seed, 160, func(p game.Position, _ game.Move, _ game.Position) {
			lim := Limits{Nodes: budgets[positions%len(budgets)], Margin: int(seed%3) * 50, Seed: seed}
			checkResult(t, p, e.Search(context.Background(), p, lim))
			positions++
		})
	}
	t.Logf("%d positions", positions)
}

func TestSearchInFinishedPositions(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		score int
	}{
		{"checkmated", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", -Mate},
		{"stalemated", "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", 0},
		{"own king frozen", "8/8/8/8/8/8/1k6/1r4** w - - 0 21", -Mate},
		{"both kings frozen", "8/8/8/8/8/8/8/8 w - - 0 21", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			r := search(t, p, 1000)
			if r.Best != game.NullMove || r.Score != c.score {
				t.Errorf("got %s with score %d, want no move and %d", r.Best, r.Score, c.score)
			}
		})
	}
}

func TestSearchIsDeterministic(t *testing.T) {
	p := opening(3, 12)
	for _, lim := range []Limits{{Nodes: 20_000}, {Nodes: 5_000, Margin: 100, Seed: 9}, {Depth: 4}} {
		a := New(Options{}).Search(context.Background(), p, lim)
		b := New(Options{TableBytes: 1 << 20}).Search(context.Background(), p, lim)
		if a.Best != b.Best || a.Score != b.Score || a.Nodes != b.Nodes || a.Depth != b.Depth {
			t.Errorf("%+v: two engines disagree: %s %d %d nodes, %s %d %d nodes", lim, a.Best, a.Score, a.Nodes, b.Best, b.Score, b.Nodes)
		}
	}
	m1 := Choose(context.Background(), p, 2, 42)
	m2 := Choose(context.Background(), p, 2, 42)
	if m1 != m2 {
		t.Errorf("Choose with one seed gave %s and %s", m1, m2)
	}
}

func TestSearchKeepsToItsNodeBudget(t *testing.T) {
	p := opening(5, 20)
	for _, n := range []int64{1, 100, 10_000} {
		r := search(t, p, n)
		if r.Nodes > n {
			t.Errorf("budget %d: searched %d nodes", n, r.Nodes)
		}
		checkResult(t, p, r)
	}
}

func TestSearchStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := game.StartPosition()
	r := New(Options{}).Search(ctx, p, Limits{})
	checkResult(t, p, r)
	if r.Nodes > 1024 {
		t.Errorf("a cancelled search visited %d nodes", r.Nodes)
	}
}

func TestLowLevelsVaryWithTheSeed(t *testing.T) {
	p := opening(1, 10)
	seen := map[game.Move]bool{}
	for seed := range uint64(20) {
		seen[Choose(context.Background(), p, 1, seed)] = true
	}
	if len(seen) < 3 {
		t.Errorf("level 1 chose only %d different moves over 20 seeds", len(seen))
	}
	best := map[game.Move]bool{}
	for seed := range uint64(5) {
		best[New(Options{}).Search(context.Background(), p, Limits{Nodes: 20_000, Seed: seed}).Best] = true
	}
	if len(best) != 1 {
		t.Errorf("without a margin the seed changed the move: %v", best)
	}
}

func TestLevelsAreClampedAndGrow(t *testing.T) {
	if Level(0) != Level(1) || Level(99) != Level(Levels) {
		t.Error("levels outside 1..8 are not clamped")
	}
	for n := 2; n <= Levels; n++ {
		a, b := Level(n-1), Level(n)
		if b.Margin > a.Margin {
			t.Errorf("level %d errs more on purpose than level %d", n, n-1)
		}
	}
	if l := Level(Levels); l.Time != DefaultMoveTime || l.Margin != 0 {
		t.Errorf("full strength is %+v", l)
	}
}

func TestMateIn(t *testing.T) {
	for _, c := range []struct{ score, want int }{
		{Mate - 1, 1}, {Mate - 3, 2}, {Mate - 5, 3}, {-(Mate - 2), -1}, {-(Mate - 4), -2}, {150, 0}, {-150, 0},
	} {
		if got := MateIn(c.score); got != c.want {
			t.Errorf("MateIn(%d) = %d, want %d", c.score, got, c.want)
		}
	}
}

func TestAnalyzeFindsTheBlunder(t *testing.T) {
	// White plays Kh2?? instead of mating with Ra8#; after Kf8 the king
	// has e7, and Ra8+ is only a check.
	p := mustFEN(t, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	moves := []game.Move{mustUCI(t, "g1h2"), mustUCI(t, "g8f8"), mustUCI(t, "a1a8")}
	a, err := Analyze(context.Background(), p, moves, Limits{Nodes: 20_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Scores) != 4 || len(a.Best) != 4 {
		t.Fatalf("%d scores and %d best moves, want 4 each", len(a.Scores), len(a.Best))
	}
	if a.Scores[0] < mateBound || a.Best[0].UCI() != "a1a8" {
		t.Errorf("the first position scores %d with best %s, want a mate with Ra8", a.Scores[0], a.Best[0])
	}
	if len(a.Mistakes) == 0 || a.Mistakes[0].Ply != 0 || a.Mistakes[0].Best.UCI() != "a1a8" {
		t.Fatalf("mistakes %+v, want Kh2 first", a.Mistakes)
	}
	_, err = Analyze(context.Background(), p, []game.Move{mustUCI(t, "a1h8")}, Limits{Nodes: 100})
	var ill *IllegalMoveError
	if !errors.As(err, &ill) || ill.Ply != 0 {
		t.Errorf("an illegal move gave %v", err)
	}
}

func mustUCI(t *testing.T, s string) game.Move {
	t.Helper()
	m, err := game.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// FuzzSearchPlaysLegalMoves plays random games chosen by the fuzz bytes
// and searches some of their positions with small budgets: the move is
// always legal, and NullMove only when there is none.
func FuzzSearchPlaysLegalMoves(f *testing.F) {
	f.Add(uint64(1), uint8(30), uint16(500))
	f.Add(uint64(7), uint8(39), uint16(50))
	f.Add(uint64(99), uint8(200), uint16(3000))
	e := New(Options{TableBytes: 1 << 20})
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, nodes uint16) {
		p := randomGame(game.StartPosition(), seed, int(plies), nil)
		checkResult(t, p, e.Search(context.Background(), p, Limits{Nodes: int64(nodes%5000) + 1, Margin: int(seed % 200), Seed: seed}))
	})
}

// TestQuiescenceCapturesAreTheLegalOnes checks quiescence's own capture
// generator against game's legal moves along random games: the captures
// it finds that leave the king safe are exactly the legal captures of men
// and ice and the legal queen promotions.
func TestQuiescenceCapturesAreTheLegalOnes(t *testing.T) {
	checked := 0
	for seed := range uint64(40) {
		randomGame(opening(seed, 0), seed, 200, func(p game.Position, _ game.Move, _ game.Position) {
			if p.IceAgeNow() || p.InCheck() {
				return
			}
			want := map[game.Move]bool{}
			for _, m := range p.LegalMoves(nil) {
				capture := isManCapture(&p, m) || p.IsIce(m.To())
				if m.Promotion() == game.Queen || capture && m.Promotion() == game.NoKind {
					want[m] = true
				}
			}
			got := map[game.Move]bool{}
			for _, m := range pseudoCaptures(&p, nil, true) {
				q := p.Apply(m)
				if kingSafe(&q, p.Turn()) {
					got[m] = true
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s: captures %v, legal ones %v", p.FEN(), got, want)
			}
			for m := range want {
				if !got[m] {
					t.Fatalf("%s: the legal capture %s is missing from %v", p.FEN(), m, got)
				}
			}
			checked++
		})
	}
	if checked < 1000 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestSearchKeepsToItsTimeBudget drives the clock by hand: every reading
// advances it a millisecond, so the test does not depend on the machine's
// speed. The search must stop by the deadline and still return a move.
func TestSearchKeepsToItsTimeBudget(t *testing.T) {
	var now time.Time
	readings := 0
	clock := func() time.Time {
		readings++
		now = now.Add(time.Millisecond)
		return now
	}
	p := mustFEN(t, middlegameFEN)
	start := now
	r := New(Options{Now: clock}).Search(context.Background(), p, Limits{Time: 40 * time.Millisecond})
	checkResult(t, p, r)
	if spent := now.Sub(start); spent > 40*time.Millisecond {
		t.Errorf("the search read the clock until %v after its start, budget 40ms", spent)
	}
	if r.Depth < 1 {
		t.Errorf("no iteration finished in %d nodes", r.Nodes)
	}
	if readings < 2 {
		t.Errorf("the clock was read %d times", readings)
	}
}
