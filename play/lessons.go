package play

import (
	"context"
	"errors"
	"maps"
	"slices"
	"time"
)

// LessonProgress is what a user earned in the lessons (/learn, "iceage
// learn"): the most stars at each step, by lesson id. It is kept per
// user, in every server alike: the lessons teach the same rules
// everywhere.
type LessonProgress struct {
	V int `json:"v"`
	// Stars holds, by lesson id, the best stars of each step (index 0 is
	// the first step; 0 stars: not solved yet).
	Stars   map[string][]int `json:"stars,omitempty"`
	Updated time.Time        `json:"updated,omitzero"`
}

func (p *LessonProgress) version() *int { return &p.V }

// MaxLessonSteps and MaxStarsPerStep bound what a progress record holds,
// so that no input can grow one without end.
const (
	MaxLessonSteps  = 20
	MaxStarsPerStep = 3
	maxLessons      = 64
)

// Clone returns a copy that shares nothing with p.
func (p LessonProgress) Clone() LessonProgress {
	if p.Stars != nil {
		p.Stars = maps.Clone(p.Stars)
		for k, v := range p.Stars {
			p.Stars[k] = slices.Clone(v)
		}
	}
	return p
}

// Best returns the best stars at a step of a lesson, 0 when unsolved.
func (p *LessonProgress) Best(lesson string, step int) int {
	s := p.Stars[lesson]
	if step < 0 || step >= len(s) {
		return 0
	}
	return s[step]
}

// Total returns the stars earned in a lesson.
func (p *LessonProgress) Total(lesson string) int {
	n := 0
	for _, s := range p.Stars[lesson] {
		n += s
	}
	return n
}

// Earn keeps stars at a step of a lesson if they beat the best so far,
// and reports whether they did. Out-of-range input changes nothing.
func (p *LessonProgress) Earn(lesson string, step, stars int) bool {
	if lesson == "" || len(lesson) > 64 || step < 0 || step >= MaxLessonSteps || stars < 1 || stars > MaxStarsPerStep {
		return false
	}
	if _, ok := p.Stars[lesson]; !ok && len(p.Stars) >= maxLessons {
		return false
	}
	s := p.Stars[lesson]
	if step < len(s) && s[step] >= stars {
		return false
	}
	if p.Stars == nil {
		p.Stars = map[string][]int{}
	}
	for len(s) <= step {
		s = append(s, 0)
	}
	s[step] = stars
	p.Stars[lesson] = s
	return true
}

// LessonProgress returns the user's progress in the lessons (zero if
// none).
func (s *Service) LessonProgress(ctx context.Context, user string) (LessonProgress, error) {
	var out LessonProgress
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		out, err = tx.LessonProgress(user)
		return err
	})
	return out, err
}

// EarnLessonStars keeps the stars a user earned at a step of a lesson,
// if they beat the best so far, and returns the progress as stored.
func (s *Service) EarnLessonStars(ctx context.Context, user, lesson string, step, stars int, at time.Time) (LessonProgress, error) {
	var out LessonProgress
	if err := CheckID("user id", user); err != nil || user == "" {
		return out, errors.New("play: lesson progress needs a user")
	}
	err := s.st.Update(ctx, func(tx Tx) error {
		p, err := tx.LessonProgress(user)
		if err != nil {
			return err
		}
		p = p.Clone()
		if p.Earn(lesson, step, stars) {
			p.Updated = normTime(at)
			if err := tx.PutLessonProgress(user, p); err != nil {
				return err
			}
		}
		out = p
		return nil
	})
	return out, err
}
