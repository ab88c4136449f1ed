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

// A late entry joins a running Swiss: the rounds missed count as
// zero-point byes, and the next round pairs them.
func TestLateEntryJoinsTheNextRound(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr := &Tournament{Organiser: "org", System: Swiss, Rounds: 4}
	signUp(t, tr, 4)
	if _, err := tr.Start("org", now); err != nil {
		t.Fatal(err)
	}
	finish(t, tr)
	if err := tr.Join(Member{ID: "late", Name: "Late"}); err != nil {
		t.Fatal(err)
	}
	r, err := tr.Next(now)
	if err != nil {
		t.Fatal(err)
	}
	f := tr.Field()
	late := len(tr.Members) - 1
	if g := f.Players[late].Games[0]; g.Outcome != ZeroBye || g.Opponent != -1 {
		t.Fatalf("the late entry's missed round reads %+v", g)
	}
	paired := r.Bye == late
	for _, b := range r.Boards {
		paired = paired || b.White == late || b.Black == late
	}
	if !paired || len(r.Boards) != 2 || r.Bye < 0 {
		t.Fatalf("round 2 with a late entry: %+v", r)
	}
	// Five players: the bye goes to the lowest score (C5), and of those
	// to one who missed no round (C9): a loser of round 1, not the late
	// entry, who already sat round 1 out.
	if s := f.Players[r.Bye].scoreBefore(1); s != 0 || r.Bye == late {
		t.Fatalf("the bye went to player %d with %v points (the late entry is %d)", r.Bye+1, s, late+1)
	}
}
