package game

import (
	"strings"
	"testing"
)

// Hand-written cases for each ice rule of docs/rules.md. Failures draw the
// board: capitals are White's men, lower case Black's, '*' is ice.

func TestIceMoveRules(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		move  string
		legal bool
	}{
		{"a rook moves up to ice", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "a1a2", true},
		{"a rook captures ice", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "a1a3", true},
		{"a rook cannot pass ice", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "a1a4", false},
		{"a bishop captures ice", "4k3/8/8/8/8/2*5/8/B3K3 w - - 0 1", "a1c3", true},
		{"a bishop cannot pass ice", "4k3/8/8/8/8/2*5/8/B3K3 w - - 0 1", "a1d4", false},
		{"a queen captures ice", "4k3/8/8/8/8/8/8/Q*2K3 w - - 0 1", "a1b1", true},
		{"a queen cannot pass ice", "4k3/8/8/8/8/8/8/Q*2K3 w - - 0 1", "a1c1", false},
		{"a knight jumps over ice", "4k3/8/8/8/8/8/****4/1N2K3 w - - 0 1", "b1c3", true},
		{"a knight captures ice", "4k3/8/8/8/8/8/****4/1N2K3 w - - 0 1", "b1d2", true},
		{"a king captures ice on a square nobody attacks", "4k3/8/8/8/8/8/4*3/4K3 w - - 0 1", "e1e2", true},
		{"a king cannot capture ice on an attacked square", "4r1k1/8/8/8/8/8/4*3/4K3 w - - 0 1", "e1e2", false},
		{"a black king cannot capture attacked ice either", "4k3/3*4/8/8/8/8/8/3RK3 b - - 0 1", "e8d7", false},
		{"a pawn cannot push onto ice", "4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1", "e2e3", false},
		{"a pawn cannot double-push through ice", "4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1", "e2e4", false},
		{"a pawn cannot double-push onto ice", "4k3/8/8/8/4*3/8/4P3/4K3 w - - 0 1", "e2e4", false},
		{"a pawn single-pushes below ice", "4k3/8/8/8/4*3/8/4P3/4K3 w - - 0 1", "e2e3", true},
		{"a pawn captures ice diagonally", "4k3/8/8/8/8/3*4/4P3/4K3 w - - 0 1", "e2d3", true},
		{"a black pawn captures ice diagonally", "4k3/4p3/5*2/8/8/8/8/4K3 b - - 0 1", "e7f6", true},
		{"a pawn does not capture an empty square", "4k3/8/8/8/8/3*4/4P3/4K3 w - - 0 1", "e2f3", false},
		{"a pawn capturing ice on the last rank promotes to a queen", "*3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", true},
		{"a pawn capturing ice on the last rank promotes to a knight", "*3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", true},
		{"a pawn capturing ice on the last rank must promote", "*3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8", false},
		{"a black pawn capturing ice on the first rank promotes", "4k3/8/8/8/8/8/6p1/4K2* b - - 0 1", "g2h1r", true},
		{"a pawn cannot promote by pushing onto ice", "**2k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", false},
		{"ice between king and rook prevents castling short", "4k3/8/8/8/8/8/8/4K1*R w K - 0 1", "e1g1", false},
		{"ice on b1 prevents castling long", "4k3/8/8/8/8/8/8/R*2K3 w Q - 0 1", "e1c1", false},
		{"castling long is allowed once the squares are empty", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true},
		{"ice shields the square the king crosses", "4kr2/8/8/8/8/8/5*2/4K2R w K - 0 1", "e1g1", true},
		{"without the ice the crossed square is attacked", "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false},
		{"ice between a rook and a king breaks the pin", "4r1k1/8/8/8/4*3/8/4N3/4K3 w - - 0 1", "e2c3", true},
		{"without the ice the knight is pinned", "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", false},
		{"ice on the rank blocks the rook behind an en-passant capture", "8/8/8/KPp1*2r/8/8/8/7k w - c6 0 2", "b5c6", true},
		{"en passant may not uncover a rook along the rank", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "b5c6", false},
		{"a king behind ice may step along the blocked line", "4r1k1/8/8/8/4*3/8/8/4K3 w - - 0 1", "e1e2", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			var listed bool
			var all []string
			for _, m := range p.LegalMoves(nil) {
				all = append(all, m.UCI())
				listed = listed || m.UCI() == c.move
			}
			m := parseUCI(t, c.move)
			if listed != c.legal || p.IsLegal(m) != c.legal {
				t.Errorf("%s: listed %v, IsLegal %v, want legal = %v; legal moves %v\n%s",
					c.move, listed, p.IsLegal(m), c.legal, all, diagram(&p))
			}
		})
	}
}

