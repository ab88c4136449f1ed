package i18n

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/iceagechess/iceage/game"
)

// strict makes every missing message or failing template fail the test.
func strict(t *testing.T) {
	t.Helper()
	old := SetReporter(func(lang Lang, id string, err error) {
		t.Errorf("%s: %s: %v", lang, id, err)
	})
	t.Cleanup(func() { SetReporter(old) })
}

// checkText fails the test unless s is a rendered text: not empty, not an
// id, no template left in it.
func checkText(t *testing.T, what, s string) {
	t.Helper()
	switch {
	case strings.TrimSpace(s) == "":
		t.Errorf("%s is empty", what)
	case strings.Contains(s, "<no value>"), strings.Contains(s, "{{"), strings.Contains(s, "}}"):
		t.Errorf("%s = %q: a template key is missing", what, s)
	case strings.Contains(s, "map["), strings.Contains(s, "%!"):
		t.Errorf("%s = %q: a form map or a format error", what, s)
	case s != strings.TrimSpace(s), strings.Contains(s, "  "):
		t.Errorf("%s = %q: stray spaces", what, s)
	}
}

func TestMessageFilesLoad(t *testing.T) {
	if err := loaded().err; err != nil {
		t.Fatal(err)
	}
	for _, l := range Languages() {
		if len(IDs(l)) < 100 {
			t.Errorf("%s has only %d messages", l, len(IDs(l)))
		}
	}
	// Each set of messages (active, web) has a file for every language.
	names, _ := files.ReadDir("locales")
	sets := map[string]int{}
	for _, n := range names {
		set, _, _ := strings.Cut(n.Name(), ".")
		sets[set]++
	}
	for set, n := range sets {
		if n != len(Languages()) {
			t.Errorf("%d message files of %s for %d languages", n, set, len(Languages()))
		}
	}
}

// languageForm reports whether id is a grammatical form of a man's or a
// side's name that only some languages have (piece.rook.gen): every
// language has the forms name, white and black, and its own others.
func languageForm(id string) bool {
	if !strings.HasPrefix(id, "piece.") && !strings.HasPrefix(id, "color.") {
		return false
	}
	form := id[strings.LastIndexByte(id, '.')+1:]
	return form != "name" && (strings.HasPrefix(id, "color.") || form != "white" && form != "black")
}

func TestEveryLanguageHasEveryMessage(t *testing.T) {
	var en []string
	for _, id := range IDs(English) {
		if !languageForm(id) {
			en = append(en, id)
		}
	}
	for _, l := range Languages()[1:] {
		ids := IDs(l)
		for _, id := range en {
			if !slices.Contains(ids, id) {
				t.Errorf("%s lacks %q", l, id)
			}
		}
		for _, id := range ids {
			if !slices.Contains(en, id) && !languageForm(id) {
				t.Errorf("%s has %q, which English has not", l, id)
			}
		}
	}
}

// pluralCategories returns the CLDR categories go-i18n chooses from for
// lang, found by asking it for the form of many numbers.
func pluralCategories(t *testing.T, lang Lang) []string {
	b := goi18n.NewBundle(language.English)
	tag := language.Make(string(lang))
	m := &goi18n.Message{ID: "x", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	if err := b.AddMessages(tag, m); err != nil {
		t.Fatal(err)
	}
	loc := goi18n.NewLocalizer(b, tag.String())
	var counts []any
	for n := 0; n <= 1000; n++ {
		counts = append(counts, n)
	}
	counts = append(counts, 1000000, 2000000, 1000001, "0.5", "1.0", "1.5", "2.5", "21.3", "0.0")
	seen := map[string]bool{}
	for _, c := range counts {
		s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: "x", PluralCount: c})
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		seen[s] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// forms returns the plural categories a message has texts for.
func pluralForms(m *goi18n.Message) []string {
	var out []string
	for cat, s := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if s != "" {
			out = append(out, cat)
		}
	}
	slices.Sort(out)
	return out
}

func TestPluralMessagesHaveTheFormsOfTheirLanguage(t *testing.T) {
	want := map[Lang][]string{
		English:   {"one", "other"},
		French:    {"many", "one", "other"},
		Russian:   {"few", "many", "one", "other"},
		Norwegian: {"one", "other"},
		Spanish:   {"many", "one", "other"},
		Dutch:     {"one", "other"},
	}
	for _, l := range Languages() {
		cats := pluralCategories(t, l)
		if !slices.Equal(cats, want[l]) {
			t.Errorf("go-i18n's plural categories for %s are %v; this test and the package doc say %v", l, cats, want[l])
		}
		for id, en := range loaded().messages[English] {
			m, ok := loaded().messages[l][id]
			if !ok {
				continue // TestEveryLanguageHasEveryMessage says so
			}
			got := pluralForms(m)
			if plural := len(pluralForms(en)) > 1; plural && !slices.Equal(got, cats) {
				t.Errorf("%s: %s has the plural forms %v, want %v", l, id, got, cats)
			} else if !plural && !slices.Equal(got, []string{"other"}) {
				t.Errorf("%s: %s has the forms %v, but is no plural message in English", l, id, got)
			}
		}
	}
}

