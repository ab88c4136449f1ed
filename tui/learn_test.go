package tui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/tui"
)

func newLearner(lang i18n.Lang) (*tui.Learner, *play.Service) {
	svc := play.New(memstore.New(), play.Options{})
	return tui.NewLearner(context.Background(), svc, "you", lang, func() time.Time { return time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC) }), svc
}

func TestALessonInTheTerminal(t *testing.T) {
	l, svc := newLearner(i18n.English)
	steps := []struct{ line, want string }{
		{"11", "Lessons (type a number, or q to quit):"},
		{"1", "Put a man on e5 in one move."},
		{"Re5", "✗ Not quite: The rook on e1 cannot reach e5: ice on e3 blocks it"},
		{"hello", "is not a move"},
		{"hint", "Which man jumps?"},
		{"", "Your move"},
		{"Ne5", "✓ Ne5: solved! Stars: ★★☆"},
		{"Nf3", "Type a move, or one of"},
		{"", "Take the black rook on d5 in one move."},
		{"Nxd5", "Lesson complete! 5 of 6 stars"},
		{"next", "2. Either side takes ice"},
		{"Rxa4", "✓ Rxa4: good. Reply: "},
		{"again", "Bring your rook to a8."},
		{"lessons", " 1. Ice blocks every man but the knight  ★★★★★☆"},
	}
	for _, s := range steps {
		got, quit := l.Do(s.line)
		if quit || !strings.Contains(got, s.want) {
			t.Fatalf("%q shows (quit %v):\n%s\nwant %q", s.line, quit, got, s.want)
		}
	}
	p, err := svc.LessonProgress(context.Background(), "you")
	if err != nil || p.Best("ice-blocks", 0) != 2 || p.Best("ice-blocks", 1) != 3 {
		t.Fatalf("the stars kept: %+v, %v", p, err)
	}
	if _, quit := l.Do("quit"); !quit {
		t.Fatal("quit did not quit")
	}
}

// A missed try shows what happened, and the step starts again.
func TestAMissedTryInTheTerminal(t *testing.T) {
	l, _ := newLearner(i18n.French)
	l.Do("9")
	got, _ := l.Do("Kg3")
	for _, want := range []string{"Pas tout à fait", "Ton roi a gelé", "La position est remise en place", "Âge de Glace"} {
		if !strings.Contains(got, want) {
			t.Fatalf("Kg3 shows:\n%s\nwant %q", got, want)
		}
	}
	if got, _ := l.Do("Kf3"); !strings.Contains(got, "réussi") {
		t.Fatalf("Kf3 shows:\n%s", got)
	}
}

// The commands are typed in the reader's language, or in English.
func TestTheLessonsCommandsAreLocalWords(t *testing.T) {
	l, _ := newLearner(i18n.Russian)
	steps := []struct{ line, want string }{
		{"1", "подсказка, заново, уроки, выход"},
		{"Подсказка", "Какая фигура прыгает"},
		{"hint", "Какая фигура прыгает"},
		{"Ne5", "★★★"},
		{"дальше", "Шаг 2 из 2"},
		{"заново", "Шаг 2 из 2"},
		{"уроки", " 1. "},
	}
	for _, s := range steps {
		got, quit := l.Do(s.line)
		if quit || !strings.Contains(got, s.want) {
			t.Fatalf("%q shows (quit %v):\n%s\nwant %q", s.line, quit, got, s.want)
		}
	}
	if _, quit := l.Do("ВЫХОД"); !quit {
		t.Fatal("выход did not quit")
	}
	for _, lang := range i18n.Languages() {
		seen := map[string]bool{}
		for _, key := range []string{"hint", "again", "next", "lessons", "quit"} {
			word := strings.ToLower(i18n.T(lang, "learn.tui.words."+key, nil))
			if word == "" || strings.ContainsAny(word, " \t") || seen[word] {
				t.Errorf("%s: the word of %s is %q", lang, key, word)
			}
			seen[word] = true
		}
		l, _ := newLearner(lang)
		if _, quit := l.Do(i18n.T(lang, "learn.tui.words.quit", nil)); !quit {
			t.Errorf("%s: its quit did not quit", lang)
		}
	}
}

func TestRunLessonsReadsLinesUntilQuit(t *testing.T) {
	l, _ := newLearner(i18n.English)
	var out strings.Builder
	if err := tui.RunLessons(l, strings.NewReader("2\nhint\nquit\nRxa4\n"), &out); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "Learn Ice Age Chess") || !strings.Contains(s, "Take it first, Rxa4") || strings.Contains(s, "good. Reply") {
		t.Fatalf("the session printed:\n%s", s)
	}
}

// FuzzLearner: any line, at the list or in a step, is answered without
// a panic, and every answer is text in the reader's language.
func FuzzLearner(f *testing.F) {
	for _, s := range []string{"1", "Ne5", "hint", "", "again", "next", "lessons", "0", "-1", "99999999999999999999", "e2e4", "O-O", "\x00", "Kxe2", "подсказка", "выход", "QUIT", "дальше"} {
		f.Add(uint8(0), s)
		f.Add(uint8(4), s)
	}
	f.Fuzz(func(t *testing.T, lessonNo uint8, line string) {
		l, _ := newLearner(i18n.Russian)
		l.Do(strings.TrimSpace(string(rune('1' + lessonNo%9))))
		got, quit := l.Do(line)
		if !quit && strings.TrimSpace(got) == "" {
			t.Fatalf("%q shows nothing", line)
		}
	})
}
