package tournament

import (
	"fmt"
	"testing"
)

// The Berger tables for 6 players as printed in C.05 Annex 1.
func TestBergerTableSix(t *testing.T) {
	want := []string{
		"1-6 2-5 3-4",
		"6-4 5-3 1-2",
		"2-6 3-1 4-5",
		"6-5 1-4 2-3",
		"3-6 4-2 5-1",
	}
	for r, w := range want {
		pairs, bye, err := BergerRound(6, 1, r+1)
		if err != nil || bye != -1 {
			t.Fatal(err, bye)
		}
		got := ""
		for i, p := range pairs {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%d-%d", p.White+1, p.Black+1)
		}
		if got != w {
			t.Errorf("round %d: %s, want %s", r+1, got, w)
		}
	}
}

func TestBergerEveryoneMeetsOnceAColourEach(t *testing.T) {
	for n := 2; n <= 24; n++ {
		for cycles := 1; cycles <= 2; cycles++ {
			met := map[[2]int]int{}
			byes := map[int]int{}
			first := map[[2]int]bool{}
			whites := make([]int, n)
			for r := 1; r <= BergerRounds(n, cycles); r++ {
				pairs, bye, err := BergerRound(n, cycles, r)
				if err != nil {
					t.Fatal(err)
				}
				seen := map[int]bool{}
				for _, p := range pairs {
					if seen[p.White] || seen[p.Black] {
						t.Fatalf("n=%d round %d: a player twice", n, r)
					}
					seen[p.White], seen[p.Black] = true, true
					met[[2]int{min(p.White, p.Black), max(p.White, p.Black)}]++
					if cycles == 2 {
						if r <= BergerRounds(n, 1) {
							first[[2]int{p.White, p.Black}] = true
						} else if !first[[2]int{p.Black, p.White}] {
							t.Fatalf("n=%d round %d: %d-%d is not the first cycle's game reversed", n, r, p.White+1, p.Black+1)
						}
					}
					whites[p.White]++
				}
				if bye >= 0 {
					byes[bye]++
					seen[bye] = true
				}
				if len(seen) != n {
					t.Fatalf("n=%d round %d: %d players", n, r, len(seen))
				}
			}
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					if met[[2]int{a, b}] != cycles {
						t.Fatalf("n=%d cycles=%d: %d and %d meet %d times", n, cycles, a+1, b+1, met[[2]int{a, b}])
					}
				}
				if n%2 == 1 && byes[a] != cycles {
					t.Fatalf("n=%d: player %d has %d byes", n, a+1, byes[a])
				}
				games := (n - 1 + n%2 - n%2) * cycles
				if d := 2*whites[a] - games; cycles == 2 && d != 0 || d < -1-n%2 || d > 1+n%2 {
					t.Fatalf("n=%d cycles=%d: player %d has %d whites of %d games", n, cycles, a+1, whites[a], games)
				}
			}
		}
	}
	if _, _, err := BergerRound(4, 1, 4); err == nil {
		t.Fatal("round 4 of a 4-player round-robin was accepted")
	}
}
