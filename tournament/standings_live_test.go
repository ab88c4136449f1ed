package tournament

import (
	"testing"
	"time"
)

// Before the first round the standings are the players in seeding order,
// none ranked.
func TestStandingsBeforeTheFirstRoundAreTheSeeding(t *testing.T) {
	tr := &Tournament{Organiser: "org", System: Swiss, Rounds: 3}
	for i, r := range []int{1500, 1700, 1600, 1700} {
		if err := tr.Join(Member{ID: string(rune('a' + i)), Rating: r}); err != nil {
			t.Fatal(err)
		}
	}
	var got []int
	for _, s := range tr.Standings() {
		if s.Rank != 0 || s.Score != 0 || s.Playing {
			t.Fatalf("a standing before round 1: %+v", s)
		}
		got = append(got, s.Player)
	}
	if want := []int{1, 3, 2, 0}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("seeding %v, want %v (by rating, the earlier sign-up first)", got, want)
	}
}

// During a round the finished games count, the tie-breaks are those of
// the rounds over, and the players still playing are marked: one who
// lost does not rank above those of the same score still playing.
func TestStandingsDuringARound(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr := &Tournament{Organiser: "org", System: Swiss, Rounds: 3}
	signUp(t, tr, 8)
	if _, err := tr.Start("org", now); err != nil {
		t.Fatal(err)
	}
	finish(t, tr)
	r2, err := tr.Next(now)
	if err != nil {
		t.Fatal(err)
	}
	// Only the last board of round 2 is over: White lost.
	last := len(r2.Boards) - 1
	if err := tr.Record(last, Loss); err != nil {
		t.Fatal(err)
	}
	loser := r2.Boards[last].White
	st := tr.Standings()
	after1 := Standings(tr.Completed(), tr.Tiebreaks())
	// Compare reports a's tie-breaks after round 1 against b's: >0 when
	// better.
	tb1 := map[int]Standing{}
	for _, s := range after1 {
		tb1[s.Player] = s
	}
	compare := func(a, b int) int {
		sa, sb := tb1[a], tb1[b]
		for _, k := range tr.Tiebreaks() {
			if d := sa.Value(k) - sb.Value(k); d != 0 {
				return d
			}
		}
		return 0
	}
	playing := 0
	for i, s := range st {
		if s.Playing {
			playing++
		}
		if s.Playing == (s.Player == r2.Boards[last].White || s.Player == r2.Boards[last].Black) {
			t.Fatalf("%+v is marked playing %v", s, s.Playing)
		}
		if i > 0 && st[i-1].Score == s.Score && compare(st[i-1].Player, s.Player) < 0 {
			t.Fatalf("%+v ranks above %+v of the same score, whose tie-breaks after round 1 are better", st[i-1], s)
		}
		if s.Player == loser && s.Score != tr.Field().Players[loser].Score() {
			t.Fatalf("the loser's score %v", s.Score)
		}
	}
	if playing != 2*(len(r2.Boards)-1) {
		t.Fatalf("%d players marked playing, want %d", playing, 2*(len(r2.Boards)-1))
	}
	finish(t, tr)
	for _, s := range tr.Standings() {
		if s.Playing {
			t.Fatalf("%+v still playing after the round", s)
		}
	}
}
