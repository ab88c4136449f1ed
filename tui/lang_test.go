package tui

import (
	"bytes"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/iceagechess/iceage/i18n"
)

// englishWords are words of the English screens that no other language's
// screen may show: the commands (draw, takeback, new, png, quit, help)
// stay English words, but nothing around them.
var englishWords = []string{"Type", "your move", "Commands", "Enter play", " vs ", "against", "legal move", "Game over",
	"answer the", "accept the draw", "the takeback", "earlier", "written", "picture", "Status", "begins with", "goes on", "Say where",
	"Ice Age Chess", "to move", "Ice Age in"}

func noEnglish(t *testing.T, lang i18n.Lang, what, text string) {
	t.Helper()
	for _, w := range englishWords {
		if strings.Contains(text, w) {
			t.Errorf("%s: %s says %q in English:\n%s", lang, what, w, text)
		}
	}
}

func TestTheTerminalSpeaksItsLanguage(t *testing.T) {
	for _, lang := range i18n.Languages() {
		if lang == i18n.English {
			continue
		}
		s := newSession(t, Options{Lang: lang, White: "Alice"})
		var notes []string
		for _, line := range []string{"help", "moves", "png", "yes", "takeback", "new", "draw", "e4e5", "hxg3"} {
			for _, n := range s.Do(line).Notes {
				notes = append(notes, n.Text)
			}
			notes = append(notes, s.Prompt(), s.Status())
		}
		for _, h := range Help(lang) {
			if !strings.HasPrefix(h, "  ") && h == Help(i18n.English)[0] {
				t.Errorf("%s: help starts in English: %q", lang, h)
			}
		}
		noEnglish(t, lang, "the notes", strings.Join(notes, "\n"))

		// The screen, with an offer waiting, then after the end.
		m := newModel(t, Options{Lang: lang})
		m, _ = press(m, "hxg3", tea.KeyEnter, "draw", tea.KeyEnter)
		noEnglish(t, lang, "the screen with a draw offered", m.View())
		m, _ = press(m, "zz", tea.KeyTab)
		noEnglish(t, lang, "a completion refused", m.View())
		m, _ = press(m, tea.KeyCtrlU, "draw", tea.KeyEnter)
		noEnglish(t, lang, "the screen after the end", m.View())
		if !strings.Contains(m.View(), i18n.T(lang, "terminal.after_end", nil)) {
			t.Errorf("%s: the screen after the end:\n%s", lang, m.View())
		}

		// The plain terminal.
		var out bytes.Buffer
		if err := RunPlain(newSession(t, Options{Lang: lang}), strings.NewReader("hxg3\nresign\n"), &out); err != nil {
			t.Fatal(err)
		}
		noEnglish(t, lang, "the plain terminal", out.String())
	}
}