func TestIceBlocksCheck(t *testing.T) {
	cases := []struct {
		name    string
		fen     string
		inCheck bool
	}{
		{"ice on the file blocks a rook's check", "4r1k1/8/8/8/4*3/8/8/4K3 w - - 0 1", false},
		{"ice on the diagonal blocks a bishop's check", "4k3/8/b7/8/2*5/8/8/5K2 w - - 0 1", false},
		{"a knight's check jumps ice", "4k3/8/8/8/8/3n4/****4/4K3 w - - 0 1", true},
		{"a rook's check along an open file", "4r1k1/8/8/8/8/8/8/4K3 w - - 0 1", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			if p.InCheck() != c.inCheck {
				t.Errorf("InCheck = %v, want %v\n%s", p.InCheck(), c.inCheck, diagram(&p))
			}
		})
	}
}

// Black's 20th move brings the Ice Age; the move and the Ice Age are one
// turn (docs/rules.md §4).
func TestIceAge(t *testing.T) {
	cases := []struct {
		name    string
		fen     string
		move    string
		frozen  string // squares of the men that freeze, space separated
		iced    string // squares that must hold ice afterwards
		empty   string // squares that must stay empty (sheltered)
		after   string // the FEN afterwards, when given
		outcome Outcome
	}{
		{
			name: "a king with only ice around freezes and loses", fen: "4k3/3p4/8/8/8/8/3***2/3*K*2 b - - 0 20", move: "e8d8",
			frozen: "e1", iced: "e1 a1 h8", outcome: Outcome{BlackWins, KingFrozen},
		},
		{
			name: "men of either colour keep each other company, diagonally too", fen: "4k3/3p4/8/8/3n4/4P3/8/4K3 b - - 0 20", move: "e8e7",
			frozen: "e1", iced: "e1", outcome: Outcome{BlackWins, KingFrozen},
		},
		{
			name: "both kings freezing draws", fen: "4k3/8/8/8/8/8/8/4K3 b - - 0 20", move: "e8d8",
			frozen: "e1 d8", after: "********/********/********/********/********/********/********/******** w - - 1 21",
			outcome: Outcome{Draw, BothKingsFrozen},
		},
		{
			name: "the board edge shelters a corner with men on its two neighbours", fen: "4k3/3p4/8/8/8/8/PP6/1NK5 b - - 0 20", move: "e8e7",
			empty: "a1", iced: "h1 c2 d1 e8", outcome: Outcome{},
		},
		{
			name: "ice on a neighbour does not shelter", fen: "4k3/3p4/8/8/8/3P4/2P1*3/3K4 b - - 0 20", move: "e8e7",
			iced: "d2", outcome: Outcome{},
		},
		{
			name: "men on all four neighbours shelter", fen: "4k3/3p4/8/8/8/3P4/2P1N3/3K4 b - - 0 20", move: "e8e7",
			empty: "d2", iced: "c1 e1", outcome: Outcome{},
		},
		{
			name: "a frozen rook takes its castling right with it", fen: "4k3/3p4/8/8/8/8/PP2P3/R3K2R b KQ - 0 20", move: "e8e7",
			frozen: "h1", after: "********/***pk***/********/********/********/********/PP**P***/R***K*** w Q - 1 21",
			outcome: Outcome{},
		},
		{
			name: "the en-passant right lapses: its square is iced", fen: "3k4/2pp4/8/4P3/8/8/3PP3/4K3 b - - 0 20", move: "d7d5",
			iced: "d6", after: "***k****/**p*****/********/***pP***/********/********/***PP***/****K*** w - - 0 21",
			outcome: Outcome{},
		},
		{
			name: "the half-move clock goes on through the Ice Age", fen: "4k3/3p4/8/8/8/8/3PP3/4K3 b - - 7 40", move: "e8e7",
			after: "********/***pk***/********/********/********/********/***PP***/****K*** w - - 8 41", outcome: Outcome{},
		},
		{
			name: "a checker that freezes gives check no more", fen: "4kn2/3p4/8/8/8/8/P3R3/K7 b - - 0 20", move: "d7d5",
			frozen: "e2 d5", iced: "e2 e7", outcome: Outcome{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			if !p.IceAgeNow() {
				t.Fatalf("no Ice Age due in %s", c.fen)
			}
			m := mustLegal(t, &p, c.move)
			q, e := p.ApplyWithEvent(m)
			if e == nil {
				t.Fatal("no Ice Age event")
			}
			var frozen []string
			for _, f := range e.Frozen {
				frozen = append(frozen, f.Square.String())
			}
			if c.frozen != "" && !sameSquares(strings.Join(frozen, " "), c.frozen) {
				t.Errorf("frozen %v, want %s", frozen, c.frozen)
			}
			for _, s := range strings.Fields(c.iced) {
				if !q.IsIce(mustSquare(t, s)) {
					t.Errorf("%s does not hold ice", s)
				}
			}
			for _, s := range strings.Fields(c.empty) {
				if sq := mustSquare(t, s); q.IsIce(sq) || q.PieceAt(sq) != NoPiece {
					t.Errorf("%s is not empty", s)
				}
			}
			if c.after != "" && q.FEN() != c.after {
				t.Errorf("after:\n got %s\nwant %s", q.FEN(), c.after)
			}
			if got := q.Outcome(); got != c.outcome {
				t.Errorf("Outcome = %+v, want %+v", got, c.outcome)
			}
			if t.Failed() {
				t.Logf("before:\n%s\nafter:\n%s", diagram(&p), diagram(&q))
			}
		})
	}
}

