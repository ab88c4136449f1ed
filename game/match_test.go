package game

import (
	"errors"
	"strings"
	"testing"
)

func TestMatchEndsByTheWordOfThePlayersOrTheClock(t *testing.T) {
	tests := []struct {
		name string
		end  func(m *Match) error
		want Outcome
	}{
		{"White resigns", func(m *Match) error { return m.End(WinFor(Black, Resignation)) }, Outcome{BlackWins, Resignation}},
		{"Black resigns", func(m *Match) error { return m.End(WinFor(White, Resignation)) }, Outcome{WhiteWins, Resignation}},
		{"the players agree a draw", func(m *Match) error { return m.End(Outcome{Draw, DrawAgreed}) }, Outcome{Draw, DrawAgreed}},
		{"White runs out of time", func(m *Match) error { return m.End(WinFor(Black, Timeout)) }, Outcome{BlackWins, Timeout}},
		{"Black runs out of time", func(m *Match) error { return m.End(WinFor(White, Timeout)) }, Outcome{WhiteWins, Timeout}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMatch(StartPosition())
			if _, err := m.Play("hxg3"); err != nil {
				t.Fatal(err)
			}
			if err := tt.end(m); err != nil {
				t.Fatal(err)
			}
			if m.Outcome() != tt.want {
				t.Fatalf("outcome %+v, want %+v", m.Outcome(), tt.want)
			}
			var me *MoveError
			if _, err := m.Play("Nxf6"); !errors.As(err, &me) || me.Kind != GameOver {
				t.Fatalf("a move after the end gave %v, want GameOver", err)
			}
			if _, err := m.PlayMove(NewMove(62, 45, NoKind)); !errors.As(err, &me) || me.Kind != GameOver {
				t.Fatalf("a Move after the end gave %v, want GameOver", err)
			}
			if err := m.End(WinFor(White, Resignation)); !errors.As(err, &me) || me.Kind != GameOver {
				t.Fatalf("resigning after the end gave %v, want GameOver", err)
			}
			if err := m.End(Outcome{Draw, DrawAgreed}); err == nil || m.Outcome() != tt.want {
				t.Fatalf("a draw after the end was accepted")
			}
		})
	}
}

