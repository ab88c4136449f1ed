package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A four-player, three-round event worked by hand.
//
//	R1: 1-4 1-0, 2-3 ½-½   R2: 3-1 0-1, 4-2 0-1   R3: 1-2 ½-½, 3-4 forfeit win for 3
func TestStandingsWorkedExample(t *testing.T) {
	f := &Field{Rounds: 3, Players: []Entrant{
		{Name: "A", Games: []Game{{3, White, Win}, {2, Black, Win}, {1, White, Draw}}},
		{Name: "B", Games: []Game{{2, White, Draw}, {3, Black, Win}, {0, Black, Draw}}},
		{Name: "C", Games: []Game{{1, Black, Draw}, {0, White, Loss}, {3, NoColor, ForfeitWin}}},
		{Name: "D", Games: []Game{{0, Black, Loss}, {1, White, Loss}, {2, NoColor, ForfeitLoss}}},
	}}
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	st := Standings(f, SwissTiebreaks)
	// Scores: A 2.5, B 2, C 1.5, D 0. Opponents' scores with unplayed
	// rounds as draws: C counts 0.5+0+0.5 = 1, D counts 0+0+0.5 = 0.5.
	// A: D 0.5 + C 1 + B 2 = 3.5.  B: C 1 + D 0.5 + A 2.5 = 4.
	// C: B 2 + A 2.5 + virtual (0.5 before, scored 1, so 0.5+0+0) = 5.
	// D: A 2.5 + B 2 + virtual (0 before, scored 0: 0+1+0) = 5.5.
	want := []struct {
		player   int
		score    Points
		buchholz Points
		cut1     Points
		sb       int
	}{
		{0, 5, 7, 6, 2*1 + 2*2 + 1*4}, // A: SB = 1·0.5 + 1·1 + ½·2 = 2.5 → 10 quarters
		{1, 4, 8, 7, 1*2 + 2*1 + 1*5}, // B: ½·1 + 1·0.5 + ½·2.5 = 2.25 → 9 quarters
		{2, 3, 10, 9, 1*4 + 0 + 2*1},  // C: ½·2 + 0 + 1·0.5 = 1.5 → 6 quarters
		{3, 0, 11, 9, 0},              // D
	}
	for i, w := range want {
		s := st[i]
		if s.Player != w.player || s.Score != w.score || s.Buchholz != w.buchholz || s.BuchholzCut1 != w.cut1 || s.SonnebornBerger != w.sb {
			t.Errorf("place %d: %+v, want player %d score %v Buchholz %v cut %v SB %d", i+1, s, w.player+1, w.score, w.buchholz, w.cut1, w.sb)
		}
	}
}

func TestStandingsTieBreaksDecideInOrder(t *testing.T) {
	// Two players on the same score who drew each other and beat the
	// same third: direct encounter cannot split them, wins can't, and
	// they share the rank.
	f := &Field{Rounds: 2, Players: []Entrant{
		{Games: []Game{{1, White, Draw}, {2, White, Win}}},
		{Games: []Game{{0, Black, Draw}, {-1, NoColor, ZeroBye}}},
		{Games: []Game{{-1, NoColor, ZeroBye}, {0, Black, Loss}}},
	}}
	f.Players[1].Games[1] = Game{Opponent: -1, Outcome: FullBye}
	st := Standings(f, []Tiebreak{DirectEncounter, Wins})
	if st[0].Player != 0 || st[1].Player != 1 || st[0].Rank != 1 || st[1].Rank != 2 {
		t.Fatalf("got %+v: the player with the win over the board ranks first", st)
	}
	st = Standings(f, []Tiebreak{DirectEncounter})
	if st[0].Rank != 1 || st[1].Rank != 1 {
		t.Fatalf("got %+v: without wins they share first place", st)
	}
}

func BenchmarkStandings200(b *testing.B) {
	// Nine rounds of a 200-player field, paired by the Berger table for
	// speed: the table does not care how the games were paired.
	f := newField(200, 9)
	r := rand.New(rand.NewPCG(9, 9))
	for round := 1; round <= 9; round++ {
		pairs, _, err := BergerRound(200, 1, round)
		if err != nil {
			b.Fatal(err)
		}
		playRound(f, Pairing{Pairs: pairs, Bye: -1}, r)
	}
	for b.Loop() {
		Standings(f, SwissTiebreaks)
	}
}

func ExampleStandings() {
	f := &Field{Rounds: 1, Players: []Entrant{
		{Name: "Ann", Games: []Game{{1, White, Win}}},
		{Name: "Bo", Games: []Game{{0, Black, Loss}}},
	}}
	for _, s := range Standings(f, SwissTiebreaks) {
		fmt.Println(s.Rank, f.Players[s.Player].Name, s.Score)
	}
	// Output:
	// 1 Ann 1
	// 2 Bo 0
}
