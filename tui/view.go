package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
)

// styles are the colours of the screen, made for one renderer so that a
// terminal without colours gets plain text (the board then still reads:
// outlined men are White's, ice is ❄, marked men are bracketed).
type styles struct {
	light, dark       lipgloss.Style // empty squares
	iceLight, iceDark lipgloss.Style // iced squares
	lastLight         lipgloss.Style // the last move's squares
	lastDark          lipgloss.Style
	check             lipgloss.Style // the king in check
	freeze            lipgloss.Style // a man that would freeze
	coord             lipgloss.Style
	title             lipgloss.Style
	dim               lipgloss.Style
	head              lipgloss.Style
	lastPly           lipgloss.Style
	ice               lipgloss.Style // Ice Age countdown and news
	notes             map[NoteKind]lipgloss.Style
	end               lipgloss.Style
	pick              lipgloss.Style // the completion chosen
}

func newStyles(r *lipgloss.Renderer) styles {
	square := func(bg string) lipgloss.Style {
		return r.NewStyle().Background(lipgloss.Color(bg)).Foreground(lipgloss.Color("#000000"))
	}
	ice := func(bg string) lipgloss.Style {
		return r.NewStyle().Background(lipgloss.Color(bg)).Foreground(lipgloss.Color("#3B7EA8"))
	}
	return styles{
		light:     square("#F0D9B5"),
		dark:      square("#B58863"),
		iceLight:  ice("#E2F3FB"),
		iceDark:   ice("#B9DDEE"),
		lastLight: square("#CDD26A"),
		lastDark:  square("#AAA23A"),
		check:     square("#E8605A"),
		freeze:    r.NewStyle().Background(lipgloss.Color("#8FC8E8")).Foreground(lipgloss.Color("#000000")),
		coord:     r.NewStyle().Foreground(lipgloss.Color("#8A8A8A")),
		title:     r.NewStyle().Bold(true).Foreground(lipgloss.Color("#3B9BD4")),
		dim:       r.NewStyle().Foreground(lipgloss.Color("#8A8A8A")),
		head:      r.NewStyle().Bold(true),
		lastPly:   r.NewStyle().Bold(true).Underline(true),
		ice:       r.NewStyle().Foreground(lipgloss.Color("#3B9BD4")),
		notes: map[NoteKind]lipgloss.Style{
			Info:       r.NewStyle(),
			Moved:      r.NewStyle().Bold(true),
			IceAgeCame: r.NewStyle().Bold(true).Foreground(lipgloss.Color("#3B9BD4")),
			Refused:    r.NewStyle().Foreground(lipgloss.Color("#E05A4F")),
			Suggested:  r.NewStyle().Foreground(lipgloss.Color("#5FA84A")),
			Asked:      r.NewStyle().Bold(true).Foreground(lipgloss.Color("#D9A53A")),
			Ended:      r.NewStyle().Bold(true),
		},
		end:  r.NewStyle().Bold(true).Padding(0, 1).Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("#3B9BD4")),
		pick: r.NewStyle().Bold(true).Reverse(true),
	}
}

// boardView draws the board: three columns a square, ranks and files
// around it, White at the bottom unless the session is flipped.
func (m Model) boardView() string {
	st, s := &m.st, m.s
	p := s.Position()
	last, hasLast := s.LastMove()
	freeze := s.WouldFreeze()
	var frozen [64]game.Piece // men the last move's Ice Age froze
	if h := s.History(); len(h) > 0 && h[len(h)-1].IceAge != nil {
		for _, f := range h[len(h)-1].IceAge.Frozen {
			frozen[f.Square] = f.Piece
		}
	}
	var checked game.Square = game.NoSquare
	if k, ok := p.KingSquare(p.Turn()); ok && p.InCheck() {
		checked = k
	}
	flipped := s.Flipped()
	files := "   "
	for col := 0; col < 8; col++ {
		f := col
		if flipped {
			f = 7 - col
		}
		files += " " + string(rune('a'+f)) + " "
	}
	files = st.coord.Render(files)
	var b strings.Builder
	b.WriteString(files + "\n")
	for row := 0; row < 8; row++ {
		rank := 7 - row
		if flipped {
			rank = row
		}
		b.WriteString(st.coord.Render(fmt.Sprintf(" %d ", rank+1)))
		for col := 0; col < 8; col++ {
			file := col
			if flipped {
				file = 7 - col
			}
			sq := game.SquareAt(file, rank)
			lightSq := (file+rank)%2 == 1
			style := st.dark
			if lightSq {
				style = st.light
			}
			man := p.PieceAt(sq)
			text := "   "
			switch {
			case man != game.NoPiece:
				text = " " + Glyph(man) + " "
			case p.IsIce(sq):
				text = " ❄ "
				if frozen[sq] != game.NoPiece {
					text = "❄" + Glyph(frozen[sq]) + "❄"
				}
				style = st.iceDark
				if lightSq {
					style = st.iceLight
				}
			}
			switch {
			case sq == checked:
				style = st.check
				text = "!" + Glyph(man) + "!"
			case freeze.Has(sq):
				style = st.freeze
				text = "[" + Glyph(man) + "]"
			case hasLast && (sq == last.From() || sq == last.To()):
				style = st.lastDark.Foreground(style.GetForeground())
				if lightSq {
					style = st.lastLight.Foreground(style.GetForeground())
				}
			}
			b.WriteString(style.Render(text))
		}
		b.WriteString(st.coord.Render(fmt.Sprintf(" %d", rank+1)) + "\n")
	}
	b.WriteString(files)
	return b.String()
}

