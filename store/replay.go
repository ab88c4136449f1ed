package store

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

// replay plays moves from the start position through package game and
// returns the final position and the Ice Ages on the way. It checks every
// move's legality, so it also verifies a stored game.
func replay(start string, moves []Move) (game.Position, []IceAge, error) {
	p, err := game.ParseFEN(start)
	if err != nil {
		return p, nil, fmt.Errorf("%w: start position %q: %v", ErrCorrupt, start, err)
	}
	var ices []IceAge
	for i, mv := range moves {
		m, err := game.ParseUCI(mv.UCI)
		if err != nil || !p.IsLegal(m) {
			return p, nil, fmt.Errorf("%w: move %d (%s) is not legal in %s", ErrIllegalMove, i+1, mv.UCI, p.FEN())
		}
		var ev *game.IceAge
		p, ev = p.ApplyWithEvent(m)
		if ev != nil {
			ices = append(ices, iceAgeRecord(i+1, ev))
		}
	}
	return p, ices, nil
}

// TakeBack takes back the last n moves of the channel's game (1 for one's
// own move when the opponent has not replied, 2 for a whole turn), as
// agreed by the players, and returns the game as it is then: the position
// and Ice Ages are recomputed from the remaining moves, offers are
// cleared and the clock restarts at at. It fails with ErrConflict if the
// game is not at expectedPly, ErrInvalid if n is not between 1 and the
// number of moves played, or if expectedPly is AnyPly: a takeback counts
// back from the ply it was agreed at, and without that check two clicks
// on "accept" would take back twice as many moves.
func (s *Store) TakeBack(channel string, expectedPly, n int, at time.Time) (Game, error) {
	if expectedPly == AnyPly {
		return Game{}, fmt.Errorf("%w: a takeback in channel %s must name the ply it was agreed at, not AnyPly", ErrInvalid, channel)
	}
	at = normTime(at)
	var g *Game
	err := s.write(func(tx *bolt.Tx) error {
		old, err := loadActive(tx, channel)
		if err != nil {
			return refuse(err)
		}
		if err := checkVersion(old, expectedPly); err != nil {
			return err
		}
		if n < 1 || n > old.Ply() {
			return refuse(fmt.Errorf("%w: cannot take back %d moves of game %d, which has %d", ErrInvalid, n, old.ID, old.Ply()))
		}
		g = old.clone()
		g.Moves = g.Moves[:len(g.Moves)-n]
		p, ices, err := replay(g.StartFEN, g.Moves)
		if err != nil {
			return fmt.Errorf("store: replaying game %d: %w", g.ID, err)
		}
		g.FEN, g.IceAges = p.FEN(), ices
		g.DrawOffer, g.Takeback = "", ""
		g.Updated = at
		g.startClock(at)
		return putActive(tx, old, g)
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}
