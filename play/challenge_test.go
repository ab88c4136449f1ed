package play_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

func TestChallenge(t *testing.T) {
	base := func() play.NewChallenge {
		return play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: bob, Color: play.WhiteSide,
			DaysPerMove: play.DefaultDays, At: t0}
	}
	type row struct {
		name string
		edit func(*play.NewChallenge)
		want play.RefusalKind // 0: made
	}
	tests := []row{
		{"a challenge to a user is made", func(*play.NewChallenge) {}, 0},
		{"an open challenge is made", func(n *play.NewChallenge) { n.To = play.Seat{} }, 0},
		{"a challenge without a colour is made for a random one", func(n *play.NewChallenge) { n.Color = "" }, 0},
		{"a challenge for Black is made", func(n *play.NewChallenge) { n.Color = play.BlackSide }, 0},
		{"a rated challenge is made", func(n *play.NewChallenge) { n.Rated = true }, 0},
		{"a challenge without a time limit is made", func(n *play.NewChallenge) { n.DaysPerMove = 0 }, 0},
		{"a challenge from a position is made", func(n *play.NewChallenge) { n.StartFEN = "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20" }, 0},
		{"a self-challenge is refused", func(n *play.NewChallenge) { n.To = ann }, play.SelfChallenge},
		{"a colour other than white, black or random is refused", func(n *play.NewChallenge) { n.Color = "green" }, play.BadColor},
		{"four days per move are refused", func(n *play.NewChallenge) { n.DaysPerMove = 4 }, play.BadTimeControl},
		{"negative days per move are refused", func(n *play.NewChallenge) { n.DaysPerMove = -1 }, play.BadTimeControl},
		{"three weeks per move are refused", func(n *play.NewChallenge) { n.DaysPerMove = 21 }, play.BadTimeControl},
		{"a start position that does not read is refused", func(n *play.NewChallenge) { n.StartFEN = "8/8 w" }, play.BadPosition},
		{"a start position that is already checkmate is refused", func(n *play.NewChallenge) { n.StartFEN = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1" }, play.BadPosition},
		{"a start position with both kings frozen is refused", func(n *play.NewChallenge) { n.StartFEN = "8/8/8/8/8/8/8/8 w - - 0 21" }, play.BadPosition},
	}
	for _, d := range play.AllowedDays {
		tests = append(tests, row{fmt.Sprintf("a challenge of %d days per move is made", d),
			func(n *play.NewChallenge) { n.DaysPerMove = d }, 0})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, st := newService(play.Options{})
			n := base()
			tt.edit(&n)
			snapshot := dump(t, st)
			c, err := svc.Challenge(ctx, n)
			if tt.want != 0 {
				x := wantKind(t, err, tt.want)
				switch tt.want {
				case play.BadTimeControl:
					if x.Days != n.DaysPerMove || !slices.Equal(x.Allowed, play.AllowedDays) {
						t.Errorf("refusal says %d days, allowed %v", x.Days, x.Allowed)
					}
				case play.BadPosition:
					var fe *game.FENError
					if n.StartFEN == "8/8 w" && !errors.As(err, &fe) {
						t.Errorf("a FEN that does not read: %v does not wrap a *game.FENError", err)
					}
				}
				if !reflect.DeepEqual(c, play.Challenge{}) {
					t.Errorf("a refused challenge came back: %+v", c)
				}
				unchanged(t, st, snapshot)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			color := n.Color
			if color == "" {
				color = play.Random
			}
			want := play.Challenge{V: c.V, ID: c.ID, Guild: "g1", Channel: "c1", From: n.From, To: n.To, Color: color,
				StartFEN: n.StartFEN, Rated: n.Rated, DaysPerMove: n.DaysPerMove, Created: t0, Expires: t0.Add(play.DefaultChallengeTTL)}
			if c.ID == 0 || !reflect.DeepEqual(c, want) {
				t.Fatalf("challenge %+v, want %+v", c, want)
			}
			if back := must(svc.GetChallenge(ctx, c.ID))(t); !reflect.DeepEqual(back, c) {
				t.Fatalf("stored %+v, returned %+v", back, c)
			}
			if c.Open() != (n.To.ID == "") {
				t.Fatalf("Open() = %v for a challenge to %q", c.Open(), n.To.ID)
			}
		})
	}

	t.Run("a challenge without a time, a challenger or a channel is a programming error, not a refusal", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		for _, edit := range []func(*play.NewChallenge){
			func(n *play.NewChallenge) { n.At = time.Time{} },
			func(n *play.NewChallenge) { n.From = play.Seat{} },
			func(n *play.NewChallenge) { n.Channel = "" },
		} {
			n := base()
			edit(&n)
			var x *play.Refusal
			if _, err := svc.Challenge(ctx, n); err == nil || errors.As(err, &x) {
				t.Errorf("challenge %+v: %v, want a plain error", n, err)
			}
		}
	})

	t.Run("the same challenge twice in a channel is refused until the first expires", func(t *testing.T) {
		svc, st := newService(play.Options{ChallengeTTL: time.Hour})
		first := must(svc.Challenge(ctx, base()))(t)
		snapshot := dump(t, st)
		again := base()
		again.At = t0.Add(59 * time.Minute)
		_, err := svc.Challenge(ctx, again)
		if x := wantKind(t, err, play.AlreadyChallenged); x.Game != first.ID {
			t.Errorf("the refusal names challenge %d, want the first, %d", x.Game, first.ID)
		}
		unchanged(t, st, snapshot)
		again.At = t0.Add(time.Hour)
		second := must(svc.Challenge(ctx, again))(t)
		if second.ID == first.ID || !second.Expires.Equal(t0.Add(2*time.Hour)) {
			t.Fatalf("second challenge %+v", second)
		}
	})

	t.Run("the same challengers in another channel, the other way round or to someone else are not the same challenge", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		must(svc.Challenge(ctx, base()))(t)
		for _, n := range []play.NewChallenge{
			{Guild: "g1", Channel: "c2", From: ann, To: bob, At: t0},
			{Guild: "g1", Channel: "c1", From: bob, To: ann, At: t0},
			{Guild: "g1", Channel: "c1", From: ann, To: cat, At: t0},
			{Guild: "g1", Channel: "c1", From: ann, At: t0},
		} {
			if _, err := svc.Challenge(ctx, n); err != nil {
				t.Errorf("%s to %q in %s: %v", n.From.ID, n.To.ID, n.Channel, err)
			}
		}
		_, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, At: t0.Add(time.Minute)})
		wantKind(t, err, play.AlreadyChallenged)
	})
}

