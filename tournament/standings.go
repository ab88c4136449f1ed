package tournament

import "sort"

// Tiebreak names one of the FIDE tie-breaks (C.07). The values are
// stored: never renumber them.
type Tiebreak int8

const (
	Buchholz Tiebreak = iota + 1
	BuchholzCut1
	SonnebornBerger
	DirectEncounter
	Wins
)

// SwissTiebreaks and RoundRobinTiebreaks are the orders used when a
// tournament names none.
var (
	SwissTiebreaks      = []Tiebreak{BuchholzCut1, Buchholz, SonnebornBerger, DirectEncounter, Wins}
	RoundRobinTiebreaks = []Tiebreak{DirectEncounter, SonnebornBerger, Wins}
)

// Standing is one line of a table. Buchholz counts half points;
// SonnebornBerger counts quarter points (a half point times a half
// point), so that no tie-break is ever rounded.
type Standing struct {
	Player          int // index in Field.Players
	Rank            int // 1-based; tied players share a rank
	Score           Points
	Buchholz        Points
	BuchholzCut1    Points
	SonnebornBerger int
	DirectEncounter Points
	Wins            int
	// Playing: the player's game of the round under way is not over; its
	// result is not counted yet.
	Playing bool
}

// Value is the standing's value for tie-break t, in the units above.
func (s *Standing) Value(t Tiebreak) int {
	switch t {
	case Buchholz:
		return int(s.Buchholz)
	case BuchholzCut1:
		return int(s.BuchholzCut1)
	case SonnebornBerger:
		return s.SonnebornBerger
	case DirectEncounter:
		return int(s.DirectEncounter)
	case Wins:
		return s.Wins
	}
	return 0
}

// Standings ranks the field by score and then by the tie-breaks in
// order. Unplayed rounds count as C.07 says: a player's own unplayed
// round (a bye, a forfeit, an absence) counts against a virtual opponent
// who had the player's score before that round, scored the opposite of
// the player in it and drew every later round; an opponent's unplayed
// rounds count as draws in the opponent's score. Games still pending
// count for nothing yet.
func Standings(f *Field, order []Tiebreak) []Standing {
	n := len(f.Players)
	rounds := f.Played()
	adj := make([]Points, n) // scores as opponents see them
	for i, e := range f.Players {
		for _, g := range e.Games {
			switch {
			case g.Outcome == Pending:
			case g.Outcome.Played():
				adj[i] += g.Outcome.Points()
			default:
				adj[i] += Draw.Points()
			}
		}
	}
	st := make([]Standing, n)
	for i := range f.Players {
		e := &f.Players[i]
		s := &st[i]
		s.Player = i
		s.Score = e.Score()
		var contrib []Points
		for k, g := range e.Games {
			if g.Outcome == Pending {
				continue
			}
			var c Points
			if g.Outcome.Played() && g.Opponent >= 0 {
				c = adj[g.Opponent]
				if g.Outcome == Win {
					s.Wins++
				}
			} else {
				c = e.scoreBefore(k) + (Win.Points() - g.Outcome.Points()) + Points(rounds-(k+1))
			}
			contrib = append(contrib, c)
			s.Buchholz += c
			s.SonnebornBerger += int(g.Outcome.Points()) * int(c)
		}
		s.BuchholzCut1 = s.Buchholz
		if len(contrib) > 0 {
			low := contrib[0]
			for _, c := range contrib {
				low = min(low, c)
			}
			s.BuchholzCut1 -= low
		}
	}
	// Direct encounter: the points scored in games between players of
	// the same score.
	for i, e := range f.Players {
		for _, g := range e.Games {
			if g.Opponent >= 0 && g.Outcome != Pending && st[g.Opponent].Score == st[i].Score {
				st[i].DirectEncounter += g.Outcome.Points()
			}
		}
	}
	rank(st, order)
	return st
}

// rank sorts st by score and then by the tie-breaks in order, and gives
// each its rank; tied players share one.
func rank(st []Standing, order []Tiebreak) {
	less := func(a, b *Standing) int { // >0 when a ranks above b
		if a.Score != b.Score {
			return int(a.Score - b.Score)
		}
		for _, t := range order {
			if d := a.Value(t) - b.Value(t); d != 0 {
				return d
			}
		}
		return 0
	}
	sort.SliceStable(st, func(a, b int) bool {
		if c := less(&st[a], &st[b]); c != 0 {
			return c > 0
		}
		return st[a].Player < st[b].Player
	})
	for i := range st {
		st[i].Rank = i + 1
		if i > 0 && less(&st[i], &st[i-1]) == 0 {
			st[i].Rank = st[i-1].Rank
		}
	}
}