func TestEveryKindOfManHasTheSameForms(t *testing.T) {
	for _, l := range Languages() {
		want := loaded().groups[l]["piece.king."]
		if !slices.Contains(want, "name") || !slices.Contains(want, "white") || !slices.Contains(want, "black") {
			t.Errorf("%s: the king's forms %v lack name, white or black", l, want)
		}
		for _, k := range kindKeys[1:] {
			if got := loaded().groups[l]["piece."+k+"."]; !slices.Equal(got, want) {
				t.Errorf("%s: the forms of %s are %v, the king's %v", l, k, got, want)
			}
		}
		white, black := loaded().groups[l]["color.white."], loaded().groups[l]["color.black."]
		if !slices.Contains(white, "name") || !slices.Equal(white, black) {
			t.Errorf("%s: the forms of white are %v, of black %v", l, white, black)
		}
	}
}

// everyKey is template data with every key the messages use, so that
// every message renders.
func everyKey(l Lang) map[string]any {
	men := []game.Placement{{Square: 25, Piece: game.MakePiece(game.Black, game.Bishop)}, {Square: 60, Piece: game.MakePiece(game.Black, game.Rook)}}
	return map[string]any{
		"Text": `"Nf3"`, "Why": "…", "From": "a1", "To": "a5", "ToFile": "a", "Where": " …", "Block": "a3",
		"Attacked": "e1", "Rook": "h1", "Kingside": true, "Moves": "Nbd2, Nfd2", "Reason": "…",
		"Man": pieceForms(l, game.Rook), "Blocker": pieceForms(l, game.Knight), "Named": pieceForms(l, game.Queen),
		"Attackers": menForms(l, men), "Color": colorForms(l, game.White), "Turn": colorForms(l, game.Black),
		"BlockerColor": colorForms(l, game.Black), "Men": "…", "Days": "3 …", "Head": "a, b", "Last": "c",
		"File": "b", "Rank": "1", "Square": "e4",
		// The bot's messages.
		"Player": "@a", "Opponent": "@b", "By": "@b", "Channel": "#c", "Move": "Nxf6", "Outcome": "1-0",
		"Deadline": "…", "Allowed": "1, 3", "White": "A", "Black": "B", "A": "A", "B": "B", "Number": 3, "When": "…",
		// Dates.
		"Day": 4, "Month": "Dec", "Year": 2026,
		// The terminal.
		"End": "…", "Error": "…", "Path": "b.png", "Status": "…", "ToMove": "…", "Index": 1, "Total": 3,
		// Correspondence play.
		"Game": "https://…", "Until": "…", "Line": 2, "Loser": "@a", "Winner": "@b", "Value": "…", "Lines": 12, "Plies": 20,
		// Leaderboards, statistics, history and exports.
		"ID": 7, "Result": "…", "Endings": "…", "Average": "1.5", "Name": "…", "Rating": "1500?",
		"WinRate": "50%", "Page": 1, "Pages": 2, "Deviation": 80, "High": 1600, "Low": 1400, "Shown": 9, "Draws": "5%",
		// Threads over weeks.
		"Permissions": "**View Channel**, **Embed Links**",
		// Engine games and analysis.
		"Level": 4, "Drop": "1.5", "Best": "Nxf3",
		// Tournaments.
		"Organiser": "@o", "Max": 20, "Thread": "#t", "Time": "…", "In": "…", "How": "…", "Round": 2, "Rounds": 5, "Count": 4, "Place": 3, "Of": 12, "Points": "2.5",
		// Games in DMs.
		"Link": "<https://…>",
		// Live time controls.
		"Control": "5+3", "Speed": "blitz", "Examples": "1+0, 3+2",
		// The Activity's lobby.
		"Terms": "5+3 blitz", "Playing": "…",
		// Lessons.
		"Step": 1, "Steps": 2, "Reply": "Kg8", "Stars": "★★☆", "Hint": "hint", "Again": "again", "Lessons": "lessons", "Quit": "quit",
		// Puzzles.
		"Change": "+12", "Goal": "…", "Hour": "18:00", "Puzzles": "…",
		// Positions described.
		// The web page's replay.
		"Ply":     12,
		"Squares": "a2 b2", "List": "a3, c3–e3", "Iced": "…", "Frozen": "…", "Countdown": "…", "Board": "…", "Symbol": "♘", "Label": "♘ Knight g1", "Victim": pieceForms(l, game.Knight),
	}
}

