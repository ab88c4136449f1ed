package tui

import (
	"io"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/iceagechess/iceage/i18n"
)

// Model is the bubbletea model of a local game: the screen of a Session
// and its input line. Update and View are pure but for the Session they
// act on (and a png command's file): tests drive a Model with key
// messages and read its View.
type Model struct {
	s        *Session
	st       styles
	input    textinput.Model
	notes    []Note
	comp     completion
	width    int
	quitting bool
}

// completion is the state of Tab: the matches of what was typed and the
// one now in the input line.
type completion struct {
	matches []string
	i       int
}

// NewModel returns the model of s, drawn with the colours r can show
// (lipgloss.NewRenderer(os.Stdout) for a terminal's own).
func NewModel(s *Session, r *lipgloss.Renderer) Model {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = s.t("terminal.placeholder.move", nil)
	in.CharLimit = 60
	in.PromptStyle = r.NewStyle().Foreground(lipgloss.Color("#3B9BD4")).Bold(true)
	in.TextStyle = r.NewStyle()
	in.PlaceholderStyle = r.NewStyle().Foreground(lipgloss.Color("#8A8A8A"))
	in.Cursor.Style = r.NewStyle().Reverse(true)
	in.Cursor.TextStyle = r.NewStyle()
	in.Focus()
	return Model{s: s, st: newStyles(r), input: in}
}

// Session returns the session the model shows.
func (m Model) Session() *Session { return m.s }

// Init starts the cursor blinking.
func (m Model) Init() tea.Cmd { return textinput.Blink }

// Update handles a key or a change of window size. Enter carries out the
// line typed, Tab and Shift+Tab cycle through its completions, Ctrl+F
// turns the board, Esc clears the line, Ctrl+C (or Ctrl+D on an empty
// line) leaves.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
		return m, nil
	case tea.KeyMsg:
		switch msg.Type {
		case tea.KeyCtrlC:
			m.quitting = true
			return m, tea.Quit
		case tea.KeyCtrlD:
			if m.input.Value() == "" {
				m.quitting = true
				return m, tea.Quit
			}
		case tea.KeyCtrlF:
			r := m.s.Do("flip")
			m.notes = r.Notes
			return m, nil
		case tea.KeyTab:
			return m.complete(1), nil
		case tea.KeyShiftTab:
			return m.complete(-1), nil
		case tea.KeyEsc:
			m.input.Reset()
			m.comp = completion{}
			return m, nil
		case tea.KeyEnter:
			line := m.input.Value()
			m.input.Reset()
			m.comp = completion{}
			if line == "" {
				return m, nil
			}
			r := m.s.Do(line)
			m.notes = r.Notes
			if r.Quit {
				m.quitting = true
				return m, tea.Quit
			}
			return m, nil
		}
		m.comp = completion{}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// complete puts the next (step 1) or previous (step -1) completion of
// what was typed in the input line. The first Tab takes the matches of
// the text typed; the next ones cycle through them while the line holds
// a match unchanged.
func (m Model) complete(step int) Model {
	c := m.comp
	if len(c.matches) > 0 && m.input.Value() == c.matches[c.i] {
		c.i = (c.i + step + len(c.matches)) % len(c.matches)
	} else {
		typed := m.input.Value()
		c = completion{matches: m.s.Complete(typed)}
		if len(c.matches) == 0 {
			m.comp = completion{}
			m.notes = []Note{{Refused, m.s.t("terminal.no_match", map[string]any{"Text": i18n.Quote(m.s.Lang(), typed)})}}
			return m
		}
		if step < 0 {
			c.i = len(c.matches) - 1
		}
	}
	m.comp = c
	m.notes = nil
	m.input.SetValue(c.matches[c.i])
	m.input.CursorEnd()
	return m
}

// Run plays the session on a terminal until the players quit or Ctrl+C:
// keys are read from in and the screen drawn on out, in out's colours.
// The last screen stays on the terminal.
func Run(s *Session, in io.Reader, out io.Writer) error {
	p := tea.NewProgram(NewModel(s, lipgloss.NewRenderer(out)), tea.WithInput(in), tea.WithOutput(out))
	_, err := p.Run()
	return err
}
