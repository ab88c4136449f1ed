package play_test

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

func TestParseTimeControl(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
		kind play.TimeControlProblem
	}{
		{"5+3", "5+3", 0},
		{" 10 + 5 ", "10+5", 0},
		{"3|2", "3+2", 0},
		{"15", "15+0", 0},
		{"1+0", "1+0", 0},
		{"180+180", "180+180", 0},
		{"0+5", "", play.TimeLimitRange},
		{"181+0", "", play.TimeLimitRange},
		{"5+181", "", play.TimeIncrementRange},
		{"", "", play.TimeNotReadable},
		{"5+", "", play.TimeNotReadable},
		{"+3", "", play.TimeNotReadable},
		{"-1+3", "", play.TimeNotReadable},
		{"five", "", play.TimeNotReadable},
		{"5+3+1", "", play.TimeNotReadable},
		{"99999+0", "", play.TimeNotReadable},
		{"５+３", "", play.TimeNotReadable},
	} {
		tc, err := play.ParseTimeControl(tt.in)
		var e *play.TimeControlError
		switch {
		case tt.kind == 0 && err != nil:
			t.Errorf("%q: %v", tt.in, err)
		case tt.kind == 0 && tc.String() != tt.want:
			t.Errorf("%q reads as %q, want %q", tt.in, tc.String(), tt.want)
		case tt.kind != 0 && (!errors.As(err, &e) || e.Kind != tt.kind):
			t.Errorf("%q: got %v, %v; want problem %d", tt.in, tc, err, tt.kind)
		}
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"5+3", "1+0", "180+180", "10 | 5", "", "+", "0+0", "9999+9999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := play.ParseTimeControl(s)
		if err != nil {
			var e *play.TimeControlError
			if !errors.As(err, &e) || e.Error() == "" {
				t.Fatalf("%q: error %v is no *TimeControlError", s, err)
			}
			return
		}
		if !tc.Live() || !tc.Valid() {
			t.Fatalf("%q reads as %+v, not a live time control in range", s, tc)
		}
		back, err := play.ParseTimeControl(tc.String())
		if err != nil || back != tc {
			t.Fatalf("%q → %q → %+v, %v", s, tc.String(), back, err)
		}
	})
}

func TestSpeeds(t *testing.T) {
	for _, tt := range []struct {
		tc   string
		want play.Speed
	}{
		{"1+0", play.Bullet}, {"2+1", play.Bullet}, {"3+0", play.Blitz}, {"3+2", play.Blitz},
		{"5+3", play.Blitz}, {"8+0", play.Rapid}, {"10+5", play.Rapid}, {"15+10", play.Rapid},
		{"25+0", play.Classical}, {"15+15", play.Classical}, {"180+180", play.Classical},
	} {
		tc := must(play.ParseTimeControl(tt.tc))(t)
		if got := tc.Speed(); got != tt.want {
			t.Errorf("%s is %v, want %v", tt.tc, got, tt.want)
		}
	}
	if got := (play.TimeControl{}).Speed(); got != play.Correspondence {
		t.Errorf("no time control is %v", got)
	}
	for _, s := range play.Speeds {
		if got, ok := play.ParseSpeed(s.String()); !ok || got != s {
			t.Errorf("%v does not read back", s)
		}
	}
}

// liveGame starts a game of tc between ann (White) and bob at t0, from
// fen ("" for the start), and plays White's first move at first (the
// clocks run from then on).
func liveGame(t *testing.T, svc *play.Service, tc string, fen string, first time.Time) play.Game {
	t.Helper()
	g := must(svc.Start(ctx, play.NewGame{Channel: "c1", White: ann, Black: bob, Rated: true,
		Time: must(play.ParseTimeControl(tc))(t), StartFEN: fen, At: t0}))(t).Game
	if g.Clock == nil || g.Clock.Running() || !g.Deadline.Equal(t0.Add(play.FirstMoveTime)) {
		t.Fatalf("a new live game has clocks %+v and deadline %v", g.Clock, g.Deadline)
	}
	if first.IsZero() {
		return g
	}
	return must(svc.Move(ctx, sent(act(ann, g, first), first), anyMove(t, g)))(t).Game
}

// sent is a, sent when it arrived: no lag.
func sent(a play.Act, at time.Time) play.Act {
	a.Sent = at
	return a
}

// anyMove returns a legal move of g's side to move.
func anyMove(t *testing.T, g play.Game) string {
	t.Helper()
	pos := must(g.Position())(t)
	moves := pos.LegalMoves(nil)
	if len(moves) == 0 {
		t.Fatalf("no legal move in %s", g.FEN)
	}
	return moves[0].UCI()
}

