package game

import (
	"errors"
	"strings"
	"testing"
)

const (
	chessFEN     = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	promoteFEN   = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
	castleFEN    = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	twoKnightFEN = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
	pawnsFEN     = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
	// On Black's 20th move the pinned bishop may move: the Ice Age fills e7
	// and so blocks the rook's check (docs/rules.md §4.5).
	iceAgePinFEN = "4k3/3pb3/8/8/8/8/P4P2/K3R3 b - - 0 20"
)

func TestParseMoveAcceptsWhatPlayersType(t *testing.T) {
	tests := []struct {
		name, fen, text, want string
	}{
		{"a pawn push in SAN", chessFEN, "e4", "e2e4"},
		{"a pawn push in UCI", chessFEN, "e2e4", "e2e4"},
		{"a pawn push with a dash", chessFEN, "e2-e4", "e2e4"},
		{"a pawn push with a space", chessFEN, "e2 e4", "e2e4"},
		{"surrounding spaces", chessFEN, "  e4 \t", "e2e4"},
		{"a trailing exclamation mark", chessFEN, "e4!", "e2e4"},
		{"a trailing !?", chessFEN, "e4!?", "e2e4"},
		{"a trailing ?!", chessFEN, "e4?!", "e2e4"},
		{"a knight move in SAN", chessFEN, "Nf3", "g1f3"},
		{"a knight move in lower case", chessFEN, "nf3", "g1f3"},
		{"a knight move with its from square", chessFEN, "Ng1f3", "g1f3"},
		{"a knight move with its from square and a dash", chessFEN, "Ng1-f3", "g1f3"},
		{"a knight move in UCI", chessFEN, "g1f3", "g1f3"},
		{"a figurine knight", chessFEN, "♘f3", "g1f3"},
		{"a black figurine knight for White", chessFEN, "♞f3", "g1f3"},
		{"a pawn capturing ice", StartFEN, "hxg3", "h2g3"},
		{"a pawn capturing ice without the x", StartFEN, "hg3", "h2g3"},
		{"a pawn capturing ice in UCI", StartFEN, "h2g3", "h2g3"},
		{"a knight capturing ice", StartFEN, "Nxf3", "g1f3"},
		{"a knight capturing ice without the x", StartFEN, "Nf3", "g1f3"},
		{"a knight capturing ice from its square", StartFEN, "Ng1xf3", "g1f3"},
		{"a lower-case b that is the b-pawn", StartFEN, "bxc3", "b2c3"},
		{"a lower-case b without x that is the b-pawn", StartFEN, "bc3", "b2c3"},
		{"a lower-case b that only a bishop fits", "4k3/8/8/8/8/2*5/1B6/4K3 w - - 0 1", "bxc3", "b2c3"},
		{"a lower-case bishop move", "4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", "bd4", "b2d4"},
		{"a pawn capture", pawnsFEN, "exd5", "e4d5"},
		{"a pawn capture typed in capitals", pawnsFEN, "Exd5", "e4d5"},
		{"a pawn push typed in capitals", chessFEN, "E4", "e2e4"},
		{"a b-pawn push typed in capitals", chessFEN, "B4", "b2b4"},
		{"a capital B that only the b-pawn fits", StartFEN, "Bxc3", "b2c3"},
		{"a capital B when bishop and b-pawn both fit", "4k3/8/8/8/8/2*5/1P1B4/4K3 w - - 0 1", "Bxc3", "d2c3"},
		{"a lower-case b when bishop and b-pawn both fit", "4k3/8/8/8/8/2*5/1P1B4/4K3 w - - 0 1", "bxc3", "b2c3"},
		{"a pawn capture without the x", pawnsFEN, "ed5", "e4d5"},
		{"a pawn capture with a colon", pawnsFEN, "e:d5", "e4d5"},
		{"a pawn capture in long algebraic", pawnsFEN, "e4xd5", "e4d5"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", "e5d6"},
		{"en passant marked e.p.", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6 e.p.", "e5d6"},
		{"a promotion in SAN", promoteFEN, "a8=Q", "a7a8q"},
		{"a promotion with its check sign", promoteFEN, "a8=Q+", "a7a8q"},
		{"a promotion without =", promoteFEN, "a8Q", "a7a8q"},
		{"a promotion in lower case", promoteFEN, "a8q", "a7a8q"},
		{"an under-promotion", promoteFEN, "a8=N", "a7a8n"},
		{"a promotion in UCI", promoteFEN, "a7a8r", "a7a8r"},
		{"a promotion in brackets", promoteFEN, "a8(Q)", "a7a8q"},
		{"a b-pawn promotion typed with a capital B", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "B8=Q", "b7b8q"},
		{"a b-pawn capture and promotion typed with a capital B", "n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "Bxa8=Q", "b7a8q"},
		{"castling kingside", castleFEN, "O-O", "e1g1"},
		{"castling kingside with zeros", castleFEN, "0-0", "e1g1"},
		{"castling kingside in lower case", castleFEN, "o-o", "e1g1"},
		{"castling queenside", castleFEN, "O-O-O", "e1c1"},
		{"castling queenside with zeros", castleFEN, "0-0-0", "e1c1"},
		{"castling in UCI", castleFEN, "e1c1", "e1c1"},
		{"a move disambiguated by file", twoKnightFEN, "Nbd2", "b1d2"},
		{"a move disambiguated by rank", twoKnightFEN, "N1d2", "b1d2"},
		{"a move disambiguated by square", twoKnightFEN, "Nf3d2", "f3d2"},
		{"a king capturing unattacked ice", "4k3/8/8/8/8/8/4*3/4K3 w - - 0 1", "Kxe2", "e1e2"},
		{"the pinned bishop on Black's Ice-Age move", iceAgePinFEN, "Bd6", "e7d6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := positionOf(t, tt.fen)
			m, err := ParseMove(&p, tt.text)
			if err != nil {
				t.Fatalf("ParseMove(%q) in %s: %v", tt.text, tt.fen, err)
			}
			if m.UCI() != tt.want {
				t.Fatalf("ParseMove(%q) in %s = %s, want %s", tt.text, tt.fen, m, tt.want)
			}
		})
	}
}

func TestParseMoveRejectsTextThatIsNoMove(t *testing.T) {
	tests := []struct {
		name, text, msg string
	}{
		{"nothing typed", "  ", "no move given: type a move such as e4, Nf3, exd5, O-O or e2e4"},
		{"a word", "hello", `"hello" is not a move: a move ends with the target square, e.g. e4 or Nf3 (files a–h, ranks 1–8)`},
		{"a square off the board", "Ne9", `"Ne9" is not a move: a move ends with the target square, e.g. e4 or Nf3 (files a–h, ranks 1–8)`},
		{"a piece letter that is no piece", "Zf3", `"Zf3" is not a move: write the man's letter (K, Q, R, B, N; none for a pawn), then where it comes from if needed, then the target square, e.g. Nbd2 or exd5`},
		{"a knight promotion", "Nf8=Q", `"Nf8=Q" is not a move: only a pawn promotes: write the pawn's move and the new piece, e.g. e8=Q`},
		{"far too long", "e2e4e5e6e7e8e9e1e2", `"e2e4e5e6e7e8e9e1e2" is not a move: too long for a move`},
	}
	p := positionOf(t, chessFEN)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMove(&p, tt.text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseMove(%q) = %v, want a *SyntaxError", tt.text, err)
			}
			if err.Error() != tt.msg {
				t.Fatalf("ParseMove(%q):\n got %s\nwant %s", tt.text, err, tt.msg)
			}
		})
	}
}

