package playtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// runCrossingSuite checks crossing challenges on a storage: asking a
// player whose own challenge on the same terms waits accepts it, in one
// transaction, and two such asks at once start exactly one game.
func runCrossingSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	ann, bob := play.Seat{ID: "ann", Name: "Ann"}, play.Seat{ID: "bob", Name: "Bob"}
	blitz := play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}

	t.Run("asking a player whose challenge waits on the same terms accepts it", func(t *testing.T) {
		st := open(t)
		var started atomic.Int32
		svc := play.New(st, play.Options{}).Then(func(tx play.Tx, r *play.Result) error { started.Add(1); return nil })
		his, err := svc.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "t1", From: bob, To: ann, Color: play.WhiteSide,
			Time: blitz, Rated: true, At: T0, Caps: play.Caps{Challenges: 5, Posts: 8, ChallengeAgain: time.Hour}}, nil)
		if err != nil || his.Accepted {
			t.Fatalf("Bob's challenge: %+v, %v", his, err)
		}
		// Ann leaves the colours to chance, in another channel: Bob's
		// White stands, and the game is played where he asked.
		var then []bool
		got, err := svc.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "t2", From: ann, To: bob, Color: play.Random,
			Time: blitz, Rated: true, At: T0.Add(time.Minute), Caps: play.Caps{Challenges: 5, Posts: 8, ChallengeAgain: time.Hour}},
			func(tx play.Tx, a *play.Asked) error { then = append(then, a.Accepted); return nil })
		if err != nil || !got.Accepted || got.Challenge.ID != his.Challenge.ID {
			t.Fatalf("Ann's ask: %+v, %v; want Bob's challenge %d accepted", got, err, his.Challenge.ID)
		}
		g := got.Result.Game
		if g.White.ID != "bob" || g.Black.ID != "ann" || g.Channel != "t1" || !g.Rated || g.Clock == nil || g.TimeControl() != blitz {
			t.Errorf("the game: %s White, %s Black, in %q, rated %v, %v", g.White.ID, g.Black.ID, g.Channel, g.Rated, g.TimeControl())
		}
		if started.Load() != 1 || len(then) != 1 || !then[0] || got.Result.Event != play.Started {
			t.Errorf("Then ran %d times, then %v, event %v", started.Load(), then, got.Result.Event)
		}
		if cs, err := svc.Challenges(ctx, "ann"); err != nil || len(cs) != 0 {
			t.Errorf("challenges left: %+v, %v", cs, err)
		}
		if gs := activeGames(t, st, "ann"); len(gs) != 1 || gs[0].ID != g.ID {
			t.Errorf("Ann's games: %+v", gs)
		}
		// Accepting is no post of Ann's, and no challenge of hers came
		// to nothing.
		var r play.Recent
		if err := st.View(ctx, func(tx play.ReadTx) (err error) { r, err = tx.Recent("ann"); return err }); err != nil || len(r.Posts) != 0 || len(r.Dropped) != 0 {
			t.Errorf("Ann's recent acts: %+v, %v", r, err)
		}
	})

	t.Run("the game is played where the asker's front end says, but for the Activity's in its channel", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		for i, inChannel := range []bool{false, true} {
			channel := fmt.Sprintf("c%d", i)
			x, y := play.Seat{ID: fmt.Sprintf("x%d", i)}, play.Seat{ID: fmt.Sprintf("y%d", i)}
			if _, err := svc.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: channel, From: x, To: y, Time: blitz, InChannel: inChannel, At: T0}, nil); err != nil {
				t.Fatal(err)
			}
			got, err := svc.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: channel, From: y, To: x, Time: blitz, PlayIn: "thread" + channel, At: T0}, nil)
			want := "thread" + channel
			if inChannel {
				want = channel
			}
			if err != nil || !got.Accepted || got.Result.Game.Channel != want {
				t.Errorf("in channel %v: %+v, %v; want the game in %q", inChannel, got.Result.Game.Channel, err, want)
			}
		}
	})

	t.Run("a challenge on other terms, or to someone else, waits beside theirs", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		if _, err := svc.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: bob, To: ann, Color: play.WhiteSide, Time: blitz, At: T0}, nil); err != nil {
			t.Fatal(err)
		}
		for i, n := range []play.NewChallenge{
			{From: ann, To: bob, Color: play.WhiteSide, Time: blitz},                      // both want White
			{From: ann, To: bob, Time: play.TimeControl{Limit: 5 * time.Minute}},          // another clock
			{From: ann, To: bob, Time: blitz, Rated: true},                                // rated
			{From: ann, Time: blitz},                                                      // open
			{From: ann, To: play.Seat{ID: "cy"}, Time: blitz},                             // someone else
			{From: play.Seat{ID: "cy"}, To: bob, Color: play.BlackSide, Time: blitz},      // not the one challenged
			{From: ann, To: bob, Time: blitz, Private: true},                              // in a DM
			{From: ann, To: bob, Time: blitz, StartFEN: "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}, // another start
		} {
			n.Guild, n.Channel, n.At = "g1", fmt.Sprintf("o%d", i), T0.Add(time.Minute)
			got, err := svc.Ask(ctx, n, nil)
			if err != nil || got.Accepted {
				t.Errorf("ask %d (%+v): %+v, %v; want a challenge of its own", i, n, got, err)
			}
		}
		// Expired, a challenge is no longer there to take.
		short := play.New(st, play.Options{ChallengeTTL: time.Hour})
		dee, eve := play.Seat{ID: "dee"}, play.Seat{ID: "eve"}
		if _, err := short.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "d1", From: dee, To: eve, Time: blitz, At: T0}, nil); err != nil {
			t.Fatal(err)
		}
		got, err := short.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "d2", From: eve, To: dee, Time: blitz, At: T0.Add(time.Hour)}, nil)
		if err != nil || got.Accepted {
			t.Errorf("an ask after Dee's challenge expired: %+v, %v", got, err)
		}
		if gs := activeGames(t, st, "dee"); len(gs) != 0 {
			t.Errorf("games started: %+v", gs)
		}
		if gs := activeGames(t, st, "bob"); len(gs) != 0 {
			t.Errorf("games started: %+v", gs)
		}
	})

	t.Run("two asks that cross at once start one game", func(t *testing.T) {
		st := open(t)
		RunCrossingAtOnce(t, st, st)
	})
}