func TestLiveClocks(t *testing.T) {
	t.Run("the first move costs nothing; then each move is charged from the board to the act, and earns the increment", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := liveGame(t, svc, "2+1", "", t0.Add(10*time.Second))
		k := g.Clock
		if !k.Running() || k.Left != [2]time.Duration{2 * time.Minute, 2 * time.Minute} || !k.Since.Equal(t0.Add(10*time.Second)) {
			t.Fatalf("after the first move the clocks are %+v", k)
		}
		at := t0.Add(25 * time.Second) // Black thought for 15 s
		g = must(svc.Move(ctx, sent(act(bob, g, at), at), anyMove(t, g)))(t).Game
		if want := 2*time.Minute - 15*time.Second + time.Second; g.Clock.Left[game.Black] != want {
			t.Fatalf("Black has %v left, want %v", g.Clock.Left[game.Black], want)
		}
		if want := at.Add(2*time.Minute + g.Clock.Grace(game.White)); !g.Deadline.Equal(want) {
			t.Fatalf("White's deadline is %v, want %v", g.Deadline, want)
		}
		if got := g.Clock.LeftAt(game.White, g.Turn(), at.Add(30*time.Second)); got != 90*time.Second {
			t.Fatalf("30 s into White's turn, White has %v", got)
		}
		if got := g.Clock.LeftAt(game.Black, g.Turn(), at.Add(30*time.Second)); got != g.Clock.Left[game.Black] {
			t.Fatalf("Black's clock ran on White's turn: %v", got)
		}
		if back := stored(t, svc, g.ID); asJSON(back) != asJSON(g) {
			t.Fatalf("stored %s\nwant %s", asJSON(back), asJSON(g))
		}
	})

	t.Run("lag is compensated, at most a second a move, from a quota that moves refill", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		start := t0.Add(time.Second)
		g := liveGame(t, svc, "10+0", "", start)
		// Black's act took 400 ms on the way: it is charged 10 s − 400 ms.
		at := start.Add(10 * time.Second)
		a := act(bob, g, at)
		a.Sent = at.Add(-400 * time.Millisecond)
		g = must(svc.Move(ctx, a, anyMove(t, g)))(t).Game
		if want := 10*time.Minute - 10*time.Second + 400*time.Millisecond; g.Clock.Left[game.Black] != want {
			t.Fatalf("Black has %v, want %v", g.Clock.Left[game.Black], want)
		}
		// White's act claims five seconds of lag: a second at most.
		at2 := at.Add(20 * time.Second)
		a = act(ann, g, at2)
		a.Sent = at2.Add(-5 * time.Second)
		g = must(svc.Move(ctx, a, anyMove(t, g)))(t).Game
		if want := 10*time.Minute - 20*time.Second + time.Second; g.Clock.Left[game.White] != want {
			t.Fatalf("White has %v, want %v", g.Clock.Left[game.White], want)
		}
	})

	t.Run("a second of lag every move drains the quota of a fast game, and the compensation with it", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := liveGame(t, svc, "1+0", "", t0.Add(time.Second))
		quota := g.Clock.Lag[game.Black].Quota
		var comps []time.Duration
		for range 16 {
			at := g.Updated.Add(time.Second)
			c := g.Turn()
			before := g.Clock.Left[c]
			a := act([]play.Seat{ann, bob}[c], g, at)
			a.Sent = at
			if c == game.Black {
				a.Sent = at.Add(-time.Second)
			}
			g = must(svc.Move(ctx, a, anyMove(t, g)))(t).Game
			if c == game.Black {
				comps = append(comps, g.Clock.Left[c]-(before-time.Second))
			}
		}
		if comps[0] != quota || comps[len(comps)-1] >= comps[0] || comps[len(comps)-1] > 400*time.Millisecond {
			t.Fatalf("compensations %v from a quota of %v: a second of lag a move should drain it", comps, quota)
		}
		if est := g.Clock.Lag[game.Black].Estimate; est < 800*time.Millisecond || est > time.Second {
			t.Fatalf("Black's lag estimate is %v after a second a move", est)
		}
		if est := g.Clock.Lag[game.White].Estimate; est > 100*time.Millisecond {
			t.Fatalf("White's lag estimate is %v without lag", est)
		}
	})

	t.Run("a move before the deadline is in time, even past the flag within the grace; at the deadline it is refused", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		start := t0.Add(time.Second)
		g := liveGame(t, svc, "1+0", "", start)
		flag, grace := g.Clock.FlagAt(game.Black), g.Clock.Grace(game.Black)
		if grace <= 0 || grace > play.MaxLagComp || !g.Deadline.Equal(flag.Add(grace)) {
			t.Fatalf("flag %v, grace %v, deadline %v", flag, grace, g.Deadline)
		}
		late := g.Deadline.Add(-time.Millisecond)
		out := must(svc.Move(ctx, sent(act(bob, g, late), late), anyMove(t, g)))(t).Game
		if left := out.Clock.Left[game.Black]; left <= 0 || left > grace {
			t.Fatalf("a move in the grace leaves Black %v", left)
		}

		svc, _ = newService(play.Options{})
		g = liveGame(t, svc, "1+0", "", start)
		_, err := svc.Move(ctx, sent(act(bob, g, g.Deadline), g.Deadline), anyMove(t, g))
		wantKind(t, err, play.TimeUp)
		if back := stored(t, svc, g.ID); back.Revision != g.Revision {
			t.Fatal("a move after the flag changed the game")
		}
	})

	t.Run("the flag: the side to move loses on time at its deadline, not before, its clock at zero", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := liveGame(t, svc, "1+0", "", t0.Add(time.Second))
		_, err := svc.TimeOut(ctx, g.ID, g.Deadline.Add(-time.Millisecond))
		wantKind(t, err, play.NotYetDue)
		r := must(svc.TimeOut(ctx, g.ID, g.Deadline.Add(300*time.Millisecond)))(t)
		if r.Game.Outcome != game.WinFor(game.White, game.Timeout) || r.Game.Clock.Left[game.Black] != 0 || !r.Game.Ended.Equal(g.Deadline) {
			t.Fatalf("after the flag: %+v, clocks %+v, ended %v", r.Game.Outcome, r.Game.Clock, r.Game.Ended)
		}
		_, err = svc.TimeOut(ctx, g.ID, g.Deadline.Add(time.Second))
		wantKind(t, err, play.GameOver)
	})

	t.Run("a flag against a lone king, with a lone king, is drawn; with any man more, it loses", func(t *testing.T) {
		for _, tt := range []struct {
			fen  string
			want game.Outcome
		}{
			{"7k/8/8/8/8/8/8/K7 w - - 0 1", game.Outcome{Result: game.Draw, Reason: game.Timeout}},
			{"7k/8/8/8/8/8/P7/K7 w - - 0 1", game.WinFor(game.White, game.Timeout)},
			{"7k/7p/8/8/8/8/8/K7 w - - 0 1", game.WinFor(game.White, game.Timeout)},
			{"7k/8/8/8/8/8/8/K6*  w - - 0 1", game.Outcome{Result: game.Draw, Reason: game.Timeout}},
		} {
			svc, _ := newService(play.Options{})
			g := liveGame(t, svc, "1+0", tt.fen, t0.Add(time.Second))
			r := must(svc.TimeOut(ctx, g.ID, g.Deadline))(t)
			if r.Game.Outcome != tt.want {
				t.Errorf("%s: Black's flag gives %+v, want %+v", tt.fen, r.Game.Outcome, tt.want)
			}
		}
	})

	t.Run("a game whose first move does not come within a minute is aborted, unrated", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := liveGame(t, svc, "3+2", "", time.Time{})
		_, err := svc.Move(ctx, act(ann, g, t0.Add(play.FirstMoveTime)), anyMove(t, g))
		wantKind(t, err, play.TimeUp)
		r := must(svc.TimeOut(ctx, g.ID, t0.Add(play.FirstMoveTime)))(t)
		if r.Game.Outcome.Reason != game.Aborted || len(r.Game.Ratings) != 0 {
			t.Fatalf("%+v, ratings %v", r.Game.Outcome, r.Game.Ratings)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			_, err := tx.Player("", ann.ID)
			return err
		})
		if !errors.Is(err, play.ErrNotFound) {
			t.Fatalf("an aborted game made a player record: %v", err)
		}
	})

	t.Run("a tournament's game runs White's clock from the start, and cannot be aborted", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := must(svc.Start(ctx, play.NewGame{Channel: "c1", White: ann, Black: bob, Tournament: 7,
			Time: play.TimeControl{Limit: time.Minute}, At: t0}))(t).Game
		if !g.Clock.Running() || !g.Deadline.Equal(t0.Add(time.Minute+g.Clock.Grace(game.White))) {
			t.Fatalf("clocks %+v, deadline %v", g.Clock, g.Deadline)
		}
		r := must(svc.TimeOut(ctx, g.ID, g.Deadline))(t)
		if r.Game.Outcome != game.WinFor(game.Black, game.Timeout) {
			t.Fatalf("%+v", r.Game.Outcome)
		}
	})

	t.Run("a challenge keeps its time control, and its game has clocks", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		tc := play.TimeControl{Limit: 5 * time.Minute, Increment: 3 * time.Second}
		c := must(svc.Challenge(ctx, play.NewChallenge{Channel: "c1", From: ann, To: bob, DaysPerMove: 3, Time: tc, At: t0}))(t)
		if c.Time != tc || c.DaysPerMove != 0 {
			t.Fatalf("challenge %+v", c)
		}
		g := must(svc.Accept(ctx, c.ID, bob, "", t0.Add(time.Second)))(t).Game
		if g.TimeControl() != tc || g.DaysPerMove != 0 || g.Speed() != play.Blitz {
			t.Fatalf("game %+v", g)
		}
		_, err := svc.Challenge(ctx, play.NewChallenge{Channel: "c2", From: ann, To: bob, Time: play.TimeControl{Limit: 30 * time.Second}, At: t0})
		wantKind(t, err, play.BadTimeControl)
	})

	t.Run("a live game is never paused by a vacation, and sends no reminders", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := liveGame(t, svc, "5+0", "", t0.Add(time.Second))
		if _, err := svc.Vacation(ctx, bob.ID, 3, t0.Add(2*time.Second)); err != nil {
			t.Fatal(err)
		}
		if back := stored(t, svc, g.ID); !back.Deadline.Equal(g.Deadline) || !back.RemindAt.IsZero() {
			t.Fatalf("deadline %v → %v, reminder %v", g.Deadline, back.Deadline, back.RemindAt)
		}
	})
}