// movesView is the numbered move list, its last rows when it is long, the
// last move underlined and each Ice Age marked with ❄.
func (m Model) movesView(rows int) string {
	st := &m.st
	h := m.s.History()
	type row struct{ num, white, black string }
	var list []row
	for i, ply := range h {
		san := ply.SAN
		if ply.IceAge != nil {
			san += " ❄"
		}
		cell := fmt.Sprintf("%-8s", san)
		if i == len(h)-1 {
			cell = st.lastPly.Render(san) + strings.Repeat(" ", max(0, 8-lipgloss.Width(san)))
		}
		if ply.Color == game.White || len(list) == 0 {
			list = append(list, row{num: fmt.Sprintf("%3d.", ply.Number), white: "…       ", black: ""})
		}
		if ply.Color == game.White {
			list[len(list)-1].white = cell
		} else {
			list[len(list)-1].black = cell
		}
	}
	var b strings.Builder
	b.WriteString(st.head.Render(i18n.T(m.s.Lang(), "board.moves", nil)) + "\n")
	if len(list) == 0 {
		b.WriteString(st.dim.Render(i18n.T(m.s.Lang(), "terminal.no_moves_yet", nil)))
		return b.String()
	}
	if len(list) > rows {
		b.WriteString(st.dim.Render("  "+i18n.N(m.s.Lang(), "terminal.earlier", len(list)-rows+1, nil)) + "\n")
		list = list[len(list)-rows+1:]
	}
	for i, r := range list {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.dim.Render(r.num) + " " + r.white + " " + r.black)
	}
	return b.String()
}

// View draws the screen: title, board and move list, the state of the
// game, the notes of the last line typed, the input line with its
// completions, and the keys.
func (m Model) View() string {
	st, s := &m.st, m.s
	var b strings.Builder
	b.WriteString(st.title.Render("❄ "+s.t("challenge.title", nil)) + st.dim.Render(" · ") + s.t("terminal.title", map[string]any{"White": s.Name(game.White), "Black": s.Name(game.Black)}) + "\n\n")
	board := m.boardView()
	moves := m.movesView(9)
	if m.width > 0 && m.width < lipgloss.Width(board)+4+24 {
		b.WriteString(board + "\n\n" + moves + "\n\n")
	} else {
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, board, "    ", moves) + "\n\n")
	}
	if !s.Over() {
		if m.width > 0 && lipgloss.Width(s.Status()+" · ❄ "+s.Countdown()) >= m.width {
			b.WriteString(m.line(st.head, s.Status()) + m.line(st.ice, "❄ "+s.Countdown()))
		} else {
			b.WriteString(st.head.Render(s.Status()) + st.dim.Render(" · ") + st.ice.Render("❄ "+s.Countdown()) + "\n")
		}
		if f := s.FreezeText(); f != "" {
			b.WriteString(m.line(st.ice, f))
		}
		b.WriteString("\n")
	}
	notes := 0
	for _, n := range m.notes {
		if n.Kind == Ended && s.Over() {
			continue // the box below says it
		}
		b.WriteString(m.line(st.notes[n.Kind], n.Text))
		notes++
	}
	if s.Over() {
		b.WriteString(st.end.Render(s.t("terminal.game_over", map[string]any{"End": s.EndText()})) + "\n")
	} else if notes > 0 {
		b.WriteString("\n")
	}
	if m.quitting {
		return b.String()
	}
	in := m.input
	switch g := s.Game(); {
	case s.Over():
		b.WriteString(m.line(lipgloss.Style{}, s.t("terminal.after_end", nil)))
		in.Placeholder = s.t("terminal.placeholder.over", nil)
	case g.DrawOffer != nil:
		b.WriteString(m.line(st.notes[Asked], s.Prompt()))
		in.Placeholder = s.t("terminal.placeholder.draw", nil)
	case g.Takeback != nil:
		b.WriteString(m.line(st.notes[Asked], s.Prompt()))
		in.Placeholder = s.t("terminal.placeholder.takeback", nil)
	default:
		b.WriteString(m.line(lipgloss.Style{}, s.Prompt()))
	}
	b.WriteString(in.View() + "\n")
	if c := m.completionView(); c != "" {
		b.WriteString(c + "\n")
	}
	b.WriteString(strings.TrimSuffix(m.line(st.dim, s.t("terminal.keys", nil)), "\n"))
	return b.String()
}

// line renders text in st, wrapped at the window's width once it is
// known, and ends it with a newline.
func (m Model) line(st lipgloss.Style, text string) string {
	if m.width > 1 {
		text = ansi.Wrap(text, m.width-1, "")
	}
	return st.Render(text) + "\n"
}

// completionView lists the completions being cycled through, the chosen
// one marked.
func (m Model) completionView() string {
	c := m.comp
	if len(c.matches) < 2 {
		return ""
	}
	const show = 10
	start := 0
	if c.i >= show {
		start = c.i - show + 1
	}
	end := min(len(c.matches), start+show)
	parts := []string{}
	if start > 0 {
		parts = append(parts, "…")
	}
	for i := start; i < end; i++ {
		if i == c.i {
			parts = append(parts, m.st.pick.Render(c.matches[i]))
		} else {
			parts = append(parts, c.matches[i])
		}
	}
	if end < len(c.matches) {
		parts = append(parts, "…")
	}
	return m.st.dim.Render(m.s.t("terminal.tab", map[string]any{"Index": c.i + 1, "Total": len(c.matches)})+" ") + strings.Join(parts, " ")
}
