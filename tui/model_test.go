package tui

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/iceagechess/iceage/game"
)

var update = flag.Bool("update", false, "rewrite the golden screens and transcripts in testdata/ (go test ./tui -update)")

// golden compares got, less the spaces that end its lines, with
// testdata/name, or rewrites it with -update. The text is logged too, to
// be looked at with go test -v.
func golden(t *testing.T, name, got string) {
	t.Helper()
	lines := strings.Split(got, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	got = strings.Join(lines, "\n")
	t.Logf("%s:\n%s", name, got)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what was drawn; got:\n%s\nwant:\n%s", path, got, want)
	}
}

// newModel returns the model of a new session in a 100-column window,
// drawn without colours unless profile says otherwise.
func newModel(t *testing.T, opt Options, profile ...termenv.Profile) Model {
	t.Helper()
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	if len(profile) > 0 {
		r.SetColorProfile(profile[0])
	}
	m, _ := press(NewModel(newSession(t, opt), r), tea.WindowSizeMsg{Width: 100, Height: 40})
	return m
}

// press sends the model keys: a string is typed, a tea.KeyType pressed;
// any other tea.Msg is sent as it is. It returns the model and the
// command of the last message.
func press(m Model, keys ...any) (Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, k := range keys {
		var msg tea.Msg
		switch k := k.(type) {
		case string:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		case tea.KeyType:
			msg = tea.KeyMsg{Type: k}
		default:
			msg = k
		}
		var next tea.Model
		next, cmd = m.Update(msg)
		m = next.(Model)
	}
	return m, cmd
}

func wantIn(t *testing.T, view string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(view, p) {
			t.Errorf("the screen lacks %q:\n%s", p, view)
		}
	}
}

func TestModelPlaysMoves(t *testing.T) {
	m := newModel(t, Options{White: "Alice", Black: "Bob"})
	golden(t, "start.txt", m.View())
	wantIn(t, m.View(), "Alice (White), your move:", "Ice Age in 20 Black moves", " 6  ❄  ❄  ❄  ❄  ❄  ❄  ❄  ❄  6", "none yet")

	m, _ = press(m, "hxg", "3", tea.KeyEnter)
	wantIn(t, m.View(), "1. hxg3\n", "  1. hxg3", "Bob (Black), your move:")
	m, _ = press(m, "g8f6", tea.KeyEnter, "g3h4", tea.KeyEnter)
	wantIn(t, m.View(), "2. gxh4\n", "  1. hxg3     Nxf6", "  2. gxh4", "Ice Age in 19 Black moves")
	if m.input.Value() != "" {
		t.Errorf("the input line keeps %q after Enter", m.input.Value())
	}
	golden(t, "moves.txt", m.View())
}

func TestModelCompletesWithTab(t *testing.T) {
	m := newModel(t, Options{})
	m, _ = press(m, "N", tea.KeyTab)
	if got := m.input.Value(); got != "Nxa3" {
		t.Errorf("N, Tab: %q", got)
	}
	wantIn(t, m.View(), "Tab 1/4: Nxa3 Nxc3 Nxf3 Nxh3")
	m, _ = press(m, tea.KeyTab, tea.KeyTab)
	if got := m.input.Value(); got != "Nxf3" {
		t.Errorf("N, Tab×3: %q", got)
	}
	golden(t, "tab.txt", m.View())
	m, _ = press(m, tea.KeyShiftTab, tea.KeyShiftTab, tea.KeyShiftTab)
	if got := m.input.Value(); got != "Nxh3" {
		t.Errorf("back round to the last: %q", got)
	}
	// Editing the line starts a new completion from what it holds.
	m, _ = press(m, tea.KeyBackspace, tea.KeyBackspace, tea.KeyBackspace, tea.KeyTab)
	if got := m.input.Value(); got != "Nxa3" || !strings.Contains(m.View(), "Tab 1/4: Nxa3") {
		t.Errorf("N again: %q\n%s", got, m.View())
	}
	m, _ = press(m, tea.KeyEnter)
	wantIn(t, m.View(), "1. Nxa3\n")

	m, _ = press(m, "Q", tea.KeyTab)
	wantIn(t, m.View(), "No legal move or command begins with “Q”.")
	m, _ = press(m, tea.KeyEsc, "dr", tea.KeyTab)
	if got := m.input.Value(); got != "draw" {
		t.Errorf("dr, Tab: %q", got)
	}
}

func TestModelExplainsIllegalMoves(t *testing.T) {
	const fen = "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1"
	m := newModel(t, Options{FEN: fen})
	m, _ = press(m, "Ra5", tea.KeyEnter)
	// The explanation is the rules engine's own.
	p, _ := game.ParseFEN(fen)
	_, err := game.ParseMove(&p, "Ra5")
	wantIn(t, m.View(), "1. Ra5: "+err.Error()+".\n", "Legal moves like it: Rxa3, Ra2, Rb1, Rc1, Rd1", "White, your move:")
	golden(t, "illegal.txt", m.View())
}

