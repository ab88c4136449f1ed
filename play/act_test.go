package play_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// state is a situation the acts of a game are tried in.
type state int

const (
	pendingChallenge  state = iota // ann has challenged bob; no game yet
	justStarted                    // bob accepted; no move yet, ann (White) to move
	ongoing                        // 1. hxg3 Nxf6: ann to move, bob moved last
	drawOffered                    // ongoing, and bob offered a draw
	takebackRequested              // ongoing, and bob asked to take back Nxf6
	over                           // ongoing, and bob resigned
)

func (s state) String() string {
	return [...]string{"with a challenge pending", "in a game just started", "in an ongoing game",
		"with a draw offered", "with a takeback requested", "in a game that is over"}[s]
}

// fixture is a storage in a state: the game (zero while only the
// challenge is pending), the challenge that made it, and the time of the
// next act.
type fixture struct {
	svc       *play.Service
	st        play.Storage
	game      play.Game
	challenge play.Challenge
	at        time.Time
}

// setUp builds s on a new storage: ann challenges bob (ann White, casual,
// three days per move) and bob accepts, then the moves and offers of s.
func setUp(t testing.TB, s state) *fixture {
	t.Helper()
	svc, st := newService(play.Options{})
	f := &fixture{svc: svc, st: st, at: t0}
	f.challenge = must(svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: bob,
		Color: play.WhiteSide, DaysPerMove: 3, At: f.at}))(t)
	if s == pendingChallenge {
		f.at = f.at.Add(time.Hour)
		return f
	}
	f.next()
	f.game = must(svc.Accept(ctx, f.challenge.ID, bob, "", f.at))(t).Game
	if s == justStarted {
		f.next()
		return f
	}
	f.game = playMoves(t, svc, f.game, "hxg3", "Nxf6")
	f.at = f.game.Updated
	f.next()
	var r play.Result
	var err error
	switch s {
	case drawOffered:
		r, err = svc.OfferDraw(ctx, act(bob, f.game, f.at))
	case takebackRequested:
		r, err = svc.RequestTakeback(ctx, act(bob, f.game, f.at))
	case over:
		r, err = svc.Resign(ctx, act(bob, f.game, f.at))
	default:
		return f
	}
	f.game = must(r, err)(t).Game
	f.next()
	return f
}

func (f *fixture) next() { f.at = f.at.Add(time.Minute) }

// role is who asks.
type role int

const (
	toMove   role = iota // ann: the player to move (White) in every state with a game
	opponent             // bob: the other player, who moved last
	stranger             // cat: plays in no game
)

func (r role) seat() play.Seat { return [...]play.Seat{ann, bob, cat}[r] }

func (r role) phrase(s state) string {
	if s == pendingChallenge {
		return [...]string{"the challenger", "the challenged user", "a stranger"}[r]
	}
	return [...]string{"the player to move", "the opponent", "a stranger"}[r]
}

// op is one of the acts on a game that name who asks and a revision.
type op struct {
	name   string // the method
	phrase string // what the asker does, for the test's name
	do     func(f *fixture, a play.Act) (play.Result, error)
}

var (
	opMove = op{"Move", "plays a move", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.Move(ctx, a, f.legalMove())
	}}
	opOfferDraw = op{"OfferDraw", "offers a draw", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.OfferDraw(ctx, a)
	}}
	opAcceptDraw = op{"AcceptDraw", "accepts a draw", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.AcceptDraw(ctx, a)
	}}
	opDeclineDraw = op{"DeclineDraw", "declines a draw", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.DeclineDraw(ctx, a)
	}}
	opWithdrawDraw = op{"WithdrawDraw", "withdraws a draw offer", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.WithdrawDraw(ctx, a)
	}}
	opRequestTakeback = op{"RequestTakeback", "asks for a takeback", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.RequestTakeback(ctx, a)
	}}
	opAcceptTakeback = op{"AcceptTakeback", "grants a takeback", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.AcceptTakeback(ctx, a)
	}}
	opDeclineTakeback = op{"DeclineTakeback", "refuses a takeback", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.DeclineTakeback(ctx, a)
	}}
	opWithdrawTakeback = op{"WithdrawTakeback", "withdraws a takeback request", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.WithdrawTakeback(ctx, a)
	}}
	opAbort = op{"Abort", "aborts", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.Abort(ctx, a)
	}}
	opResign = op{"Resign", "resigns", func(f *fixture, a play.Act) (play.Result, error) {
		return f.svc.Resign(ctx, a)
	}}
)

