package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Tags are the PGN header values a caller supplies: the Seven Tag Roster
// but Result, which the match itself tells, and three optional tags. An
// empty value of the seven is written as PGN's "unknown": "?", and
// "????.??.??" for the date; an empty optional tag is left out.
type Tags struct {
	Event, Site, Date, Round, White, Black string
	// WhiteElo and BlackElo are the players' ratings before the game, as
	// integers ("1873").
	WhiteElo, BlackElo string
	// TimeControl is the PGN standard's time control: "-" for none,
	// "1/259200" for one move in three days.
	TimeControl string
}

// pgnLineWidth is the longest movetext line PGN export writes (the PGN
// standard asks for at most 255; 80 reads well in a terminal and a chat).
const pgnLineWidth = 80

// PGN returns the match in PGN: the seven standard tags, WhiteElo,
// BlackElo and TimeControl when given, [Variant "Ice Age"], [SetUp "1"]
// and [FEN] when the match did not start from the ice start position,
// [Termination], then the SAN movetext wrapped at 80
// columns with a comment after every Ice Age (IceAgeComment) and the result.
//
// Termination is the PGN standard's word: "normal", "time forfeit", or
// "unterminated" while the game goes on. ParsePGN reads back how the game
// ended from the final position, the result and this word.
func (m *Match) PGN(tags Tags) string {
	var b strings.Builder
	tag := func(name, value, unknown string) {
		if value == "" {
			value = unknown
		}
		value = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ").Replace(value)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	tag("Event", tags.Event, "?")
	tag("Site", tags.Site, "?")
	tag("Date", tags.Date, "????.??.??")
	tag("Round", tags.Round, "?")
	tag("White", tags.White, "?")
	tag("Black", tags.Black, "?")
	tag("Result", m.outcome.Result.String(), "")
	for _, t := range [...]struct{ name, value string }{
		{"WhiteElo", tags.WhiteElo}, {"BlackElo", tags.BlackElo}, {"TimeControl", tags.TimeControl},
	} {
		if t.value != "" {
			tag(t.name, t.value, "")
		}
	}
	tag("Variant", "Ice Age", "")
	if fen := m.start.FEN(); fen != StartFEN {
		tag("SetUp", "1", "")
		tag("FEN", fen, "")
	}
	tag("Termination", termination(m.outcome.Reason), "")
	b.WriteByte('\n')

	line := 0
	word := func(w string) {
		switch {
		case line == 0:
		case line+1+len(w) > pgnLineWidth:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	number := m.start.fullmove
	black := m.start.turn == Black
	needNumber := true
	for i, san := range m.sans {
		switch {
		case !black:
			word(strconv.Itoa(number) + ".")
		case needNumber:
			word(strconv.Itoa(number) + "...")
		}
		word(san)
		needNumber = false
		if ev := m.iceAges[i]; ev != nil {
			for _, w := range strings.Fields("{" + IceAgeComment(ev) + "}") {
				word(w)
			}
			needNumber = true
		}
		if black {
			number++
		}
		black = !black
	}
	word(m.outcome.Result.String())
	b.WriteByte('\n')
	return b.String()
}

// IceAgeComment describes an Ice Age as the PGN comment after Black's move
// does (docs/rules.md §6): "Ice Age: 27 squares iced; frozen: Rh8, Pa5". The
// count is every square that turned to ice, frozen men's squares included;
// each frozen man is its SAN letter in upper case (P for a pawn, whatever
// its colour) and its square, in square order. With no man frozen the
// "frozen" part is left out.
func IceAgeComment(e *IceAge) string {
	n := e.Iced().Count()
	s := "Ice Age: " + strconv.Itoa(n) + " squares iced"
	if n == 1 {
		s = "Ice Age: 1 square iced"
	}
	for i, f := range e.Frozen {
		if i == 0 {
			s += "; frozen: "
		} else {
			s += ", "
		}
		s += string(f.Piece.Kind().Letter()) + f.Square.String()
	}
	return s
}

func termination(r Reason) string {
	switch r {
	case NoReason:
		return "unterminated"
	case Timeout:
		return "time forfeit"
	case Aborted:
		return "abandoned"
	case Adjudicated:
		return "adjudication"
	}
	return "normal"
}

// PGNError reports a PGN text that cannot be read, with the line where the
// problem is. Err, when set, is the underlying *SyntaxError or *MoveError.
type PGNError struct {
	Line int
	Msg  string
	Err  error
}

func (e *PGNError) Error() string { return "PGN line " + strconv.Itoa(e.Line) + ": " + e.Msg }

// Unwrap returns the move error behind e, if any.
func (e *PGNError) Unwrap() error { return e.Err }

// ParsePGN reads one game in PGN, as PGN writes it or as other programs
// do: comments ({…} and ;…), NAGs ($1), variations ((…), skipped), move
// numbers with or without a space, escape lines (%…), and moves in any
// notation ParseMove reads. Tags other than the seven, WhiteElo,
// BlackElo, TimeControl, Variant, SetUp, FEN and Termination are
// ignored. The game starts from the FEN tag if there is one, else from
// the ice start position; a Variant tag, if present, must be "Ice Age"
// (or "Ice Age Chess"; case is ignored). A game that ends without the
// final position deciding it gets its reason from the result and the
// Termination tag: "time forfeit" is a timeout, another decisive result a
// resignation, a draw an agreed draw. Errors are *PGNError, wrapping the
// *MoveError or *SyntaxError of a bad move.
func ParsePGN(text string) (*Match, Tags, error) {
	var tags Tags
	lx := pgnLexer{text: strings.TrimPrefix(text, "\uFEFF"), line: 1} // a byte order mark is no text
	fields := map[string]string{}
	lines := map[string]int{} // the line of each tag, for errors about its value
	// Tag pairs.
	for {
		lx.skipSpace()
		if lx.pos >= len(lx.text) || lx.text[lx.pos] != '[' {
			break
		}
		line := lx.line
		name, value, err := lx.tag()
		if err != nil {
			return nil, tags, err
		}
		if _, dup := fields[name]; dup {
			return nil, tags, &PGNError{Line: lx.line, Msg: "tag " + clipInput(name) + " appears twice"}
		}
		fields[name] = value
		lines[name] = line
	}
	unknown := func(v, u string) string {
		if v == u {
			return ""
		}
		return v
	}
	tags = Tags{Event: unknown(fields["Event"], "?"), Site: unknown(fields["Site"], "?"),
		Date: unknown(fields["Date"], "????.??.??"), Round: unknown(fields["Round"], "?"),
		White: unknown(fields["White"], "?"), Black: unknown(fields["Black"], "?"),
		WhiteElo: fields["WhiteElo"], BlackElo: fields["BlackElo"], TimeControl: fields["TimeControl"]}
	if v, ok := fields["Variant"]; ok && !strings.EqualFold(v, "Ice Age") && !strings.EqualFold(v, "Ice Age Chess") {
		return nil, tags, &PGNError{Line: lines["Variant"], Msg: "the game is of variant " + QuoteInput(v) + ", not Ice Age"}
	}
	start := StartPosition()
	if fen, ok := fields["FEN"]; ok {
		var err error
		if start, err = ParseFEN(fen); err != nil {
			return nil, tags, &PGNError{Line: lines["FEN"], Msg: "the FEN tag is wrong: " + err.Error(), Err: err}
		}
	}
	m := NewMatch(start)

	// Movetext.
	result := ""
	depth := 0
	for result == "" {
		lx.skipSpace()
		if lx.pos >= len(lx.text) {
			break
		}
		line := lx.line
		switch c := lx.text[lx.pos]; c {
		case '{':
			end := strings.IndexByte(lx.text[lx.pos:], '}')
			if end < 0 {
				return nil, tags, &PGNError{Line: line, Msg: "a comment opened with { is never closed"}
			}
			lx.advance(end + 1)
		case ';':
			lx.skipLine()
		case '(':
			depth++
			lx.pos++
		case ')':
			if depth == 0 {
				return nil, tags, &PGNError{Line: line, Msg: "a ')' closes no variation"}
			}
			depth--
			lx.pos++
		case '[':
			return nil, tags, &PGNError{Line: line, Msg: "a tag after the moves began (one game per text)"}
		case '}':
			return nil, tags, &PGNError{Line: line, Msg: "a '}' closes no comment"}
		default:
			tok := lx.symbol()
			if tok == "" {
				return nil, tags, &PGNError{Line: line, Msg: "unexpected character " + describeChar(lx.text, lx.pos)}
			}
			if depth > 0 || tok[0] == '$' {
				continue
			}
			switch tok {
			case "1-0", "0-1", "1/2-1/2", "*":
				result = tok
				continue
			}
			san := stripMoveNumber(tok)
			if san == "" {
				continue
			}
			p := m.pos
			if _, err := m.Play(san); err != nil {
				dots := "."
				if p.turn == Black {
					dots = "..."
				}
				return nil, tags, &PGNError{Line: line, Msg: fmt.Sprintf("move %d%s %s: %v", p.fullmove, dots, clipInput(san), err), Err: err}
			}
		}
	}
	if depth > 0 {
		return nil, tags, &PGNError{Line: lx.line, Msg: "a variation opened with ( is never closed"}
	}
	lx.skipSpace()
	for lx.pos < len(lx.text) && lx.text[lx.pos] == '%' {
		lx.skipLine()
		lx.skipSpace()
	}
	if lx.pos < len(lx.text) {
		return nil, tags, &PGNError{Line: lx.line, Msg: "text after the result (one game per text)"}
	}
	if tag, ok := fields["Result"]; ok {
		if result != "" && tag != result {
			return nil, tags, &PGNError{Line: lx.line, Msg: "the Result tag says " + clipInput(tag) + " but the moves end with " + result}
		}
		if result == "" {
			result = tag
		}
	}
	if err := m.settle(result, fields["Termination"]); err != nil {
		return nil, tags, &PGNError{Line: lx.line, Msg: err.Error()}
	}
	return m, tags, nil
}

// settle gives the match the outcome a PGN result states, when the final
// position does not decide it already.
func (m *Match) settle(result, term string) error {
	if m.outcome.Over() {
		if result != "" && result != m.outcome.Result.String() {
			return fmt.Errorf("the result %s contradicts the final position (%s)", result, describeOutcome(m.outcome))
		}
		return nil
	}
	var loser Color
	switch result {
	case "", "*":
		return nil
	case "1/2-1/2":
		if strings.EqualFold(term, "time forfeit") {
			// A flag against a side that could not have won.
			return m.End(Outcome{Draw, Timeout})
		}
		return m.End(Outcome{Draw, DrawAgreed})
	case "1-0":
		loser = Black
	case "0-1":
		loser = White
	default:
		return errors.New("the result " + QuoteInput(result) + " is none of 1-0, 0-1, 1/2-1/2, *")
	}
	if strings.EqualFold(term, "time forfeit") {
		return m.End(WinFor(loser.Other(), Timeout))
	}
	return m.End(WinFor(loser.Other(), Resignation))
}

// stripMoveNumber removes a leading move number ("12.", "12...") from a
// movetext token; a token that is only a move number gives "".
func stripMoveNumber(tok string) string {
	if strings.Trim(tok, ".") == "" {
		return "" // "..." written apart from its number
	}
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 0 || i == len(tok) || tok[i] != '.' {
		return tok // "0-0" and "e4" are moves
	}
	for i < len(tok) && tok[i] == '.' {
		i++
	}
	return tok[i:]
}

// pgnLexer walks a PGN text, counting lines.
type pgnLexer struct {
	text string
	pos  int
	line int
}

func (lx *pgnLexer) advance(n int) {
	lx.line += strings.Count(lx.text[lx.pos:lx.pos+n], "\n")
	lx.pos += n
}

// skipSpace skips white space and escape lines (a '%' in the first column).
func (lx *pgnLexer) skipSpace() {
	for lx.pos < len(lx.text) {
		switch c := lx.text[lx.pos]; {
		case c == '\n':
			lx.line++
			lx.pos++
			if lx.pos < len(lx.text) && lx.text[lx.pos] == '%' {
				lx.skipLine()
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			lx.pos++
		case c == '%' && lx.pos == 0:
			lx.skipLine()
		default:
			return
		}
	}
}

func (lx *pgnLexer) skipLine() {
	if i := strings.IndexByte(lx.text[lx.pos:], '\n'); i >= 0 {
		lx.pos += i // the newline itself is counted by skipSpace
	} else {
		lx.pos = len(lx.text)
	}
}

// symbol reads a run of characters up to white space or a PGN delimiter.
func (lx *pgnLexer) symbol() string {
	start := lx.pos
	for lx.pos < len(lx.text) && strings.IndexByte(" \t\r\n\v\f{}()[];\"", lx.text[lx.pos]) < 0 {
		lx.pos++
	}
	return lx.text[start:lx.pos]
}

// tag reads one tag pair, [Name "value"], with \" and \\ escapes.
func (lx *pgnLexer) tag() (name, value string, err error) {
	line := lx.line
	bad := func(msg string) (string, string, error) {
		return "", "", &PGNError{Line: line, Msg: msg}
	}
	lx.pos++ // '['
	lx.skipSpace()
	name = lx.symbol()
	if name == "" {
		return bad("a tag needs a name, e.g. [Event \"Casual game\"]")
	}
	lx.skipSpace()
	if lx.pos >= len(lx.text) || lx.text[lx.pos] != '"' {
		return bad("the value of tag " + clipInput(name) + " must be in double quotes")
	}
	lx.pos++
	var v strings.Builder
	for {
		if lx.pos >= len(lx.text) || lx.text[lx.pos] == '\n' {
			return bad("the value of tag " + clipInput(name) + " is never closed with a double quote")
		}
		c := lx.text[lx.pos]
		lx.pos++
		if c == '"' {
			break
		}
		if c == '\\' && lx.pos < len(lx.text) && (lx.text[lx.pos] == '"' || lx.text[lx.pos] == '\\') {
			c = lx.text[lx.pos]
			lx.pos++
		}
		v.WriteByte(c)
	}
	lx.skipSpace()
	if lx.pos >= len(lx.text) || lx.text[lx.pos] != ']' {
		return bad("tag " + clipInput(name) + " is not closed with ]")
	}
	lx.pos++
	return name, v.String(), nil
}