// challengeState is a situation the answers to a challenge are tried in.
type challengeState int

const (
	directChallenge   challengeState = iota // ann challenged bob
	openChallenge                           // ann challenged anyone in the channel
	expiredChallenge                        // ann challenged bob, and the challenge's time ran out
	expiredOpen                             // ann challenged anyone, and the time ran out
	answeredChallenge                       // ann challenged bob, and bob declined
)

func (s challengeState) String() string {
	return [...]string{"a challenge to a user", "an open challenge", "an expired challenge",
		"an expired open challenge", "an answered challenge"}[s]
}

// challengeOp is an answer to a challenge.
type challengeOp struct {
	phrase string
	do     func(svc *play.Service, id uint64, by play.Seat, at time.Time) (play.Game, play.Challenge, error)
}

var (
	opAccept = challengeOp{"accepts", func(svc *play.Service, id uint64, by play.Seat, at time.Time) (play.Game, play.Challenge, error) {
		r, err := svc.Accept(ctx, id, by, "", at)
		return r.Game, play.Challenge{}, err
	}}
	opDecline = challengeOp{"declines", func(svc *play.Service, id uint64, by play.Seat, at time.Time) (play.Game, play.Challenge, error) {
		c, err := svc.Decline(ctx, id, by.ID, at)
		return play.Game{}, c, err
	}}
	opCancel = challengeOp{"withdraws", func(svc *play.Service, id uint64, by play.Seat, at time.Time) (play.Game, play.Challenge, error) {
		c, err := svc.Cancel(ctx, id, by.ID, at)
		return play.Game{}, c, err
	}}
)

