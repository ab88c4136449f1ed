package lesson_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/lesson"
)

func TestEveryStepIsSolvedByItsSolutionWithFullStars(t *testing.T) {
	for _, l := range lesson.All() {
		for i, st := range l.Steps {
			a, err := exercise.New(&st.Exercise)
			if err != nil {
				t.Fatalf("%s step %d: %v", l.ID, i+1, err)
			}
			for k, u := range st.Solution {
				m, err := game.ParseUCI(u)
				if err != nil {
					t.Fatalf("%s step %d: %v", l.ID, i+1, err)
				}
				r := a.Try(m)
				want := exercise.Going
				if k == len(st.Solution)-1 {
					want = exercise.Solved
				}
				if r.Verdict != want {
					t.Fatalf("%s step %d: %s gave %+v, want verdict %d", l.ID, i+1, u, r, want)
				}
			}
			if a.Stars() != exercise.MaxStars || len(st.Solution) != st.Exercise.Par {
				t.Errorf("%s step %d: the solution earns %d stars in %d moves (par %d)", l.ID, i+1, a.Stars(), len(st.Solution), st.Exercise.Par)
			}
		}
	}
}

// Whatever the opponent replies, the solution still solves: the goal
// is the rules', not the engine's choice.
func TestSolutionsHoldAgainstEveryReply(t *testing.T) {
	for _, l := range lesson.All() {
		for i, st := range l.Steps {
			// The replies forced so far, by the position they answer.
			forced := map[string]game.Move{}
			ex := st.Exercise
			ex.Reply = func(pos *game.Position) game.Move { return forced[pos.FEN()] }
			var walk func(played []string, k int)
			walk = func(played []string, k int) {
				a, err := exercise.Resume(&ex, played, 0)
				if err != nil {
					t.Fatalf("%s step %d: %v", l.ID, i+1, err)
				}
				m, _ := game.ParseUCI(st.Solution[k])
				pos := a.Position()
				if !pos.IsLegal(m) {
					t.Fatalf("%s step %d after %v: %s is not legal", l.ID, i+1, played, st.Solution[k])
				}
				after := pos.Apply(m)
				var buf [256]game.Move
				replies := after.LegalMoves(buf[:0])
				if len(replies) == 0 {
					replies = []game.Move{game.NullMove}
				}
				for _, reply := range replies {
					forced[after.FEN()] = reply
					b, _ := exercise.Resume(&ex, played, 0)
					r := b.Try(m)
					switch {
					case r.Verdict == exercise.Solved:
					case r.Verdict == exercise.Going && k+1 < len(st.Solution):
						walk(b.Played(), k+1)
						forced[after.FEN()] = reply
					default:
						t.Errorf("%s step %d after %v: %s answered by %s gives %+v", l.ID, i+1, played, st.Solution[k], reply, r)
					}
				}
			}
			walk(nil, 0)
		}
	}
}

// The first moves that solve each step are exactly those the lesson
// teaches: "only the knight reaches e5" must stay true.
func TestOnlyTheTaughtMovesSolve(t *testing.T) {
	want := map[string][]string{
		"ice-blocks 1": {"Ne5"}, "ice-blocks 2": {"Nxd5"},
		"take-ice 2":      {"Bxd4+"},
		"pawns-and-ice 1": {"exd5"},
		"king-and-ice 1":  {"Kxe2"}, "king-and-ice 2": {"Kxh2"},
		"countdown 2":    {"Kd3"},
		"what-freezes 1": {"Na4", "Nb5"},
		"sheltered 1":    {"Nd3"}, "sheltered 2": {"Rb1"},
		"frozen-king 1": {"Kb1", "Ka2"}, "frozen-king 2": {"Nf5", "Nh5", "Ne6", "Ne8"},
		"save-your-king 1": {"Kf3"}, "save-your-king 2": {"Kf5", "Kf6"},
		"freeze-theirs 1": {"Nf5", "Nh5", "Ne6", "Ne8"}, "freeze-theirs 2": {"Qxh7+"},
	}
	for _, l := range lesson.All() {
		for i, st := range l.Steps {
			if st.Exercise.Par != 1 {
				continue
			}
			name := l.ID + " " + string(rune('1'+i))
			a, _ := exercise.New(&st.Exercise)
			pos := a.Position()
			var solves []string
			for _, ms := range pos.SANs() {
				b, _ := exercise.New(&st.Exercise)
				if b.Try(ms.Move).Verdict == exercise.Solved {
					solves = append(solves, ms.SAN)
				}
			}
			if !slices.Equal(solves, want[name]) {
				t.Errorf("%s: solved by %v, want %v", name, solves, want[name])
			}
		}
	}
}

