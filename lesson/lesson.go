// Package lesson holds the lessons of Ice Age Chess: short steps, each
// a position with a goal (package exercise), that teach the variant's
// rules one at a time, from ice blocking lines to freezing the
// opponent's king. The texts are in i18n (lesson.ID.title, .intro, and
// lesson.ID.N.goal and .hint for step N from 1); the bot's /learn and
// the terminal's "iceage learn" both show them.
//
// Every step's solution and its typical wrong tries are proven in the
// tests, through package exercise, against the rules engine.
package lesson

import (
	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
)

// Lesson is a rule taught in a few steps. Its ID is stable: progress is
// stored by it.
type Lesson struct {
	ID    string
	Steps []Step
}

// Step is one position of a lesson.
type Step struct {
	Exercise exercise.Exercise
	// Solution is a way to meet the goal: the solver's moves (UCI),
	// the replies coming in between.
	Solution []string
	// Wrong are typical wrong first tries (UCI), each refused by the
	// rules or missing the goal; Hint points away from them.
	Wrong []string
	// Marks are the squares the goal is about, marked on its picture.
	Marks []game.Square
}

// All returns the lessons in the order they are taught.
func All() []Lesson { return lessons }

// ByID returns the lesson with that id.
func ByID(id string) (*Lesson, bool) {
	for i := range lessons {
		if lessons[i].ID == id {
			return &lessons[i], true
		}
	}
	return nil, false
}

// Index returns the position of the lesson with that id in All, or -1.
func Index(id string) int {
	for i := range lessons {
		if lessons[i].ID == id {
			return i
		}
	}
	return -1
}

// MaxStars is the most stars a lesson gives: those of its steps.
func (l *Lesson) MaxStars() int { return len(l.Steps) * exercise.MaxStars }

// TitleID and the others are the i18n message ids of a lesson's texts.
func (l *Lesson) TitleID() string        { return "lesson." + l.ID + ".title" }
func (l *Lesson) IntroID() string        { return "lesson." + l.ID + ".intro" }
func (l *Lesson) GoalID(step int) string { return "lesson." + l.ID + "." + itoa(step+1) + ".goal" }
func (l *Lesson) HintID(step int) string { return "lesson." + l.ID + "." + itoa(step+1) + ".hint" }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// sq reads a square of the tables below; they are checked by the tests.
func sq(s string) game.Square {
	x, err := game.ParseSquare(s)
	if err != nil {
		panic("lesson: bad square " + s)
	}
	return x
}

func squares(ss ...string) []game.Square {
	out := make([]game.Square, len(ss))
	for i, s := range ss {
		out[i] = sq(s)
	}
	return out
}

// goal helpers.
func reach(man game.Kind, ss ...string) exercise.Goal {
	return exercise.Goal{Kind: exercise.Reach, Man: man, Squares: squares(ss...)}
}

func kind(k exercise.GoalKind, ss ...string) exercise.Goal {
	return exercise.Goal{Kind: k, Squares: squares(ss...)}
}