// legalMove returns a legal move of the fixture's game in SAN (a move of
// the ice start when there is no game), for whoever tries to play it.
func (f *fixture) legalMove() string {
	if f.game.ID == 0 {
		return "hxg3"
	}
	if f.game.Over() {
		return "gxh4"
	}
	pos, err := f.game.Position()
	sans := pos.SANs()
	if err != nil || len(sans) == 0 {
		panic(fmt.Sprintf("no legal move in game %+v: %v", f.game, err))
	}
	return sans[0].SAN
}

// act names the fixture's game at its revision (the challenge's id while
// there is no game: an id that names no game).
func (f *fixture) act(r role) play.Act {
	a := play.Act{By: r.seat().ID, Game: f.game.ID, Revision: f.game.Revision, At: f.at}
	if f.game.ID == 0 {
		a.Game, a.Revision = f.challenge.ID, 1
	}
	return a
}

// want is what an act should do: apply with an Event, or be refused.
type want struct {
	event play.Event
	kind  play.RefusalKind
}

func does(e play.Event) want          { return want{event: e} }
func refused(k play.RefusalKind) want { return want{kind: k} }
func (w want) applies() bool          { return w.kind == 0 }
func (w want) phrase() string {
	if w.applies() {
		return "and it applies: " + w.event.String()
	}
	return "and is refused: " + w.kind.String()
}

// actMatrix says, for every act on a game and every state, what each role
// gets. ann is to move in every state with a game; bob moved last and, in
// the offer states, made the offer.
var actMatrix = []struct {
	op                         op
	state                      state
	toMove, opponent, stranger want
}{
	{opMove, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opMove, justStarted, does(play.Moved), refused(play.NotYourTurn), refused(play.NotAPlayer)},
	{opMove, ongoing, does(play.Moved), refused(play.NotYourTurn), refused(play.NotAPlayer)},
	{opMove, drawOffered, does(play.Moved), refused(play.NotYourTurn), refused(play.NotAPlayer)},
	{opMove, takebackRequested, does(play.Moved), refused(play.NotYourTurn), refused(play.NotAPlayer)},
	{opMove, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opOfferDraw, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opOfferDraw, justStarted, does(play.DrawOffered), does(play.DrawOffered), refused(play.NotAPlayer)},
	{opOfferDraw, ongoing, does(play.DrawOffered), does(play.DrawOffered), refused(play.NotAPlayer)},
	// Offering a draw to a player who offered one agrees it.
	{opOfferDraw, drawOffered, does(play.Ended), refused(play.OfferPending), refused(play.NotAPlayer)},
	{opOfferDraw, takebackRequested, does(play.DrawOffered), does(play.DrawOffered), refused(play.NotAPlayer)},
	{opOfferDraw, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opAcceptDraw, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opAcceptDraw, justStarted, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opAcceptDraw, ongoing, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opAcceptDraw, drawOffered, does(play.Ended), refused(play.OwnOffer), refused(play.NotAPlayer)},
	{opAcceptDraw, takebackRequested, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opAcceptDraw, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opDeclineDraw, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opDeclineDraw, justStarted, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opDeclineDraw, ongoing, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opDeclineDraw, drawOffered, does(play.DrawDeclined), refused(play.OwnOffer), refused(play.NotAPlayer)},
	{opDeclineDraw, takebackRequested, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opDeclineDraw, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opWithdrawDraw, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opWithdrawDraw, justStarted, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opWithdrawDraw, ongoing, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opWithdrawDraw, drawOffered, refused(play.NotYourOffer), does(play.DrawWithdrawn), refused(play.NotAPlayer)},
	{opWithdrawDraw, takebackRequested, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opWithdrawDraw, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opRequestTakeback, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opRequestTakeback, justStarted, refused(play.NothingToTakeBack), refused(play.NothingToTakeBack), refused(play.NotAPlayer)},
	{opRequestTakeback, ongoing, does(play.TakebackRequested), does(play.TakebackRequested), refused(play.NotAPlayer)},
	{opRequestTakeback, drawOffered, does(play.TakebackRequested), does(play.TakebackRequested), refused(play.NotAPlayer)},
	{opRequestTakeback, takebackRequested, refused(play.OfferPending), refused(play.OfferPending), refused(play.NotAPlayer)},
	{opRequestTakeback, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opAcceptTakeback, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opAcceptTakeback, justStarted, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opAcceptTakeback, ongoing, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opAcceptTakeback, drawOffered, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opAcceptTakeback, takebackRequested, does(play.TookBack), refused(play.OwnOffer), refused(play.NotAPlayer)},
	{opAcceptTakeback, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opDeclineTakeback, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opDeclineTakeback, justStarted, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opDeclineTakeback, ongoing, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opDeclineTakeback, drawOffered, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opDeclineTakeback, takebackRequested, does(play.TakebackDeclined), refused(play.OwnOffer), refused(play.NotAPlayer)},
	{opDeclineTakeback, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opWithdrawTakeback, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opWithdrawTakeback, justStarted, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opWithdrawTakeback, ongoing, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opWithdrawTakeback, drawOffered, refused(play.NoOffer), refused(play.NoOffer), refused(play.NotAPlayer)},
	{opWithdrawTakeback, takebackRequested, refused(play.NotYourOffer), does(play.TakebackWithdrawn), refused(play.NotAPlayer)},
	{opWithdrawTakeback, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opAbort, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opAbort, justStarted, does(play.Ended), does(play.Ended), refused(play.NotAPlayer)},
	{opAbort, ongoing, refused(play.TooLateToAbort), refused(play.TooLateToAbort), refused(play.NotAPlayer)},
	{opAbort, drawOffered, refused(play.TooLateToAbort), refused(play.TooLateToAbort), refused(play.NotAPlayer)},
	{opAbort, takebackRequested, refused(play.TooLateToAbort), refused(play.TooLateToAbort), refused(play.NotAPlayer)},
	{opAbort, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},

	{opResign, pendingChallenge, refused(play.NoGame), refused(play.NoGame), refused(play.NoGame)},
	{opResign, justStarted, does(play.Ended), does(play.Ended), refused(play.NotAPlayer)},
	{opResign, ongoing, does(play.Ended), does(play.Ended), refused(play.NotAPlayer)},
	{opResign, drawOffered, does(play.Ended), does(play.Ended), refused(play.NotAPlayer)},
	{opResign, takebackRequested, does(play.Ended), does(play.Ended), refused(play.NotAPlayer)},
	{opResign, over, refused(play.GameOver), refused(play.GameOver), refused(play.NotAPlayer)},
}

