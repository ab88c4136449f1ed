package play_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// desk is a correspondence test's world: a service on an in-memory
// storage and a fake clock that only the test moves.
type desk struct {
	t   *testing.T
	svc *play.Service
	st  *memstore.Memory
	now time.Time
}

var deskStart = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)

func newDesk(t *testing.T, opts play.Options) *desk {
	t.Helper()
	if opts.Rand == nil {
		opts.Rand = func(int) int { return 0 }
	}
	st := memstore.New()
	return &desk{t: t, svc: play.New(st, opts), st: st, now: deskStart}
}

func (d *desk) wait(dur time.Duration) { d.now = d.now.Add(dur) }

// start starts a game between white and black in its own channel, from
// fen ("" for the start position).
func (d *desk) start(white, black string, days int, fen string) play.Game {
	d.t.Helper()
	r, err := d.svc.Start(context.Background(), play.NewGame{Guild: "g", Channel: "c-" + white + "-" + black + fen,
		White: play.Seat{ID: white}, Black: play.Seat{ID: black}, DaysPerMove: days, StartFEN: fen, At: d.now})
	if err != nil {
		d.t.Fatal(err)
	}
	return r.Game
}

func (d *desk) game(id uint64) play.Game {
	d.t.Helper()
	g, err := d.svc.Game(context.Background(), id)
	if err != nil {
		d.t.Fatal(err)
	}
	return g
}

func (d *desk) actBy(user string, g play.Game) play.Act {
	return play.Act{By: user, Game: g.ID, Revision: g.Revision, At: d.now}
}

// move plays text for the side to move in game id now.
func (d *desk) move(id uint64, text string) play.Result {
	d.t.Helper()
	g := d.game(id)
	r, err := d.svc.Move(context.Background(), d.actBy(g.ToMove().ID, g), text)
	if err != nil {
		d.t.Fatalf("%s: %v", text, err)
	}
	return r
}

func (d *desk) remind(id uint64) (play.Reminder, error) {
	return d.svc.Remind(context.Background(), id, d.now)
}

func refusedAs(t *testing.T, err error, k play.RefusalKind) *play.Refusal {
	t.Helper()
	var x *play.Refusal
	if !errors.As(err, &x) || x.Kind != k {
		t.Fatalf("got %v, want a refusal %q", err, k)
	}
	return x
}

func hours(n int) time.Duration { return time.Duration(n) * time.Hour }

