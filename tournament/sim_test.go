package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// newField makes n entrants rated from the top down, as a Swiss seeds them.
func newField(n, rounds int) *Field {
	f := &Field{Rounds: rounds, InitialColor: White}
	for i := 0; i < n; i++ {
		f.Players = append(f.Players, Entrant{Name: fmt.Sprintf("Player %d", i+1), Rating: 2400 - 7*i})
	}
	return f
}

// playRound records a pairing's round in f with results drawn from r: the
// better rated wins more often, and some games are drawn.
func playRound(f *Field, p Pairing, r *rand.Rand) {
	for i := range f.Players {
		f.Players[i].Games = append(f.Players[i].Games, Game{Opponent: -1, Outcome: ZeroBye})
	}
	k := f.Played() - 1
	for _, pr := range p.Pairs {
		w, b := &f.Players[pr.White], &f.Players[pr.Black]
		x := r.Float64() + float64(w.Rating-b.Rating)/800
		wo, bo := Draw, Draw
		switch {
		case x > 0.65:
			wo, bo = Win, Loss
		case x < 0.35:
			wo, bo = Loss, Win
		}
		w.Games[k] = Game{Opponent: pr.Black, Color: White, Outcome: wo}
		b.Games[k] = Game{Opponent: pr.White, Color: Black, Outcome: bo}
	}
	if p.Bye >= 0 {
		f.Players[p.Bye].Games[k] = Game{Opponent: -1, Outcome: Bye}
	}
}

// checkRound checks what every Dutch pairing must be: everyone paired
// once, no game repeated, one bye exactly when the count is odd, never a
// second bye, and the colour limits of C.04.1 except for topscorers in
// the last round.
func checkRound(t *testing.T, f *Field, p Pairing) {
	t.Helper()
	seen := map[int]bool{}
	mark := func(i int) {
		if seen[i] {
			t.Fatalf("round %d: player %d paired twice: %+v", f.Played()+1, i+1, p)
		}
		if f.Players[i].Out {
			t.Fatalf("round %d: player %d is out but paired", f.Played()+1, i+1)
		}
		seen[i] = true
	}
	active := 0
	for i := range f.Players {
		if !f.Players[i].Out {
			active++
		}
	}
	last := f.Played()+1 >= f.Rounds
	for _, pr := range p.Pairs {
		mark(pr.White)
		mark(pr.Black)
		for _, g := range f.Players[pr.White].Games {
			if g.Opponent == pr.Black && g.Outcome.Played() {
				t.Fatalf("round %d: %d and %d meet again", f.Played()+1, pr.White+1, pr.Black+1)
			}
		}
		w, b := newDPlayer(f, pr.White, last), newDPlayer(f, pr.Black, last)
		for _, x := range []struct {
			p dplayer
			c Color
		}{{w, White}, {b, Black}} {
			cd := x.p.cd + 1
			if x.c == Black {
				cd -= 2
			}
			h := x.p.hist
			three := len(h) >= 2 && h[len(h)-1] == x.c && h[len(h)-2] == x.c
			if (abs(cd) > 2 || three) && !(w.top || b.top) {
				t.Fatalf("round %d: player %d gets %v with colours %v (difference %d)", f.Played()+1, x.p.idx+1, x.c, h, x.p.cd)
			}
		}
	}
	if (active%2 == 1) != (p.Bye >= 0) {
		t.Fatalf("round %d: %d players and bye %d", f.Played()+1, active, p.Bye)
	}
	if p.Bye >= 0 {
		mark(p.Bye)
		for _, g := range f.Players[p.Bye].Games {
			if g.Outcome == Bye {
				t.Fatalf("round %d: player %d gets a second bye", f.Played()+1, p.Bye+1)
			}
		}
	}
	if len(seen) != active {
		t.Fatalf("round %d: %d of %d players paired", f.Played()+1, len(seen), active)
	}
}