func TestParseMoveExplainsIllegalMoves(t *testing.T) {
	tests := []struct {
		name, fen, text string
		kind            MoveErrorKind
		msg             string
	}{
		{"a man the player does not have", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3", NoSuchMan,
			"you have no knight"},
		{"a from square that is empty", chessFEN, "e3e4", NoSuchMan,
			"there is no man on e3"},
		{"a from square that holds ice", StartFEN, "e3e4", NoSuchMan,
			"there is ice on e3, not a man"},
		{"a pawn push to a file without a pawn", pawnsFEN, "d5", NoSuchMan,
			"you have no pawn on the d-file to push to d5 (a pawn capture names the pawn's file, e.g. exd5)"},
		{"a from square naming another kind", chessFEN, "Bg1f3", NoSuchMan,
			"the man on g1 is a knight, not a bishop"},
		{"the opponent's man", chessFEN, "e7e5", NotYourTurn,
			"the pawn on e7 is Black's, and it is White's turn"},
		{"two knights reaching one square", twoKnightFEN, "Nd2", Ambiguous,
			"Nd2 is ambiguous: Nbd2 or Nfd2"},
		{"a rook behind ice", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", BlockedByIce,
			"the rook on a1 cannot reach a5: ice on a3 blocks it"},
		{"a pawn's double push through ice", StartFEN, "e4", BlockedByIce,
			"the pawn on e2 cannot reach e4: ice on e3 blocks it"},
		{"a rook behind its own man", "4k3/8/8/8/8/N7/8/R3K3 w - - 0 1", "Ra5", BlockedByMan,
			"the rook on a1 cannot reach a5: your knight on a3 blocks it"},
		{"a rook behind an enemy man", "4k3/8/8/8/8/n7/8/R3K3 w - - 0 1", "Ra5", BlockedByMan,
			"the rook on a1 cannot reach a5: the black knight on a3 blocks it"},
		{"a pawn pushing onto a man", "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e4", BlockedByMan,
			"the pawn on e3 cannot move to e4: the pawn there blocks it (a pawn captures only diagonally)"},
		{"one knight onto its own man", chessFEN, "Ng1e2", OwnManOnTarget,
			"the knight on g1 cannot go to e2: your own pawn stands there"},
		{"knights onto their own man", chessFEN, "Nd2", OwnManOnTarget,
			"you cannot move onto d2: your own pawn stands there"},
		{"a knight moving straight", "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng3", CannotMoveThatWay,
			"the knight on g1 cannot go to g3: a knight jumps two squares one way and one square sideways"},
		{"a bishop moving straight", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "Bc4", CannotMoveThatWay,
			"the bishop on c1 cannot go to c4: a bishop moves only diagonally"},
		{"a queen moving like a knight", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qe3", CannotMoveThatWay,
			"the queen on d1 cannot go to e3: a queen moves only along ranks, files and diagonals"},
		{"a rook moving diagonally", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rb2", CannotMoveThatWay,
			"the rook on a1 cannot go to b2: a rook moves only along ranks and files"},
		{"a king moving two squares off its home", "4k3/8/8/8/8/8/3K4/8 w - - 0 1", "Kd4", CannotMoveThatWay,
			"the king on d2 cannot go to d4: a king moves one square at a time (or two when castling)"},
		{"a pawn moving backwards", pawnsFEN, "e4e3", CannotMoveThatWay,
			"the pawn on e4 cannot go to e3: a pawn moves straight forward, or one square diagonally forward to capture"},
		{"a pawn moving diagonally onto an empty square", pawnsFEN, "exf5", CannotMoveThatWay,
			"the pawn on e4 cannot go to f5: a pawn moves diagonally only to capture, and f5 is empty"},
		{"en passant one move too late", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "exd6", CannotMoveThatWay,
			"the pawn on e5 cannot go to d6: it is empty, and the pawn on d5 can be taken en passant only on the move right after its double step (an Ice Age ends that right too)"},
		{"en passant for Black one move too late", "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", "dxe3", CannotMoveThatWay,
			"the pawn on d4 cannot go to e3: it is empty, and the pawn on e4 can be taken en passant only on the move right after its double step (an Ice Age ends that right too)"},
		{"a pawn moving two squares after its first move", "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e5", CannotMoveThatWay,
			"the pawn on e3 cannot go to e5: a pawn moves two squares only from its starting square"},
		{"knights that cannot reach a square", chessFEN, "Nd4", CannotMoveThatWay,
			"none of your knights can go to d4"},
		{"a pinned knight", "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3", LeavesKingInCheck,
			"the knight on d2 is pinned: moving it would expose your king to the bishop on b4"},
		{"a move that ignores a check", "4k3/8/8/8/7q/8/8/N3K3 w - - 0 1", "Nb3", LeavesKingInCheck,
			"your king is in check from the queen on h4, and moving the knight on a1 to b3 does not stop it"},
		{"a pinned knight blocking a check", "4r2k/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Ne4", LeavesKingInCheck,
			"the knight on d2 is pinned: moving it would expose your king to the bishop on b4"},
		{"a pinned knight taking the checker", "7k/8/8/8/1b2r3/8/3N4/4K3 w - - 0 1", "Nxe4", LeavesKingInCheck,
			"the knight on d2 is pinned: moving it would expose your king to the bishop on b4"},
		{"a move that ignores one of two checkers", "4r2k/8/8/8/1b6/8/8/N3K3 w - - 0 1", "Nb3", LeavesKingInCheck,
			"your king is in check from the bishop on b4 and the rook on e8, and moving the knight on a1 to b3 does not stop it"},
		{"a capital B for a pinned bishop when the b-pawn could take", "3r3k/8/8/8/8/2b5/1P1B4/3K4 w - - 0 1", "Bxc3", LeavesKingInCheck,
			"the bishop on d2 is pinned: moving it would expose your king to the rook on d8"},
		{"a lower-case b for a pinned b-pawn when a bishop could take", "7k/8/8/8/8/2b5/KP5r/4B3 w - - 0 1", "bxc3", LeavesKingInCheck,
			"the pawn on b2 is pinned: moving it would expose your king to the rook on h2"},
		{"a king walking into an attack", "4k3/8/8/8/8/8/5r2/K7 w - - 0 1", "Ka2", LeavesKingInCheck,
			"the king cannot go to a2: the rook on f2 attacks that square"},
		{"a king walking into two attacks", "4k3/8/8/8/8/1q5P/5r2/K7 w - - 0 1", "Ka2", LeavesKingInCheck,
			"the king cannot go to a2: the rook on f2 and the queen on b3 attack that square"},
		{"a pinned bishop before the Ice-Age move", strings.Replace(iceAgePinFEN, " 20", " 19", 1), "Bd6", LeavesKingInCheck,
			"the bishop on e7 is pinned: moving it would expose your king to the rook on e1"},
		{"a king taking attacked ice", "4k3/8/8/1b6/8/8/4*3/4K3 w - - 0 1", "Kxe2", KingCannotTakeAttackedIce,
			"the king cannot take the ice on e2: the bishop on b5 attacks that square"},
		{"castling after the rook moved", "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", CastlingNotAllowed,
			"White can no longer castle kingside: the king or the rook on h1 has moved, been taken or frozen"},
		{"castling through ice", "r3k2r/8/8/8/8/8/8/R3K1*R w KQkq - 0 1", "O-O", CastlingNotAllowed,
			"you cannot castle kingside: ice on g1 stands between king and rook"},
		{"castling through a man", "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O", CastlingNotAllowed,
			"you cannot castle queenside: the knight on b1 stands between king and rook"},
		{"castling out of check", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "O-O", CastlingNotAllowed,
			"you cannot castle out of check: the rook on e2 attacks your king"},
		{"castling through an attacked square", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "O-O", CastlingNotAllowed,
			"you cannot castle kingside: the king would cross f1, which the rook on f2 attacks"},
		{"castling through a square two men attack", "r3k2r/8/8/8/8/7b/5r2/R3K2R w KQkq - 0 1", "O-O", CastlingNotAllowed,
			"you cannot castle kingside: the king would cross f1, which the rook on f2 and the bishop on h3 attack"},
		{"castling onto an attacked square", "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", "0-0", CastlingNotAllowed,
			"you cannot castle kingside: the king would land on g1, which the rook on g2 attacks"},
		{"castling after the king left", "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", "O-O", CastlingNotAllowed,
			"you cannot castle: your king has left e1"},
		{"a pawn pushing onto ice", StartFEN, "e3", PawnCannotPushOntoIce,
			"the pawn on e2 cannot push onto the ice on e3: a pawn takes ice only diagonally"},
		{"a promotion without a piece", promoteFEN, "a8", NoPromotionPiece,
			"the pawn on a7 reaches the last rank: say what it becomes, e.g. a8=Q"},
		{"a promotion to a king", promoteFEN, "a8=K", PromotionNotAllowed,
			"a pawn cannot become a king: choose a queen, rook, bishop or knight"},
		{"a promotion before the last rank", chessFEN, "e2e4q", PromotionNotAllowed,
			"the pawn on e2 does not reach the last rank on e4, so it cannot promote"},
		{"any move after checkmate", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "e4", GameOver,
			"the game is over: checkmate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := positionOf(t, tt.fen)
			m, err := ParseMove(&p, tt.text)
			var me *MoveError
			if !errors.As(err, &me) {
				t.Fatalf("ParseMove(%q) in %s = %v, %v; want a *MoveError", tt.text, tt.fen, m, err)
			}
			if me.Kind != tt.kind || me.Msg != tt.msg {
				t.Fatalf("ParseMove(%q) in %s:\n got %v: %s\nwant %v: %s", tt.text, tt.fen, me.Kind, me.Msg, tt.kind, tt.msg)
			}
			if me.Kind == Ambiguous && len(me.Candidates) < 2 {
				t.Fatalf("ambiguous with candidates %v", me.Candidates)
			}
		})
	}
}