func TestEveryMessageRenders(t *testing.T) {
	strict(t)
	for _, l := range Languages() {
		data := everyKey(l)
		data["Man"] = "…" // man_on's .Man is one form, a string
		for _, id := range IDs(l) {
			d := data
			if id != "man_on" {
				d = everyKey(l)
			}
			if len(pluralForms(loaded().messages[l][id])) > 1 {
				for _, n := range []int{0, 1, 2, 5, 21, 1000000} {
					checkText(t, fmt.Sprintf("%s %s %d", l, id, n), N(l, id, n, d))
				}
				continue
			}
			checkText(t, string(l)+" "+id, T(l, id, d))
		}
	}
}

func TestMissingMessagesFallBackToEnglishThenTheID(t *testing.T) {
	var got []string
	old := SetReporter(func(lang Lang, id string, err error) { got = append(got, string(lang)+" "+id) })
	defer func() { SetReporter(old) }()
	if err := loaded().bundle.AddMessages(language.English, &goi18n.Message{ID: "test.only_in_english", Other: "only in English"}); err != nil {
		t.Fatal(err)
	}
	if s := T(French, "test.only_in_english", nil); s != "only in English" {
		t.Errorf("a message only in English gives %q in French", s)
	}
	if s := N(Russian, "test.nowhere", 3, nil); s != "test.nowhere" {
		t.Errorf("a message nowhere gives %q", s)
	}
	if s := T(Lang("xx"), "iceage.name", nil); s != "Ice Age" {
		t.Errorf("an unknown language gives %q, want English", s)
	}
	if want := []string{"fr test.only_in_english", "ru test.nowhere"}; !slices.Equal(got, want) {
		t.Errorf("reported %v, want %v", got, want)
	}
	if Has(French, "test.only_in_english") || !Has(French, "iceage.name") {
		t.Error("Has is wrong")
	}
}

func TestMoveErrorDetailsAllHaveMessages(t *testing.T) {
	for d := game.MoveErrorDetail(1); !strings.HasPrefix(d.String(), "MoveErrorDetail("); d++ {
		e := game.NewMoveError(game.CannotMoveThatWay, d, "x", "")
		if id := moveErrorID(e); !Has(English, id) || id == "move_error.not_legal" && d != game.DetailNotLegal {
			t.Errorf("%v is said with %q", d, id)
		}
	}
}

