package puzzle

import (
	"context"
	"testing"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/exercise"
)

// sample returns every puzzle of the shipped set, or with -short every
// step-th, so that CI's short runs stay quick.
func sample(t *testing.T, set []Puzzle, step int) []Puzzle {
	if !testing.Short() {
		return set
	}
	var out []Puzzle
	for i := 0; i < len(set); i += step {
		out = append(out, set[i])
	}
	return out
}

func TestEveryShippedPuzzleReplaysLegallyAndReachesItsGoal(t *testing.T) {
	set := Set()
	if len(set) == 0 {
		t.Fatal("the shipped set is empty")
	}
	ids := map[string]bool{}
	e := engine.New(engine.Options{TableBytes: 4 << 20})
	for _, pz := range set {
		if ids[pz.ID] {
			t.Errorf("puzzle %s appears twice", pz.ID)
		}
		ids[pz.ID] = true
		if pz.ID != ID(pz.FEN, pz.Moves) {
			t.Errorf("puzzle %s: its id is not its position's and line's (%s)", pz.ID, ID(pz.FEN, pz.Moves))
		}
		if err := pz.Check(); err != nil {
			t.Error(err)
			continue
		}
		if got, ok := ByID(pz.ID); !ok || got.FEN != pz.FEN {
			t.Errorf("ByID(%s) = %v", pz.ID, ok)
		}
		if pz.Proven != (pz.Goal != Advantage) || pz.Proven && pz.SolverMoves() > MaxProvenMoves {
			t.Errorf("puzzle %s: goal %s in %d moves, proven %v", pz.ID, pz.Goal, pz.SolverMoves(), pz.Proven)
		}
		if pz.Rating < CalibratedMin || pz.Rating > CalibratedMax {
			t.Errorf("puzzle %s: rating %d", pz.ID, pz.Rating)
		}
	}
	// An engine-judged puzzle's goal is an advantage the line keeps: after
	// it, the opponent to move stands worse.
	for _, pz := range sample(t, set, 4) {
		if pz.Goal != Advantage {
			continue
		}
		p, line, _ := pz.parse()
		for _, m := range line {
			p = p.Apply(m)
		}
		if p.Outcome().Over() {
			continue
		}
		e.Reset()
		r := e.Search(context.Background(), p, engine.Limits{Nodes: 30_000})
		if r.Score > keptMargin && !pz.Has(SaveKing) {
			t.Errorf("puzzle %s: after its line the opponent scores %d", pz.ID, r.Score)
		}
		if pz.Has(SaveKing) && engine.MateIn(r.Score) > 0 {
			t.Errorf("puzzle %s: the king saved is lost all the same (%d)", pz.ID, r.Score)
		}
	}
}

// keptMargin is the most the opponent may score after an advantage
// puzzle's line, on a small search: the solver kept the upper hand.
const keptMargin = -50

func TestEveryProvenPuzzleIsProvenAgain(t *testing.T) {
	n := 0
	for _, pz := range sample(t, Set(), 3) {
		if !pz.Proven {
			continue
		}
		n++
		if err := pz.Prove(); err != nil {
			t.Error(err)
		}
	}
	if n == 0 {
		t.Fatal("no proven puzzle in the shipped set")
	}
}

func TestEveryShippedPuzzleIsAnExerciseSolvedByItsLine(t *testing.T) {
	for _, pz := range sample(t, Set(), 5) {
		ex := pz.Exercise()
		_, line, _ := pz.parse()
		for ply := 0; ply < pz.SolverMoves(); ply++ {
			pos, _, err := pz.At(ply)
			if err != nil {
				t.Fatal(err)
			}
			if !pz.Right(&pos, ply, line[2*ply]) {
				t.Fatalf("puzzle %s: its own move %d is not right", pz.ID, ply+1)
			}
		}
		a, err := exercise.Resume(ex, pz.Moves[:len(pz.Moves)-1], 0)
		if err != nil {
			t.Fatalf("puzzle %s: %v", pz.ID, err)
		}
		r := a.Try(line[len(line)-1])
		if !a.Solved() {
			t.Fatalf("puzzle %s: its last move leaves the exercise unsolved (%v, why %v)", pz.ID, r.Verdict, r.Why)
		}
	}
}
