package play

import (
	"context"
	"errors"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Resign ends the game a names: the asker resigns and the opponent wins.
//
// Refusals: those of every act.
func (s *Service) Resign(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, Ended, func(tx Tx, g *Game, me game.Color, r *Result) error {
		g.Outcome = game.WinFor(me.Other(), game.Resignation)
		return nil
	})
}

// Abort ends a game that has not really started — before both sides have
// moved — without a result. An aborted game is never rated.
//
// Refusals: those of every act, TooLateToAbort.
func (s *Service) Abort(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, Ended, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if !g.Abortable() {
			return refuse(TooLateToAbort, g)
		}
		g.Outcome = game.Outcome{Reason: game.Aborted}
		return nil
	})
}

// Abortable reports whether the game may still be aborted: fewer than two
// moves played.
func (g *Game) Abortable() bool { return !g.Over() && g.Ply() < 2 }

// TimeOut ends the game on time if its deadline has passed at now: the
// side to move loses (docs/rules.md §5: a lone king can still freeze, so
// there is no insufficient-material draw). The scheduler calls it; it
// needs no revision, as the deadline itself says whether it is due.
//
// Refusals: NoGame, GameOver, NotYetDue.
func (s *Service) TimeOut(ctx context.Context, id uint64, now time.Time) (Result, error) {
	at := normTime(now)
	var r Result
	err := s.st.Update(ctx, func(tx Tx) error {
		r = Result{Event: Ended}
		g, err := tx.Game(id)
		if errors.Is(err, ErrNotFound) {
			return &Refusal{Kind: NoGame, Game: id}
		}
		if err != nil {
			return err
		}
		if g.Over() {
			x := refuse(GameOver, &g)
			x.Outcome = g.Outcome
			return x
		}
		if g.Deadline.IsZero() || g.Deadline.After(at) {
			x := refuse(NotYetDue, &g)
			x.Deadline = g.Deadline
			return x
		}
		g.Outcome = game.WinFor(g.Turn().Other(), game.Timeout)
		if err := s.commit(tx, &g, Ended, g.Deadline); err != nil {
			return err
		}
		r.Game = g
		return nil
	})
	return r, err
}

// finish processes the end of g, once, in the transaction that ends it:
// the clock stops, offers lapse, and the game is counted for its players
// and the variant statistics, globally and in its guild; then a rated
// game is rated and the game logged for both players (rateAndLog), before
// the OnEnd hooks run. The storage archives g when it is put.
func (s *Service) finish(tx Tx, g *Game, at time.Time) error {
	g.Ended = at
	g.Deadline, g.RemindAt = time.Time{}, time.Time{}
	g.DrawOffer, g.Takeback = nil, nil
	scopes := []string{""}
	if g.Guild != "" {
		scopes = append(scopes, g.Guild)
	}
	ices := iceAges(g)
	for _, scope := range scopes {
		st, err := tx.Stats(scope)
		if err != nil {
			return err
		}
		st.Scope = scope
		st.count(g.Outcome, ices)
		if err := tx.PutStats(st); err != nil {
			return err
		}
		if g.Outcome.Reason == game.Aborted {
			continue // an aborted game is no game for the players' records
		}
		for _, c := range []game.Color{game.White, game.Black} {
			seat := g.Seat(c)
			p, err := tx.Player(scope, seat.ID)
			switch {
			case errors.Is(err, ErrNotFound):
				p = NewPlayer(scope, seat.ID)
			case err != nil:
				// An unreadable record must not be replaced by a fresh
				// one: that would silently reset a rating.
				return err
			}
			if seat.Name != "" {
				p.Name = seat.Name
			}
			p.count(c, g)
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
	}
	if err := s.rateAndLog(tx, g); err != nil {
		return err
	}
	for _, hook := range s.opts.OnEnd {
		if err := hook(tx, g); err != nil {
			return err
		}
	}
	return nil
}

// count adds a finished game to the statistics.
func (st *Stats) count(o game.Outcome, iceAges int) {
	switch o.Result {
	case game.WhiteWins:
		st.WhiteWins++
	case game.BlackWins:
		st.BlackWins++
	case game.Draw:
		st.Draws++
	default:
		st.Aborted++
		return
	}
	if st.ByReason == nil {
		st.ByReason = map[game.Reason]int{}
	}
	st.ByReason[o.Reason]++
	st.IceAges += iceAges
}

// count adds the finished game g, played with colour c, to the record.
func (p *Player) count(c game.Color, g *Game) {
	t := &p.AsWhite
	if c == game.Black {
		t = &p.AsBlack
	}
	w, decisive := g.Outcome.Winner()
	switch {
	case !decisive:
		t.Drawn++
		p.Streak = 0
	case w == c:
		t.Won++
		p.Streak = max(p.Streak, 0) + 1
		p.BestStreak = max(p.BestStreak, p.Streak)
	default:
		t.Lost++
		p.Streak = min(p.Streak, 0) - 1
		if g.Outcome.Reason == game.KingFrozen {
			p.FrozenLosses++
		}
	}
	p.LastGame = g.Ended
}

// iceAges counts the Ice Ages of a game: its moves that were Black's
// 20th, 40th, … move, read from the start position's counters.
func iceAges(g *Game) int {
	start, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return 0
	}
	n, full, black := 0, start.FullMoveNumber(), start.Turn() == game.Black
	for range g.Moves {
		if black {
			if full%game.IceAgePeriod == 0 {
				n++
			}
			full++
		}
		black = !black
	}
	return n
}
