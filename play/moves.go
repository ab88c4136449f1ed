package play

import (
	"context"
	"errors"
	"time"

	"github.com/iceagechess/iceage/game"
)

// MaxSuggestions is how many legal moves an illegal one is answered with.
const MaxSuggestions = 5

// Move plays the move the user typed (any notation game.ParseMove reads)
// in the game a names. The mover must be the side to move, at the
// revision they saw, before the deadline. A move answers any pending
// draw offer or takeback request: they lapse. A move that ends the game
// (checkmate, stalemate, a frozen king, fifty moves) ends it here.
//
// If the opponent queued conditional moves (Premove) and the move is one
// they expected, their reply is played at once, in the same transaction,
// and Result.Conditional reports it; a move they did not expect drops
// their queue, and Result.Conditional says so.
//
// Refusals (*Refusal): NoGame, NotAPlayer, GameOver, Stale, TimeUp (also
// while the opponent chooses after a timeout), NotYourTurn, NotAMove
// (wrapping *game.SyntaxError), IllegalMove (wrapping *game.MoveError,
// with Suggestions).
func (s *Service) Move(ctx context.Context, a Act, text string) (Result, error) {
	return s.act(ctx, a, Moved, func(tx Tx, g *Game, me game.Color, r *Result) error {
		pos, err := g.Position()
		if err != nil {
			return err
		}
		if turn := pos.Turn(); turn != me {
			x := refuse(NotYourTurn, g)
			x.Who, x.Turn = g.Seat(turn), turn
			return x
		}
		if f := g.Flag; f != nil {
			x := refuse(TimeUp, g)
			x.Deadline, x.Who = f.At, g.Seat(me.Other())
			return x
		}
		mv, err := game.ParseMove(&pos, text)
		if err != nil {
			return moveRefusal(g, &pos, text, err)
		}
		at := normTime(a.At)
		if g.Clock != nil {
			g.Clock.moved(me, at, normTime(a.Sent))
		}
		r.Move = g.play(&pos, mv, at)
		r.DrawLapsed, r.TakebackLapsed = g.DrawOffer, g.Takeback
		g.DrawOffer, g.Takeback = nil, nil
		if q := g.Premoves; q != nil && !g.Over() {
			r.Conditional = g.answer(q, r.Move, at)
		}
		if g.Over() {
			return nil
		}
		return s.startClock(tx, g, at)
	})
}

// play records the legal move mv, played in pos at the time at, by the
// act that commits the next revision, and the outcome it brings.
func (g *Game) play(pos *game.Position, mv game.Move, at time.Time) *MovePlayed {
	next, ice := pos.ApplyWithEvent(mv)
	san := pos.SAN(mv)
	g.Moves = append(g.Moves, Move{UCI: mv.UCI(), At: at, SAN: san, Rev: g.Revision + 1})
	g.FEN = next.FEN()
	g.Outcome = next.Outcome()
	return &MovePlayed{Move: mv, SAN: san, UCI: mv.UCI(), By: pos.Turn(), Before: *pos, After: next, IceAge: ice}
}

// moveRefusal turns game's parse error into a refusal with suggestions.
func moveRefusal(g *Game, pos *game.Position, text string, err error) error {
	var se *game.SyntaxError
	var me *game.MoveError
	x := refuse(IllegalMove, g)
	x.Err = err
	switch {
	case errors.As(err, &se):
		x.Kind = NotAMove
	case errors.As(err, &me):
		// A man the move meant may have frozen: the refusal says so.
		if m, merr := g.Match(); merr == nil {
			if f, ok := m.FrozenMeant(me); ok {
				me.NoteFrozen(f)
			}
		}
	default:
		return err
	}
	for _, m := range game.Suggest(pos, text, MaxSuggestions) {
		x.Suggestions = append(x.Suggestions, pos.SAN(m))
	}
	return x
}
