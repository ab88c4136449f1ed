package exercise_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
)

func mv(t *testing.T, uci string) game.Move {
	t.Helper()
	m, err := game.ParseUCI(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sq(t *testing.T, s string) game.Square {
	t.Helper()
	x, err := game.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestABlockedRookIsExplainedAndTheWayAroundSolves(t *testing.T) {
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/7*/8/K6R w - - 0 5", Par: 2,
		Goal: exercise.Goal{Kind: exercise.Reach, Squares: []game.Square{sq(t, "h5")}, Man: game.Rook}}
	a, err := exercise.New(ex)
	if err != nil {
		t.Fatal(err)
	}
	r := a.Try(mv(t, "h1h5"))
	var me *game.MoveError
	if r.Verdict != exercise.Illegal || !errors.As(r.Err, &me) || me.Kind != game.BlockedByIce || me.Msg != "the rook on h1 cannot reach h5: ice on h3 blocks it" {
		t.Fatalf("h1h5: %+v", r)
	}
	if r := a.Try(mv(t, "h1h3")); r.Verdict != exercise.Going || !r.Replied || r.Move.SAN != "Rxh3" {
		t.Fatalf("Rxh3: %+v", r)
	}
	if r := a.Try(mv(t, "h3h5")); r.Verdict != exercise.Solved {
		t.Fatalf("Rh5: %+v", r)
	}
	if a.Stars() != 2 || a.Wrong() != 1 || a.Moves() != 2 {
		t.Fatalf("stars %d, wrong %d, moves %d", a.Stars(), a.Wrong(), a.Moves())
	}
	if r := a.Try(mv(t, "h5h6")); r.Verdict != exercise.Illegal {
		t.Fatalf("a try after solving: %+v", r)
	}
}

func TestResumeReplaysAnAttempt(t *testing.T) {
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/7*/8/K6R w - - 0 5", Par: 2,
		Goal: exercise.Goal{Kind: exercise.Reach, Squares: []game.Square{sq(t, "h5")}, Man: game.Rook}}
	a, _ := exercise.New(ex)
	a.Try(mv(t, "h1h3"))
	b, err := exercise.Resume(ex, a.Played(), a.Wrong())
	if err != nil || fen(b.Position()) != fen(a.Position()) || b.Moves() != 1 {
		t.Fatalf("resumed: %v, %v", b, err)
	}
	if _, err := exercise.Resume(ex, []string{"h1h5"}, 0); err == nil {
		t.Fatal("an illegal move replayed")
	}
	if _, err := exercise.Resume(ex, []string{"zz"}, 0); err == nil {
		t.Fatal("no move replayed")
	}
}

func TestAForcedFreezeSolvesAndAFreezeOfBothKingsMisses(t *testing.T) {
	ex := &exercise.Exercise{FEN: "7k/8/8/8/8/8/8/KR6 w - - 0 20", Par: 1, Goal: exercise.Goal{Kind: exercise.Freeze}}
	a, _ := exercise.New(ex)
	if r := a.Try(mv(t, "b1b8")); r.Verdict != exercise.Missed || r.Why != exercise.OwnKingFroze || r.IceAge == nil {
		t.Fatalf("Rb8+: %+v", r)
	}
	if fen(a.Position()) != fen(a.Start()) || a.Wrong() != 1 {
		t.Fatal("a miss did not take the attempt back to its start")
	}
	if r := a.Try(mv(t, "b1b2")); r.Verdict != exercise.Solved || !r.Replied || r.IceAge == nil {
		t.Fatalf("Rb2: %+v", r)
	}
}

func TestSurvivingAnIceAge(t *testing.T) {
	// The white king on g4 and the pawn on e2 are alone; the Ice Age
	// comes with Black's next move. Kf3 gives both company.
	ex := &exercise.Exercise{FEN: "k7/p7/8/8/6K1/8/4P3/8 w - - 0 20", Par: 1, Goal: exercise.Goal{Kind: exercise.Survive}}
	a, _ := exercise.New(ex)
	if r := a.Try(mv(t, "g4g3")); r.Verdict != exercise.Missed || r.Why != exercise.OwnKingFroze {
		t.Fatalf("Kg3: %+v", r)
	}
	r := a.Try(mv(t, "g4f3"))
	if r.Verdict != exercise.Solved || !r.Replied || r.IceAge == nil {
		t.Fatalf("Kf3: %+v", r)
	}
}

func TestTargetsOfferBlockedSquaresAfterLegalOnes(t *testing.T) {
	pos, _ := game.ParseFEN("k7/8/8/8/8/7*/8/K6R w - - 0 5")
	ts := exercise.Targets(&pos, sq(t, "h1"))
	var legal, barred []string
	for _, x := range ts {
		if x.Legal {
			legal = append(legal, x.Move.To().String())
		} else {
			barred = append(barred, x.Move.To().String())
		}
	}
	if !slices.Equal(legal, []string{"b1", "c1", "d1", "e1", "f1", "g1", "h2", "h3"}) || !slices.Equal(barred, []string{"h4", "h5", "h6", "h7", "h8"}) {
		t.Fatalf("legal %v, barred %v", legal, barred)
	}
	if len(exercise.Targets(&pos, sq(t, "a8"))) != 0 {
		t.Fatal("a man of the side not to move has targets")
	}
	if got := exercise.Men(&pos); len(got) != 2 || got[0] != sq(t, "a1") {
		t.Fatalf("men %v", got)
	}
}

func TestTypedTextThatIsNoMoveIsIllegal(t *testing.T) {
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/7*/8/K6R w - - 0 5", Par: 1, Goal: exercise.Goal{Kind: exercise.Take, Squares: []game.Square{sq(t, "h3")}}}
	a, _ := exercise.New(ex)
	var se *game.SyntaxError
	if r := a.TryText("hello"); r.Verdict != exercise.Illegal || !errors.As(r.Err, &se) {
		t.Fatalf("hello: %+v", r)
	}
	if r := a.TryText("Rxh3"); r.Verdict != exercise.Solved || a.Stars() != 3 {
		t.Fatalf("Rxh3: %+v, %d stars", r, a.Stars())
	}
}

func fen(p game.Position) string { return p.FEN() }

// FuzzTryText: typed text never panics, and an illegal try changes
// nothing but the count of wrong tries.
func FuzzTryText(f *testing.F) {
	for _, s := range []string{"Rxh3", "h1h5", "", "O-O", "h7h8q", "♖h3", "\xff"} {
		f.Add(s)
	}
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/7*/8/K6R w - - 0 5", Par: 2,
		Goal: exercise.Goal{Kind: exercise.Reach, Squares: []game.Square{game.SquareAt(7, 4)}, Man: game.Rook}}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := exercise.New(ex)
		if err != nil {
			t.Fatal(err)
		}
		before := fen(a.Position())
		r := a.TryText(text)
		var se *game.SyntaxError
		wrong := 1
		if errors.As(r.Err, &se) {
			wrong = 0
		}
		if r.Verdict == exercise.Illegal && (fen(a.Position()) != before || a.Wrong() != wrong || r.Err == nil) {
			t.Fatalf("%q: an illegal try changed the attempt: %+v", text, r)
		}
	})
}