func TestModelIceAge(t *testing.T) {
	m := newModel(t, Options{FEN: iceAgeFEN, White: "Alice", Black: "Bob"})
	wantIn(t, m.View(), " 4                      [♜] 4", "Ice Age after this move!",
		"Would freeze now: the black rook on h4.")
	golden(t, "iceage-due.txt", m.View())

	m, _ = press(m, "Bd6", tea.KeyEnter)
	wantIn(t, m.View(), "20… Bd6\nIce Age! 1 man froze: the black rook on h4.",
		" 4  ❄  ❄  ❄  ❄  ❄  ❄  ❄ ❄♜❄ 4", " 20. …        Bd6 ❄", "Alice (White), your move:")
	golden(t, "iceage-came.txt", m.View())

	// White's rook takes ice, Black's king too; White offers a draw,
	// which Black accepts.
	m, _ = press(m, "Rxe2", tea.KeyEnter, "Kxf7", tea.KeyEnter, "draw", tea.KeyEnter)
	wantIn(t, m.View(), "Alice (White) offers a draw.", "Bob (Black): accept the draw? Type draw to accept, no to decline.")
	m, _ = press(m, "draw", tea.KeyEnter)
	wantIn(t, m.View(), "Game over · Draw by agreement, 1/2-1/2.", "Type new for another game")
	golden(t, "draw.txt", m.View())
}

func TestModelKingFreezes(t *testing.T) {
	m := newModel(t, Options{FEN: "4k3/4p3/8/8/8/8/8/K7 b - - 0 20"})
	m, _ = press(m, "Kd8", tea.KeyEnter)
	wantIn(t, m.View(), "Ice Age! 1 man froze: the white king on a1.\nA king froze: the game is over.",
		"Game over · Black wins: White's king froze in the Ice Age, 0-1.", " 1 ❄♔❄ ❄ ")
	golden(t, "king-frozen.txt", m.View())
}

func TestModelFlipsAndQuits(t *testing.T) {
	m := newModel(t, Options{})
	m, _ = press(m, tea.KeyCtrlF)
	v := m.View()
	wantIn(t, v, "    h  g  f  e  d  c  b  a", "The board is turned: Black at the bottom.")
	if strings.Index(v, " 1  ♖") > strings.Index(v, " 8  ♜") {
		t.Errorf("rank 1 is not above rank 8 when flipped:\n%s", v)
	}
	m, cmd := press(m, "quit", tea.KeyEnter)
	if cmd == nil {
		t.Fatal("quit returns no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("quit does not quit the program")
	}
	if v := m.View(); strings.Contains(v, "›") || strings.Contains(v, "Ctrl+C") {
		t.Errorf("the last screen still shows the input line:\n%s", v)
	}
	m = newModel(t, Options{})
	if _, cmd := press(m, tea.KeyCtrlC); cmd == nil {
		t.Error("Ctrl+C does not quit")
	}
	if m, _ := press(m, "h", tea.KeyCtrlD); m.quitting || m.input.Value() != "h" {
		t.Errorf("Ctrl+D on a line with text: quitting %v, line %q", m.quitting, m.input.Value())
	} else if _, cmd := press(m, tea.KeyBackspace, tea.KeyCtrlD); cmd == nil {
		t.Error("Ctrl+D on an empty line does not quit")
	}
}

func TestModelNarrowWindow(t *testing.T) {
	m := newModel(t, Options{})
	m, _ = press(m, tea.WindowSizeMsg{Width: 40, Height: 40}, "hxg3", tea.KeyEnter)
	v := m.View()
	if i, j := strings.Index(v, "Moves"), strings.Index(v, " 1  ♖"); i < j {
		t.Errorf("in a narrow window the move list is not under the board:\n%s", v)
	}
	for _, line := range strings.Split(v, "\n") {
		if w := lipgloss.Width(line); w > 40 {
			t.Errorf("line wider than the window (%d): %q", w, line)
		}
	}
}

func TestModelColours(t *testing.T) {
	m := newModel(t, Options{}, termenv.TrueColor)
	m, _ = press(m, "hxg3", tea.KeyEnter)
	v := m.View()
	for what, code := range map[string]string{
		"light ice":               "48;2;226;243;251",
		"dark ice":                "48;2;185;221;238",
		"light square":            "48;2;240;217;181",
		"dark square":             "48;2;181;136;99",
		"the last move's squares": "48;2;170;162;58",
	} {
		if !strings.Contains(v, code) {
			t.Errorf("no %s (%s) on the screen", what, code)
		}
	}
}