// TestChallengeAnswers tries every answer to a challenge by the
// challenger, the challenged user, a stranger and the taker of an open
// challenge, in every state of a challenge.
func TestChallengeAnswers(t *testing.T) {
	type who struct {
		phrase string
		seat   play.Seat
		want   play.RefusalKind // 0: the answer applies
	}
	challenger := func(k play.RefusalKind) who { return who{"the challenger", ann, k} }
	challenged := func(k play.RefusalKind) who { return who{"the challenged user", bob, k} }
	strangerW := func(k play.RefusalKind) who { return who{"a stranger", cat, k} }
	taker := func(k play.RefusalKind) who { return who{"a user taking it", dan, k} }
	const ok = 0
	tests := []struct {
		state challengeState
		op    challengeOp
		whos  []who
	}{
		{directChallenge, opAccept, []who{challenger(play.SelfChallenge), challenged(ok), strangerW(play.NotYourChallenge)}},
		{directChallenge, opDecline, []who{challenger(play.NotYourChallenge), challenged(ok), strangerW(play.NotYourChallenge)}},
		{directChallenge, opCancel, []who{challenger(ok), challenged(play.NotYourChallenge), strangerW(play.NotYourChallenge)}},

		{openChallenge, opAccept, []who{challenger(play.SelfChallenge), taker(ok)}},
		{openChallenge, opDecline, []who{challenger(play.NotYourChallenge), taker(play.NotYourChallenge)}},
		{openChallenge, opCancel, []who{challenger(ok), taker(play.NotYourChallenge)}},

		{expiredChallenge, opAccept, []who{challenger(play.SelfChallenge), challenged(play.ChallengeExpired), strangerW(play.NotYourChallenge)}},
		{expiredChallenge, opDecline, []who{challenger(play.NotYourChallenge), challenged(ok), strangerW(play.NotYourChallenge)}},
		{expiredChallenge, opCancel, []who{challenger(ok), challenged(play.NotYourChallenge), strangerW(play.NotYourChallenge)}},

		{expiredOpen, opAccept, []who{challenger(play.SelfChallenge), taker(play.ChallengeExpired)}},
		{expiredOpen, opDecline, []who{challenger(play.NotYourChallenge), taker(play.NotYourChallenge)}},
		{expiredOpen, opCancel, []who{challenger(ok), taker(play.NotYourChallenge)}},

		{answeredChallenge, opAccept, []who{challenger(play.NoChallenge), challenged(play.NoChallenge), strangerW(play.NoChallenge)}},
		{answeredChallenge, opDecline, []who{challenger(play.NoChallenge), challenged(play.NoChallenge), strangerW(play.NoChallenge)}},
		{answeredChallenge, opCancel, []who{challenger(play.NoChallenge), challenged(play.NoChallenge), strangerW(play.NoChallenge)}},
	}
	for _, tt := range tests {
		for _, w := range tt.whos {
			outcome := "and it applies"
			if w.want != ok {
				outcome = "and is refused: " + w.want.String()
			}
			t.Run(fmt.Sprintf("%s %s %s %s", w.phrase, tt.op.phrase, tt.state, outcome), func(t *testing.T) {
				svc, st := newService(play.Options{})
				n := play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: bob, Color: play.WhiteSide, DaysPerMove: 3, At: t0}
				if tt.state == openChallenge || tt.state == expiredOpen {
					n.To = play.Seat{}
				}
				c := must(svc.Challenge(ctx, n))(t)
				at := t0.Add(time.Hour)
				switch tt.state {
				case expiredChallenge, expiredOpen:
					at = c.Expires
				case answeredChallenge:
					must(svc.Decline(ctx, c.ID, bob.ID, at))(t)
				}
				snapshot := dump(t, st)
				g, answered, err := tt.op.do(svc, c.ID, w.seat, at)
				if w.want != ok {
					x := wantKind(t, err, w.want)
					if x.Game != c.ID {
						t.Errorf("the refusal names %d, want the challenge %d", x.Game, c.ID)
					}
					if w.want == play.NotYourChallenge {
						may := c.To
						if tt.op.phrase == opCancel.phrase {
							may = c.From
						}
						if x.Who != may {
							t.Errorf("the refusal says %+v may, want %+v", x.Who, may)
						}
					}
					unchanged(t, st, snapshot)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				wantKind(t, func() error { _, err := svc.GetChallenge(ctx, c.ID); return err }(), play.NoChallenge)
				if tt.op.phrase != opAccept.phrase {
					if !reflect.DeepEqual(answered, c) {
						t.Fatalf("answered %+v, want the challenge %+v", answered, c)
					}
					if act := must(svc.ActiveGames(ctx, ann.ID))(t); len(act) != 0 {
						t.Fatalf("a game began: %+v", act)
					}
					return
				}
				want := play.Game{V: g.V, ID: g.ID, Revision: 1, Last: play.Started, Guild: "g1", Channel: "c1",
					White: ann, Black: w.seat, StartFEN: game.StartFEN, FEN: game.StartFEN, Moves: []play.Move{},
					Created: at, Updated: at, DaysPerMove: 3, Deadline: at.Add(72 * time.Hour), RemindAt: at.Add(48 * time.Hour)}
				if !reflect.DeepEqual(g, want) {
					t.Fatalf("game\n%+v\nwant\n%+v", g, want)
				}
				if in := must(svc.GameIn(ctx, "c1"))(t); !reflect.DeepEqual(in, g) {
					t.Fatalf("the channel holds %+v", in)
				}
			})
		}
	}
}