// The lessons. Positions far from an Ice Age start at move 5; those
// about the Ice Age at move 20 (40), where Black's next move brings it.
var lessons = []Lesson{
	{ID: "ice-blocks", Steps: []Step{
		{ // Only the knight reaches e5: ice on e3 and d4 bars the rook and the bishop.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/8/3*4/4*N2/1B6/4R1K1 w - - 0 5", Goal: reach(game.NoKind, "e5"), Par: 1},
			Solution: []string{"f3e5"}, Wrong: []string{"e1e5", "b2e5"}, Marks: squares("e5"),
		},
		{ // The queen cannot pass the ice on d3; the knight jumps the wall.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/3r4/2**4/2N*4/6PP/3Q3K w - - 0 5", Goal: kind(exercise.Take, "d5"), Par: 1},
			Solution: []string{"c3d5"}, Wrong: []string{"d1d5"}, Marks: squares("d5"),
		},
	}},
	{ID: "take-ice", Steps: []Step{
		{ // Break the ice on a4, then the rook reaches a8.
			Exercise: exercise.Exercise{FEN: "7k/6pp/8/8/**6/8/6PP/R5K1 w - - 0 5", Goal: reach(game.Rook, "a8"), Par: 2},
			Solution: []string{"a1a4", "a4a8"}, Wrong: []string{"a1a8"}, Marks: squares("a8"),
		},
		{ // Black takes ice too, and taking it may give check.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/1b6/8/3*4/8/6PP/6K1 b - - 0 5", Goal: kind(exercise.Check), Par: 1},
			Solution: []string{"b6d4"}, Wrong: []string{"b6c5"}, Marks: squares("d4", "g1"),
		},
	}},
	{ID: "pawns-and-ice", Steps: []Step{
		{ // A pawn takes ice diagonally, never straight ahead.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/3**3/4P3/8/6PP/6K1 w - - 0 5", Goal: reach(game.Pawn, "d5", "e5"), Par: 1},
			Solution: []string{"e4d5"}, Wrong: []string{"e4e5"}, Marks: squares("d5", "e5"),
		},
		{ // Stuck behind ice on d3: take the ice on e3, then push.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/8/8/3**3/3P2PP/6K1 w - - 0 5", Goal: reach(game.Pawn, "e4"), Par: 2},
			Solution: []string{"d2e3", "e3e4"}, Wrong: []string{"d2d4", "d2d3"}, Marks: squares("e4"),
		},
	}},
	{ID: "king-and-ice", Steps: []Step{
		{ // Walled in by ice: only the ice on e2 is not attacked.
			Exercise: exercise.Exercise{FEN: "5rk1/6pp/8/8/1b6/8/PP1***2/3*K*2 w - - 0 5", Goal: reach(game.King, "d2", "e2", "f2"), Par: 1},
			Solution: []string{"e1e2"}, Wrong: []string{"e1d2", "e1f2"}, Marks: squares("d2", "e2", "f2"),
		},
		{ // In check on the first rank: the king breaks out through ice the bishop does not see.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/8/4b3/8/6**/r6K w - - 0 5", Goal: reach(game.King, "g2", "h2"), Par: 1},
			Solution: []string{"h1h2"}, Wrong: []string{"h1g2", "h1g1"}, Marks: squares("g2", "h2"),
		},
	}},
	{ID: "countdown", Steps: []Step{
		{ // Move 19: two moves of yours before Black's 20th brings the Ice Age.
			Exercise: exercise.Exercise{FEN: "7k/6pp/8/8/4P3/8/8/1K6 w - - 0 19", Goal: kind(exercise.Survive), Par: 2},
			Solution: []string{"b1c2", "c2d3"}, Wrong: []string{"b1d3"}, Marks: squares("e4"),
		},
		{ // Move 40: the Ice Age comes every 20 Black moves.
			Exercise: exercise.Exercise{FEN: "7k/6pp/8/8/4P3/8/2K5/8 w - - 0 40", Goal: kind(exercise.Survive), Par: 1},
			Solution: []string{"c2d3"}, Wrong: []string{"c2d2"}, Marks: squares("e4"),
		},
	}},
	{ID: "what-freezes", Steps: []Step{
		{ // Ice is no company: the knight jumps next to a man, Black's will do.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/p7/1***4/1*N*4/1***2PP/6K1 w - - 0 20", Goal: kind(exercise.Keep), Par: 1},
			Solution: []string{"c3b5"}, Wrong: []string{"c3d5", "c3d3"}, Marks: squares("c3"),
		},
	}},
	{ID: "sheltered", Steps: []Step{
		{ // A square whose four neighbours hold men stays empty.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/3P4/2P1P3/8/1N4PP/6K1 w - - 0 20", Goal: kind(exercise.Shelter, "d4"), Par: 1},
			Solution: []string{"b2d3"}, Wrong: []string{"b2d1", "e4e5"}, Marks: squares("d4"),
		},
		{ // The edge of the board is a wall too.
			Exercise: exercise.Exercise{FEN: "6k1/5ppp/8/8/8/8/PP4PP/3R2K1 w - - 0 20", Goal: kind(exercise.Shelter, "a1"), Par: 1},
			Solution: []string{"d1b1"}, Wrong: []string{"d1a1", "d1c1"}, Marks: squares("a1"),
		},
	}},
	{ID: "frozen-king", Steps: []Step{
		{ // Black's king is alone: keep yours in company and win.
			Exercise: exercise.Exercise{FEN: "7k/8/8/8/8/8/1P6/K7 w - - 0 20", Goal: kind(exercise.Win), Par: 1},
			Solution: []string{"a1b1"}, Wrong: []string{"b2b4"}, Marks: squares("h8"),
		},
		{ // Yours cannot be saved: leave Black's king alone too, and draw.
			Exercise: exercise.Exercise{FEN: "7k/6N1/8/8/8/8/8/K7 w - - 0 20", Goal: kind(exercise.Draw), Par: 1},
			Solution: []string{"g7e6"}, Wrong: []string{"a1b2"}, Marks: squares("a1", "h8"),
		},
	}},
	{ID: "save-your-king", Steps: []Step{
		{ // The king steps next to its pawn.
			Exercise: exercise.Exercise{FEN: "k7/p7/8/8/6K1/8/4P3/8 w - - 0 20", Goal: kind(exercise.Survive), Par: 1},
			Solution: []string{"g4f3"}, Wrong: []string{"g4g3", "e2e4"}, Marks: squares("g4"),
		},
		{ // An enemy pawn is company too, on a square it does not attack.
			Exercise: exercise.Exercise{FEN: "k7/p7/6K1/4p3/4*3/8/8/8 w - - 0 20", Goal: kind(exercise.Survive), Par: 1},
			Solution: []string{"g6f5"}, Wrong: []string{"g6f7", "g6g5"}, Marks: squares("e5"),
		},
	}},
	{ID: "freeze-theirs", Steps: []Step{
		{ // Your own knight keeps Black's king warm: take it away.
			Exercise: exercise.Exercise{FEN: "7k/6N1/8/8/8/8/1P6/K7 w - - 0 20", Goal: kind(exercise.Freeze), Par: 1},
			Solution: []string{"g7e6"}, Wrong: []string{"a1a2", "b2b3"}, Marks: squares("h8"),
		},
		{ // Give up the queen for the pawn that keeps Black's king company.
			Exercise: exercise.Exercise{FEN: "7k/7p/8/8/8/3Q4/1P6/K7 w - - 0 20", Goal: kind(exercise.Freeze), Par: 1},
			Solution: []string{"d3h7"}, Wrong: []string{"d3d8", "a1a2"}, Marks: squares("h7"),
		},
	}},
}