// TestActs tries every act on a game in every state by every role. An act
// applied bumps the revision by one, says what happened and is what the
// storage holds; a refused one has its kind and changes nothing stored.
func TestActs(t *testing.T) {
	for _, row := range actMatrix {
		for r, w := range []want{row.toMove, row.opponent, row.stranger} {
			r := role(r)
			name := fmt.Sprintf("%s, %s %s %s", row.state, r.phrase(row.state), row.op.phrase, w.phrase())
			t.Run(name, func(t *testing.T) {
				f := setUp(t, row.state)
				before, snapshot := f.game, dump(t, f.st)
				a := f.act(r)
				res, err := row.op.do(f, a)
				if !w.applies() {
					x := wantKind(t, err, w.kind)
					if x.Game != a.Game {
						t.Errorf("the refusal names game %d, the act game %d", x.Game, a.Game)
					}
					if !reflect.DeepEqual(res, play.Result{}) {
						t.Errorf("a refused act returned a result: %+v", res)
					}
					unchanged(t, f.st, snapshot)
					return
				}
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				checkApplied(t, f, before, a, res, w.event)
			})
		}
	}
}

// checkApplied checks what every applied act must do, and what its event
// says it did.
func checkApplied(t *testing.T, f *fixture, before play.Game, a play.Act, res play.Result, ev play.Event) {
	t.Helper()
	g := res.Game
	switch {
	case res.Event != ev:
		t.Fatalf("event %q, want %q", res.Event, ev)
	case g.ID != before.ID:
		t.Fatalf("acted on game %d, asked for %d", g.ID, before.ID)
	case g.Revision != before.Revision+1:
		t.Fatalf("revision %d after %d, want it bumped by one", g.Revision, before.Revision)
	case g.Last != ev:
		t.Fatalf("Last %q, want %q", g.Last, ev)
	case !g.Updated.Equal(a.At):
		t.Fatalf("Updated %v, want the act's time %v", g.Updated, a.At)
	}
	if back := stored(t, f.svc, g.ID); !reflect.DeepEqual(back, g) {
		t.Fatalf("the result is not what is stored:\nresult %+v\nstored %+v", g, back)
	}
	if err := replays(&g); err != nil {
		t.Fatal(err)
	}
	moved := res.Move != nil
	if moved != (ev == play.Moved) {
		t.Fatalf("event %q with move %+v", ev, res.Move)
	}
	switch ev {
	case play.Moved:
		if g.Ply() != before.Ply()+1 || g.DrawOffer != nil || g.Takeback != nil || g.FEN != res.Move.After.FEN() {
			t.Fatalf("after a move: ply %d (was %d), offer %v, takeback %v, FEN %s",
				g.Ply(), before.Ply(), g.DrawOffer, g.Takeback, g.FEN)
		}
		if !g.Deadline.Equal(a.At.Add(time.Duration(g.DaysPerMove) * 24 * time.Hour)) {
			t.Fatalf("deadline %v after a move at %v", g.Deadline, a.At)
		}
	case play.DrawOffered:
		if g.DrawOffer == nil || g.DrawOffer.By != a.By || g.DrawOffer.Ply != g.Ply() {
			t.Fatalf("draw offer %+v, want one by %s at ply %d", g.DrawOffer, a.By, g.Ply())
		}
	case play.TakebackRequested:
		if g.Takeback == nil || g.Takeback.By != a.By || g.Takeback.Ply != g.Ply() {
			t.Fatalf("takeback request %+v, want one by %s at ply %d", g.Takeback, a.By, g.Ply())
		}
	case play.DrawDeclined, play.DrawWithdrawn:
		if g.DrawOffer != nil {
			t.Fatalf("the offer is still there: %+v", g.DrawOffer)
		}
	case play.TakebackDeclined, play.TakebackWithdrawn:
		if g.Takeback != nil {
			t.Fatalf("the request is still there: %+v", g.Takeback)
		}
	case play.TookBack:
		if res.TakenBack < 1 || g.Ply() != before.Ply()-res.TakenBack || g.Takeback != nil || g.DrawOffer != nil {
			t.Fatalf("took back %d plies: ply %d (was %d), takeback %v", res.TakenBack, g.Ply(), before.Ply(), g.Takeback)
		}
	case play.Ended:
		if !g.Over() || !g.Ended.Equal(a.At) || !g.Deadline.IsZero() || g.DrawOffer != nil || g.Takeback != nil {
			t.Fatalf("an ended game: %+v", g)
		}
	}
	if ev != play.Ended && ev != play.Moved && g.Ply() == before.Ply() && g.FEN != before.FEN {
		t.Fatalf("%q changed the position", ev)
	}
}

