package game

import (
	"errors"
	"strings"
	"testing"
)

// fuzzPositions are the positions FuzzParseMove types into: the ice start,
// plain chess, castling, promotion, en passant, an Ice-Age move and a
// middlegame with ice.
var fuzzPositions = []string{
	StartFEN,
	chessFEN,
	castleFEN,
	promoteFEN,
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
	iceAgePinFEN,
	"r1bqk2r/pp1n1ppp/2p1pn2/*2p*3/1bPP4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 7",
}

// Whatever is typed, ParseMove does not panic; a move it returns is legal,
// and its SAN and UCI read back as the same move; a failure is a
// *SyntaxError or a *MoveError with a message.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "nf3", "bxc3", "exd5", "ed5", "e8=Q", "e8q", "O-O", "0-0-0",
		"e2-e4", "e2 e4", "Ng1xf3", "hxg3", "Kxe2", "♘f3", "exd6 e.p.", "a8(Q)", "Bd6!?", "", "zz", "e2e4q"} {
		for i := range fuzzPositions {
			f.Add(i, s)
		}
	}
	positions := make([]Position, len(fuzzPositions))
	for i, fen := range fuzzPositions {
		positions[i] = positionOf(f, fen)
	}
	f.Fuzz(func(t *testing.T, i int, text string) {
		p := positions[uint(i)%uint(len(positions))]
		m, err := ParseMove(&p, text)
		if err != nil {
			var se *SyntaxError
			var me *MoveError
			if !errors.As(err, &se) && !errors.As(err, &me) {
				t.Fatalf("ParseMove(%q) failed with %T: %v", text, err, err)
			}
			if err.Error() == "" {
				t.Fatalf("ParseMove(%q) failed without a message", text)
			}
			if se != nil && se.Kind == 0 {
				t.Fatalf("ParseMove(%q) failed with a syntax error of no kind: %v", text, err)
			}
			if me != nil {
				checkMoveErrorData(t, &p, me)
			}
			Suggest(&p, text, 3)
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("ParseMove(%q) = %s, which is not legal in %s", text, m, p.FEN())
		}
		for _, again := range []string{p.SAN(m), m.UCI()} {
			if back, err := ParseMove(&p, again); err != nil || back != m {
				t.Fatalf("ParseMove(%q) = %s, but %q reads back as %s, %v", text, m, again, back, err)
			}
		}
	})
}

// Whatever the text, ParsePGN does not panic, and a game it reads exports
// to a PGN that reads back to the same export.
func FuzzParsePGN(f *testing.F) {
	f.Add("[Event \"x\"]\n\n1. hxg3 Nxf6 2. gxh4 {c} Nxh5 (2... Nxh5) $1 *")
	f.Add("[FEN \"4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20\"]\n20... Bd6 {Ice Age: 57 squares iced; frozen: Rh4} 21. Rxd1 0-1")
	f.Add("1. hxg3 1/2-1/2")
	f.Add("[Result \"1-0\"]\n[Termination \"time forfeit\"]\n1. bxc3 Nxf6 1-0")
	f.Fuzz(func(t *testing.T, text string) {
		m, tags, err := ParsePGN(text)
		if err != nil {
			var pe *PGNError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePGN failed with %T: %v", err, err)
			}
			return
		}
		out := m.PGN(tags)
		back, tags2, err := ParsePGN(out)
		if err != nil {
			t.Fatalf("the export of a read game does not read back: %v\n%s", err, out)
		}
		if again := back.PGN(tags2); again != out {
			t.Fatalf("export, import, export differs:\n%s\n---\n%s", out, again)
		}
	})
}

// FuzzSANReadsBack plays random games from the FuzzPlay starts (Ice Ages
// included): in every position each legal move's SAN reads back through
// ParseMove as that very move, and the move played carries "#" exactly
// when it mates and "+" exactly when it checks without mating.
func FuzzSANReadsBack(f *testing.F) {
	for i := range fuzzStarts {
		f.Add([]byte{byte(i), 0, 7, 13, 2, 250, 31, 99, 5, 5, 5, 17, 1, 44, 3})
	}
	f.Fuzz(func(t *testing.T, choices []byte) {
		if len(choices) == 0 {
			return
		}
		if len(choices) > 121 {
			choices = choices[:121] // 120 plies reach two Ice Ages from most starts; longer games only slow the fuzzer
		}
		p := mustFEN(t, fuzzStarts[int(choices[0])%len(fuzzStarts)])
		for _, c := range choices[1:] {
			sans := p.SANs()
			if len(sans) == 0 {
				return
			}
			for _, ms := range sans {
				if back, err := ParseMove(&p, ms.SAN); err != nil || back != ms.Move {
					t.Fatalf("%s: %s is written %q, which reads back as %s, %v", p.FEN(), ms.Move, ms.SAN, back, err)
				}
			}
			ms := sans[int(c)%len(sans)]
			q := p.Apply(ms.Move)
			mate := q.Outcome().Reason == Checkmate
			if got := strings.HasSuffix(ms.SAN, "#"); got != mate {
				t.Fatalf("%s: %q, but the position after it is %v", p.FEN(), ms.SAN, q.Outcome())
			}
			if got := strings.HasSuffix(ms.SAN, "+"); got != (q.InCheck() && !mate) {
				t.Fatalf("%s: %q, but after it the side to move is in check: %v", p.FEN(), ms.SAN, q.InCheck())
			}
			p = q
		}
	})
}