func TestMoveErrorKindsHaveStableNames(t *testing.T) {
	seen := map[string]bool{}
	for k := NoSuchMan; k <= NotYourTurn; k++ {
		s := k.String()
		if strings.HasPrefix(s, "MoveErrorKind(") || seen[s] {
			t.Errorf("kind %d has name %q", k, s)
		}
		seen[s] = true
	}
	if got := MoveErrorKind(99).String(); got != "MoveErrorKind(99)" {
		t.Errorf("an unknown kind is named %q", got)
	}
}

func TestSuggestOffersMovesCloseToWhatWasTyped(t *testing.T) {
	tests := []struct {
		name, fen, text string
		first           string // the SANs one of which is expected first, space-separated
	}{
		{"a rook behind ice gets the ice capture", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", "Rxa3"},
		{"a pawn push onto ice gets a capture", StartFEN, "e3", "dxe3 fxe3"},
		{"a promotion without a piece gets the queen", promoteFEN, "a8", "a8=Q+"},
		{"text that is no move still counts by its squares", twoKnightFEN, "knight b1 to d2!!", "Nbd2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := positionOf(t, tt.fen)
			got := Suggest(&p, tt.text, 3)
			if len(got) == 0 || !strings.Contains(" "+tt.first+" ", " "+p.SAN(got[0])+" ") {
				var sans []string
				for _, m := range got {
					sans = append(sans, p.SAN(m))
				}
				t.Fatalf("Suggest(%q) = %v, want one of %s first", tt.text, sans, tt.first)
			}
			if len(got) > 3 {
				t.Fatalf("Suggest gave %d moves, more than asked", len(got))
			}
		})
	}
	p := positionOf(t, chessFEN)
	if got := Suggest(&p, "zzz", 3); got != nil {
		t.Errorf("Suggest of text naming nothing = %v, want none", got)
	}
	for _, limit := range []int{0, -1} {
		if got := Suggest(&p, "e4", limit); got != nil {
			t.Errorf("Suggest with limit %d = %v, want none", limit, got)
		}
	}
}

// positionOf parses fen or fails the test.
func positionOf(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}