func TestReminders(t *testing.T) {
	tests := []struct {
		name  string
		days  int
		prefs []int // the player's reminders; nil: the defaults
		opts  []int // Options.Reminders; nil: the package's
		want  []int // the reminders sent, in order
	}{
		{name: "the defaults remind a day and an hour ahead", days: 3, want: []int{24, 1}},
		{name: "a day per move reminds at a quarter of it instead of a day ahead", days: 1, want: []int{6, 1}},
		{name: "a player's own reminders replace the defaults", days: 7, prefs: []int{48, 12, 2}, want: []int{48, 12, 2}},
		{name: "a player who wants none gets none", days: 3, prefs: []int{}, want: nil},
		{name: "the server's defaults apply to a player who chose none", days: 5, opts: []int{72}, want: []int{72}},
		{name: "two reminders that come to the same time are sent once", days: 1, prefs: []int{48, 24, 1}, want: []int{6, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDesk(t, play.Options{Reminders: tt.opts})
			if tt.prefs != nil {
				if _, err := d.svc.SetPrefs(context.Background(), "w", play.Prefs{Reminders: tt.prefs}, d.now); err != nil {
					t.Fatal(err)
				}
			}
			g := d.start("w", "b", tt.days, "")
			var sent []int
			for range 10 {
				g = d.game(g.ID)
				if g.RemindAt.IsZero() {
					break
				}
				d.now = g.RemindAt.Add(-time.Millisecond)
				_, err := d.remind(g.ID)
				refusedAs(t, err, play.NotYetDue)
				d.now = g.RemindAt
				r, err := d.remind(g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if r.To.ID != "w" || !r.Deadline.Equal(g.Deadline) || !r.Due.Equal(g.Deadline.Add(-hours(r.Hours))) || !r.Due.Equal(d.now) {
					t.Fatalf("reminder %+v at %v, deadline %v", r, d.now, g.Deadline)
				}
				if r.Game.Revision != g.Revision {
					t.Fatalf("a reminder bumped the revision from %d to %d", g.Revision, r.Game.Revision)
				}
				_, err = d.remind(g.ID)
				refusedAs(t, err, play.NotYetDue) // never twice
				sent = append(sent, r.Hours)
			}
			if !slices.Equal(sent, tt.want) {
				t.Fatalf("sent %v, want %v", sent, tt.want)
			}
		})
	}

	t.Run("reminders that fell due together are claimed together, the closest sent", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("w", "b", 3, "")
		d.now = g.Deadline.Add(-30 * time.Minute)
		r, err := d.remind(g.ID)
		if err != nil || r.Hours != 1 {
			t.Fatalf("claimed %+v, %v; want the 1-hour reminder", r, err)
		}
		if g := d.game(g.ID); !g.RemindAt.IsZero() || !slices.Equal(g.Reminded, []int{24, 1}) {
			t.Fatalf("after the claim: remind at %v, reminded %v", g.RemindAt, g.Reminded)
		}
	})

	t.Run("a move cancels the mover's reminders and plans the opponent's", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("w", "b", 3, "")
		d.now = g.RemindAt
		if _, err := d.remind(g.ID); err != nil {
			t.Fatal(err)
		}
		d.wait(time.Hour)
		after := d.move(g.ID, "hxg3").Game
		if !after.Deadline.Equal(d.now.Add(72*time.Hour)) || !after.RemindAt.Equal(after.Deadline.Add(-24*time.Hour)) || after.Reminded != nil {
			t.Fatalf("after the move: deadline %v, remind at %v, reminded %v", after.Deadline, after.RemindAt, after.Reminded)
		}
		d.now = g.Deadline.Add(-time.Hour) // the mover's 1-hour reminder would have been due
		_, err := d.remind(g.ID)
		refusedAs(t, err, play.NotYetDue)
	})

	t.Run("changed reminders apply at once and what was sent stays sent", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("w", "b", 7, "")
		d.now = g.RemindAt
		if _, err := d.remind(g.ID); err != nil { // the 24-hour one
			t.Fatal(err)
		}
		if _, err := d.svc.SetPrefs(context.Background(), "w", play.Prefs{Reminders: []int{24, 3}}, d.now); err != nil {
			t.Fatal(err)
		}
		if g := d.game(g.ID); !g.RemindAt.Equal(g.Deadline.Add(-3 * time.Hour)) {
			t.Fatalf("remind at %v, want 3 hours before %v", g.RemindAt, g.Deadline)
		}
	})

	t.Run("a reminder whose plan changed after it fell due sends nothing", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("w", "b", 3, "")
		d.now = g.RemindAt
		// Written behind the service's back: SetPrefs would have moved
		// RemindAt.
		err := d.st.Update(context.Background(), func(tx play.Tx) error { return tx.PutPrefs("w", play.Prefs{Reminders: []int{}}) })
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.remind(g.ID)
		if err != nil || r.Hours != 0 {
			t.Fatalf("claimed %+v, %v; want nothing to send", r, err)
		}
		if g := d.game(g.ID); !g.RemindAt.IsZero() {
			t.Fatalf("the index still holds the game at %v", g.RemindAt)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		_, err := d.remind(99)
		refusedAs(t, err, play.NoGame)
		g := d.start("w", "b", 0, "")
		_, err = d.remind(g.ID)
		refusedAs(t, err, play.NotYetDue)
		g2 := d.start("x", "y", 3, "")
		if _, err := d.svc.Resign(context.Background(), d.actBy("x", g2)); err != nil {
			t.Fatal(err)
		}
		_, err = d.remind(g2.ID)
		refusedAs(t, err, play.GameOver)
	})
}

