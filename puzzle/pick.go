package puzzle

import (
	"cmp"
	"hash/fnv"
	"io"
	"math"
	"slices"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
)

// Exercise is the puzzle as an exercise (package exercise): its replies
// scripted by its line, solved by its goal within its solver moves (a
// mate or a freeze by any move that reaches it; an advantage by the
// line alone).
func (pz *Puzzle) Exercise() *exercise.Exercise {
	kind := exercise.Line
	switch pz.Goal {
	case Mate:
		kind = exercise.Mate
	case Freeze:
		kind = exercise.Win
	}
	n := pz.SolverMoves()
	return &exercise.Exercise{FEN: pz.FEN, Goal: exercise.Goal{Kind: kind}, Par: n, Limit: n, Line: pz.Moves}
}

// Right reports whether m, played at the solver's move ply (from 0) of
// the puzzle in pos, is right: the line's move or, for a mate or a
// freeze, any move that reaches the goal at once.
func (pz *Puzzle) Right(pos *game.Position, ply int, m game.Move) bool {
	if 2*ply < len(pz.Moves) && pz.Moves[2*ply] == m.UCI() {
		return true
	}
	return pz.Goal != Advantage && Reaches(pos, m, pz.Goal)
}

// At returns the position before the solver's move ply (from 0), the
// line played so far, and the move before it (the reply; NullMove at
// the start).
func (pz *Puzzle) At(ply int) (game.Position, game.Move, error) {
	p, line, err := pz.parse()
	if err != nil {
		return p, game.NullMove, err
	}
	last := game.NullMove
	for i := 0; i < 2*ply && i < len(line); i++ {
		p, last = p.Apply(line[i]), line[i]
	}
	return p, last, nil
}

// Pick chooses a puzzle of set for a solver rated rating, not among
// tried: one of the few nearest in rating, by salt (so that two players
// of one rating, or one player's next puzzles, differ). A puzzle's
// rating is the one its tries have given it, in rated by id, or its
// first rating if it was never tried. ok is false when every puzzle was
// tried.
func Pick(set []Puzzle, rating float64, tried []string, rated map[string]float64, salt string) (Puzzle, bool) {
	skip := make(map[string]bool, len(tried))
	for _, id := range tried {
		skip[id] = true
	}
	// dist is each candidate's distance in rating, by its index in set.
	dist := make([]float64, len(set))
	var near []int
	for i := range set {
		if skip[set[i].ID] {
			continue
		}
		r, ok := rated[set[i].ID]
		if !ok {
			r = float64(set[i].Rating)
		}
		near = append(near, i)
		dist[i] = math.Abs(r - rating)
	}
	if len(near) == 0 {
		return Puzzle{}, false
	}
	slices.SortFunc(near, func(a, b int) int { return cmp.Or(cmp.Compare(dist[a], dist[b]), cmp.Compare(set[a].ID, set[b].ID)) })
	near = near[:min(len(near), pickAmong)]
	return set[near[hash(salt)%uint64(len(near))]], true
}

// pickAmong is how many of the nearest puzzles Pick chooses from.
const pickAmong = 5

// Daily returns the puzzle of a day ("2006-01-02") from set: the same
// for every server, a different one each day, cycling through the set.
func Daily(set []Puzzle, day string) (Puzzle, bool) {
	if len(set) == 0 {
		return Puzzle{}, false
	}
	return set[hash("daily "+day)%uint64(len(set))], true
}

func hash(s string) uint64 {
	h := fnv.New64a()
	_, _ = io.WriteString(h, s) // a hash's Write never fails
	return h.Sum64()
}
