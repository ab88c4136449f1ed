package game

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The vector files in testdata/ are read by the runners below. Their
// format: one case per line, fields separated by " ; ", '#' starts a
// comment line.

// vector is one line of a vector file.
type vector struct {
	line   int
	fields []string
}

func readVectors(t testing.TB, name string) []vector {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, vector{n, strings.Split(line, " ; ")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no vectors", name)
	}
	return out
}

// perftBudget is the largest leaf count checked: modest under -short (and
// so under the race detector), the deep counts otherwise.
func perftBudget() uint64 {
	if testing.Short() {
		return 200_000
	}
	return 200_000_000
}

// Every perft count of the standard suite and the ice suite, within the
// budget; perft leaves its position unchanged, and below 20,000 leaves the
// bulk count agrees with playing every leaf and with PerftDivide.
func TestPerftVectors(t *testing.T) {
	for _, name := range []string{"perft-standard.txt", "perft-ice.txt"} {
		for _, v := range readVectors(t, name) {
			p := mustFEN(t, v.fields[0])
			for _, f := range v.fields[1:] {
				var depth int
				var want uint64
				if _, err := fmt.Sscanf(f, "D%d %d", &depth, &want); err != nil {
					t.Fatalf("%s:%d: %q is not \"Dn count\": %v", name, v.line, f, err)
				}
				if want > perftBudget() {
					continue
				}
				t.Run(fmt.Sprintf("%s line %d at depth %d counts %d leaves", name, v.line, depth, want), func(t *testing.T) {
					before := p
					if got := Perft(p, depth); got != want {
						t.Errorf("Perft = %d, want %d\n%s", got, want, diagram(&p))
					}
					if p != before {
						t.Errorf("Perft changed the position to %s", p.FEN())
					}
					if want > 20_000 {
						return
					}
					if got := perftFull(&p, depth); got != want {
						t.Errorf("playing every leaf gives %d, want %d\n%s", got, want, diagram(&p))
					}
					var sum uint64
					for _, c := range PerftDivide(p, depth) {
						sum += c.Nodes
					}
					if sum != want {
						t.Errorf("PerftDivide adds up to %d, want %d", sum, want)
					}
				})
			}
		}
	}
}

// perftFull counts leaves by playing every move down to depth 0, listing
// moves at every node: the slow, plain definition bulk counting must match.
func perftFull(p *Position, depth int) uint64 {
	return perftFullValue(*p, depth)
}

func perftFullValue(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if p.halfmove >= 100 {
		return 0
	}
	var buf [256]Move
	var n uint64
	for _, m := range p.LegalMoves(buf[:0]) {
		n += perftFullValue(p.Apply(m), depth-1)
	}
	return n
}

// statusOutcome maps a vector file's status word to the Outcome it means.
func statusOutcome(t *testing.T, word string) Outcome {
	t.Helper()
	switch word {
	case "ongoing":
		return Outcome{}
	case "stalemate":
		return Outcome{Draw, Stalemate}
	case "white_king_frozen":
		return Outcome{BlackWins, KingFrozen}
	case "black_king_frozen":
		return Outcome{WhiteWins, KingFrozen}
	case "both_kings_frozen":
		return Outcome{Draw, BothKingsFrozen}
	case "fifty_move":
		return Outcome{Draw, FiftyMoveRule}
	}
	t.Fatalf("unknown status word %q", word)
	return Outcome{}
}

