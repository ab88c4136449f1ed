package play_test

import (
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// TestConflictingActs: of two conflicting acts made at once on a game at
// the same revision, exactly one is applied; the other is refused as
// stale, or as too late if the first ended the game.
func TestConflictingActs(t *testing.T) {
	type do func(f *fixture) error
	move := func(who play.Seat) do {
		return func(f *fixture) error { _, err := f.svc.Move(ctx, act(who, f.game, f.at), f.legalMove()); return err }
	}
	acceptDraw := func(who play.Seat) do {
		return func(f *fixture) error { _, err := f.svc.AcceptDraw(ctx, act(who, f.game, f.at)); return err }
	}
	withdrawDraw := func(who play.Seat) do {
		return func(f *fixture) error { _, err := f.svc.WithdrawDraw(ctx, act(who, f.game, f.at)); return err }
	}
	resign := func(who play.Seat) do {
		return func(f *fixture) error { _, err := f.svc.Resign(ctx, act(who, f.game, f.at)); return err }
	}
	acceptTakeback := func(who play.Seat) do {
		return func(f *fixture) error { _, err := f.svc.AcceptTakeback(ctx, act(who, f.game, f.at)); return err }
	}
	timeOut := func(f *fixture) error { _, err := f.svc.TimeOut(ctx, f.game.ID, f.game.Deadline); return err }
	resignInTime := func(who play.Seat) do {
		return func(f *fixture) error {
			_, err := f.svc.Resign(ctx, act(who, f.game, f.game.Deadline.Add(-time.Millisecond)))
			return err
		}
	}
	for _, tt := range []struct {
		name  string
		state state
		a, b  do
	}{
		{"a move and the acceptance of a draw offer", drawOffered, move(ann), acceptDraw(ann)},
		{"the acceptance of a draw offer and its withdrawal", drawOffered, acceptDraw(ann), withdrawDraw(bob)},
		{"a move and the opponent's resignation", ongoing, move(ann), resign(bob)},
		{"two resignations", ongoing, resign(ann), resign(bob)},
		{"a move and the grant of a takeback", takebackRequested, move(ann), acceptTakeback(ann)},
		{"a timeout and a resignation just before the deadline", ongoing, timeOut, resignInTime(bob)},
	} {
		t.Run("of "+tt.name+" at once, exactly one is applied", func(t *testing.T) {
			for range 20 {
				f := setUp(t, tt.state)
				var wg sync.WaitGroup
				errs := make([]error, 2)
				start := make(chan struct{})
				for i, d := range []do{tt.a, tt.b} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						errs[i] = d(f)
					}()
				}
				close(start)
				wg.Wait()
				applied := 0
				for _, err := range errs {
					switch {
					case err == nil:
						applied++
					case isKind(err, play.Stale), isKind(err, play.GameOver):
					default:
						t.Fatalf("refused for another reason: %v", err)
					}
				}
				if g := stored(t, f.svc, f.game.ID); applied != 1 || g.Revision != f.game.Revision+1 {
					t.Fatalf("%d of two applied, revision %d after %d (%v)", applied, g.Revision, f.game.Revision, errs)
				}
			}
		})
	}
}