// A game record of version 4, before live time controls, reads as a
// correspondence game.
func TestVersion4GamesAreCorrespondence(t *testing.T) {
	g := play.Game{ID: 9, StartFEN: game.StartFEN, FEN: game.StartFEN, Moves: []play.Move{}, DaysPerMove: 3, Created: t0, Updated: t0}
	b := must(play.EncodeRecord(&g))(t)
	b[0] = 4
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	var back play.Game
	if err := play.DecodeRecord(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.V != 4 || back.Clock != nil || back.TimeControl().Live() || back.Speed() != play.Correspondence || back.DaysPerMove != 3 {
		t.Fatalf("read %+v", back)
	}
}

// A rated live game changes the ratings of its speed alone, globally and
// in its guild; the scope's own ratings, which were there before live
// games, stay the correspondence ratings. Each speed has its leaderboard.
func TestRatingsPerSpeed(t *testing.T) {
	svc, _ := newService(play.Options{})
	blitz := must(svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, Rated: true,
		Time: play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}, At: t0}))(t).Game
	must(svc.Resign(ctx, act(bob, blitz, t0.Add(time.Second))))(t)
	corr := must(svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c2", White: ann, Black: bob, Rated: true, DaysPerMove: 3, At: t0.Add(time.Minute)}))(t).Game
	must(svc.Resign(ctx, act(ann, corr, t0.Add(2*time.Minute))))(t)

	for _, scope := range []string{"", "g1"} {
		p := must(svc.Player(ctx, scope, ann.ID))(t)
		if p.RatedGames != 1 || p.Rating.Rating >= play.DefaultRating || p.Total().Games() != 2 {
			t.Errorf("scope %q: Ann's correspondence record %+v; want one rated game, lost, and both games tallied", scope, p)
		}
		speeds := must(svc.SpeedRatings(ctx, scope, ann.ID))(t)
		if len(speeds) != 1 || play.SpeedOf(&speeds[0]) != play.Blitz || speeds[0].RatedGames != 1 || speeds[0].Rating.Rating <= play.DefaultRating {
			t.Errorf("scope %q: Ann's speed ratings %+v; want blitz, won", scope, speeds)
		}
		board := must(svc.Leaderboard(ctx, play.RatingScope(scope, play.Blitz), 1, 10, t0.Add(time.Hour)))(t)
		if len(board.Rows) != 2 || board.Rows[0].User != ann.ID {
			t.Errorf("scope %q: the blitz leaderboard %+v", scope, board.Rows)
		}
		if board := must(svc.Leaderboard(ctx, play.RatingScope(scope, play.Bullet), 1, 10, t0.Add(time.Hour)))(t); len(board.Rows) != 0 {
			t.Errorf("scope %q: the bullet leaderboard %+v", scope, board.Rows)
		}
		pr := must(svc.PlayerStats(ctx, scope, ann.ID, ""))(t)
		if len(pr.History) != 1 || pr.History[0].Game != corr.ID || pr.Logged != 2 {
			t.Errorf("scope %q: Ann's chart %+v of %d games; want the correspondence game alone", scope, pr.History, pr.Logged)
		}
		if h := pr.BySpeed[play.Blitz]; len(h) != 1 || h[0].Game != blitz.ID || h[0].Rating <= play.DefaultRating || len(pr.BySpeed) != 1 {
			t.Errorf("scope %q: Ann's blitz chart %+v", scope, pr.BySpeed)
		}
	}
	if play.RatingScope("g1", play.Correspondence) != "g1" || play.RatingScope("", play.Rapid) != "~rapid" {
		t.Error("rating scopes")
	}
}