func TestMatchRefusesMovesAfterCheckmate(t *testing.T) {
	m := NewMatch(positionOf(t, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"))
	if m.Outcome() != (Outcome{BlackWins, Checkmate}) {
		t.Fatalf("a match from a mate position has outcome %+v", m.Outcome())
	}
	_, err := m.Play("e4")
	var me *MoveError
	if !errors.As(err, &me) || me.Kind != GameOver || me.Msg != "the game is over (Black won: checkmate): no more moves" {
		t.Fatalf("got %v", err)
	}
}

func TestMatchRecordsMovesSANsAndIceAges(t *testing.T) {
	m := NewMatch(positionOf(t, "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20"))
	pl, err := m.Play("Bd6")
	if err != nil {
		t.Fatal(err)
	}
	if pl.SAN != "Bd6" || pl.UCI != "e7d6" || pl.Outcome.Over() {
		t.Fatalf("played %+v", pl)
	}
	if pl.IceAge == nil || len(pl.IceAge.Frozen) != 1 || pl.IceAge.Frozen[0] != (Placement{Square: 31, Piece: MakePiece(Black, Rook)}) {
		t.Fatalf("Ice Age %+v, want the rook on h4 frozen", pl.IceAge)
	}
	if got := IceAgeComment(pl.IceAge); got != "Ice Age: 57 squares iced; frozen: Rh4" {
		t.Fatalf("comment %q", got)
	}
	pl, err = m.PlayMove(NewMove(4, 3, NoKind)) // Rd1, taking ice
	if err != nil {
		t.Fatal(err)
	}
	if pl.SAN != "Rxd1" || pl.IceAge != nil {
		t.Fatalf("played %+v", pl)
	}
	if got := strings.Join(m.SANs(), " "); got != "Bd6 Rxd1" {
		t.Fatalf("SANs %q", got)
	}
	if got := strings.Join(m.UCIs(), " "); got != "e7d6 e1d1" {
		t.Fatalf("UCIs %q", got)
	}
	if ev := m.IceAges(); len(ev) != 2 || ev[0] == nil || ev[1] != nil {
		t.Fatalf("Ice Ages %v", ev)
	}
	if mv := m.Moves(); len(mv) != 2 || mv[1] != NewMove(4, 3, NoKind) {
		t.Fatalf("moves %v", mv)
	}
	if start := m.Start(); start.FEN() != "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20" {
		t.Fatalf("start %s", start.FEN())
	}
	if pos := m.Position(); pos.FEN() != m.FEN() || pos.Turn() != Black {
		t.Fatalf("position %s", m.FEN())
	}
}

func TestMatchIceAgesCannotBeChangedFromOutside(t *testing.T) {
	m := NewMatch(positionOf(t, "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20"))
	pl, err := m.Play("Bd6")
	if err != nil {
		t.Fatal(err)
	}
	want := m.PGN(Tags{})
	pl.IceAge.Frozen[0].Square = 0
	pl.IceAge.Filled = 0
	m.IceAges()[0].Frozen[0].Piece = MakePiece(White, Queen)
	if got := m.PGN(Tags{}); got != want {
		t.Fatalf("changing the Ice Ages handed out changed the record:\n%s\nwant\n%s", got, want)
	}
}

func TestMatchExplainsIllegalMoves(t *testing.T) {
	m := NewMatch(StartPosition())
	_, err := m.PlayMove(NewMove(12, 28, NoKind))
	var me *MoveError
	if !errors.As(err, &me) || me.Kind != BlockedByIce || me.Msg != "the pawn on e2 cannot reach e4: ice on e3 blocks it" {
		t.Fatalf("e2e4 at the start gave %v", err)
	}
	if _, err := m.PlayMove(NullMove); !errors.As(err, &me) || me.Kind != CannotMoveThatWay {
		t.Fatalf("the null move gave %v", err)
	}
	if len(m.Moves()) != 0 {
		t.Fatalf("a refused move was recorded")
	}
}

func TestReplayUCISaysWhichMoveFailed(t *testing.T) {
	tests := []struct {
		name, fen string
		moves     []string
		msg       string
	}{
		{"a start FEN that is wrong", "8/8/8 w - -", nil, "invalid FEN (board): want 8 ranks separated by '/', found 3"},
		{"a move that is not UCI", StartFEN, []string{"h2g3", "Nf6"}, `replaying move 2: "Nf6" is not a move: a UCI move is two squares and an optional promotion letter, e.g. e2e4 or e7e8q`},
		{"a move that is not legal", StartFEN, []string{"h2g3", "g8g6"}, "replaying move 2 (g8g6): the knight on g8 cannot go to g6: a knight jumps two squares one way and one square sideways"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReplayUCI(tt.fen, tt.moves)
			if err == nil || err.Error() != tt.msg {
				t.Fatalf("got %v, want %s", err, tt.msg)
			}
		})
	}
}

// SANs of a position lists every legal move once, with the SAN that SAN
// gives it.
func TestSANsListsEveryLegalMoveWithItsSAN(t *testing.T) {
	for _, v := range readCases(t, "san.txt") {
		p := positionOf(t, v[0])
		list := p.SANs()
		if len(list) != len(p.LegalMoves(nil)) {
			t.Fatalf("%s: %d SANs for %d moves", v[0], len(list), len(p.LegalMoves(nil)))
		}
		for _, ms := range list {
			if s := p.SAN(ms.Move); s != ms.SAN {
				t.Fatalf("%s: SANs gives %s for %s, SAN gives %s", v[0], ms.SAN, ms.Move, s)
			}
		}
	}
	p := StartPosition()
	if got := p.SAN(NewMove(12, 28, NoKind)); got != "e2e4" {
		t.Errorf("SAN of an illegal move = %q, want its UCI form", got)
	}
}
