package playtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// runLimitsSuite checks the caps (play.Caps) on a storage: what a user
// did lately is kept, counted and forgotten as play says, and caps hold
// when a user's acts come at once.
func runLimitsSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	ann, bob := play.Seat{ID: "ann", Name: "Ann"}, play.Seat{ID: "bob", Name: "Bob"}

	t.Run("a user's recent acts are read back equal, and an empty record is gone", func(t *testing.T) {
		st := open(t)
		want := play.Recent{Posts: []time.Time{T0, T0.Add(time.Second)}, Dropped: []play.Dropped{{To: "bob", At: T0}}}
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutRecent("ann", want) }); err != nil {
			t.Fatal(err)
		}
		read := func() play.Recent {
			var r play.Recent
			if err := st.View(ctx, func(tx play.ReadTx) (err error) { r, err = tx.Recent("ann"); return err }); err != nil {
				t.Fatal(err)
			}
			return r
		}
		got := read()
		got.V = 0
		if asJSON(got) != asJSON(want) {
			t.Fatalf("read back %+v, put %+v", got, want)
		}
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutRecent("ann", play.Recent{}) }); err != nil {
			t.Fatal(err)
		}
		if got := read(); !got.Empty() {
			t.Fatalf("an emptied record reads %+v", got)
		}
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutRecent("a\x00b", want) }); err == nil {
			t.Fatal("a user id with a NUL was stored")
		}
	})

	t.Run("a challenge that came to nothing holds the next one back; a game does not", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{Rand: func(int) int { return 0 }})
		caps := play.Caps{ChallengeAgain: 10 * time.Minute}
		challenge := func(from, to play.Seat, at time.Time) (play.Challenge, error) {
			return svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: from, To: to, At: at, Caps: caps})
		}
		c, err := challenge(ann, bob, T0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Accept(ctx, c.ID, bob, "t1", T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		// A game was played: either may challenge the other at once.
		again, err := challenge(ann, bob, T0.Add(2*time.Minute))
		if err != nil {
			t.Fatalf("a challenge after an accepted one: %v", err)
		}
		// Rated, Bob's does not cross Ann's casual one: it waits beside it.
		back, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: bob, To: ann, Rated: true, At: T0.Add(2 * time.Minute), Caps: caps})
		if err != nil {
			t.Fatalf("the other player's challenge: %v", err)
		}
		// Declined, withdrawn, expired: each holds back the same
		// challenge for ChallengeAgain from then.
		if _, err := svc.Decline(ctx, again.ID, bob.ID, T0.Add(3*time.Minute)); err != nil {
			t.Fatal(err)
		}
		_, err = challenge(ann, bob, T0.Add(12*time.Minute))
		var x *play.Refusal
		if !errors.As(err, &x) || x.Kind != play.ChallengedLately || x.Who.ID != bob.ID || !x.Until.Equal(T0.Add(13*time.Minute)) {
			t.Fatalf("a challenge 9 minutes after a declined one: %v, want ChallengedLately until %v", err, T0.Add(13*time.Minute))
		}
		if _, err := challenge(ann, play.Seat{ID: "cat"}, T0.Add(12*time.Minute)); err != nil {
			t.Fatalf("a challenge to someone else: %v", err)
		}
		if _, err := svc.Cancel(ctx, back.ID, bob.ID, T0.Add(4*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := challenge(bob, ann, T0.Add(5*time.Minute)); !isKind(err, play.ChallengedLately) {
			t.Fatalf("a challenge after a withdrawn one: %v", err)
		}
		if _, err := challenge(ann, bob, T0.Add(13*time.Minute)); err != nil {
			t.Fatalf("a challenge once the wait is over: %v", err)
		}
		exp, err := challenge(bob, play.Seat{ID: "dan"}, T0.Add(14*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if gone, err := svc.Expire(ctx, exp.Expires, 10); err != nil || len(gone) == 0 {
			t.Fatalf("Expire: %v, %d", err, len(gone))
		}
		if _, err := challenge(bob, play.Seat{ID: "dan"}, exp.Expires.Add(9*time.Minute)); !isKind(err, play.ChallengedLately) {
			t.Fatalf("a challenge 9 minutes after an expired one: %v", err)
		}
		if _, err := challenge(bob, play.Seat{ID: "dan"}, exp.Expires.Add(10*time.Minute)); err != nil {
			t.Fatalf("a challenge 10 minutes after an expired one: %v", err)
		}
	})

	t.Run("a game between two players forgives what came to nothing between them", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{Rand: func(int) int { return 0 }})
		caps := play.Caps{ChallengeAgain: 10 * time.Minute}
		challenge := func(from, to play.Seat, at time.Time) (play.Challenge, error) {
			return svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: from, To: to, At: at, Caps: caps})
		}
		// Ann's challenge is declined, and so is one of hers to Cat.
		c, err := challenge(ann, bob, T0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Decline(ctx, c.ID, bob.ID, T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		cat := play.Seat{ID: "cat"}
		c, err = challenge(ann, cat, T0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Decline(ctx, c.ID, cat.ID, T0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := challenge(ann, bob, T0.Add(2*time.Minute)); !isKind(err, play.ChallengedLately) {
			t.Fatalf("a challenge a minute after a declined one: %v", err)
		}
		// Bob challenges Ann in turn; she accepts, and they play.
		c, err = challenge(bob, ann, T0.Add(2*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Accept(ctx, c.ID, ann, "t1", T0.Add(3*time.Minute)); err != nil {
			t.Fatal(err)
		}
		// Ann may challenge Bob again at once (a Rematch is one); her
		// declined challenge to Cat still holds her back.
		if _, err := challenge(ann, bob, T0.Add(4*time.Minute)); err != nil {
			t.Fatalf("Ann's challenge to Bob after their game: %v", err)
		}
		if _, err := challenge(ann, cat, T0.Add(4*time.Minute)); !isKind(err, play.ChallengedLately) {
			t.Fatalf("Ann's challenge to Cat, who declined one 3 minutes ago: %v", err)
		}
	})

	t.Run("posts are counted in a sliding minute", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		caps := play.Caps{Posts: 3}
		for i := range 3 {
			if err := svc.Post(ctx, "ann", T0.Add(time.Duration(i)*10*time.Second), caps); err != nil {
				t.Fatalf("post %d: %v", i+1, err)
			}
		}
		err := svc.Post(ctx, "ann", T0.Add(30*time.Second), caps)
		var x *play.Refusal
		if !errors.As(err, &x) || x.Kind != play.TooManyPosts || x.Most != 3 || !x.Until.Equal(T0.Add(time.Minute)) {
			t.Fatalf("a fourth post in a minute: %v, want TooManyPosts until %v", err, T0.Add(time.Minute))
		}
		if err := svc.Post(ctx, "bob", T0.Add(30*time.Second), caps); err != nil {
			t.Fatalf("another user's post: %v", err)
		}
		if err := svc.Post(ctx, "ann", T0.Add(time.Minute), caps); err != nil {
			t.Fatalf("a post once the first is a minute old: %v", err)
		}
		// A withdrawal counts, and is never refused.
		c, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: bob, At: T0.Add(time.Minute), Caps: caps})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Post(ctx, "bob", T0.Add(time.Minute), caps); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Cancel(ctx, c.ID, bob.ID, T0.Add(time.Minute)); err != nil {
			t.Fatalf("a withdrawal past the cap: %v", err)
		}
		if err := svc.Post(ctx, "bob", T0.Add(80*time.Second), caps); !isKind(err, play.TooManyPosts) {
			t.Fatalf("a post after a challenge, a post and a withdrawal: %v", err)
		}
	})

	t.Run("caps on challenges, engine games and posts hold for acts at once", func(t *testing.T) {
		st := open(t)
		RunCapsAtOnce(t, st, st)
	})
}