func TestAccept(t *testing.T) {
	challenge := func(t *testing.T, svc *play.Service, color play.Color, to play.Seat) play.Challenge {
		return must(svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: to, Color: color, Rated: true, At: t0}))(t)
	}
	for _, tt := range []struct {
		name  string
		color play.Color
		draw  int // what Options.Rand gives
		white play.Seat
	}{
		{"a challenger asking for White gets White", play.WhiteSide, 1, ann},
		{"a challenger asking for Black gets Black", play.BlackSide, 0, bob},
		{"a random colour drawn 0 gives the challenger White", play.Random, 0, ann},
		{"a random colour drawn 1 gives the challenger Black", play.Random, 1, bob},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := newService(play.Options{Rand: func(n int) int {
				if n != 2 {
					t.Errorf("Rand(%d), want a draw between two colours", n)
				}
				return tt.draw
			}})
			c := challenge(t, svc, tt.color, bob)
			g := must(svc.Accept(ctx, c.ID, bob, "", t0))(t).Game
			if g.White != tt.white || g.Seat(game.Black) == tt.white || !g.Rated {
				t.Fatalf("White %+v, Black %+v, rated %v", g.White, g.Black, g.Rated)
			}
		})
	}

	t.Run("the game of an accepted challenge is played in the channel the front end names", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		c := challenge(t, svc, play.WhiteSide, bob)
		g := must(svc.Accept(ctx, c.ID, bob, "thread1", t0))(t).Game
		if g.Channel != "thread1" || must(svc.GameIn(ctx, "thread1"))(t).ID != g.ID {
			t.Fatalf("game in %q", g.Channel)
		}
		wantKind(t, func() error { _, err := svc.GameIn(ctx, "c1"); return err }(), play.NoGame)
	})

	t.Run("a challenge in a DM of the players gives a game there that stays private", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		c := must(svc.Challenge(ctx, play.NewChallenge{Channel: "dm1", From: ann, To: bob, Rated: true, At: t0, Private: true}))(t)
		if !must(svc.GetChallenge(ctx, c.ID))(t).Private {
			t.Fatal("the stored challenge forgot it is private")
		}
		g := must(svc.Accept(ctx, c.ID, bob, "", t0))(t).Game
		if !g.Private || g.Channel != "dm1" || g.Guild != "" || !g.Rated {
			t.Fatalf("game %+v, want a private, rated game in dm1", g)
		}
		if got := must(svc.GameIn(ctx, "dm1"))(t); !got.Private || got.ID != g.ID {
			t.Fatalf("the DM's game %+v, want game %d, private", got, g.ID)
		}
	})

	t.Run("the acceptor keeps the name the challenge gave when the front end gives none", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		c := challenge(t, svc, play.WhiteSide, bob)
		g := must(svc.Accept(ctx, c.ID, play.Seat{ID: bob.ID}, "", t0))(t).Game
		if g.Black != bob {
			t.Fatalf("Black %+v, want %+v", g.Black, bob)
		}
	})

	t.Run("accepting into a busy channel is refused and the challenge still waits", func(t *testing.T) {
		svc, st := newService(play.Options{})
		must(svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: cat, Black: dan, At: t0}))(t)
		c := challenge(t, svc, play.WhiteSide, bob)
		snapshot := dump(t, st)
		_, err := svc.Accept(ctx, c.ID, bob, "", t0)
		wantKind(t, err, play.ChannelBusy)
		unchanged(t, st, snapshot)
		if _, err := svc.Accept(ctx, c.ID, bob, "thread1", t0); err != nil {
			t.Fatalf("accepting into a free thread afterwards: %v", err)
		}
	})

	t.Run("of many users taking an open challenge at once, exactly one gets the game", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		c := challenge(t, svc, play.WhiteSide, play.Seat{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		var got []play.Game
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := svc.Accept(ctx, c.ID, play.Seat{ID: fmt.Sprint("taker", i)}, fmt.Sprint("thread", i), t0)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					got = append(got, r.Game)
				case !isKind(err, play.NoChallenge):
					t.Errorf("taker %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if len(got) != 1 {
			t.Fatalf("%d games from one challenge", len(got))
		}
		if act := must(svc.ActiveGames(ctx, ann.ID))(t); len(act) != 1 {
			t.Fatalf("ann has %d games", len(act))
		}
	})
}

