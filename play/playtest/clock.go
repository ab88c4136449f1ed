package playtest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// runClockSuite checks live games on a storage: their clocks are kept,
// their deadline is indexed to the millisecond for the scheduler, and a
// move and the flag that race are decided once: never both.
func runClockSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	ann, bob := play.Seat{ID: "ann", Name: "Ann"}, play.Seat{ID: "bob", Name: "Bob"}
	// start begins a 1+0 game in channel ch and plays White's first
	// move: Black's clock runs.
	start := func(t *testing.T, svc *play.Service, ch string) play.Game {
		t.Helper()
		r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: ch, White: ann, Black: bob, Rated: true,
			Time: play.TimeControl{Limit: time.Minute}, At: T0})
		if err != nil {
			t.Fatal(err)
		}
		g := r.Game
		at := T0.Add(time.Second)
		r, err = svc.Move(ctx, play.Act{By: ann.ID, Game: g.ID, Revision: g.Revision, At: at, Sent: at}, "h2g3")
		if err != nil {
			t.Fatal(err)
		}
		return r.Game
	}

	t.Run("a live game's clocks are read back equal, and its deadline is due to the millisecond", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		g := start(t, svc, "c1")
		var back play.Game
		var early, due []play.Due
		err := st.View(ctx, func(tx play.ReadTx) (err error) {
			if back, err = tx.Game(g.ID); err != nil {
				return err
			}
			if early, err = tx.Due(play.DueDeadline, g.Deadline.Add(-time.Millisecond), 10); err != nil {
				return err
			}
			due, err = tx.Due(play.DueDeadline, g.Deadline, 10)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		back.V = g.V
		if a, b := asJSON(back), asJSON(g); a != b {
			t.Fatalf("read back %s\nput %s", a, b)
		}
		if len(early) != 0 || len(due) != 1 || !due[0].At.Equal(g.Deadline) {
			t.Fatalf("a millisecond before the deadline %v, due %v; at it, %v", g.Deadline, early, due)
		}
	})

	t.Run("a rated live game is rated in its speed's scopes, each with its leaderboard", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		g := start(t, svc, "c1")
		r, err := svc.Resign(ctx, play.Act{By: bob.ID, Game: g.ID, Revision: g.Revision, At: T0.Add(2 * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Game.Rated || len(r.Game.Ratings) != 2 {
			t.Fatalf("the game's ratings: %+v", r.Game.Ratings)
		}
		for _, scope := range []string{"", "g1"} {
			board, err := svc.Leaderboard(ctx, play.RatingScope(scope, play.Bullet), 1, 10, T0.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if len(board.Rows) != 2 || board.Rows[0].User != ann.ID {
				t.Fatalf("scope %q: the bullet leaderboard %+v", scope, board.Rows)
			}
			if corr, err := svc.Leaderboard(ctx, scope, 1, 10, T0.Add(time.Hour)); err != nil || len(corr.Rows) != 0 {
				t.Fatalf("scope %q: the correspondence leaderboard %+v, %v", scope, corr.Rows, err)
			}
			// The storage lists each scope's records alone: the speed's
			// never among the scope's, nor the scope's among the speed's,
			// and the games are counted in the scope only.
			err = st.View(ctx, func(tx play.ReadTx) error {
				for _, sc := range []string{scope, play.RatingScope(scope, play.Bullet)} {
					var got []string
					if err := tx.Players(sc, func(p play.Player) error { got = append(got, p.Scope+"/"+p.User); return nil }); err != nil {
						return err
					}
					slices.Sort(got) // in no order
					if want := fmt.Sprint([]string{sc + "/" + ann.ID, sc + "/" + bob.ID}); fmt.Sprint(got) != want {
						return fmt.Errorf("the players of %q are %v, want %s", sc, got, want)
					}
				}
				if s, err := tx.Stats(play.RatingScope(scope, play.Bullet)); err != nil || s.Games() != 0 {
					return fmt.Errorf("the speed's scope counts %d games (%v), want none: they are the scope's", s.Games(), err)
				}
				if s, err := tx.Stats(scope); err != nil || s.Games() != 1 {
					return fmt.Errorf("the scope counts %d games (%v), want 1", s.Games(), err)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("scope %q: %v", scope, err)
			}
		}
	})

	for _, tt := range []struct {
		name string
		// moveAt is when the move arrives, from the deadline.
		moveAt time.Duration
	}{
		{"a move a millisecond before the deadline", -time.Millisecond},
		{"a move at the deadline", 0},
	} {
		t.Run(tt.name+" and the flag at once: exactly one wins", func(t *testing.T) {
			st := open(t)
			svc := play.New(st, play.Options{})
			moves, flags := 0, 0
			var wg sync.WaitGroup
			for i := range 12 {
				g := start(t, svc, fmt.Sprintf("c%d", i))
				var moveErr, flagErr error
				begin := make(chan struct{})
				// Each side in turn gets a head start of a few tens of
				// microseconds, so that both orders are tried as well as
				// the true race.
				head := [2]time.Duration{}
				head[i%2] = time.Duration(i%3) * 40 * time.Microsecond
				wg.Add(2)
				go func() {
					defer wg.Done()
					<-begin
					time.Sleep(head[0])
					at := g.Deadline.Add(tt.moveAt)
					_, moveErr = svc.Move(ctx, play.Act{By: bob.ID, Game: g.ID, Revision: g.Revision, At: at, Sent: at}, "g8f6")
				}()
				go func() {
					defer wg.Done()
					<-begin
					time.Sleep(head[1])
					_, flagErr = svc.TimeOut(ctx, g.ID, g.Deadline.Add(time.Millisecond))
				}()
				close(begin)
				wg.Wait()
				var back play.Game
				if err := st.View(ctx, func(tx play.ReadTx) (err error) { back, err = tx.Game(g.ID); return err }); err != nil {
					t.Fatal(err)
				}
				switch {
				case moveErr == nil && flagErr == nil:
					t.Fatalf("game %d: both the move and the flag were applied", g.ID)
				case moveErr == nil:
					moves++
					if !isKind(flagErr, play.NotYetDue) || back.Over() || back.Ply() != 2 {
						t.Fatalf("the move won, yet the flag: %v; game %+v", flagErr, back.Outcome)
					}
				case flagErr == nil:
					flags++
					if !isKind(moveErr, play.GameOver) && !isKind(moveErr, play.TimeUp) {
						t.Fatalf("the flag won, yet the move was refused as %v", moveErr)
					}
					if back.Outcome != game.WinFor(game.White, game.Timeout) || back.Ply() != 1 {
						t.Fatalf("the flag won: %+v after %d moves", back.Outcome, back.Ply())
					}
				default:
					t.Fatalf("neither won: move %v, flag %v", moveErr, flagErr)
				}
				if back.Revision != g.Revision+1 {
					t.Fatalf("revision %d after %d", back.Revision, g.Revision)
				}
			}
			if tt.moveAt >= 0 && moves > 0 {
				t.Fatalf("%d moves after the flag were applied", moves)
			}
			t.Logf("%d moves, %d flags", moves, flags)
		})
	}
}