// The special legality of the Ice-Age move (docs/rules.md §4.5), each case
// beside the same move one Black move earlier, when the usual rule holds.
func TestIceAgeMoveLegality(t *testing.T) {
	cases := []struct {
		name        string
		board       string // FEN without the move number, Black to move
		move        string
		legalAt20   bool
		legalBefore bool
	}{
		{"ice may block the check a move leaves standing",
			"4kn2/3p4/8/8/8/4R3/P2P4/K7 b - - 0", "d7d6", true, false},
		{"a move after which the own king freezes is legal",
			"4k3/2pp4/5N2/6P1/8/8/P7/K7 b - - 0", "d7d5", true, false},
		{"a check no ice can block keeps the move illegal",
			"4k3/2pp4/5N2/6P1/8/8/P7/K7 b - - 0", "c7c6", false, false},
		{"the king may step out of check as usual",
			"4k3/2pp4/5N2/6P1/8/8/P7/K7 b - - 0", "e8e7", true, true},
		{"the king may step onto a line the Ice Age then blocks",
			"3k4/3p4/8/8/8/8/P2P4/K3R3 b - - 0", "d8e8", true, false},
		{"the king may capture attacked ice when the Ice Age then blocks the attack",
			"3k*3/3p4/8/8/8/8/P2P4/K3R3 b - - 0", "d8e8", true, false},
		{"castling through an attacked square stays illegal though ice would block it",
			"4k2r/4p1pp/8/8/8/5R2/P3P3/K7 b k - 0", "e8g8", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, x := range []struct {
				fullmove string
				want     bool
			}{{"20", c.legalAt20}, {"19", c.legalBefore}} {
				p := mustFEN(t, c.board+" "+x.fullmove)
				m := parseUCI(t, c.move)
				if got := p.IsLegal(m); got != x.want {
					t.Errorf("on Black's move %s: legal = %v, want %v\n%s", x.fullmove, got, x.want, diagram(&p))
				}
			}
		})
	}
}