func TestExpire(t *testing.T) {
	svc, st := newService(play.Options{ChallengeTTL: time.Hour})
	var cs []play.Challenge
	for i, to := range []play.Seat{bob, cat, {}} {
		cs = append(cs, must(svc.Challenge(ctx, play.NewChallenge{Channel: "c1", From: ann, To: to, At: t0.Add(time.Duration(i) * time.Minute)}))(t))
	}
	ids := func(cs []play.Challenge) []uint64 {
		var out []uint64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}

	t.Run("before any challenge expires, nothing is removed", func(t *testing.T) {
		snapshot := dump(t, st)
		if got := must(svc.Expire(ctx, cs[0].Expires.Add(-time.Millisecond), 10))(t); len(got) != 0 {
			t.Fatalf("expired %v", ids(got))
		}
		unchanged(t, st, snapshot)
	})
	t.Run("challenges whose time ran out are removed, earliest first, at most limit at a time", func(t *testing.T) {
		got := must(svc.Expire(ctx, cs[2].Expires, 2))(t)
		if !reflect.DeepEqual(got, cs[:2]) {
			t.Fatalf("expired %v, want %v", ids(got), ids(cs[:2]))
		}
		got = must(svc.Expire(ctx, cs[2].Expires, 2))(t)
		if !reflect.DeepEqual(got, cs[2:]) {
			t.Fatalf("then expired %v, want %v", ids(got), ids(cs[2:]))
		}
	})
	t.Run("an expired challenge can no longer be accepted, declined or withdrawn", func(t *testing.T) {
		for _, c := range cs {
			_, err := svc.Accept(ctx, c.ID, dan, "", t0)
			wantKind(t, err, play.NoChallenge)
			_, err = svc.Decline(ctx, c.ID, c.To.ID, t0)
			wantKind(t, err, play.NoChallenge)
			_, err = svc.Cancel(ctx, c.ID, ann.ID, t0)
			wantKind(t, err, play.NoChallenge)
		}
	})
}