// playRoundWithAbsences is playRound where some games are forfeited
// and the players marked Out sat the round out with a half-point or
// zero-point bye, as requested byes and absences go.
func playRoundWithAbsences(f *Field, p Pairing, r *rand.Rand) {
	playRound(f, p, r)
	k := f.Played() - 1
	for i := range f.Players {
		e := &f.Players[i]
		if e.Out {
			e.Games[k] = Game{Opponent: -1, Outcome: []Outcome{ZeroBye, HalfBye}[r.IntN(2)]}
			e.Out = false
		}
	}
	for _, pr := range p.Pairs {
		if r.IntN(40) == 0 {
			f.Players[pr.White].Games[k] = Game{Opponent: pr.Black, Outcome: ForfeitWin}
			f.Players[pr.Black].Games[k] = Game{Opponent: pr.White, Outcome: ForfeitLoss}
		}
	}
}

// Tournaments with absences and forfeits: byes that are not the
// pairing's, games that do not count as met, floats from unplayed
// rounds. The same rules must hold.
func TestDutchGeneratedTournamentsWithAbsencesAndForfeits(t *testing.T) {
	sizes := []int{5, 8, 11, 16, 23, 30, 47, 80}
	if testing.Short() {
		sizes = []int{5, 8, 11, 16}
	}
	for _, n := range sizes {
		for seed := uint64(0); seed < 3; seed++ {
			rounds := 5 + int(seed)*3 // 5, 8, 11
			if rounds >= n {
				rounds = n - 1
			}
			t.Run(fmt.Sprintf("%d players %d rounds seed %d", n, rounds, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed+100, uint64(n)))
				f := newField(n, rounds)
				for round := 0; round < rounds; round++ {
					for i := range f.Players {
						f.Players[i].Out = r.IntN(20) == 0
					}
					p, err := PairDutch(f)
					if err != nil {
						if errors.Is(err, ErrNoPairing) && n <= 14 && !anyPairing(t, f) {
							t.Skipf("round %d: %v (and indeed none does: a small field runs out of opponents)", round+1, err)
						}
						t.Fatalf("round %d: %v", round+1, err)
					}
					checkRound(t, f, p)
					playRoundWithAbsences(f, p, r)
				}
			})
		}
	}
}

// anyPairing says, trying every pairing, whether one meets the absolute
// criteria (C1 no rematch, C2 no second bye, C3 the colour limits below
// the top scorers): the proof that ErrNoPairing was right.
func anyPairing(t *testing.T, f *Field) bool {
	d, err := newDutch(f)
	if err != nil {
		t.Fatal(err)
	}
	n := len(d.ps)
	used := make([]bool, n)
	var rec func(byeLeft bool) bool
	rec = func(byeLeft bool) bool {
		a := 0
		for a < n && used[a] {
			a++
		}
		if a == n {
			return true
		}
		used[a] = true
		defer func() { used[a] = false }()
		if byeLeft && d.ps[a].byeOK && rec(false) {
			return true
		}
		for b := a + 1; b < n; b++ {
			if !used[b] && d.compatible(a, b) {
				used[b] = true
				ok := rec(byeLeft)
				used[b] = false
				if ok {
					return true
				}
			}
		}
		return false
	}
	return rec(n%2 == 1)
}

func TestDutchGeneratedTournaments(t *testing.T) {
	sizes := []int{}
	for n := 3; n <= 40; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 51, 64, 99, 128, 200)
	if testing.Short() {
		sizes = []int{3, 4, 5, 6, 7, 9, 12, 17, 24}
	}
	for _, n := range sizes {
		for seed := uint64(0); seed < 2; seed++ {
			rounds := 3 + int(seed*uint64(n)+uint64(n))%9 // 3 … 11
			if rounds >= n {
				rounds = n - 1 + n%2
			}
			t.Run(fmt.Sprintf("%d players %d rounds seed %d", n, rounds, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, uint64(n)))
				f := newField(n, rounds)
				for round := 0; round < rounds; round++ {
					p, err := PairDutch(f)
					if err != nil {
						if errors.Is(err, ErrNoPairing) && n <= 14 && !anyPairing(t, f) {
							t.Skipf("round %d: %v (and indeed none does: a small field runs out of opponents)", round+1, err)
						}
						t.Fatalf("round %d: %v", round+1, err)
					}
					checkRound(t, f, p)
					playRound(f, p, r)
				}
			})
		}
	}
}
