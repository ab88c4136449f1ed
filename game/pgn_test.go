package game

import (
	"errors"
	"strings"
	"testing"
)

func TestPGNExportFromASetUpPosition(t *testing.T) {
	fen := "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20"
	m := NewMatch(positionOf(t, fen))
	for _, s := range []string{"Bd6", "Rxd1", "Kxd8"} {
		if _, err := m.Play(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.End(WinFor(Black, Resignation)); err != nil {
		t.Fatal(err)
	}
	want := `[Event "Club night"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "0-1"]
[Variant "Ice Age"]
[SetUp "1"]
[FEN "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20"]
[Termination "normal"]

20... Bd6 {Ice Age: 57 squares iced; frozen: Rh4} 21. Rxd1 Kxd8 0-1
`
	if got := m.PGN(Tags{Event: "Club night"}); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParsePGNReadsWhatOtherProgramsWrite(t *testing.T) {
	text := "\uFEFF% an escape line\n" + `[Event "Casual"]
[White "Ann"]
[Black "Bo"]
[Annotator "someone"]
[Result "*"]

1. hxg3 $1 {a comment
over two lines} Nxf6 (1... Nxh6 2. gxh4 (2. Nxf3)) 2.gxh4 ; a comment to the end of the line
2...Nxh5 3. Nxf3!? 3. ... Ng3+?? *
`
	m, tags, err := ParsePGN(text)
	if err != nil {
		t.Fatal(err)
	}
	if tags != (Tags{Event: "Casual", White: "Ann", Black: "Bo"}) {
		t.Errorf("tags %+v", tags)
	}
	if got := strings.Join(m.SANs(), " "); got != "hxg3 Nxf6 gxh4 Nxh5 Nxf3 Ng3" {
		t.Errorf("moves %q", got)
	}
	if m.Outcome().Over() {
		t.Errorf("outcome %+v, want the game going on", m.Outcome())
	}
}

func TestParsePGNAcceptsTheVariantUnderItsLongerName(t *testing.T) {
	for _, v := range []string{"Ice Age", "ice age", "Ice Age Chess", "ICE AGE CHESS"} {
		if _, _, err := ParsePGN("[Variant \"" + v + "\"]\n1. hxg3 *"); err != nil {
			t.Errorf("Variant %q: %v", v, err)
		}
	}
}

func TestParsePGNTakesTheOutcomeFromResultAndTermination(t *testing.T) {
	tests := []struct {
		name, result, term string
		want               Outcome
	}{
		{"a decisive result is a resignation", "1-0", "normal", Outcome{WhiteWins, Resignation}},
		{"a draw is a draw by agreement", "1/2-1/2", "", Outcome{Draw, DrawAgreed}},
		{"a time forfeit is a timeout", "0-1", "time forfeit", Outcome{BlackWins, Timeout}},
		{"an unfinished game goes on", "*", "unterminated", Outcome{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := `[Result "` + tt.result + `"]` + "\n"
			if tt.term != "" {
				text += `[Termination "` + tt.term + `"]` + "\n"
			}
			text += "\n1. hxg3 Nxf6 " + tt.result + "\n"
			m, _, err := ParsePGN(text)
			if err != nil {
				t.Fatal(err)
			}
			if m.Outcome() != tt.want {
				t.Fatalf("outcome %+v, want %+v", m.Outcome(), tt.want)
			}
			back, _, err := ParsePGN(m.PGN(Tags{}))
			if err != nil || back.Outcome() != tt.want {
				t.Fatalf("re-import gave %+v, %v", back.Outcome(), err)
			}
		})
	}
}

func TestParsePGNSaysWhereItFailed(t *testing.T) {
	tests := []struct {
		name, text, msg string
		moveErr         bool
	}{
		{"an illegal move", "[Event \"x\"]\n\n1. hxg3 Nxf6\n2. e4 *", "PGN line 4: move 2. e4: the pawn on e2 cannot reach e4: ice on e3 blocks it", true},
		{"a Black move that is no move", "1. hxg3 Zz9", `PGN line 1: move 1... Zz9: "Zz9" is not a move: a move ends with the target square, e.g. e4 or Nf3 (files a–h, ranks 1–8)`, true},
		{"a comment never closed", "1. hxg3 {oops", "PGN line 1: a comment opened with { is never closed", false},
		{"a variation never closed", "1. hxg3 (1. gxh3", "PGN line 1: a variation opened with ( is never closed", false},
		{"a stray closing bracket", "1. hxg3 )", "PGN line 1: a ')' closes no variation", false},
		{"a tag without quotes", "[Event x]", "PGN line 1: the value of tag Event must be in double quotes", false},
		{"a tag never closed", "[Event \"x\"\n1. hxg3", "PGN line 1: tag Event is not closed with ]", false},
		{"a tag twice", "[Event \"x\"]\n[Event \"y\"]", "PGN line 2: tag Event appears twice", false},
		{"another variant", "[Variant \"Atomic\"]\n1. e4", `PGN line 1: the game is of variant "Atomic", not Ice Age`, false},
		{"a wrong FEN", "[FEN \"8/8 w\"]\n", "PGN line 1: the FEN tag is wrong: invalid FEN (position): want 4 to 6 fields separated by spaces (board, side to move, castling, en passant, clocks), found 2", false},
		{"a wrong FEN below other tags", "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8 w\"]\n", "PGN line 3: the FEN tag is wrong: invalid FEN (position): want 4 to 6 fields separated by spaces (board, side to move, castling, en passant, clocks), found 2", false},
		{"another variant below other tags", "[Event \"x\"]\n[Variant \"Atomic\"]\n1. e4", `PGN line 2: the game is of variant "Atomic", not Ice Age`, false},
		{"a result tag that the movetext contradicts", "[Result \"1-0\"]\n1. hxg3 0-1", "PGN line 2: the Result tag says 1-0 but the moves end with 0-1", false},
		{"a result the position contradicts", "[FEN \"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\"]\n1-0", "PGN line 2: the result 1-0 contradicts the final position (Black won: checkmate)", false},
		{"a second game", "1. hxg3 * [Event \"2\"]", "PGN line 1: text after the result (one game per text)", false},
		{"a result that is none", "[Result \"2-0\"]\n1. hxg3", `PGN line 2: the result "2-0" is none of 1-0, 0-1, 1/2-1/2, *`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParsePGN(tt.text)
			var pe *PGNError
			if !errors.As(err, &pe) || err.Error() != tt.msg {
				t.Fatalf("got %v\nwant %s", err, tt.msg)
			}
			var me *MoveError
			var se *SyntaxError
			if got := errors.As(err, &me) || errors.As(err, &se); got != tt.moveErr {
				t.Fatalf("wraps a move error: %v, want %v", got, tt.moveErr)
			}
		})
	}
}

func TestPGNWritesAndReadsRatingsAndTheTimeControl(t *testing.T) {
	m := NewMatch(StartPosition())
	if _, err := m.Play("hxg3"); err != nil {
		t.Fatal(err)
	}
	if err := m.End(WinFor(White, Timeout)); err != nil {
		t.Fatal(err)
	}
	tags := Tags{Event: "Rated Ice Age game", White: "Ann", Black: "Bob", WhiteElo: "1873", BlackElo: "1500", TimeControl: "1/259200"}
	text := m.PGN(tags)
	want := "[Result \"1-0\"]\n[WhiteElo \"1873\"]\n[BlackElo \"1500\"]\n[TimeControl \"1/259200\"]\n[Variant \"Ice Age\"]\n"
	if !strings.Contains(text, want) {
		t.Fatalf("the tags after Result are not\n%s\nin\n%s", want, text)
	}
	_, got, err := ParsePGN(text)
	if err != nil {
		t.Fatal(err)
	}
	if got != tags {
		t.Errorf("read back %+v, want %+v", got, tags)
	}
	if text := m.PGN(Tags{}); strings.Contains(text, "Elo") || strings.Contains(text, "TimeControl") {
		t.Errorf("empty optional tags are written:\n%s", text)
	}
}