// RunCrossingAtOnce has pairs of players ask each other at the same
// instant, one through a and the other through b (two processes on one
// database, say, or one storage twice), as two players pressing Rematch
// together do: of each pair's asks, one makes a challenge and the other
// accepts it, so exactly one game starts and no challenge is left.
func RunCrossingAtOnce(t *testing.T, a, b play.Storage) {
	ctx := context.Background()
	var started atomic.Int32
	count := func(tx play.Tx, r *play.Result) error { started.Add(1); return nil }
	svcs := [2]*play.Service{play.New(a, play.Options{}).Then(count), play.New(b, play.Options{}).Then(count)}
	const pairs, rounds = 6, 3
	for round := range rounds {
		started.Store(0)
		var wg sync.WaitGroup
		var mu sync.Mutex
		accepted := map[int]int{}
		start := make(chan struct{})
		for p := range pairs {
			x := play.Seat{ID: fmt.Sprintf("r%dx%d", round, p), Name: "X"}
			y := play.Seat{ID: fmt.Sprintf("r%dy%d", round, p), Name: "Y"}
			for side, n := range []play.NewChallenge{
				{Guild: "g1", Channel: fmt.Sprintf("r%d.%d", round, p), From: x, To: y, Color: play.WhiteSide, DaysPerMove: 3, At: T0},
				{Guild: "g1", Channel: fmt.Sprintf("r%d.%d", round, p), From: y, To: x, Color: play.BlackSide, DaysPerMove: 3, At: T0},
			} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					got, err := svcs[side].Ask(ctx, n, nil)
					var refusal *play.Refusal
					if errors.As(err, &refusal) || err != nil {
						t.Errorf("pair %d, side %d: %v", p, side, err)
						return
					}
					if got.Accepted {
						mu.Lock()
						accepted[p]++
						mu.Unlock()
					}
				}()
			}
		}
		close(start)
		wg.Wait()
		for p := range pairs {
			x := fmt.Sprintf("r%dx%d", round, p)
			gs := activeGames(t, a, x)
			var cs []play.Challenge
			if err := b.View(ctx, func(tx play.ReadTx) (err error) { cs, err = tx.Challenges(x); return err }); err != nil {
				t.Fatal(err)
			}
			if accepted[p] != 1 || len(gs) != 1 || len(cs) != 0 {
				t.Errorf("round %d, pair %d asking at once: %d accepted, %d games, %d challenges left; want 1, 1, 0", round, p, accepted[p], len(gs), len(cs))
			} else if g := gs[0]; g.White.ID != x {
				t.Errorf("round %d, pair %d: %s has White, not %s who asked for it", round, p, g.White.ID, x)
			}
		}
		if n := started.Load(); n != pairs {
			t.Errorf("round %d: %d games started for %d pairs", round, n, pairs)
		}
	}
}

// activeGames are the games user plays now in st.
func activeGames(t *testing.T, st play.Storage, user string) []play.Game {
	t.Helper()
	var gs []play.Game
	if err := st.View(context.Background(), func(tx play.ReadTx) (err error) { gs, err = tx.ActiveGames(user); return err }); err != nil {
		t.Fatal(err)
	}
	return gs
}