func TestChallengeMessage(t *testing.T) {
	svc, _ := newService(play.Options{})
	c := must(svc.Challenge(ctx, play.NewChallenge{Channel: "c1", From: ann, To: bob, At: t0}))(t)
	if err := svc.SetChallengeMessage(ctx, c.ID, "m1"); err != nil {
		t.Fatal(err)
	}
	if got := must(svc.GetChallenge(ctx, c.ID))(t); got.Message != "m1" {
		t.Fatalf("message %q, want m1", got.Message)
	}
	wantKind(t, svc.SetChallengeMessage(ctx, c.ID+1, "m2"), play.NoChallenge)
}

func TestStart(t *testing.T) {
	base := func() play.NewGame {
		return play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, DaysPerMove: 1, At: t0}
	}
	tests := []struct {
		name string
		edit func(*play.NewGame)
		want play.RefusalKind
	}{
		{"a game from the ice start starts", func(*play.NewGame) {}, 0},
		{"a rated game without a time limit starts", func(n *play.NewGame) { n.Rated, n.DaysPerMove = true, 0 }, 0},
		{"a game from a position with Black to move starts", func(n *play.NewGame) { n.StartFEN = "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20" }, 0},
		{"a game of one user against themself is refused", func(n *play.NewGame) { n.Black = play.Seat{ID: ann.ID, Name: "Ann again"} }, play.SelfChallenge},
		{"a game of four days per move is refused", func(n *play.NewGame) { n.DaysPerMove = 4 }, play.BadTimeControl},
		{"a game from a position that does not read is refused", func(n *play.NewGame) { n.StartFEN = "rnbqkbnr" }, play.BadPosition},
		{"a game from a stalemate is refused", func(n *play.NewGame) { n.StartFEN = "7k/8/5KQ1/8/8/8/8/8 b - - 1 1" }, play.BadPosition},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, st := newService(play.Options{})
			n := base()
			tt.edit(&n)
			snapshot := dump(t, st)
			r, err := svc.Start(ctx, n)
			if tt.want != 0 {
				wantKind(t, err, tt.want)
				if !reflect.DeepEqual(r, play.Result{}) {
					t.Errorf("a refused start returned a result: %+v", r)
				}
				unchanged(t, st, snapshot)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := r.Game
			start := n.StartFEN
			if start == "" {
				start = game.StartFEN
			}
			p := must(game.ParseFEN(start))(t)
			want := play.Game{V: g.V, ID: g.ID, Revision: 1, Last: play.Started, Guild: "g1", Channel: "c1",
				White: ann, Black: bob, StartFEN: start, FEN: p.FEN(), Moves: []play.Move{},
				Created: t0, Updated: t0, Rated: n.Rated, DaysPerMove: n.DaysPerMove}
			if n.DaysPerMove > 0 {
				want.Deadline = t0.Add(time.Duration(n.DaysPerMove) * 24 * time.Hour)
				want.RemindAt = want.Deadline.Add(-6 * time.Hour) // a quarter of a single day
			}
			if r.Event != play.Started || !reflect.DeepEqual(g, want) {
				t.Fatalf("%q\n%+v\nwant\n%+v", r.Event, g, want)
			}
			if back := stored(t, svc, g.ID); !reflect.DeepEqual(back, g) {
				t.Fatalf("stored %+v", back)
			}
		})
	}

	t.Run("a second game in a channel is refused", func(t *testing.T) {
		svc, st := newService(play.Options{})
		must(svc.Start(ctx, base()))(t)
		snapshot := dump(t, st)
		n := base()
		n.White, n.Black = cat, dan
		_, err := svc.Start(ctx, n)
		wantKind(t, err, play.ChannelBusy)
		unchanged(t, st, snapshot)
	})

	t.Run("a game without a time, a channel or two players is a programming error, not a refusal", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		for _, edit := range []func(*play.NewGame){
			func(n *play.NewGame) { n.At = time.Time{} },
			func(n *play.NewGame) { n.Channel = "" },
			func(n *play.NewGame) { n.White = play.Seat{} },
			func(n *play.NewGame) { n.Black = play.Seat{} },
		} {
			n := base()
			edit(&n)
			var x *play.Refusal
			if _, err := svc.Start(ctx, n); err == nil || errors.As(err, &x) {
				t.Errorf("start %+v: %v, want a plain error", n, err)
			}
		}
	})
}