// Each typical wrong try is refused with the game's reason or misses
// with one, and the reason reads in every language.
func TestWrongTriesAreExplained(t *testing.T) {
	for _, l := range lesson.All() {
		for i, st := range l.Steps {
			if len(st.Wrong) == 0 {
				t.Errorf("%s step %d has no wrong try to explain", l.ID, i+1)
			}
			for _, u := range st.Wrong {
				a, _ := exercise.New(&st.Exercise)
				m, err := game.ParseUCI(u)
				if err != nil {
					t.Fatal(err)
				}
				r := a.Try(m)
				var me *game.MoveError
				switch r.Verdict {
				case exercise.Illegal:
					if !errors.As(r.Err, &me) || me.Kind == 0 || me.Detail == game.DetailNotLegal {
						t.Errorf("%s step %d: %s is refused without a reason: %v", l.ID, i+1, u, r.Err)
					}
				case exercise.Missed:
					if r.Why == 0 {
						t.Errorf("%s step %d: %s misses without a reason", l.ID, i+1, u)
					}
				default:
					t.Errorf("%s step %d: %s is no wrong try: %+v", l.ID, i+1, u, r)
				}
				for _, lang := range i18n.Languages() {
					text := i18n.TryResult(lang, &r)
					if text == "" || strings.Contains(text, "{{") || strings.Contains(text, "lesson.") || strings.Contains(text, "exercise.") {
						t.Errorf("%s step %d, %s in %s: %q", l.ID, i+1, u, lang, text)
					}
				}
			}
		}
	}
}

// A menu takes 25 options: every man of a lesson reaches at most 25
// squares, and a side has at most 16 men.
func TestEveryMenuFitsDiscord(t *testing.T) {
	for _, l := range lesson.All() {
		for i, st := range l.Steps {
			a, _ := exercise.New(&st.Exercise)
			pos := a.Position()
			men := exercise.Men(&pos)
			if len(men) == 0 || len(men) > 16 {
				t.Errorf("%s step %d offers %d men", l.ID, i+1, len(men))
			}
			for _, s := range men {
				if n := len(exercise.Targets(&pos, s)); n == 0 || n > 25 {
					t.Errorf("%s step %d: the man on %s has %d squares", l.ID, i+1, s, n)
				}
			}
		}
	}
}

func TestEveryLessonHasItsTextsInEveryLanguage(t *testing.T) {
	ids := map[string]bool{}
	for _, l := range lesson.All() {
		if ids[l.ID] {
			t.Errorf("two lessons are %s", l.ID)
		}
		ids[l.ID] = true
		if got, ok := lesson.ByID(l.ID); !ok || got.ID != l.ID || lesson.All()[lesson.Index(l.ID)].ID != l.ID {
			t.Errorf("%s is not found by its id", l.ID)
		}
		texts := []string{l.TitleID(), l.IntroID()}
		for i := range l.Steps {
			texts = append(texts, l.GoalID(i), l.HintID(i))
		}
		for _, lang := range i18n.Languages() {
			for _, id := range texts {
				if !i18n.Has(lang, id) {
					t.Errorf("%s lacks %s", lang, id)
				}
			}
		}
	}
	if len(lesson.All()) < 10 {
		t.Errorf("%d lessons", len(lesson.All()))
	}
}
