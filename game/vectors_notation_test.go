package game

import (
	"strings"
	"testing"
)

// readCases returns the ' ; '-separated fields of every case line of a
// file in testdata (see testdata/README.md), without line numbers.
func readCases(t testing.TB, name string) [][]string {
	t.Helper()
	var out [][]string
	for _, v := range readVectors(t, name) {
		out = append(out, v.fields)
	}
	return out
}

// Every SAN vector: SAN(UCI) is the SAN given, and the SAN given parses to
// the UCI given.
func TestSANAndParseMoveVectors(t *testing.T) {
	for i, v := range readCases(t, "san.txt") {
		fen, want, uci := v[0], v[1], v[2]
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		m, err := ParseMove(&p, uci)
		if err != nil {
			t.Errorf("case %d %s: UCI %s does not parse: %v", i+1, fen, uci, err)
			continue
		}
		if got := p.SAN(m); got != want {
			t.Errorf("case %d %s: SAN(%s) = %s, want %s", i+1, fen, uci, got, want)
		}
		back, err := ParseMove(&p, want)
		if err != nil {
			t.Errorf("case %d %s: SAN %s does not parse: %v", i+1, fen, want, err)
			continue
		}
		if back != m {
			t.Errorf("case %d %s: ParseMove(%s) = %s, want %s", i+1, fen, want, back, uci)
		}
	}
}

// vectorReason maps the termination words of games.txt to reasons.
var vectorReason = map[string]Reason{
	"checkmate": Checkmate, "stalemate": Stalemate, "white_king_frozen": KingFrozen,
	"black_king_frozen": KingFrozen, "both_kings_frozen": BothKingsFrozen, "fifty_move": FiftyMoveRule,
	"max_plies": NoReason,
}

// Every reference game: playing its SAN moves through a Match gives the
// same SANs back, the moves of its UCI column, its final FEN and result.
func TestMatchReplaysGameVectors(t *testing.T) {
	games := readCases(t, "games.txt")
	if testing.Short() {
		games = games[:40]
	}
	for i, v := range games {
		ucis, sans := strings.Fields(v[0]), strings.Fields(v[1])
		m := NewMatch(StartPosition())
		for j, s := range sans {
			pl, err := m.Play(s)
			if err != nil {
				t.Fatalf("game %d, ply %d: %s: %v\n%s", i+1, j+1, s, err, m.pos.FEN())
			}
			if pl.SAN != s || pl.UCI != ucis[j] {
				t.Fatalf("game %d, ply %d: played %s as %s (%s), want %s", i+1, j+1, s, pl.SAN, pl.UCI, ucis[j])
			}
		}
		if got := m.pos.FEN(); got != v[2] {
			t.Errorf("game %d: final FEN %s, want %s", i+1, got, v[2])
		}
		if got := m.Outcome(); got.Result.String() != v[3] || got.Reason != vectorReason[v[4]] {
			t.Errorf("game %d: outcome %s (%s), want %s (%s)", i+1, got.Result, got.Reason, v[3], v[4])
		}
		r, err := ReplayUCI(StartFEN, ucis)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if strings.Join(r.SANs(), " ") != v[1] {
			t.Errorf("game %d: replaying the UCI moves gave other SANs", i+1)
		}
	}
}

// Every reference game survives PGN export and import: same moves, same
// outcome, and the re-export is byte for byte the same text.
func TestPGNRoundTripVectors(t *testing.T) {
	games := readCases(t, "games.txt")
	if testing.Short() {
		games = games[:20]
	}
	tags := Tags{Event: "Vectors", Site: "testdata", Date: "2026.11.30", Round: "1", White: "A \"quoted\" name", Black: `back\slash`}
	for i, v := range games {
		m, err := ReplayUCI(StartFEN, strings.Fields(v[0]))
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		text := m.PGN(tags)
		for n, line := range strings.Split(text, "\n") {
			if len(line) > pgnLineWidth {
				t.Errorf("game %d: PGN line %d is %d characters long", i+1, n+1, len(line))
			}
		}
		back, gotTags, err := ParsePGN(text)
		if err != nil {
			t.Fatalf("game %d: %v\n%s", i+1, err, text)
		}
		if gotTags != tags {
			t.Errorf("game %d: tags %+v, want %+v", i+1, gotTags, tags)
		}
		if back.Outcome() != m.Outcome() || strings.Join(back.UCIs(), " ") != v[0] {
			t.Errorf("game %d: PGN import gave outcome %v and other moves", i+1, back.Outcome())
		}
		if again := back.PGN(gotTags); again != text {
			t.Errorf("game %d: re-export differs:\n%s\nwant\n%s", i+1, again, text)
		}
	}
}

// The explanation code decides every rule by itself; it must call exactly
// the moves legal that the move generator generates, for every man and
// every target square, in every position of the vector files and along the
// reference games.
func TestJudgeAgreesWithMoveGenerator(t *testing.T) {
	var fens []string
	for _, name := range []string{"san.txt", "perft-ice.txt", "iceage-events.txt"} {
		for _, v := range readCases(t, name) {
			fens = append(fens, v[0])
		}
	}
	games := readCases(t, "games.txt")
	if testing.Short() {
		games = games[:10]
	}
	for _, v := range games {
		p := StartPosition()
		for _, u := range strings.Fields(v[0]) {
			fens = append(fens, p.FEN())
			m, err := ParseMove(&p, u)
			if err != nil {
				t.Fatal(err)
			}
			p = p.Apply(m)
		}
	}
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if p.Pieces(White, King) == 0 || p.Pieces(Black, King) == 0 {
			continue
		}
		legal := p.LegalMoves(nil)
		for b := p.Men(p.Turn()); b != 0; b &= b - 1 {
			from := b.First()
			for to := Square(0); to < 64; to++ {
				for _, k := range []Kind{NoKind, Queen, Knight, King} {
					m := NewMove(from, to, k)
					e := p.judge(from, to, k)
					if want := contains(legal, m); (e.Kind == 0) != want {
						t.Fatalf("%s: %s: generator says legal=%v, explanation says %+v", fen, m, want, e)
					}
					if e.Kind != 0 && e.Msg == "" {
						t.Fatalf("%s: %s: %v without a message", fen, m, e.Kind)
					}
					if e.Kind != 0 {
						checkMoveErrorData(t, &p, &e)
					}
				}
			}
		}
	}
}