// RunCapsAtOnce sends one user's capped acts at once, half through a and
// half through b (two processes on one database, say, or one storage
// twice), and checks that exactly the cap of each is stored: 12
// challenges against a cap of 5, 12 games against the engine against a
// cap of 3, 12 posts against a cap of 8.
func RunCapsAtOnce(t *testing.T, a, b play.Storage) {
	ctx := context.Background()
	svcs := [2]*play.Service{play.New(a, play.Options{}), play.New(b, play.Options{})}
	// at runs n acts at once, alternately on each storage, and returns
	// how many were done and how many refused as kind.
	at := func(t *testing.T, n int, kind play.RefusalKind, act func(svc *play.Service, i int) error) (done, refused int) {
		t.Helper()
		var wg sync.WaitGroup
		var mu sync.Mutex
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				err := act(svcs[i%2], i)
				mu.Lock()
				defer mu.Unlock()
				var x *play.Refusal
				switch {
				case err == nil:
					done++
				case errors.As(err, &x) && x.Kind == kind:
					refused++
				default:
					t.Errorf("act %d: %v", i, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		return done, refused
	}
	for run := range 3 {
		user := play.Seat{ID: fmt.Sprintf("u%d", run), Name: "U"}
		t.Run(fmt.Sprintf("run %d", run+1), func(t *testing.T) {
			done, refused := at(t, 12, play.TooManyChallenges, func(svc *play.Service, i int) error {
				_, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: user,
					To: play.Seat{ID: fmt.Sprintf("o%d", i)}, At: T0, Caps: play.Caps{Challenges: 5}})
				return err
			})
			var cs []play.Challenge
			if err := a.View(ctx, func(tx play.ReadTx) (err error) { cs, err = tx.Challenges(user.ID); return err }); err != nil {
				t.Fatal(err)
			}
			if done != 5 || refused != 7 || len(cs) != 5 {
				t.Errorf("12 challenges at once against a cap of 5: %d made, %d refused, %d stored", done, refused, len(cs))
			}

			done, refused = at(t, 12, play.TooManyEngineGames, func(svc *play.Service, i int) error {
				_, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: fmt.Sprintf("e%d.%d", run, i), White: user,
					Black: play.Seat{ID: "engine"}, Engine: [2]int{0, 3}, At: T0, Caps: play.Caps{EngineGames: 3}})
				return err
			})
			var gs []play.Game
			if err := b.View(ctx, func(tx play.ReadTx) (err error) { gs, err = tx.ActiveGames(user.ID); return err }); err != nil {
				t.Fatal(err)
			}
			if done != 3 || refused != 9 || len(gs) != 3 {
				t.Errorf("12 engine games at once against a cap of 3: %d started, %d refused, %d stored", done, refused, len(gs))
			}

			poster := user.ID + "p"
			done, refused = at(t, 12, play.TooManyPosts, func(svc *play.Service, i int) error {
				return svc.Post(ctx, poster, T0, play.Caps{Posts: 8})
			})
			var r play.Recent
			if err := a.View(ctx, func(tx play.ReadTx) (err error) { r, err = tx.Recent(poster); return err }); err != nil {
				t.Fatal(err)
			}
			if done != 8 || refused != 4 || len(r.Posts) != 8 {
				t.Errorf("12 posts at once against a cap of 8: %d made, %d refused, %d stored", done, refused, len(r.Posts))
			}
		})
	}
}