// Counters and rights after ordinary moves (docs/rules.md §1, §3, §5, §6).
func TestApplyBookkeeping(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		moves string
		after string
	}{
		{"capturing ice resets the half-move clock", "4k3/8/8/8/8/8/4*3/R3K3 w Q - 9 30", "e1e2",
			"4k3/8/8/8/8/8/4K3/R7 b - - 0 30"},
		{"a quiet move counts a half-move and Black's move the full move", "4k3/8/8/8/8/8/8/R3K3 b Q - 9 30", "e8e7",
			"8/4k3/8/8/8/8/8/R3K3 w Q - 10 31"},
		{"the en-passant square is set after every double push", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{"the start position's first moves capture ice", StartFEN, "h2g3 g8f6",
			"rnbqkb1r/pppppppp/*****n**/********/********/******P*/PPPPPPP1/RNBQKBNR w KQkq - 0 2"},
		{"castling short moves the rook", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1 e8c8",
			"2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"},
		{"capturing a rook at home takes the right", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8",
			"R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1"},
		{"en passant removes the passed pawn", "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5 e5d6",
			"4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"},
		{"a pawn promotes by capturing ice", "*3k3/1P6/8/8/8/8/8/4K3 w - - 5 1", "b7a8q",
			"Q3k3/8/8/8/8/8/8/4K3 b - - 0 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			for _, text := range strings.Fields(c.moves) {
				p = p.Apply(mustLegal(t, &p, text))
			}
			if got := p.FEN(); got != c.after {
				t.Errorf("after %s:\n got %s\nwant %s\n%s", c.moves, got, c.after, diagram(&p))
			}
		})
	}
}

func TestOutcome(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		want Outcome
	}{
		{"the game goes on at the start", StartFEN, Outcome{}},
		{"checkmate", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", Outcome{WhiteWins, Checkmate}},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Outcome{Draw, Stalemate}},
		{"a mate behind ice", "*******k/******pp/8/8/8/8/8/K6R b - - 0 1", Outcome{}},
		{"checkmate comes before the fifty-move rule", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 81", Outcome{WhiteWins, Checkmate}},
		{"fifty moves without capture or pawn move", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80", Outcome{Draw, FiftyMoveRule}},
		{"ninety-nine half-moves are not enough", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", Outcome{}},
		{"a frozen white king loses", "8/8/8/4k3/8/8/8/******** w - - 0 21", Outcome{BlackWins, KingFrozen}},
		{"a frozen black king loses", "8/8/8/8/8/8/8/4K3 w - - 0 21", Outcome{WhiteWins, KingFrozen}},
		{"both kings frozen draw", "8/8/8/8/8/8/8/8 w - - 0 21", Outcome{Draw, BothKingsFrozen}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			if got := p.Outcome(); got != c.want {
				t.Errorf("Outcome = %+v, want %+v\n%s", got, c.want, diagram(&p))
			}
			if got := len(p.LegalMoves(nil)); c.want.Reason == KingFrozen || c.want.Reason == BothKingsFrozen {
				if got != 0 {
					t.Errorf("%d legal moves with a king missing, want none", got)
				}
			}
		})
	}
}

func parseUCI(t testing.TB, text string) Move {
	t.Helper()
	m, err := ParseUCI(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustSquare(t testing.TB, text string) Square {
	t.Helper()
	s, err := ParseSquare(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sameSquares(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	if len(x) != len(y) {
		return false
	}
	seen := map[string]int{}
	for _, s := range x {
		seen[s]++
	}
	for _, s := range y {
		if seen[s]--; seen[s] < 0 {
			return false
		}
	}
	return true
}

// ParseFEN refuses a position whose side not to move is in check, but ice
// on the line means there is no check.
func TestParseFENSeesIceBlockTheCheck(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		ok   bool
	}{
		{"ice between the rook and the king not to move", "4k3/8/4*3/8/8/8/8/4R1K1 w - - 0 1", true},
		{"the same position without the ice", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFEN(c.fen)
			if (err == nil) != c.ok {
				t.Errorf("ParseFEN(%q) = %v, want accepted = %v", c.fen, err, c.ok)
			}
		})
	}
}