// Black's Ice-Age moves: the move is legal, the position after it and its
// Ice Age and the status match, and the event tells the difference
// between the bare move and the iced position.
func TestIceAgeEventVectors(t *testing.T) {
	for _, v := range readVectors(t, "iceage-events.txt") {
		t.Run(fmt.Sprintf("line %d: %s after %s", v.line, v.fields[1], v.fields[0]), func(t *testing.T) {
			p := mustFEN(t, v.fields[0])
			m := mustLegal(t, &p, v.fields[1])
			q, e := p.ApplyWithEvent(m)
			if got := q.FEN(); got != v.fields[2] {
				t.Errorf("after the Ice Age:\n got %s\nwant %s\n%s", got, v.fields[2], diagram(&q))
			}
			if e == nil {
				t.Fatal("no Ice Age event")
			}
			if plain := p.Apply(m); plain != q {
				t.Errorf("Apply gives %s, ApplyWithEvent %s", plain.FEN(), q.FEN())
			}
			if bare := (&p).bare(m); e.Before != bare {
				t.Errorf("event's Before is %s, want the bare move's %s", e.Before.FEN(), bare.FEN())
			}
			if got := e.Before.Ice() | e.Iced(); got != q.Ice() {
				t.Errorf("ice before %#x plus the event's %#x is not the ice after, %#x", uint64(e.Before.Ice()), uint64(e.Iced()), uint64(q.Ice()))
			}
			for _, f := range e.Frozen {
				if e.Before.PieceAt(f.Square) != f.Piece || q.PieceAt(f.Square) != NoPiece {
					t.Errorf("frozen %v on %s did not stand there before or still stands there after", f.Piece, f.Square)
				}
			}
			want := v.fields[3]
			if want == "checkmate" {
				if got := q.Outcome(); got.Reason != Checkmate {
					t.Errorf("Outcome = %v, want checkmate\n%s", got, diagram(&q))
				}
				return
			}
			if got := q.Outcome(); got != statusOutcome(t, want) {
				t.Errorf("Outcome = %+v, want %s\n%s", got, want, diagram(&q))
			}
		})
	}
}

// bare plays m without its Ice Age.
func (p *Position) bare(m Move) Position {
	q := *p
	q.play(m)
	return q
}

// Whole games from the ice start position: every move is legal and the
// game is not over before the last one; the final position, result and
// termination match. (The SAN column is for the notation tests.)
func TestGameVectors(t *testing.T) {
	for _, v := range readVectors(t, "games.txt") {
		t.Run(fmt.Sprintf("game on line %d", v.line), func(t *testing.T) {
			p := StartPosition()
			moves := strings.Fields(v.fields[0])
			for i, text := range moves {
				if o := p.Outcome(); o.Over() {
					t.Fatalf("game over (%v) before ply %d, %s\n%s", o.Reason, i+1, text, diagram(&p))
				}
				m := mustLegal(t, &p, text)
				p = p.Apply(m)
				if again := mustFEN(t, p.FEN()); again != p {
					t.Fatalf("after ply %d the FEN %s does not read back the same", i+1, p.FEN())
				}
			}
			if got := p.FEN(); got != v.fields[2] {
				t.Errorf("final position:\n got %s\nwant %s\n%s", got, v.fields[2], diagram(&p))
			}
			o := p.Outcome()
			if got := o.Result.String(); got != v.fields[3] {
				t.Errorf("result %s, want %s", got, v.fields[3])
			}
			var term string
			switch {
			case !o.Over():
				term = "max_plies"
			case o.Reason == Checkmate:
				term = "checkmate"
			case o.Reason == KingFrozen && o.Result == WhiteWins:
				term = "black_king_frozen"
			case o.Reason == KingFrozen:
				term = "white_king_frozen"
			case o.Reason == BothKingsFrozen:
				term = "both_kings_frozen"
			case o.Reason == Stalemate:
				term = "stalemate"
			case o.Reason == FiftyMoveRule:
				term = "fifty_move"
			}
			if term != v.fields[4] {
				t.Errorf("termination %s (%v), want %s", term, o, v.fields[4])
			}
		})
	}
}

func mustFEN(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// mustLegal returns the legal move of p written as uci.
func mustLegal(t testing.TB, p *Position, uci string) Move {
	t.Helper()
	var legal []string
	for _, m := range p.LegalMoves(nil) {
		if m.UCI() == uci {
			return m
		}
		legal = append(legal, m.UCI())
	}
	t.Fatalf("%s is not among the legal moves %v of\n%s", uci, legal, diagram(p))
	return NullMove
}

// diagram draws p for failure messages: White's men in capitals, Black's in
// lower case, ice as '*', empty squares as '.', with its FEN below.
func diagram(p *Position) string {
	var b strings.Builder
	for r := 7; r >= 0; r-- {
		b.WriteString(strconv.Itoa(r + 1))
		b.WriteString(" |")
		for f := 0; f < 8; f++ {
			s := SquareAt(f, r)
			c := byte('.')
			switch {
			case p.PieceAt(s) != NoPiece:
				c = p.PieceAt(s).FENLetter()
			case p.IsIce(s):
				c = '*'
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	b.WriteString("    a b c d e f g h\n")
	b.WriteString(p.FEN())
	return b.String()
}
