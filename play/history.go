package play

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/iceagechess/iceage/game"
)

// historyBatch is how many finished games History and LastIn read at a
// time while they filter.
const historyBatch = 50

// lastInScan bounds the games LastIn looks through: a channel's last game
// is almost always among its guild's latest.
const lastInScan = 500

// History returns the finished games of user (or, with user "", of the
// guild), newest first: those with ids below before (0: no bound), at most
// limit. With both user and guild, only the user's games in that guild
// count: the user's games are read newest first until limit are found, so
// the cost grows with the games played elsewhere in between.
func (s *Service) History(ctx context.Context, user, guild string, before uint64, limit int) ([]Game, error) {
	if limit <= 0 {
		return nil, nil
	}
	var out []Game
	err := s.st.View(ctx, func(tx ReadTx) error {
		out = out[:0]
		if user == "" || guild == "" {
			gs, err := tx.Finished(user, guild, before, limit)
			out = gs
			return err
		}
		for bound := before; len(out) < limit; {
			gs, err := tx.Finished(user, "", bound, historyBatch)
			if err != nil {
				return err
			}
			for _, g := range gs {
				if g.Guild == guild && len(out) < limit {
					out = append(out, g)
				}
			}
			if len(gs) < historyBatch {
				break
			}
			bound = gs[len(gs)-1].ID
		}
		return nil
	})
	return out, err
}

// LastBetween returns the last game that user finished against other in
// scope (a guild id, or "" for everywhere), aborted games aside, from the
// user's log; a *Refusal of Kind NoGame if they finished none.
func (s *Service) LastBetween(ctx context.Context, scope, user, other string) (Game, error) {
	var g Game
	err := s.st.View(ctx, func(tx ReadTx) error {
		var last LogEntry
		err := tx.PlayerLog(scope, user, func(e LogEntry) error {
			if e.Opponent == other && (last.Game == 0 || !e.Ended.Before(last.Ended)) {
				last = e
			}
			return nil
		})
		if err != nil {
			return err
		}
		if last.Game == 0 {
			return &Refusal{Kind: NoGame}
		}
		g, err = tx.Game(last.Game)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return Game{}, &Refusal{Kind: NoGame}
	}
	return g, err
}

// LastIn returns the game of a channel of guild: the one going on there,
// else the last one finished there (among the guild's latest 500
// finished games); a *Refusal of Kind NoGame if there is none. A game's
// thread keeps its game after the end.
func (s *Service) LastIn(ctx context.Context, guild, channel string) (Game, error) {
	var g Game
	err := s.st.View(ctx, func(tx ReadTx) error {
		var err error
		if g, err = tx.GameIn(channel); !errors.Is(err, ErrNotFound) {
			return err
		}
		for before, seen := uint64(0), 0; seen < lastInScan; {
			gs, err := tx.Finished("", guild, before, historyBatch)
			if err != nil {
				return err
			}
			for _, f := range gs {
				if f.Channel == channel {
					g = f
					return nil
				}
			}
			if len(gs) < historyBatch {
				break
			}
			seen += len(gs)
			before = gs[len(gs)-1].ID
		}
		return &Refusal{Kind: NoGame}
	})
	return g, err
}

// PGN returns the game in PGN (see game.Match.PGN): Event says whether it
// was rated, Site is site (where it was played, e.g. a server's name; ""
// for unknown), Date the day it began (UTC), White and Black the players'
// names, WhiteElo and BlackElo the ratings it was rated from in its guild
// (or everywhere, for a game outside any guild; left out for a game not
// rated, or not over), TimeControl one move in DaysPerMove days ("-"
// without a limit), and the movetext comments every Ice Age. Errors wrap
// ErrCorrupt.
func (g *Game) PGN(site string) (string, error) {
	m, err := g.Match()
	if err != nil {
		return "", err
	}
	return m.PGN(pgnTags(g, site)), nil
}

func pgnTags(g *Game, site string) game.Tags {
	name := func(s Seat) string {
		if s.Name != "" {
			return s.Name
		}
		return s.ID
	}
	t := game.Tags{Event: "Casual Ice Age game", Site: site, Date: g.Created.UTC().Format("2006.01.02"),
		White: name(g.White), Black: name(g.Black), TimeControl: "-"}
	if g.Rated {
		t.Event = "Rated Ice Age game"
	}
	if c, ok := g.RatingsIn(g.Guild); ok {
		t.WhiteElo = strconv.Itoa(int(math.Round(c.Before[0])))
		t.BlackElo = strconv.Itoa(int(math.Round(c.Before[1])))
	}
	if g.DaysPerMove > 0 {
		t.TimeControl = "1/" + strconv.FormatInt(int64(time.Duration(g.DaysPerMove)*24*time.Hour/time.Second), 10)
	}
	return t
}
