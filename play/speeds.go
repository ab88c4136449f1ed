package play

import (
	"context"
	"errors"
)

// SpeedRatings returns user's records of the live speeds in scope (a
// guild id, or "" for everywhere) on which they have a rated game,
// fastest first: their rating, rated games and results of each speed.
// The correspondence rating is the scope's own record (Player).
func (s *Service) SpeedRatings(ctx context.Context, scope, user string) ([]Player, error) {
	var out []Player
	err := s.st.View(ctx, func(tx ReadTx) error {
		out = out[:0]
		for _, sp := range Speeds[1:] {
			p, err := tx.Player(RatingScope(scope, sp), user)
			switch {
			case errors.Is(err, ErrNotFound):
				continue
			case err != nil:
				return err
			}
			if p.RatedGames > 0 {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

// SpeedOf returns the speed whose ratings a record of RatingScope keeps.
func SpeedOf(p *Player) Speed {
	for _, sp := range Speeds[1:] {
		if n := len(sp.String()) + 1; len(p.Scope) >= n && p.Scope[len(p.Scope)-n:] == "~"+sp.String() {
			return sp
		}
	}
	return Correspondence
}