// moveErrorCases are positions and texts that give every detail of
// game.MoveError, and the variants of their messages.
var moveErrorCases = []struct{ fen, text string }{
	{game.StartFEN, "e3e4"},
	{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e3e4"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Bg1f3"},
	{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "d5"},
	{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3"},
	{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qb1d2"},
	{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "N1d2"},
	{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "bc3"},
	{"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2"},
	{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5"},
	{game.StartFEN, "e4"},
	{"4k3/8/8/8/8/N7/8/R3K3 w - - 0 1", "Ra5"},
	{"4k3/8/8/8/8/n7/8/R3K3 w - - 0 1", "Ra5"},
	{"4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e4"},
	{"4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e4"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Ng1e2"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nd2"},
	{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a1"},
	{"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng3"},
	{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "Bc4"},
	{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rb2"},
	{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qe3"},
	{"4k3/8/8/8/8/8/3K4/8 w - - 0 1", "Kd4"},
	{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4e3"},
	{"4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e5"},
	{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exf5"},
	{"4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "exd6"},
	{"4k3/8/8/8/4Pp2/8/8/4K3 b - - 0 1", "fxe3"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nd4"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Rd4"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bd4"},
	{"4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3"},
	{"4k3/3r4/8/8/1b6/8/3N4/3K4 w - - 0 1", "Nf3"},
	{"4k3/8/8/8/7q/8/8/N3K3 w - - 0 1", "Nb3"},
	{"4r2k/8/8/8/1b6/8/8/N3K3 w - - 0 1", "Nb3"},
	{"4k3/8/8/8/8/8/5r2/K7 w - - 0 1", "Ka2"},
	{"4k3/8/8/8/8/1q5P/5r2/K7 w - - 0 1", "Ka2"},
	{"4k3/8/8/1b6/8/8/4*3/4K3 w - - 0 1", "Kxe2"},
	{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O"},
	{"r3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1", "O-O-O"},
	{"r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", "O-O"},
	{"r3k2r/8/8/8/8/8/8/R3K1*R w KQkq - 0 1", "O-O"},
	{"r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O"},
	{"r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "O-O"},
	{"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O"},
	{"r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", "0-0"},
	{"r*2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O"},
	{game.StartFEN, "e3"},
	{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3q"},
	{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=K"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4q"},
	{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "e4"},
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e7e5"},
}

// moveErrors returns the errors of moveErrorCases, and of a Match (a Move
// from one square to itself, a move after the end).
func moveErrors(t *testing.T) []*game.MoveError {
	t.Helper()
	var out []*game.MoveError
	for _, c := range moveErrorCases {
		p, err := game.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, err = game.ParseMove(&p, c.text)
		var e *game.MoveError
		if !errors.As(err, &e) {
			t.Fatalf("ParseMove(%q) in %s = %v, want a *MoveError", c.text, c.fen, err)
		}
		out = append(out, e)
	}
	m := game.NewMatch(game.StartPosition())
	_, err := m.PlayMove(game.NewMove(12, 12, game.NoKind))
	var e *game.MoveError
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	out = append(out, e)
	if err := m.End(game.WinFor(game.Black, game.Resignation)); err != nil {
		t.Fatal(err)
	}
	if !errors.As(m.End(game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}), &e) {
		t.Fatal("no error agreeing a draw after resigning")
	}
	out = append(out, e)
	// A man an Ice Age froze, meant by the move: on its square, or by
	// its kind.
	frozen := &game.FrozenMan{Placement: game.Placement{Square: game.H1, Piece: game.MakePiece(game.White, game.Bishop)}, BlackMove: 20}
	for _, c := range []struct{ fen, text string }{{"k7/8/8/8/8/8/8/K6* w - - 0 21", "h1b7"}, {"k7/8/8/8/8/8/8/K6* w - - 0 21", "Bb7"}} {
		p, err := game.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, err = game.ParseMove(&p, c.text)
		if !errors.As(err, &e) {
			t.Fatalf("ParseMove(%q) in %s = %v, want a *MoveError", c.text, c.fen, err)
		}
		e.NoteFrozen(*frozen)
		out = append(out, e)
	}
	return out
}

func TestMoveErrorsInEveryLanguage(t *testing.T) {
	strict(t)
	errs := moveErrors(t)
	details := map[game.MoveErrorDetail]bool{}
	ids := map[string]bool{}
	for _, e := range errs {
		details[e.Detail] = true
		ids[moveErrorID(e)] = true
	}
	for d := game.MoveErrorDetail(1); !strings.HasPrefix(d.String(), "MoveErrorDetail("); d++ {
		if !details[d] && d != game.DetailNotLegal {
			t.Errorf("no case gives %v", d)
		}
	}
	for _, id := range IDs(English) {
		if strings.HasPrefix(id, "move_error.") && !ids[id] && id != "move_error.not_legal" {
			t.Errorf("no case is said with %s", id)
		}
	}
	errs = append(errs, game.NewMoveError(game.CannotMoveThatWay, game.DetailNotLegal, "Nf9", "Nf9 is not a legal move here"))
	for _, e := range errs {
		seen := map[string]Lang{}
		for _, l := range Languages() {
			got := MoveError(l, e)
			checkText(t, fmt.Sprintf("%s %v %q", l, e.Detail, e.Text), got)
			if other, ok := seen[got]; ok {
				t.Errorf("%v is said alike in %s and %s: %q", e.Detail, other, l, got)
			}
			seen[got] = l
			if l != English {
				continue
			}
			// English says what game says, but for the Match's words on a
			// game that is over, where it names the outcome its own way.
			if got != e.Msg && !(e.Detail == game.DetailGameOver && e.Text == game.DrawAgreed.String()) {
				t.Errorf("English of %v:\n got %s\nwant %s", e.Detail, got, e.Msg)
			}
		}
	}
}

func TestMoveErrorSentencesAsPlayersSayThem(t *testing.T) {
	strict(t)
	tests := []struct {
		fen, text string
		lang      Lang
		want      string
	}{
		{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", French, "la tour en a1 ne peut pas aller en a5\u00a0: la glace en a3 lui barre la route"},
		{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", Russian, "ладья на a1 не может пройти на a5: путь преграждает лёд на a3"},
		{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", Norwegian, "tårnet på a1 kan ikke gå til a5: isen på a3 sperrer veien"},
		{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", Spanish, "la torre en a1 no puede llegar hasta a5: el hielo en a3 le cierra el paso"},
		{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", Dutch, "de toren op a1 kan a5 niet bereiken: ijs op a3 staat in de weg"},
		{"4k3/8/8/8/8/n7/8/R3K3 w - - 0 1", "Ra5", Russian, "ладья на a1 не может пройти на a5: путь преграждает конь соперника на a3"},
		{"4k3/8/8/8/8/N7/8/R3K3 w - - 0 1", "Ra5", French, "la tour en a1 ne peut pas aller en a5\u00a0: ton cavalier en a3 lui barre la route"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3", Russian, "у вас нет коня"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Rbd2", Russian, "у вас нет ладьи на вертикали b"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "R1d2", Russian, "у вас нет ладьи на 1-й горизонтали"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "N1d2", Norwegian, "du har ingen springer på 1. rad"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qf3", Spanish, "no tienes ninguna dama"},
		{"4r2k/8/8/8/1b6/8/8/N3K3 w - - 0 1", "Nb3", Russian, "вашему королю шах от слона на b4 и ладьи на e8, и ход конём с a1 на b3 от него не защищает"},
		{"4k3/3r4/8/8/1b6/8/3N4/3K4 w - - 0 1", "Nf3", French, "déplacer le cavalier en d2 exposerait ton roi à la tour en d7\u00a0: la pièce est clouée"},
		{"4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3", Spanish, "el caballo en d2 no puede moverse: hay una clavada y tu rey quedaría expuesto al alfil en b4"},
		{"4k3/8/8/8/8/1q5P/5r2/K7 w - - 0 1", "Ka2", English, "the king cannot go to a2: the rook on f2 and the queen on b3 attack that square"},
		{"4k3/8/8/8/8/8/5r2/K7 w - - 0 1", "Ka2", English, "the king cannot go to a2: the rook on f2 attacks that square"},
		{"r3k2r/8/8/8/8/7b/5r2/R3K2R w KQkq - 0 1", "O-O", English, "you cannot castle kingside: the king would cross f1, which the rook on f2 and the bishop on h3 attack"},
		{"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", French, "tu ne peux pas faire le petit roque\u00a0: le roi passerait par f1, case attaquée par la tour en f2"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", French, "tu ne peux plus faire le petit roque\u00a0: le roi ou la tour en h1 a déjà bougé, a été prise ou a gelé"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", Spanish, "ya no puedes enrocar corto: el rey o la torre de h1 ya se ha movido, ha sido capturada o se ha congelado"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", Dutch, "je kunt niet meer kort rokeren: de koning of de toren op h1 heeft al bewogen, is geslagen of is bevroren"},
		{"4k3/8/8/8/8/1q5P/5r2/K7 w - - 0 1", "Ka2", Dutch, "de koning kan niet naar a2: dat veld wordt aangevallen door de toren op f2 en de dame op b3"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nd4", Norwegian, "ingen av springerne dine kan gå til d4"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e7e5", Russian, "пешка на e7 принадлежит чёрным, а сейчас ход белых"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e7e5", Norwegian, "bonden på e7 er svarts, og det er hvits tur"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1", "O-O-O", Russian, "вы больше не можете сделать длинную рокировку: король или ладья на a8 уже ходили, были взяты или замёрзли"},
		{"r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", French, "tu ne peux pas faire le petit roque\u00a0: le roi passerait par f1, case attaquée par la tour en f2"},
		{"4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=K", Russian, "пешка не может превратиться в короля: выберите ферзя, ладью, слона или коня"},
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "e4", Spanish, "la partida ha terminado: jaque mate"},
		{"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", Dutch, "Nd2 is dubbelzinnig: Nbd2 of Nfd2"},
	}
	for _, tt := range tests {
		p, err := game.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, err = game.ParseMove(&p, tt.text)
		var e *game.MoveError
		if !errors.As(err, &e) {
			t.Fatalf("ParseMove(%q) = %v", tt.text, err)
		}
		if got := MoveError(tt.lang, e); got != tt.want {
			t.Errorf("%s %q in %s:\n got %s\nwant %s", tt.lang, tt.text, tt.fen, got, tt.want)
		}
	}
	if got := MoveError(French, nil); got != "" {
		t.Errorf("no error is said %q", got)
	}
	odd := game.NewMoveError(game.BlockedByIce, 0, "Ra5", "")
	if got := MoveError(French, odd); got != "Ra5 n'est pas un coup légal ici" {
		t.Errorf("an error without a detail is said %q", got)
	}
}

func TestSyntaxErrorsInEveryLanguage(t *testing.T) {
	strict(t)
	p := game.StartPosition()
	var errs []*game.SyntaxError
	for _, text := range []string{"", "e2e4e5e6e7e8e9e1e2", "hello", "Zf3", "Nf8=Q"} {
		_, err := game.ParseMove(&p, text)
		var se *game.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("ParseMove(%q) = %v", text, err)
		}
		errs = append(errs, se)
	}
	for _, text := range []string{"e2", "e2e2", "e7e8k"} {
		_, err := game.ParseUCI(text)
		var se *game.SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("ParseUCI(%q) = %v", text, err)
		}
		errs = append(errs, se)
	}
	kinds := map[game.SyntaxErrorKind]bool{}
	for _, e := range errs {
		kinds[e.Kind] = true
		for _, l := range Languages() {
			got := SyntaxError(l, e)
			checkText(t, fmt.Sprintf("%s %v", l, e.Kind), got)
			// English says what game says, in curly quotation marks.
			want := strings.Replace(e.Error(), game.QuoteInput(e.Text), Quote(English, e.Text), 1)
			if l == English && got != want {
				t.Errorf("English:\n got %s\nwant %s", got, want)
			}
		}
	}
	for k := game.SyntaxErrorKind(1); !strings.HasPrefix(k.String(), "SyntaxErrorKind("); k++ {
		if !kinds[k] {
			t.Errorf("no case gives %v", k)
		}
	}
	if got, want := SyntaxError(Russian, &game.SyntaxError{Text: "hello", Kind: game.SyntaxNoTarget}),
		`«hello» — это не ход: ход заканчивается полем, на которое идёт фигура, например e4 или Nf3 (вертикали a–h, горизонтали 1–8)`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got := SyntaxError(Spanish, &game.SyntaxError{Text: "x"}); !strings.Contains(got, "escribe una jugada") {
		t.Errorf("a syntax error without a kind is said %q", got)
	}
	if got := SyntaxError(Spanish, nil); got != "" {
		t.Errorf("no error is said %q", got)
	}
}

func TestOutcomes(t *testing.T) {
	strict(t)
	outcomes := []game.Outcome{
		{}, {Result: game.WhiteWins, Reason: game.Checkmate}, {Result: game.BlackWins, Reason: game.Checkmate},
		{Result: game.WhiteWins, Reason: game.KingFrozen}, {Result: game.BlackWins, Reason: game.KingFrozen},
		{Result: game.WhiteWins, Reason: game.Resignation}, {Result: game.BlackWins, Reason: game.Resignation},
		{Result: game.WhiteWins, Reason: game.Timeout}, {Result: game.BlackWins, Reason: game.Timeout},
		{Result: game.Draw, Reason: game.Stalemate}, {Result: game.Draw, Reason: game.BothKingsFrozen},
		{Result: game.Draw, Reason: game.FiftyMoveRule}, {Result: game.Draw, Reason: game.DrawAgreed},
		{Result: game.NoResult, Reason: game.Aborted},
	}
	english := []string{
		"The game goes on", "White wins by checkmate", "Black wins by checkmate",
		"White wins: Black's king froze in the Ice Age", "Black wins: White's king froze in the Ice Age",
		"White wins: Black resigned", "Black wins: White resigned", "White wins on time", "Black wins on time",
		"Draw by stalemate", "Draw: both kings froze in the Ice Age", "Draw by the fifty-move rule",
		"Draw by agreement", "Game aborted",
	}
	for _, l := range Languages() {
		seen := map[string]bool{}
		for i, o := range outcomes {
			got := Outcome(l, o)
			checkText(t, fmt.Sprintf("%s %+v", l, o), got)
			if seen[got] {
				t.Errorf("%s: two outcomes are said %q", l, got)
			}
			seen[got] = true
			if l == English && got != english[i] {
				t.Errorf("%+v: got %q, want %q", o, got, english[i])
			}
		}
	}
	if got := Outcome(Russian, game.Outcome{Result: game.BlackWins, Reason: game.KingFrozen}); got != "Победа чёрных: белый король замёрз в ледниковый период" {
		t.Errorf("got %q", got)
	}
	// Odd records still get words.
	for o, want := range map[game.Outcome]string{
		{Result: game.WhiteWins, Reason: game.Stalemate}: "White wins",
		{Result: game.Draw, Reason: game.Checkmate}:      "Draw",
		{Result: game.NoResult, Reason: game.Checkmate}:  "Checkmate",
		{Result: game.Draw, Reason: game.Reason(99)}:     "Draw",
	} {
		if got := Outcome(English, o); got != want {
			t.Errorf("%+v: got %q, want %q", o, got, want)
		}
	}
}

func TestPluralsChooseTheRightForm(t *testing.T) {
	strict(t)
	tests := []struct {
		lang Lang
		f    func(Lang, int) string
		n    int
		want string
	}{
		{Russian, Countdown, 1, "Ледниковый период через 1 ход чёрных"},
		{Russian, Countdown, 2, "Ледниковый период через 2 хода чёрных"},
		{Russian, Countdown, 5, "Ледниковый период через 5 ходов чёрных"},
		{Russian, Countdown, 11, "Ледниковый период через 11 ходов чёрных"},
		{Russian, Countdown, 21, "Ледниковый период через 21 ход чёрных"},
		{Russian, Moves, 1, "1 ход"},
		{Russian, Moves, 3, "3 хода"},
		{Russian, Moves, 5, "5 ходов"},
		{Russian, Moves, 12, "12 ходов"},
		{Russian, Moves, 21, "21 ход"},
		{Russian, Moves, 22, "22 хода"},
		{Russian, Days, 1, "1 день"},
		{Russian, Days, 2, "2 дня"},
		{Russian, Days, 5, "5 дней"},
		{Russian, Days, 14, "14 дней"},
		{Russian, Days, 21, "21 день"},
		{Russian, DaysPerMove, 3, "3 дня на ход"},
		{English, Countdown, 1, "Ice Age in 1 Black move"},
		{English, Countdown, 3, "Ice Age in 3 Black moves"},
		{English, Moves, 1, "1 move"},
		{English, Moves, 2, "2 moves"},
		{English, Days, 1, "1 day"},
		{English, Days, 3, "3 days"},
		{English, DaysPerMove, 1, "1 day per move"},
		{French, Moves, 0, "0 coup"},
		{French, Moves, 1, "1 coup"},
		{French, Moves, 2, "2 coups"},
		{French, Days, 1000000, "1000000 de jours"},
		{French, Countdown, 20, "Âge de Glace dans 20 coups des Noirs"},
		{Norwegian, Days, 1, "1 dag"},
		{Norwegian, Days, 7, "7 dager"},
		{Norwegian, Countdown, 2, "Istid om 2 trekk av svart"},
		{Spanish, Days, 1, "1 día"},
		{Spanish, Days, 10, "10 días"},
		{Spanish, Countdown, 1, "Falta 1 jugada de las negras para la Edad de Hielo"},
		{Spanish, Countdown, 4, "Faltan 4 jugadas de las negras para la Edad de Hielo"},
		{Dutch, Moves, 1, "1 zet"},
		{Dutch, Moves, 5, "5 zetten"},
		{Dutch, Countdown, 5, "IJstijd over 5 zetten van zwart"},
	}
	for _, tt := range tests {
		if got := tt.f(tt.lang, tt.n); got != tt.want {
			t.Errorf("%s %d: got %q, want %q", tt.lang, tt.n, got, tt.want)
		}
	}
}

func TestFrozenMen(t *testing.T) {
	strict(t)
	men := []game.Placement{
		{Square: 1, Piece: game.MakePiece(game.White, game.Knight)},
		{Square: 55, Piece: game.MakePiece(game.Black, game.Pawn)},
		{Square: 63, Piece: game.MakePiece(game.Black, game.Rook)},
	}
	tests := []struct {
		lang Lang
		men  []game.Placement
		want string
	}{
		{English, nil, "No man froze"},
		{English, men[:1], "1 man froze: the white knight on b1"},
		{English, men, "3 men froze: the white knight on b1, the black pawn on h7 and the black rook on h8"},
		{French, men[2:], "1 pièce a gelé\u00a0: la tour noire en h8"},
		{Russian, men[:2], "Замёрзли 2 фигуры: белый конь на b1 и чёрная пешка на h7"},
		{Norwegian, men[2:], "1 brikke frøs: det svarte tårnet på h8"},
		{Spanish, men[1:], "Se congelaron 2 piezas: el peón negro en h7 y la torre negra en h8"},
		{Dutch, men[:1], "1 stuk bevroren: het witte paard op b1"},
	}
	for _, tt := range tests {
		if got := FrozenMen(tt.lang, tt.men); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.lang, got, tt.want)
		}
	}
}

func TestNamesOfMenAndSides(t *testing.T) {
	strict(t)
	want := map[Lang]string{
		English:   "king queen rook bishop knight pawn White Black",
		French:    "roi dame tour fou cavalier pion Blancs Noirs",
		Russian:   "король ферзь ладья слон конь пешка Белые Чёрные",
		Norwegian: "konge dronning tårn løper springer bonde Hvit Svart",
		Spanish:   "rey dama torre alfil caballo peón Blancas Negras",
		Dutch:     "koning dame toren loper paard pion Wit Zwart",
	}
	for _, l := range Languages() {
		var got []string
		for _, k := range []game.Kind{game.King, game.Queen, game.Rook, game.Bishop, game.Knight, game.Pawn} {
			got = append(got, PieceName(l, k))
		}
		got = append(got, ColorName(l, game.White), ColorName(l, game.Black))
		if s := strings.Join(got, " "); s != want[l] {
			t.Errorf("%s: got %q, want %q", l, s, want[l])
		}
		if PieceName(l, game.NoKind) != "" {
			t.Errorf("%s names NoKind", l)
		}
	}
	for l, want := range map[Lang]string{English: "Ice Age", French: "Âge de Glace", Russian: "ледниковый период",
		Norwegian: "istid", Spanish: "Edad de Hielo", Dutch: "IJstijd"} {
		if got := T(l, "iceage.name", nil); got != want {
			t.Errorf("%s: the Ice Age is %q, want %q", l, got, want)
		}
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "the rook": "The rook", "échec et mat": "Échec et mat", "ладья": "Ладья",
		"ijs op a3": "IJs op a3", "Already": "Already", "\xff": "\xff",
	} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFromDiscord(t *testing.T) {
	tests := map[string]Lang{
		"en-US": English, "en-GB": English, "fr": French, "ru": Russian, "no": Norwegian,
		"es-ES": Spanish, "es-419": Spanish, "nl": Dutch,
		"de": English, "uk": English, "pt-BR": English, "zh-CN": English, "ja": English, "sv-SE": English,
		"": English, "  ": English, "xx": English, "-": English,
		"FR": French, "fr_FR": French, "fr-CA": French, "nb": Norwegian, "nb-NO": Norwegian, "nn": Norwegian,
		"es-MX": Spanish, "nl-BE": Dutch, " ru ": Russian, "ru-RU": Russian,
	}
	for in, want := range tests {
		if got := FromDiscord(in); got != want {
			t.Errorf("FromDiscord(%q) = %s, want %s", in, got, want)
		}
	}
}

func FuzzFromDiscord(f *testing.F) {
	for _, s := range []string{"en-US", "es-419", "no", "fr_FR", "", "\xff-\x00", "ru-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l := FromDiscord(s); !l.known() {
			t.Fatalf("FromDiscord(%q) = %q, no language", s, l)
		}
	})
}

func TestDiscordLocales(t *testing.T) {
	strict(t)
	got := DiscordLocales("iceage.name")
	want := map[string]string{
		"en-US": "Ice Age", "en-GB": "Ice Age", "fr": "Âge de Glace", "ru": "ледниковый период",
		"no": "istid", "es-ES": "Edad de Hielo", "es-419": "Edad de Hielo", "nl": "IJstijd",
	}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for locale := range got {
		if FromDiscord(locale) == English && !strings.HasPrefix(locale, "en") {
			t.Errorf("the locale %q is not read back", locale)
		}
	}
}

func TestLanguages(t *testing.T) {
	ls := Languages()
	ls[0] = "xx"
	if Languages()[0] != English {
		t.Error("Languages gives its own slice away")
	}
	if got := fmt.Sprint(Languages()); got != "[en fr ru nb es nl]" {
		t.Errorf("Languages() = %s", got)
	}
}

func TestListsAndOr(t *testing.T) {
	strict(t)
	items := []string{"a", "b", "c"}
	for _, tt := range []struct {
		lang      Lang
		and, or   string
		one, none string
	}{
		{English, "a, b and c", "a, b or c", "a", ""},
		{Russian, "a, b и c", "a, b или c", "a", ""},
		{Spanish, "a, b y c", "a, b o c", "a", ""},
	} {
		if got := And(tt.lang, items); got != tt.and {
			t.Errorf("%s: And = %q, want %q", tt.lang, got, tt.and)
		}
		if got := Or(tt.lang, items); got != tt.or {
			t.Errorf("%s: Or = %q, want %q", tt.lang, got, tt.or)
		}
		if And(tt.lang, items[:1]) != tt.one || Or(tt.lang, nil) != tt.none {
			t.Errorf("%s: lists of one or none are wrong", tt.lang)
		}
	}
}

// The texts are read by many goroutines at once: one per interaction.
func TestTextsFromManyGoroutines(t *testing.T) {
	errs := moveErrors(t)
	want := map[string]bool{}
	for _, e := range errs {
		for _, l := range Languages() {
			want[MoveError(l, e)] = true
		}
	}
	var wg sync.WaitGroup
	bad := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, e := range errs {
				l := Languages()[(g+i)%len(Languages())]
				if s := MoveError(l, e); !want[s] {
					select {
					case bad <- s:
					default:
					}
				}
				N(l, "count.days", i, nil)
				Outcome(l, game.Outcome{Result: game.Draw, Reason: game.BothKingsFrozen})
			}
		}()
	}
	wg.Wait()
	close(bad)
	for s := range bad {
		t.Errorf("a text said at the same time as others differs: %q", s)
	}
}

// Whatever a player types in whatever position, the error is said in
// every language without a missing text or template key.
func FuzzErrorsInEveryLanguage(f *testing.F) {
	fens := []string{
		game.StartFEN,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
		"4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/3pb3/8/8/8/8/P4P2/K3R3 b - - 0 20",
		"r1bqk2r/pp1n1ppp/2p1pn2/*2p*3/1bPP4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 7",
	}
	for _, c := range moveErrorCases {
		f.Add(0, c.text)
	}
	for i := range fens {
		for _, s := range []string{"e4", "Nf3", "bxc3", "O-O", "O-O-O", "e8=K", "Kd2", "a1a1", "", "zz", "Bb5", "Qxh7"} {
			f.Add(i, s)
		}
	}
	positions := make([]game.Position, len(fens))
	for i, fen := range fens {
		p, err := game.ParseFEN(fen)
		if err != nil {
			f.Fatal(err)
		}
		positions[i] = p
	}
	f.Fuzz(func(t *testing.T, i int, text string) {
		p := positions[uint(i)%uint(len(positions))]
		_, err := game.ParseMove(&p, text)
		var me *game.MoveError
		var se *game.SyntaxError
		for _, l := range Languages() {
			var problem error
			old := SetReporter(func(lang Lang, id string, err error) { problem = err })
			var s string
			switch {
			case errors.As(err, &me):
				s = MoveError(l, me)
			case errors.As(err, &se):
				s = SyntaxError(l, se)
			default:
				SetReporter(old)
				return
			}
			SetReporter(old)
			if problem != nil || s == "" || strings.Contains(s, "<no value>") {
				t.Fatalf("%s: %q in %s: %q, %v", l, text, p.FEN(), s, problem)
			}
		}
	})
}
