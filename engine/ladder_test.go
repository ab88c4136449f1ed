package engine

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
)

var update = flag.Bool("update", false, "rewrite testdata/ladder.md with the ladder's results")

// ladderGames is the number of games of every pairing.
const ladderGames = 100

// ladderNodes are the node budgets levels 5–8 play the ladder with, in
// place of their own (level 8's is two seconds): a hundred games at the
// real budgets would take hours. The order is kept, with ratios of about
// two and a third, smaller than the real ones (four and more), so that a
// level that wins here should win by more at its real budget. Levels 1–4
// play as they are: their depth limits keep them cheap.
var ladderNodes = [Levels + 1]int64{5: 2_500, 6: 6_000, 7: 14_000, 8: 32_000}

// ladderLevel returns the limits level n plays the ladder with.
func ladderLevel(n int) Limits {
	lim := Level(n)
	if ladderNodes[n] > 0 {
		lim.Nodes, lim.Time = ladderNodes[n], 0
	}
	return lim
}

func levelPlayer(n int) func(seed uint64) player {
	return func(seed uint64) player { return newEnginePlayer(ladderLevel(n), seed) }
}

// TestLadder plays each level against the one below, and full strength
// against a random mover, a greedy capturer and itself: 100 games a
// pairing from seeded four-ply random openings, colours alternating, a
// draw after 300 plies. Each level must score 65% against the one below,
// full strength 90% against the random and greedy players. With -update
// it writes the table to testdata/ladder.md. It takes a few minutes on
// two cores, so -short skips it.
func TestLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("the ladder plays about a thousand games")
	}
	type row struct {
		name string
		m    *match
		need float64
	}
	var rows []row
	for n := 2; n <= Levels; n++ {
		rows = append(rows, row{name: fmt.Sprintf("level %d vs level %d", n, n-1),
			m: &match{a: levelPlayer(n), b: levelPlayer(n - 1)}, need: 0.65})
	}
	rows = append(rows,
		row{name: "level 8 vs a random mover", m: &match{a: levelPlayer(Levels), b: func(s uint64) player { return &randomPlayer{splitmix64(s)} }}, need: 0.90},
		row{name: "level 8 vs a greedy capturer", m: &match{a: levelPlayer(Levels), b: func(s uint64) player { return &greedyPlayer{splitmix64(s)} }}, need: 0.90},
		row{name: "level 8 vs level 8", m: &match{a: levelPlayer(Levels), b: levelPlayer(Levels)}},
	)
	workers := runtime.GOMAXPROCS(0)
	start := time.Now()
	var nodes int64
	for i := range rows {
		r := &rows[i]
		r.m.games, r.m.seed, r.m.maxPlies, r.m.openPlies = ladderGames, uint64(1000*i+1), 300, 4
		t0 := time.Now()
		r.m.run(workers)
		t.Logf("%s: %d-%d-%d, %.1f%% (White %d, Black %d; %d by a frozen king; %.0f plies a game; %.0fM nodes) in %v",
			r.name, r.m.aWins, r.m.bWins, r.m.draws, 100*r.m.score(), r.m.whiteWins, r.m.blackWins, r.m.iceAgeWins,
			float64(r.m.plies)/float64(r.m.games), float64(r.m.nodes)/1e6, time.Since(t0).Round(time.Second))
		nodes += r.m.nodes
		if r.need > 0 && r.m.score() < r.need {
			t.Errorf("%s scored %.1f%%, want at least %.0f%%", r.name, 100*r.m.score(), 100*r.need)
		}
	}
	t.Logf("ladder took %v, %.0fM nodes", time.Since(start).Round(time.Second), float64(nodes)/1e6)

	var b strings.Builder
	fmt.Fprintf(&b, "# The engine's strength ladder\n\n")
	fmt.Fprintf(&b, "Written by `go test ./engine -run TestLadder -update` (TestLadder in ladder_test.go).\n")
	fmt.Fprintf(&b, "Every pairing is %d games from seeded four-ply random openings, each opening played\n", ladderGames)
	fmt.Fprintf(&b, "with both colours; a game still going after 300 plies counts as a draw. Levels 1–4\n")
	fmt.Fprintf(&b, "play as they are; levels 5–8 play on node budgets of %d, %d, %d and %d nodes a move\n",
		ladderNodes[5], ladderNodes[6], ladderNodes[7], ladderNodes[8])
	fmt.Fprintf(&b, "instead of their own (from a twentieth to about a hundred-and-fiftieth of them). The engines\n")
	fmt.Fprintf(&b, "searched %.2f billion nodes in all, about six minutes of one core.\n\n", float64(nodes)/1e9)
	fmt.Fprintf(&b, "| pairing | wins | losses | draws | score | needed |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		if r.need == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f%% | %.0f%% |\n", r.name, r.m.aWins, r.m.bWins, r.m.draws, 100*r.m.score(), 100*r.need)
	}
	self := rows[len(rows)-1].m
	pct := func(n int) float64 { return 100 * float64(n) / float64(self.games) }
	fmt.Fprintf(&b, "\nFull strength against itself (%d games), beside the human record on the variant's home site\n", self.games)
	fmt.Fprintf(&b, "(about 8,100 games):\n\n")
	fmt.Fprintf(&b, "| | White wins | Black wins | draws |\n| --- | ---: | ---: | ---: |\n")
	fmt.Fprintf(&b, "| level 8 self-play | %.1f%% | %.1f%% | %.1f%% |\n", pct(self.whiteWins), pct(self.blackWins), pct(self.draws))
	fmt.Fprintf(&b, "| human games | 47.5%% | 50.1%% | 2.4%% |\n")
	r := self.reasons
	fmt.Fprintf(&b, "\nHow the self-play games ended: %d by checkmate, %d by a king frozen in an Ice Age, %d adjudicated\n",
		r[game.Checkmate], r[game.KingFrozen], r[game.Resignation])
	fmt.Fprintf(&b, "(both engines scoring the game at least ten pawns for the same side over %d plies); drawn %d by\n", adjudicatePlies, r[game.FiftyMoveRule])
	fmt.Fprintf(&b, "the fifty-move rule, %d by stalemate, %d with both kings frozen and %d at the 300-ply cap.\n",
		r[game.Stalemate], r[game.BothKingsFrozen], r[game.DrawAgreed])
	if *update {
		if err := os.WriteFile("testdata/ladder.md", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Log("\n" + b.String())
}