func TestTimeOutOnce(t *testing.T) {
	d := newDesk(t, play.Options{})
	g := d.start("w", "b", 2, "")
	d.now = g.Deadline.Add(-time.Millisecond)
	_, err := d.svc.TimeOut(context.Background(), g.ID, d.now)
	refusedAs(t, err, play.NotYetDue)
	d.now = g.Deadline.Add(40 * time.Hour) // processed late: the program was down
	r, err := d.svc.TimeOut(context.Background(), g.ID, d.now)
	if err != nil {
		t.Fatal(err)
	}
	if r.Event != play.Ended || r.Game.Outcome != game.WinFor(game.Black, game.Timeout) || !r.Game.Ended.Equal(g.Deadline) {
		t.Fatalf("%v, outcome %+v, ended %v; want Black to win on time at %v", r.Event, r.Game.Outcome, r.Game.Ended, g.Deadline)
	}
	_, err = d.svc.TimeOut(context.Background(), g.ID, d.now)
	refusedAs(t, err, play.GameOver)
	err = d.st.View(context.Background(), func(tx play.ReadTx) error {
		st, _ := tx.Stats("")
		if st.BlackWins != 1 || st.ByReason[game.Timeout] != 1 {
			t.Errorf("counted %+v, want one win on time", st)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpponentChooses(t *testing.T) {
	// w never moves in a 3-day game: b chooses.
	flagged := func(t *testing.T) (*desk, play.Game) {
		d := newDesk(t, play.Options{OpponentChooses: true})
		g := d.start("w", "b", 3, "")
		if !g.OpponentChooses {
			t.Fatal("the game does not keep the rule it began with")
		}
		deadline := g.Deadline
		d.now = deadline.Add(time.Minute)
		r, err := d.svc.TimeOut(context.Background(), g.ID, d.now)
		if err != nil {
			t.Fatal(err)
		}
		g = r.Game
		switch {
		case r.Event != play.TimeRanOut || g.Over() || g.Last != play.TimeRanOut:
			t.Fatalf("event %v, over %v: want the time ran out and the game on", r.Event, g.Over())
		case g.Flag == nil || g.Flag.By != "b" || !g.Flag.At.Equal(deadline):
			t.Fatalf("flag %+v, want b to choose after %v", g.Flag, deadline)
		case !g.Deadline.Equal(deadline.Add(72*time.Hour)) || !g.RemindAt.IsZero():
			t.Fatalf("choice lapses at %v (reminder %v), want a time per move later", g.Deadline, g.RemindAt)
		case g.Revision != 2:
			t.Fatalf("revision %d, want it bumped to 2", g.Revision)
		}
		return d, g
	}

	tests := []struct {
		name    string
		by      string
		claim   func(*play.Service) func(context.Context, play.Act) (play.Result, error)
		refusal play.RefusalKind
		outcome game.Outcome
	}{
		{name: "the opponent claims the win", by: "b", claim: func(s *play.Service) func(context.Context, play.Act) (play.Result, error) { return s.ClaimWin },
			outcome: game.WinFor(game.Black, game.Timeout)},
		{name: "the opponent calls it a draw", by: "b", claim: func(s *play.Service) func(context.Context, play.Act) (play.Result, error) { return s.ClaimDraw },
			outcome: game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}},
		{name: "the player out of time cannot claim", by: "w", claim: func(s *play.Service) func(context.Context, play.Act) (play.Result, error) { return s.ClaimWin },
			refusal: play.TimeUp},
		{name: "the player out of time cannot move", by: "w", claim: func(s *play.Service) func(context.Context, play.Act) (play.Result, error) {
			return func(ctx context.Context, a play.Act) (play.Result, error) { return s.Move(ctx, a, "hxg3") }
		}, refusal: play.TimeUp},
		{name: "a stranger cannot claim", by: "x", claim: func(s *play.Service) func(context.Context, play.Act) (play.Result, error) { return s.ClaimDraw },
			refusal: play.NotAPlayer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, g := flagged(t)
			r, err := tt.claim(d.svc)(context.Background(), d.actBy(tt.by, g))
			if tt.refusal != 0 {
				x := refusedAs(t, err, tt.refusal)
				if tt.refusal == play.TimeUp && (x.Who.ID != "b" || !x.Deadline.Equal(g.Flag.At)) {
					t.Fatalf("TimeUp names %+v at %v", x.Who, x.Deadline)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Game.Outcome != tt.outcome || r.Game.Flag != nil || !r.Game.Deadline.IsZero() {
				t.Fatalf("outcome %+v, flag %+v, deadline %v; want %+v", r.Game.Outcome, r.Game.Flag, r.Game.Deadline, tt.outcome)
			}
		})
	}

	t.Run("a choice not made in time gives the opponent the win", func(t *testing.T) {
		d, g := flagged(t)
		d.now = g.Deadline
		r, err := d.svc.TimeOut(context.Background(), g.ID, d.now)
		if err != nil {
			t.Fatal(err)
		}
		if r.Event != play.Ended || r.Game.Outcome != game.WinFor(game.Black, game.Timeout) || !r.Game.Ended.Equal(g.Deadline) {
			t.Fatalf("%v %+v ended %v", r.Event, r.Game.Outcome, r.Game.Ended)
		}
	})

	t.Run("without a flag there is nothing to claim", func(t *testing.T) {
		d := newDesk(t, play.Options{OpponentChooses: true})
		g := d.start("w", "b", 3, "")
		_, err := d.svc.ClaimWin(context.Background(), d.actBy("b", g))
		refusedAs(t, err, play.NoClaim)
	})

	t.Run("a takeback granted after the flag restarts the clock", func(t *testing.T) {
		d := newDesk(t, play.Options{OpponentChooses: true})
		g := d.start("w", "b", 3, "")
		d.move(g.ID, "hxg3")
		d.now = d.game(g.ID).Deadline
		if _, err := d.svc.TimeOut(context.Background(), g.ID, d.now); err != nil {
			t.Fatal(err)
		}
		g = d.game(g.ID)
		if r, err := d.svc.RequestTakeback(context.Background(), d.actBy("w", g)); err != nil {
			t.Fatal(err)
		} else {
			g = r.Game
		}
		r, err := d.svc.AcceptTakeback(context.Background(), d.actBy("b", g))
		if err != nil {
			t.Fatal(err)
		}
		if r.Game.Flag != nil || !r.Game.Deadline.Equal(d.now.Add(72*time.Hour)) {
			t.Fatalf("flag %+v, deadline %v", r.Game.Flag, r.Game.Deadline)
		}
	})
}

func TestVacation(t *testing.T) {
	ctx := context.Background()
	const week = 7 * 24 * time.Hour

	t.Run("the deadlines where the player is to move move by the vacation, the others do not", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		mine := d.start("v", "o", 3, "")   // v to move
		theirs := d.start("o", "v", 3, "") // o to move
		d.wait(10 * time.Hour)
		a, err := d.svc.Vacation(ctx, "v", 7, d.now)
		if err != nil {
			t.Fatal(err)
		}
		if !a.From.Equal(d.now) || !a.Until.Equal(d.now.Add(week)) || a.Left != 7 || len(a.Games) != 1 || a.Games[0].ID != mine.ID {
			t.Fatalf("away %+v", a)
		}
		m, th := d.game(mine.ID), d.game(theirs.ID)
		switch {
		case !m.Deadline.Equal(mine.Deadline.Add(week)) || !m.RemindAt.Equal(m.Deadline.Add(-24*time.Hour)):
			t.Fatalf("v's deadline %v (remind %v), want %v", m.Deadline, m.RemindAt, mine.Deadline.Add(week))
		case !th.Deadline.Equal(theirs.Deadline):
			t.Fatalf("o's deadline moved to %v", th.Deadline)
		case !m.Away(game.White, d.now) || !th.Away(game.Black, d.now) || m.Away(game.Black, d.now):
			t.Fatalf("away marks %v, %v", m.AwayUntil, th.AwayUntil)
		case m.Revision != mine.Revision || th.Revision != theirs.Revision:
			t.Fatal("a vacation bumped a revision")
		}
		// The old deadline is no deadline any more.
		_, err = d.svc.TimeOut(ctx, mine.ID, mine.Deadline)
		refusedAs(t, err, play.NotYetDue)

		// A deadline set while v is away counts from the vacation's end.
		d.wait(24 * time.Hour)
		after := d.move(theirs.ID, "hxg3").Game
		if want := a.Until.Add(72 * time.Hour); !after.Deadline.Equal(want) {
			t.Fatalf("a move during the vacation sets v's deadline to %v, want %v", after.Deadline, want)
		}
		// v may move while away; o's clock runs as usual.
		d.wait(time.Hour)
		after = d.move(theirs.ID, "Nxf6").Game
		if !after.Deadline.Equal(d.now.Add(72 * time.Hour)) {
			t.Fatalf("o's deadline %v", after.Deadline)
		}
		// A game begun during the vacation starts v's clock after it.
		g := d.start("v", "p", 5, "")
		if want := a.Until.Add(5 * 24 * time.Hour); !g.Deadline.Equal(want) || !g.Away(game.White, d.now) {
			t.Fatalf("a new game's deadline %v, want %v", g.Deadline, want)
		}
	})

	t.Run("coming back early gives back the unused days and time", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("v", "o", 3, "")
		if _, err := d.svc.Vacation(ctx, "v", 10, d.now); err != nil {
			t.Fatal(err)
		}
		d.wait(3*24*time.Hour + 5*time.Hour)
		a, err := d.svc.Vacation(ctx, "v", 0, d.now)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Back || a.Left != 14-4 || !a.Until.Equal(d.now) {
			t.Fatalf("back: %+v; want 10 days left (6 whole days unused)", a)
		}
		// Paused exactly for the time away.
		if got, want := d.game(g.ID).Deadline, g.Deadline.Add(3*24*time.Hour+5*time.Hour); !got.Equal(want) {
			t.Fatalf("deadline %v, want %v", got, want)
		}
		_, err = d.svc.Vacation(ctx, "v", 0, d.now)
		refusedAs(t, err, play.NotOnVacation)
	})

	t.Run("a vacation can be extended while away", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("v", "o", 3, "")
		first, _ := d.svc.Vacation(ctx, "v", 3, d.now)
		d.wait(24 * time.Hour)
		a, err := d.svc.Vacation(ctx, "v", 2, d.now)
		if err != nil {
			t.Fatal(err)
		}
		if !a.From.Equal(first.From) || !a.Until.Equal(first.Until.Add(48*time.Hour)) || a.Left != 9 {
			t.Fatalf("extended %+v", a)
		}
		if got, want := d.game(g.ID).Deadline, g.Deadline.Add(5*24*time.Hour); !got.Equal(want) {
			t.Fatalf("deadline %v, want %v", got, want)
		}
	})

	t.Run("the yearly allowance", func(t *testing.T) {
		d := newDesk(t, play.Options{VacationDays: 10})
		if _, err := d.svc.Vacation(ctx, "v", 6, d.now); err != nil {
			t.Fatal(err)
		}
		d.wait(30 * 24 * time.Hour)
		_, err := d.svc.Vacation(ctx, "v", 5, d.now)
		if x := refusedAs(t, err, play.NoVacationLeft); x.Left != 4 || x.Days != 5 {
			t.Fatalf("left %d, days %d", x.Left, x.Days)
		}
		d.now = time.Date(d.now.Year()+1, 1, 1, 0, 0, 0, 0, time.UTC)
		if a, err := d.svc.Vacation(ctx, "v", 10, d.now); err != nil || a.Left != 0 {
			t.Fatalf("a new year's allowance: %+v, %v", a, err)
		}
		none := newDesk(t, play.Options{VacationDays: -1})
		_, err = none.svc.Vacation(ctx, "v", 1, none.now)
		refusedAs(t, err, play.NoVacationLeft)
	})

	t.Run("a flagged game's choice does not move", func(t *testing.T) {
		d := newDesk(t, play.Options{OpponentChooses: true})
		g := d.start("o", "v", 3, "")
		d.now = g.Deadline
		r, err := d.svc.TimeOut(ctx, g.ID, d.now) // o ran out: v chooses
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.svc.Vacation(ctx, "o", 5, d.now); err != nil {
			t.Fatal(err)
		}
		if got := d.game(g.ID).Deadline; !got.Equal(r.Game.Deadline) {
			t.Fatalf("the choice's deadline moved from %v to %v", r.Game.Deadline, got)
		}
	})
}

func TestPremove(t *testing.T) {
	ctx := context.Background()
	// queued starts a game from fen, plays first (if any) and queues lines
	// for the player who then waits.
	queued := func(t *testing.T, fen string, first string, lines ...[]string) (*desk, play.Game, string) {
		t.Helper()
		d := newDesk(t, play.Options{})
		g := d.start("w", "b", 3, fen)
		if first != "" {
			g = d.move(g.ID, first).Game
		}
		author := "w"
		if g.Turn() == game.White {
			author = "b"
		}
		r, err := d.svc.Premove(ctx, d.actBy(author, g), lines)
		if err != nil {
			t.Fatal(err)
		}
		if r.Event != play.Queued || r.Game.Revision != g.Revision || r.Game.Last != g.Last {
			t.Fatalf("queueing: event %v, revision %d→%d, last %v", r.Event, g.Revision, r.Game.Revision, r.Game.Last)
		}
		return d, r.Game, author
	}

	t.Run("a reply to the expected move is played at once, and the rest stays queued", func(t *testing.T) {
		d, g, _ := queued(t, "", "hxg3",
			[]string{"Nxf6", "Nxf3", "Nxg4", "Nxg5"},
			[]string{"Nxf6", "Nxf3", "Nxe4", "Nxe5"},
			[]string{"g8h6", "g1h3"})
		r := d.move(g.ID, "Nxf6")
		c := r.Conditional
		if c == nil || c.Dropped() || c.By != "w" || c.Reply.SAN != "Nxf3" || c.Left != 2 {
			t.Fatalf("conditional %+v", c)
		}
		if r.Move.SAN != "Nxf6" || r.Game.Ply() != 3 || r.Game.Turn() != game.Black || r.Game.Moves[2].At != r.Game.Moves[1].At {
			t.Fatalf("after: %d plies, %v to move", r.Game.Ply(), r.Game.Turn())
		}
		if !r.Game.Deadline.Equal(d.now.Add(72 * time.Hour)) {
			t.Fatalf("black's clock restarted at %v", r.Game.Deadline)
		}
		if q := r.Game.Premoves; q == nil || len(q.Lines) != 2 || q.Lines[0][0] != "f6g4" {
			t.Fatalf("left queued %+v", q)
		}
		d.wait(time.Hour)
		r = d.move(g.ID, "Nxe4")
		if c := r.Conditional; c == nil || c.Reply == nil || c.Reply.SAN != "Nxe5" || c.Left != 0 || r.Game.Premoves != nil {
			t.Fatalf("second reply %+v, queue %+v", r.Conditional, r.Game.Premoves)
		}
	})

	t.Run("an unexpected move drops the queue", func(t *testing.T) {
		d, g, _ := queued(t, "", "hxg3", []string{"Nxf6", "Nxf3"})
		r := d.move(g.ID, "Nxh6")
		if c := r.Conditional; c == nil || !c.Dropped() || c.By != "w" || r.Game.Premoves != nil || r.Game.Ply() != 2 {
			t.Fatalf("conditional %+v, queue %+v", r.Conditional, r.Game.Premoves)
		}
	})

	t.Run("the opponent's Ice Age move is answered after the Ice Age", func(t *testing.T) {
		// Black's 20th move brings an Ice Age that freezes the lone
		// knight on d4; White's queued reply was checked after it.
		const fen = "rnbqkbnr/pppppppp/********/********/***N****/********/PPPPPPPP/R1BQKBNR b KQkq - 0 20"
		d, g, _ := queued(t, fen, "", []string{"Nxf6", "hxg3"})
		r := d.move(g.ID, "Nxf6")
		if r.Move.IceAge == nil || len(r.Move.IceAge.Frozen) != 1 {
			t.Fatalf("no Ice Age froze the knight: %+v", r.Move.IceAge)
		}
		if c := r.Conditional; c == nil || c.Reply == nil || c.Reply.SAN != "hxg3" {
			t.Fatalf("conditional %+v", r.Conditional)
		}
		// A reply with the frozen knight was refused when queued.
		d2 := newDesk(t, play.Options{})
		g2 := d2.start("w", "b", 3, fen)
		_, err := d2.svc.Premove(ctx, d2.actBy("w", g2), [][]string{{"Nxf6", "Nxe6"}})
		if x := refusedAs(t, err, play.IllegalMove); x.Line != 1 {
			t.Fatalf("line %d", x.Line)
		}
	})

	t.Run("a queued reply that brings the Ice Age is played through it", func(t *testing.T) {
		const fen = "rnbqkbnr/pppppppp/********/********/***N****/********/PPPPPPPP/R1BQKBNR w KQkq - 0 20"
		d, g, author := queued(t, fen, "", []string{"hxg3", "Nxf6"})
		if author != "b" {
			t.Fatalf("author %s", author)
		}
		r := d.move(g.ID, "hxg3")
		c := r.Conditional
		if c == nil || c.Reply == nil || c.Reply.IceAge == nil || len(c.Reply.IceAge.Frozen) != 1 || c.Reply.IceAge.Frozen[0].Square != game.SquareAt(3, 3) {
			t.Fatalf("conditional %+v", c)
		}
	})

	t.Run("a queued reply that mates ends the game", func(t *testing.T) {
		// After ...Kg8-h8?? the queued Ra8 is mate.
		const fen = "6k1/5ppp/1*******/8/8/8/8/R5K1 b - - 0 1"
		d, g, _ := queued(t, fen, "", []string{"Kh8", "Ra8"}, []string{"Kf8", "Ra8"})
		r := d.move(g.ID, "Kh8")
		if r.Conditional == nil || r.Conditional.Reply == nil || r.Game.Outcome != game.WinFor(game.White, game.Checkmate) {
			t.Fatalf("outcome %+v, conditional %+v", r.Game.Outcome, r.Conditional)
		}
		if r.Game.Premoves != nil {
			t.Fatal("a finished game keeps a queue")
		}
	})

	t.Run("a takeback drops the queue; no lines clears it", func(t *testing.T) {
		d, g, _ := queued(t, "", "hxg3", []string{"Nxf6", "Nxf3"})
		r, err := d.svc.Premove(ctx, d.actBy("w", g), nil)
		if err != nil || r.Game.Premoves != nil {
			t.Fatalf("cleared: %+v, %v", r.Game.Premoves, err)
		}
		d, g, _ = queued(t, "", "hxg3", []string{"Nxf6", "Nxf3"})
		tb, err := d.svc.RequestTakeback(ctx, d.actBy("w", g))
		if err != nil {
			t.Fatal(err)
		}
		back, err := d.svc.AcceptTakeback(ctx, d.actBy("b", tb.Game))
		if err != nil || back.Game.Premoves != nil {
			t.Fatalf("after a takeback: %+v, %v", back.Game.Premoves, err)
		}
	})

	t.Run("lines that repeat or start another are kept once", func(t *testing.T) {
		_, g, _ := queued(t, "", "hxg3", []string{"Nxf6", "Nxf3"}, []string{"g8f6", "g1f3", "f6g4", "f3g5"}, []string{"Nxf6", "Nxf3"})
		if q := g.Premoves; q == nil || len(q.Lines) != 1 || len(q.Lines[0]) != 4 {
			t.Fatalf("queue %+v", g.Premoves)
		}
	})

	refusals := []struct {
		name  string
		by    string
		lines [][]string
		kind  play.RefusalKind
		line  int
		first bool // White has not moved yet
	}{
		{name: "the player to move has nothing to answer yet", by: "w", lines: [][]string{{"Nxf6", "Nxf3"}}, kind: play.YourTurn, first: true},
		{name: "a stranger may not queue", by: "x", lines: [][]string{{"Nxf6", "Nxf3"}}, kind: play.NotAPlayer},
		{name: "two replies to one move conflict", by: "w", lines: [][]string{{"Nxf6", "Nxf3"}, {"Nxh6", "Nxh3"}, {"Nxf6", "Nxh3"}}, kind: play.PremoveConflict, line: 3},
		{name: "a line must end with a reply", by: "w", lines: [][]string{{"Nxf6", "Nxf3"}, {"Nxh6"}}, kind: play.NoReply, line: 2},
		{name: "an illegal move names its line", by: "w", lines: [][]string{{"Nxf6", "Nxf3"}, {"Nxh6", "Qd4"}}, kind: play.IllegalMove, line: 2},
		{name: "text that is no move names its line", by: "w", lines: [][]string{{"zz", "Nxf3"}}, kind: play.NotAMove, line: 1},
		{name: "a line too long", by: "w", lines: [][]string{make([]string, play.MaxPremovePlies+2)}, kind: play.TooManyPremoves, line: 1},
		{name: "too many lines", by: "w", lines: make([][]string, play.MaxPremoveLines+1), kind: play.TooManyPremoves, line: play.MaxPremoveLines + 1},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			d := newDesk(t, play.Options{})
			g := d.start("w", "b", 3, "")
			if !tt.first {
				g = d.move(g.ID, "hxg3").Game
			}
			_, err := d.svc.Premove(ctx, d.actBy(tt.by, g), tt.lines)
			x := refusedAs(t, err, tt.kind)
			if x.Line != tt.line {
				t.Fatalf("line %d, want %d", x.Line, tt.line)
			}
			if g2 := d.game(g.ID); g2.Premoves != nil {
				t.Fatal("a refused queue was stored")
			}
		})
	}

	t.Run("a stale queue is refused", func(t *testing.T) {
		d := newDesk(t, play.Options{})
		g := d.start("w", "b", 3, "")
		old := g
		d.move(g.ID, "hxg3")
		_, err := d.svc.Premove(ctx, d.actBy("w", old), [][]string{{"Nxf6", "Nxf3"}})
		refusedAs(t, err, play.Stale)
	})
}
