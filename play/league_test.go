package play_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// league plays whole games through play for the tests of ratings and
// statistics, on a clock that moves a minute with every act.
type league struct {
	t     testing.TB
	svc   *play.Service
	st    play.Storage
	now   time.Time
	games int
}

// leagueStart is when a league's clock starts.
var leagueStart = time.Date(2026, 1, 5, 18, 0, 0, 0, time.UTC)

func newLeague(t testing.TB, st play.Storage) *league {
	if st == nil {
		st = memstore.New()
	}
	return &league{t: t, st: st, svc: play.New(st, play.Options{Rand: func(int) int { return 0 }}), now: leagueStart}
}

// The ways a league game ends after its moves; "" when the moves end it.
const (
	whiteResigns = "white resigns"
	blackResigns = "black resigns"
	drawAgreed   = "draw agreed"
	timeout      = "the side to move times out"
	aborted      = "aborted"
)

// match is one game for a league to play.
type match struct {
	guild        string
	white, black string
	rated        bool
	start        string   // FEN; "" for the ice start
	moves        []string // in any notation
	end          string   // one of the endings above, or "" when the moves end the game
}

func (l *league) tick() time.Time {
	l.now = l.now.Add(time.Minute)
	return l.now
}

func seat(id string) play.Seat { return play.Seat{ID: id, Name: strings.ToUpper(id[:1]) + id[1:]} }

// play plays m to its end and returns the finished game.
func (l *league) play(m match) play.Game {
	l.t.Helper()
	l.games++
	r, err := l.svc.Start(context.Background(), play.NewGame{Guild: m.guild, Channel: fmt.Sprint("league-", l.games),
		White: seat(m.white), Black: seat(m.black), StartFEN: m.start, Rated: m.rated, DaysPerMove: 1, At: l.tick()})
	if err != nil {
		l.t.Fatal(err)
	}
	g := r.Game
	do := func(by string, f func(context.Context, play.Act) (play.Result, error)) {
		l.t.Helper()
		r, err := f(context.Background(), play.Act{By: by, Game: g.ID, Revision: g.Revision, At: l.tick()})
		if err != nil {
			l.t.Fatalf("game %d: %v", g.ID, err)
		}
		g = r.Game
	}
	for _, mv := range m.moves {
		do(g.ToMove().ID, func(ctx context.Context, a play.Act) (play.Result, error) { return l.svc.Move(ctx, a, mv) })
	}
	switch m.end {
	case whiteResigns:
		do(g.White.ID, l.svc.Resign)
	case blackResigns:
		do(g.Black.ID, l.svc.Resign)
	case drawAgreed:
		do(g.White.ID, l.svc.OfferDraw)
		do(g.Black.ID, l.svc.AcceptDraw)
	case aborted:
		do(g.White.ID, l.svc.Abort)
	case timeout:
		l.now = g.Deadline.Add(time.Hour)
		r, err := l.svc.TimeOut(context.Background(), g.ID, l.now)
		if err != nil {
			l.t.Fatal(err)
		}
		g = r.Game
	}
	if !g.Over() {
		l.t.Fatalf("game %d (%+v) is not over", g.ID, m)
	}
	return g
}

// wait moves the league's clock on.
func (l *league) wait(d time.Duration) { l.now = l.now.Add(d) }

// player reads a player's record.
func (l *league) player(scope, user string) play.Player {
	l.t.Helper()
	var p play.Player
	err := l.st.View(context.Background(), func(tx play.ReadTx) (err error) {
		p, err = tx.Player(scope, user)
		return err
	})
	if err != nil {
		l.t.Fatalf("player %s in %q: %v", user, scope, err)
	}
	return p
}

// log reads a player's log.
func (l *league) log(scope, user string) []play.LogEntry {
	l.t.Helper()
	var out []play.LogEntry
	err := l.st.View(context.Background(), func(tx play.ReadTx) error {
		return tx.PlayerLog(scope, user, func(e play.LogEntry) error { out = append(out, e); return nil })
	})
	if err != nil {
		l.t.Fatal(err)
	}
	return out
}

// crashing is a Storage whose next Update fails as a crash would: after
// fn has run, either before the commit (nothing is written) or after it
// (the game is stored, but the caller never hears so and tries again).
type crashing struct {
	play.Storage
	beforeCommit, afterCommit bool
}

var errCrash = errors.New("the process died")

func (s *crashing) Update(ctx context.Context, fn func(play.Tx) error) error {
	switch {
	case s.beforeCommit:
		s.beforeCommit = false
		err := s.Storage.Update(ctx, func(tx play.Tx) error {
			if err := fn(tx); err != nil {
				return err
			}
			return errCrash // rolls everything back, as a crash before the commit
		})
		return err
	case s.afterCommit:
		s.afterCommit = false
		if err := s.Storage.Update(ctx, fn); err != nil {
			return err
		}
		return errCrash
	}
	return s.Storage.Update(ctx, fn)
}

// twice is a Storage that runs every update twice, the first run rolled
// back, as a storage that batches transactions may.
type twice struct{ play.Storage }

var errAgain = errors.New("rolled back, to be run again")

func (s twice) Update(ctx context.Context, fn func(play.Tx) error) error {
	err := s.Storage.Update(ctx, func(tx play.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errAgain
	})
	if !errors.Is(err, errAgain) {
		return err
	}
	return s.Storage.Update(ctx, fn)
}
