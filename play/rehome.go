package play

import (
	"context"
	"errors"
)

// Rehome moves a game that goes on from the channel it is played in to
// another: its thread was deleted or locked, and the game goes on in a
// new one. It changes nothing and refuses (NoGame) when the game has
// ended or is no longer in from, as when another process moved it first,
// and refuses (ChannelBusy) when a game already goes on in to.
func (s *Service) Rehome(ctx context.Context, id uint64, from, to string) (Game, error) {
	var g Game
	err := s.st.Update(ctx, func(tx Tx) (err error) {
		g, err = tx.Game(id)
		if errors.Is(err, ErrNotFound) || err == nil && (g.Over() || g.Channel != from) {
			return &Refusal{Kind: NoGame}
		}
		if err != nil {
			return err
		}
		g.Channel = to
		err = tx.PutGame(g)
		if errors.Is(err, ErrChannelBusy) {
			return &Refusal{Kind: ChannelBusy}
		}
		if err != nil || s.then == nil {
			return err
		}
		return s.then(tx, &Result{Game: g, Event: Rehomed})
	})
	if err != nil {
		return Game{}, err
	}
	return g, nil
}