// TestStaleActs: every act that would apply is refused as stale at a
// revision older or newer than the game's, says what changed it last, and
// changes nothing.
func TestStaleActs(t *testing.T) {
	for _, row := range actMatrix {
		for r, w := range []want{row.toMove, row.opponent, row.stranger} {
			if !w.applies() {
				continue
			}
			r := role(r)
			for _, delta := range []int{-1, +1} {
				when := "older"
				if delta > 0 {
					when = "newer"
				}
				name := fmt.Sprintf("%s, %s %s at an %s revision and is refused as stale", row.state, r.phrase(row.state), row.op.phrase, when)
				t.Run(name, func(t *testing.T) {
					f := setUp(t, row.state)
					snapshot := dump(t, f.st)
					a := f.act(r)
					a.Revision += delta
					_, err := row.op.do(f, a)
					x := wantKind(t, err, play.Stale)
					if x.Revision != f.game.Revision || x.Last != f.game.Last || x.Game != f.game.ID {
						t.Errorf("refusal %+v, want revision %d, last %q, game %d", x, f.game.Revision, f.game.Last, f.game.ID)
					}
					unchanged(t, f.st, snapshot)
				})
			}
		}
	}
}

// TestActsAfterTheDeadline: once the deadline has passed, the side to
// move has lost on time. Until TimeOut records it, no act of either player
// may change the game — not a move, nor the acceptance of a draw offered
// earlier, nor a takeback that would restart the clock — and then TimeOut
// ends it on time.
func TestActsAfterTheDeadline(t *testing.T) {
	for _, row := range actMatrix {
		switch row.state {
		case pendingChallenge, over:
			continue
		}
		for _, r := range []role{toMove, opponent} {
			name := fmt.Sprintf("%s, after the deadline, %s %s and is refused: time up", row.state, r.phrase(row.state), row.op.phrase)
			t.Run(name, func(t *testing.T) {
				f := setUp(t, row.state)
				snapshot := dump(t, f.st)
				a := f.act(r)
				a.At = f.game.Deadline
				_, err := row.op.do(f, a)
				if x := wantKind(t, err, play.TimeUp); !x.Deadline.Equal(f.game.Deadline) {
					t.Errorf("the refusal says the deadline was %v, want %v", x.Deadline, f.game.Deadline)
				}
				unchanged(t, f.st, snapshot)
				g := must(f.svc.TimeOut(ctx, f.game.ID, a.At))(t).Game
				if g.Outcome != game.WinFor(f.game.Turn().Other(), game.Timeout) {
					t.Fatalf("then the timeout gives %+v", g.Outcome)
				}
			})
		}
	}
}

