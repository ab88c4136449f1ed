package tui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/lesson"
	"github.com/iceagechess/iceage/play"
)

// Learner runs the lessons of package lesson in a terminal, one typed
// line at a time, as /learn runs them in Discord: the same positions,
// goals, hints and stars, the same explanations of a wrong try. At the
// list a line is a lesson's number; in a step it is a move in any
// notation game.ParseMove reads, or one of the commands hint, again,
// lessons, next and quit, in the Learner's language or in English
// (learnWords). The stars are kept through play, for the user
// the Learner was made for.
type Learner struct {
	ctx  context.Context
	svc  *play.Service
	user string
	lang i18n.Lang
	now  func() time.Time

	lesson *lesson.Lesson // nil at the list
	step   int
	try    *exercise.Attempt
}

// NewLearner returns a Learner at the list of lessons, keeping the
// stars of user in svc.
func NewLearner(ctx context.Context, svc *play.Service, user string, lang i18n.Lang, now func() time.Time) *Learner {
	if now == nil {
		now = time.Now
	}
	return &Learner{ctx: ctx, svc: svc, user: user, lang: lang, now: now}
}

// Start returns the first screen: the list of lessons.
func (l *Learner) Start() string { return l.list() }

// Do carries out one typed line and returns what to show, and whether
// the player quit.
func (l *Learner) Do(line string) (string, bool) {
	line = strings.TrimSpace(line)
	cmd := l.command(line)
	switch cmd {
	case learnQuit:
		return "", true
	case learnLessons:
		l.lesson = nil
		return l.list(), false
	}
	if l.lesson == nil {
		n, err := strconv.Atoi(line)
		if err != nil || n < 1 || n > len(lesson.All()) {
			return i18n.T(l.lang, "learn.tui.lessons", nil), false
		}
		l.open(&lesson.All()[n-1], 0)
		return l.screen(""), false
	}
	switch cmd {
	case learnHint:
		return "💡 " + i18n.T(l.lang, l.lesson.HintID(l.step), nil), false
	case learnAgain:
		l.open(l.lesson, l.step)
		return l.screen(""), false
	case learnNext:
		if !l.try.Solved() {
			if line == "" {
				return l.words("learn.tui.prompt"), false
			}
			return l.words("learn.tui.unknown"), false
		}
		return l.next(), false
	}
	if l.try.Solved() {
		return l.words("learn.tui.unknown"), false
	}
	return l.move(line), false
}

// learnCommand is a command of the Learner's.
type learnCommand int

const (
	learnMove learnCommand = iota // not a command: a move
	learnHint
	learnAgain
	learnNext
	learnLessons
	learnQuit
)

// learnWords are the commands' words: each has its word in every
// language (learn.tui.words.KEY), and the English ones below are
// understood in every language.
var learnWords = []struct {
	cmd     learnCommand
	key     string
	english []string
}{
	{learnHint, "hint", []string{"hint"}},
	{learnAgain, "again", []string{"again"}},
	{learnNext, "next", []string{"next", ""}},
	{learnLessons, "lessons", []string{"lessons", "list"}},
	{learnQuit, "quit", []string{"quit", "q", "exit"}},
}

// command returns the command a typed line names, learnMove for none.
func (l *Learner) command(line string) learnCommand {
	word := strings.ToLower(line)
	for _, w := range learnWords {
		if slices.Contains(w.english, word) || word == strings.ToLower(i18n.T(l.lang, "learn.tui.words."+w.key, nil)) {
			return w.cmd
		}
	}
	return learnMove
}

// words returns the message of key with the commands' words of the
// Learner's language.
func (l *Learner) words(key string) string {
	data := map[string]any{}
	for _, w := range learnWords {
		data[strings.ToUpper(w.key[:1])+w.key[1:]] = i18n.T(l.lang, "learn.tui.words."+w.key, nil)
	}
	return i18n.T(l.lang, key, data)
}

// open starts a step afresh.
func (l *Learner) open(les *lesson.Lesson, step int) {
	l.lesson, l.step = les, step
	l.try, _ = exercise.New(&les.Steps[step].Exercise) // the lessons' tests prove every step starts
}

// next goes on from a solved step: the next step, the next lesson, or
// the list after the last.
func (l *Learner) next() string {
	k := lesson.Index(l.lesson.ID)
	switch {
	case l.step+1 < len(l.lesson.Steps):
		l.open(l.lesson, l.step+1)
	case k+1 < len(lesson.All()):
		l.open(&lesson.All()[k+1], 0)
	default:
		l.lesson = nil
		return i18n.T(l.lang, "learn.all_done", nil) + "\n\n" + l.list()
	}
	return l.screen("")
}

