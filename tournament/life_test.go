package tournament

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func signUp(t *testing.T, tr *Tournament, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := tr.Join(Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("Player %d", i), Rating: 1500 + 10*i}); err != nil {
			t.Fatal(err)
		}
	}
}

// finish plays out the current round: White wins on every board.
func finish(t *testing.T, tr *Tournament) {
	t.Helper()
	for b := range tr.Played[len(tr.Played)-1].Boards {
		if tr.Played[len(tr.Played)-1].Boards[b].Outcome == Pending {
			if err := tr.Record(b, Win); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestSwissOfFiveWithAByeAndAWithdrawal(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr := &Tournament{Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3}
	signUp(t, tr, 5)
	if err := tr.Join(Member{ID: "u1"}); !errors.Is(err, ErrAlreadyJoined) {
		t.Fatalf("joining twice: %v", err)
	}
	if _, err := tr.Start("u1", now); !errors.Is(err, ErrNotOrganiser) {
		t.Fatalf("a player started the tournament: %v", err)
	}
	r, err := tr.Start("org", now)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Boards) != 2 || r.Bye < 0 {
		t.Fatalf("round 1 of five: %+v", r)
	}
	if _, err := tr.Next(now); !errors.Is(err, ErrRoundUnderway) {
		t.Fatalf("paired round 2 during round 1: %v", err)
	}
	finish(t, tr)
	if err := tr.Record(0, Draw); !errors.Is(err, ErrAlreadyDecided) {
		t.Fatalf("a result recorded twice: %v", err)
	}
	if err := tr.Withdraw(tr.Members[4].ID); err != nil {
		t.Fatal(err)
	}
	for round := 2; round <= 3; round++ {
		r, err := tr.Next(now)
		if err != nil {
			t.Fatal(err)
		}
		if r.Bye >= 0 || len(r.Boards) != 2 {
			t.Fatalf("round %d with four players left: %+v", round, r)
		}
		for _, b := range r.Boards {
			if b.White == 4 || b.Black == 4 {
				t.Fatalf("the withdrawn player was paired in round %d", round)
			}
		}
		finish(t, tr)
	}
	if r, err := tr.Next(now); r != nil || err != nil || tr.Status != Finished {
		t.Fatalf("after the last round: %v %v, status %v", r, err, tr.Status)
	}
	st := tr.Standings()
	if len(st) != 5 || st[0].Score < st[4].Score {
		t.Fatalf("standings %+v", st)
	}
}

func TestRoundRobinOfFour(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr := &Tournament{Organiser: "org", System: RoundRobin, StartAt: now.Add(time.Hour)}
	signUp(t, tr, 4)
	if _, err := tr.Start("", now); err == nil {
		t.Fatal("started before its time")
	}
	if _, err := tr.Start("", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := tr.Join(Member{ID: "late"}); !errors.Is(err, ErrNotSigningUp) {
		t.Fatalf("a late join into a round-robin: %v", err)
	}
	met := map[[2]int]bool{}
	for {
		for _, b := range tr.Played[len(tr.Played)-1].Boards {
			met[[2]int{min(b.White, b.Black), max(b.White, b.Black)}] = true
		}
		finish(t, tr)
		r, err := tr.Next(now)
		if err != nil {
			t.Fatal(err)
		}
		if r == nil {
			break
		}
	}
	if len(tr.Played) != 3 || len(met) != 6 {
		t.Fatalf("%d rounds, %d pairings", len(tr.Played), len(met))
	}
}