func TestAStateIsRestored(t *testing.T) {
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/7*/8/K6R w - - 0 5", Par: 2,
		Goal: exercise.Goal{Kind: exercise.Reach, Squares: []game.Square{sq(t, "h5")}, Man: game.Rook}}
	a, _ := exercise.New(ex)
	a.Try(mv(t, "h1h5"))
	a.Try(mv(t, "h1h3"))
	b, err := exercise.Restore(ex, a.State())
	if err != nil || b.State() != a.State() || b.Wrong() != 1 || b.Moves() != 1 {
		t.Fatalf("%q restored as %v, %v", a.State(), b, err)
	}
	if r := b.Try(mv(t, "h3h5")); r.Verdict != exercise.Solved || b.Stars() != 2 {
		t.Fatalf("after restoring: %+v", r)
	}
	played := a.Played()
	for _, bad := range []string{"", "x", "-1", "01", "100", "0.h1h3.a8a7.h3h4.a7a6.h4h5", "0.h1h5", "0.h1h3.a8b8x", "0.h1h3.a8b7", "0..h1h3"} {
		if bad == "0.h1h3.a8b7" && played[1] == "a8b7" {
			continue
		}
		if _, err := exercise.Restore(ex, bad); !errors.Is(err, exercise.ErrBadState) {
			t.Errorf("%q restored: %v", bad, err)
		}
	}
}

// FuzzRestore: any text restores an attempt whose State reads back the
// same, or is refused; never a panic.
func FuzzRestore(f *testing.F) {
	for _, s := range []string{"0", "1.h1h3.a8b8", "0.h1h5", "99", "0.h1h3.a8a7.h3h5", "1..", "\x00"} {
		f.Add(s)
	}
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/7*/8/K6R w - - 0 5", Par: 2,
		Goal: exercise.Goal{Kind: exercise.Reach, Squares: []game.Square{game.SquareAt(7, 4)}, Man: game.Rook}}
	f.Fuzz(func(t *testing.T, state string) {
		a, err := exercise.Restore(ex, state)
		if err != nil {
			return
		}
		if a.State() != state {
			t.Fatalf("%q restored as %q", state, a.State())
		}
	})
}

// A man that flees its square is not taken.
func TestAFleeingManIsNotTaken(t *testing.T) {
	ex := &exercise.Exercise{FEN: "k7/8/8/8/8/r7/8/4K2R w - - 0 5", Par: 2,
		Goal:  exercise.Goal{Kind: exercise.Take, Squares: []game.Square{sq(t, "a3")}},
		Reply: func(pos *game.Position) game.Move { m, _ := game.ParseUCI("a3b3"); return m }}
	a, _ := exercise.New(ex)
	if r := a.Try(mv(t, "h1h2")); r.Verdict != exercise.Going || r.Reply.SAN != "Rb3" {
		t.Fatalf("Rh2: %+v", r)
	}
	if r := a.Try(mv(t, "h2h4")); r.Verdict != exercise.Missed || r.Why != exercise.OutOfMoves {
		t.Fatalf("a square left empty by a flight counts as taken: %+v", r)
	}
	if r := a.Try(mv(t, "h1h3")); r.Verdict != exercise.Going {
		t.Fatalf("Rh3: %+v", r)
	}
	if r := a.Try(mv(t, "h3b3")); r.Verdict != exercise.Missed {
		t.Fatalf("a capture on another square counts: %+v", r)
	}
}