func TestTimeOut(t *testing.T) {
	deadline := func(f *fixture) time.Time { return f.game.Deadline }
	tests := []struct {
		name  string
		state state
		days  int // 0: the fixture's three days
		at    func(f *fixture) time.Time
		want  want
	}{
		{"a timeout of a challenge's id is refused: there is no such game", pendingChallenge, 0,
			func(f *fixture) time.Time { return f.at.Add(1000 * time.Hour) }, refused(play.NoGame)},
		{"a timeout before the deadline is refused as not yet due", ongoing, 0,
			func(f *fixture) time.Time { return f.game.Deadline.Add(-time.Millisecond) }, refused(play.NotYetDue)},
		{"a timeout at the deadline ends the game", ongoing, 0, deadline, does(play.Ended)},
		{"a timeout long after the deadline ends the game at the deadline", ongoing, 0,
			func(f *fixture) time.Time { return f.game.Deadline.Add(500 * time.Hour) }, does(play.Ended)},
		{"a timeout of a game just started ends it: White never moved", justStarted, 0, deadline, does(play.Ended)},
		{"a timeout with a draw offered ends the game and the offer lapses", drawOffered, 0, deadline, does(play.Ended)},
		{"a timeout with a takeback requested ends the game and the request lapses", takebackRequested, 0, deadline, does(play.Ended)},
		{"a timeout of a game over is refused: the game is over", over, 0,
			func(f *fixture) time.Time { return f.at.Add(1000 * time.Hour) }, refused(play.GameOver)},
		{"a timeout of a game without a time limit is never due", ongoing, -1,
			func(f *fixture) time.Time { return f.at.Add(100000 * time.Hour) }, refused(play.NotYetDue)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f *fixture
			if tt.days < 0 {
				svc, st := newService(play.Options{})
				g := playMoves(t, svc, startFrom(t, svc, "", 0), "hxg3", "Nxf6")
				f = &fixture{svc: svc, st: st, game: g, at: g.Updated.Add(time.Minute)}
			} else {
				f = setUp(t, tt.state)
			}
			before, snapshot := f.game, dump(t, f.st)
			id := f.game.ID
			if id == 0 {
				id = f.challenge.ID
			}
			at := tt.at(f)
			res, err := f.svc.TimeOut(ctx, id, at)
			if !tt.want.applies() {
				x := wantKind(t, err, tt.want.kind)
				if tt.want.kind == play.NotYetDue && !x.Deadline.Equal(f.game.Deadline) {
					t.Errorf("NotYetDue says the deadline is %v, want %v", x.Deadline, f.game.Deadline)
				}
				if tt.want.kind == play.GameOver && x.Outcome != f.game.Outcome {
					t.Errorf("GameOver says %+v, want %+v", x.Outcome, f.game.Outcome)
				}
				unchanged(t, f.st, snapshot)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := res.Game
			loser := before.Turn()
			switch {
			case res.Event != play.Ended || g.Last != play.Ended:
				t.Fatalf("event %q, last %q", res.Event, g.Last)
			case g.Revision != before.Revision+1:
				t.Fatalf("revision %d after %d", g.Revision, before.Revision)
			case g.Outcome != game.WinFor(loser.Other(), game.Timeout):
				t.Fatalf("outcome %+v, want %s to lose on time", g.Outcome, loser)
			case !g.Ended.Equal(before.Deadline) || !g.Updated.Equal(before.Deadline):
				t.Fatalf("ended %v, updated %v; want the deadline %v", g.Ended, g.Updated, before.Deadline)
			case g.DrawOffer != nil || g.Takeback != nil || !g.Deadline.IsZero() || !g.RemindAt.IsZero():
				t.Fatalf("a game lost on time still has offers or a clock: %+v", g)
			}
			if back := stored(t, f.svc, g.ID); !reflect.DeepEqual(back, g) {
				t.Fatalf("result %+v, stored %+v", g, back)
			}
		})
	}
}
