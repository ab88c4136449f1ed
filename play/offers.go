package play

import (
	"context"

	"github.com/iceagechess/iceage/game"
)

// OfferDraw offers a draw to the opponent. An offer waits until the
// opponent accepts or declines it, the offerer withdraws it, or a move is
// made. If the opponent has offered a draw already, offering one accepts
// it. A player may offer once per position.
//
// Refusals: those of every act, OfferPending, OfferRepeated.
func (s *Service) OfferDraw(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, DrawOffered, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if o := g.DrawOffer; o != nil {
			if o.By == a.By {
				return refuse(OfferPending, g)
			}
			g.Outcome = game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}
			r.Event = Ended
			return nil
		}
		if g.LastOffer[me] == g.Ply()+1 {
			return refuse(OfferRepeated, g)
		}
		g.DrawOffer = &Offer{By: a.By, Ply: g.Ply()}
		g.LastOffer[me] = g.Ply() + 1
		return nil
	})
}

// AcceptDraw accepts the opponent's draw offer: the game is drawn.
//
// Refusals: those of every act, NoOffer, OwnOffer.
func (s *Service) AcceptDraw(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, Ended, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := answerable(g, g.DrawOffer, a.By); err != nil {
			return err
		}
		g.DrawOffer = nil
		g.Outcome = game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}
		return nil
	})
}

// DeclineDraw declines the opponent's draw offer.
//
// Refusals: those of every act, NoOffer, OwnOffer.
func (s *Service) DeclineDraw(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, DrawDeclined, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := answerable(g, g.DrawOffer, a.By); err != nil {
			return err
		}
		g.DrawOffer = nil
		return nil
	})
}

// WithdrawDraw takes back one's own draw offer.
//
// Refusals: those of every act, NoOffer, NotYourOffer.
func (s *Service) WithdrawDraw(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, DrawWithdrawn, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := withdrawable(g, g.DrawOffer, a.By); err != nil {
			return err
		}
		g.DrawOffer = nil
		return nil
	})
}

// RequestTakeback asks the opponent to take back the asker's last move
// (and the opponent's reply, if there is one). Rated games allow none.
//
// Refusals: those of every act, RatedTakeback, NothingToTakeBack,
// OfferPending (a request already waits).
func (s *Service) RequestTakeback(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, TakebackRequested, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if g.Rated {
			return refuse(RatedTakeback, g)
		}
		if g.Takeback != nil {
			return refuse(OfferPending, g)
		}
		if takebackPlies(g, me) == 0 {
			return refuse(NothingToTakeBack, g)
		}
		g.Takeback = &Offer{By: a.By, Ply: g.Ply()}
		return nil
	})
}

// AcceptTakeback grants the opponent's takeback request: their last move
// (and the reply to it) is taken back, pending offers lapse and the clock
// restarts for the side to move.
//
// Refusals: those of every act, NoOffer, OwnOffer.
func (s *Service) AcceptTakeback(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, TookBack, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := answerable(g, g.Takeback, a.By); err != nil {
			return err
		}
		n := takebackPlies(g, me.Other())
		if n == 0 {
			return refuse(NothingToTakeBack, g)
		}
		g.Moves = g.Moves[:len(g.Moves)-n]
		m, err := g.Match()
		if err != nil {
			return err
		}
		g.FEN = m.FEN()
		g.DrawOffer, g.Takeback = nil, nil
		g.LastOffer = [2]int{}
		g.Premoves = nil
		r.TakenBack = n
		return s.startClock(tx, g, normTime(a.At))
	})
}

// DeclineTakeback refuses the opponent's takeback request.
//
// Refusals: those of every act, NoOffer, OwnOffer.
func (s *Service) DeclineTakeback(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, TakebackDeclined, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := answerable(g, g.Takeback, a.By); err != nil {
			return err
		}
		g.Takeback = nil
		return nil
	})
}

// WithdrawTakeback takes back one's own takeback request.
//
// Refusals: those of every act, NoOffer, NotYourOffer.
func (s *Service) WithdrawTakeback(ctx context.Context, a Act) (Result, error) {
	return s.act(ctx, a, TakebackWithdrawn, func(tx Tx, g *Game, me game.Color, r *Result) error {
		if err := withdrawable(g, g.Takeback, a.By); err != nil {
			return err
		}
		g.Takeback = nil
		return nil
	})
}

// takebackPlies returns how many plies c's takeback removes: c's last
// move and, if the opponent has replied, the reply; 0 if c has not moved.
func takebackPlies(g *Game, c game.Color) int {
	n := g.Ply()
	if n == 0 {
		return 0
	}
	if g.Turn() != c { // c moved last
		return 1
	}
	if n < 2 {
		return 0 // only the opponent has moved
	}
	return 2
}

func answerable(g *Game, o *Offer, by string) error {
	switch {
	case o == nil:
		return refuse(NoOffer, g)
	case o.By == by:
		return refuse(OwnOffer, g)
	}
	return nil
}

func withdrawable(g *Game, o *Offer, by string) error {
	switch {
	case o == nil:
		return refuse(NoOffer, g)
	case o.By != by:
		return refuse(NotYourOffer, g)
	}
	return nil
}