// move tries a typed move.
func (l *Learner) move(text string) string {
	r := l.try.TryText(text)
	var notes []string
	switch r.Verdict {
	case exercise.Illegal:
		return "✗ " + i18n.T(l.lang, "learn.wrong", nil) + ": " + i18n.TryResult(l.lang, &r)
	case exercise.Missed:
		notes = append(notes, "✗ "+i18n.T(l.lang, "learn.wrong", nil)+": "+i18n.TryResult(l.lang, &r))
		notes = append(notes, TextBoard(&r.After, l.try.Solver() == game.Black))
		notes = append(notes, i18n.T(l.lang, "learn.back_to_start", nil))
	case exercise.Going:
		notes = append(notes, "✓ "+i18n.T(l.lang, "learn.going", map[string]any{"Move": r.Move.SAN, "Reply": r.Reply.SAN}))
	case exercise.Solved:
		notes = append(notes, "✓ "+i18n.T(l.lang, "learn.solved", map[string]any{"Move": r.Move.SAN})+" "+
			i18n.T(l.lang, "learn.earned", map[string]any{"Stars": starsText(l.try.Stars())}))
	}
	if r.IceAge != nil {
		notes = append(notes, "❄ "+i18n.T(l.lang, "iceage.title", nil)+" "+i18n.FrozenMen(l.lang, r.IceAge.Frozen))
	}
	if r.Verdict == exercise.Solved {
		p, err := l.svc.EarnLessonStars(l.ctx, l.user, l.lesson.ID, l.step, l.try.Stars(), l.now())
		if err != nil {
			notes = append(notes, i18n.T(l.lang, "error.internal", nil))
		} else if l.step+1 == len(l.lesson.Steps) {
			notes = append(notes, i18n.T(l.lang, "learn.lesson_done", nil)+" "+
				i18n.N(l.lang, "learn.progress", p.Total(l.lesson.ID), map[string]any{"Max": l.lesson.MaxStars()}))
		}
		notes = append(notes, TextBoard(&r.After, l.try.Solver() == game.Black), "→ "+i18n.T(l.lang, "learn.next_step", nil)+": Enter")
		return strings.Join(notes, "\n")
	}
	return strings.Join(notes, "\n") + "\n" + l.screen("")
}

// screen shows the step as its attempt stands.
func (l *Learner) screen(note string) string {
	les, st := l.lesson, &l.lesson.Steps[l.step]
	pos := l.try.Position()
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n")
	}
	fmt.Fprintf(&b, "\n== %d. %s · %s ==\n", lesson.Index(les.ID)+1, i18n.T(l.lang, les.TitleID(), nil),
		i18n.T(l.lang, "learn.step", map[string]any{"Step": l.step + 1, "Steps": len(les.Steps)}))
	if l.try.Moves() == 0 {
		b.WriteString(i18n.T(l.lang, les.IntroID(), nil) + "\n")
	}
	b.WriteString(i18n.T(l.lang, "learn.goal", nil) + ": " + i18n.T(l.lang, les.GoalID(l.step), nil) + "\n")
	b.WriteString(i18n.N(l.lang, "learn.stars_rule", st.Exercise.Par, nil) + "\n\n")
	b.WriteString(TextBoard(&pos, l.try.Solver() == game.Black))
	fmt.Fprintf(&b, "%s · %s\n", i18n.ToMove(l.lang, pos.Turn()), i18n.Countdown(l.lang, pos.BlackMovesToIceAge()))
	b.WriteString(l.words("learn.tui.prompt"))
	return b.String()
}

// list shows the lessons with the stars earned.
func (l *Learner) list() string {
	p, _ := l.svc.LessonProgress(l.ctx, l.user) // an error shows as no stars
	var b strings.Builder
	b.WriteString("== " + i18n.T(l.lang, "learn.title", nil) + " ==\n")
	b.WriteString(i18n.T(l.lang, "learn.intro", nil) + "\n\n")
	total, most := 0, 0
	for k, les := range lesson.All() {
		got := p.Total(les.ID)
		total, most = total+got, most+les.MaxStars()
		fmt.Fprintf(&b, "%2d. %s  %s\n", k+1, i18n.T(l.lang, les.TitleID(), nil), starsOf(got, les.MaxStars()))
	}
	b.WriteString(i18n.N(l.lang, "learn.progress", total, map[string]any{"Max": most}) + "\n\n")
	b.WriteString(i18n.T(l.lang, "learn.tui.lessons", nil))
	return b.String()
}

// starsText writes the stars of a step: ★★☆.
func starsText(n int) string { return starsOf(n, exercise.MaxStars) }

func starsOf(n, most int) string {
	n = min(max(n, 0), most)
	return strings.Repeat("★", n) + strings.Repeat("☆", most-n)
}

// RunLessons shows the list, then carries out one line of in at a time,
// printing what each shows, until quit or the end of in.
func RunLessons(l *Learner, in io.Reader, out io.Writer) error {
	if _, err := fmt.Fprintln(out, l.Start()); err != nil {
		return err
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		text, quit := l.Do(sc.Text())
		if quit {
			return nil
		}
		if _, err := fmt.Fprintln(out, text); err != nil {
			return err
		}
	}
	return sc.Err()
}
