package play

import (
	"context"
	"errors"
	"fmt"
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
// Refusals: those of every act, TournamentGame, TooLateToAbort.
func (s *Service) Abort(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, Ended, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if g.Tournament != 0 {
			return refuse(TournamentGame, g)
		}
		if !g.Abortable() {
			return refuse(TooLateToAbort, g)
		}
		g.Outcome = game.Outcome{Reason: game.Aborted}
		return nil
	})
}

// Adjudicate ends game id, unfinished, as decide rules from the game as
// it stands in the act's transaction: a win or a draw for
// game.Adjudicated. A tournament whose round closes scores its games so;
// the game's end (rating, players' logs, Options.OnEnd) is any game's.
//
// Refusals: NoGame, GameOver.
func (s *Service) Adjudicate(ctx context.Context, id uint64, decide func(g *Game) game.Result, at time.Time) (Result, error) {
	at = normTime(at)
	var r Result
	err := s.update(ctx, func(tx Tx) error {
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
		g.Outcome = game.Outcome{Result: decide(&g), Reason: game.Adjudicated}
		if !g.Outcome.Valid() {
			return fmt.Errorf("play: game %d cannot be adjudicated as %v", id, g.Outcome.Result)
		}
		g.DrawOffer, g.Takeback, g.Flag, g.Premoves = nil, nil, nil, nil
		if err := s.commit(tx, &g, Ended, at); err != nil {
			return err
		}
		r.Game = g
		if s.then != nil {
			return s.then(tx, &r)
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

// Abortable reports whether the game may still be aborted: fewer than two
// moves played, and not a tournament's game (Game.Tournament), whose
// players lose on time if they never move.
func (g *Game) Abortable() bool { return !g.Over() && g.Ply() < 2 && g.Tournament == 0 }

// TimeOut acts on a deadline that has passed at now: the side to move
// loses on time, unless their opponent could not win by any series of
// legal moves (flagOutcome: only a lone king against a lone king, as
// docs/rules.md §5 rules, since a lone king can still win when the other
// king freezes). In a live game (Game.Clock) the flag fell, with the
// grace the mover's lag allows; a live game whose first move never came
// is aborted instead. In a game where the opponent
// chooses (Game.OpponentChooses), the game goes on instead: Game.Flag
// names the opponent, who may claim the win or call it a draw (ClaimWin,
// ClaimDraw) until a new deadline, one time per move later; Result.Event
// is then TimeRanOut. When that choice lapses unmade, TimeOut gives the
// opponent the win. The scheduler calls it; it needs no revision, as the
// deadline itself says whether it is due, and the game's times are the
// deadline's, not now's, however late it comes.
//
// Refusals: NoGame, GameOver, NotYetDue.
func (s *Service) TimeOut(ctx context.Context, id uint64, now time.Time) (Result, error) {
	at := normTime(now)
	var r Result
	err := s.update(ctx, func(tx Tx) error {
		r = Result{Event: Ended}
		g, err := dueGame(tx, id, at, func(g *Game) time.Time { return g.Deadline })
		if err != nil {
			return err
		}
		due := g.Deadline
		switch {
		case g.Clock != nil && !g.Clock.Running():
			// A live game whose first move never came: aborted, unrated.
			g.Outcome = game.Outcome{Reason: game.Aborted}
		case g.Clock != nil:
			g.Clock.Left[g.Turn()] = 0
			g.Outcome = flagOutcome(&g, g.Turn().Other())
		case g.Flag != nil:
			c, _ := g.ColorOf(g.Flag.By)
			g.Outcome = flagOutcome(&g, c)
		case g.OpponentChooses:
			g.Flag = &Flag{By: g.Seat(g.Turn().Other()).ID, At: due}
			g.Deadline, g.RemindAt, g.Reminded = due.Add(g.span()), time.Time{}, nil
			g.DrawOffer, g.Takeback, g.Premoves = nil, nil, nil
			r.Event = TimeRanOut
		default:
			g.Outcome = flagOutcome(&g, g.Turn().Other())
		}
		if err := s.commit(tx, &g, r.Event, due); err != nil {
			return err
		}
		r.Game = g
		if s.then != nil {
			return s.then(tx, &r)
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

// ClaimWin ends, on time, a game whose opponent ran out of time: the
// asker, whom Game.Flag names, wins.
//
// Refusals: those of every act, NoClaim, TimeUp (the asker is the one
// out of time).
func (s *Service) ClaimWin(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, Ended, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := claimable(g, a.By); err != nil {
			return err
		}
		g.Outcome = flagOutcome(g, me)
		return nil
	})
}

// ClaimDraw ends, drawn, a game whose opponent ran out of time: the
// asker, whom Game.Flag names, prefers a draw to the win. It counts as a
// draw by agreement.
//
// Refusals: those of every act, NoClaim, TimeUp (the asker is the one
// out of time).
func (s *Service) ClaimDraw(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, Ended, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := claimable(g, a.By); err != nil {
			return err
		}
		g.Outcome = game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}
		return nil
	})
}

// flagOutcome is the end of a game whose player ran out of time: winner,
// their opponent, wins on time, unless no series of legal moves could
// ever make them win (docs/rules.md §5, FIDE Article 6.9): then it is a
// draw.
func flagOutcome(g *Game, winner game.Color) game.Outcome {
	if pos, err := g.Position(); err == nil && !pos.CouldWin(winner) {
		return game.Outcome{Result: game.Draw, Reason: game.Timeout}
	}
	return game.WinFor(winner, game.Timeout)
}

func claimable(g *Game, by string) error {
	f := g.Flag
	switch {
	case f == nil:
		return refuse(NoClaim, g)
	case f.By != by:
		x := refuse(TimeUp, g)
		x.Deadline, x.Who = f.At, g.Seat(g.Turn().Other())
		return x
	}
	return nil
}

// finish processes the end of g, once, in the transaction that ends it:
// the clock stops, offers lapse, and the game is counted for its players
// and the variant statistics, globally and in its guild; then a rated
// game is rated and the game logged for both players (rateAndLog), before
// the OnEnd hooks run. The storage archives g when it is put.
func (s *Service) finish(tx Tx, g *Game, at time.Time) error {
	g.Ended = at
	g.Deadline, g.RemindAt, g.Reminded, g.Flag = time.Time{}, time.Time{}, nil, nil
	g.DrawOffer, g.Takeback, g.Premoves = nil, nil, nil
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
			p, err := tx.Player(scope, g.RecordID(c))
			switch {
			case errors.Is(err, ErrNotFound):
				p = NewPlayer(scope, g.RecordID(c))
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

// dueGame reads the game with that id for the scheduler's acts, which
// need no player and no revision: the game must go on and the time that
// when reads from it (its deadline, its next reminder) must have come by
// now. Refusals: NoGame, GameOver, NotYetDue (with Deadline set to that
// time).
func dueGame(tx ReadTx, id uint64, now time.Time, when func(*Game) time.Time) (Game, error) {
	g, err := tx.Game(id)
	if errors.Is(err, ErrNotFound) {
		return g, &Refusal{Kind: NoGame, Game: id}
	}
	if err != nil {
		return g, err
	}
	if g.Over() {
		x := refuse(GameOver, &g)
		x.Outcome = g.Outcome
		return g, x
	}
	if t := when(&g); t.IsZero() || t.After(now) {
		x := refuse(NotYetDue, &g)
		x.Deadline = t
		return g, x
	}
	return g, nil
}
