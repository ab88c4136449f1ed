package play

import (
	"errors"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/rating"
)

// InactiveAfter is how long a player may go without a rated game and stay
// on a leaderboard. Their next rated game puts them back.
const InactiveAfter = 90 * 24 * time.Hour

// RatingChange is what a rated game did to its players' ratings in one
// scope (a guild id, or "" for everywhere). Arrays are indexed by colour:
// [game.White] and [game.Black].
type RatingChange struct {
	Scope string `json:"scope,omitempty"`
	// Before are the ratings the game was rated from, and Deviation their
	// deviations, grown by the time since each player's last rated game.
	Before    [2]float64 `json:"before"`
	Deviation [2]float64 `json:"rd"`
	After     [2]float64 `json:"after"`
}

// RatingsIn returns what the game did to the ratings of scope; ok is false
// if it changed none there (a casual game, or one not over).
func (g *Game) RatingsIn(scope string) (c RatingChange, ok bool) {
	for _, c := range g.Ratings {
		if c.Scope == scope {
			return c, true
		}
	}
	return RatingChange{}, false
}

// Scopes returns the scopes a game counts in: everywhere (""), and its
// guild if it has one.
func (g *Game) Scopes() []string {
	if g.Guild == "" {
		return []string{""}
	}
	return []string{"", g.Guild}
}

// LogEntry is one finished game in one player's log, in one scope: what
// the player's statistics and rating chart need without reading the game.
// An aborted game has no entries. The storage keeps one entry per scope,
// user and game, so writing an entry again changes nothing.
type LogEntry struct {
	V        int          `json:"v"`
	Scope    string       `json:"scope"`
	User     string       `json:"user"`
	Game     uint64       `json:"game"`
	Ended    time.Time    `json:"ended"`
	Color    game.Color   `json:"color"` // the colour the user played
	Opponent string       `json:"opp"`
	Outcome  game.Outcome `json:"outcome"`
	// First is the user's first move in SAN ("hxg3"), in a game from the
	// ice start position; "" in a game set up from another position, or
	// when the user never moved.
	First string `json:"first,omitempty"`
	// Rated says that the game changed the user's rating in Scope to
	// Rating, with deviation Deviation.
	Rated     bool    `json:"rated,omitempty"`
	Rating    float64 `json:"r,omitempty"`
	Deviation float64 `json:"rd,omitempty"`
	// Speed is the game's speed: Rating is the user's rating of that
	// speed (RatingScope). Entries from before live games are
	// correspondence.
	Speed Speed `json:"speed,omitempty"`
}

// Won and Lost say how the game ended for the user; neither is a draw.
func (e *LogEntry) Won() bool {
	w, ok := e.Outcome.Winner()
	return ok && w == e.Color
}

func (e *LogEntry) Lost() bool {
	w, ok := e.Outcome.Winner()
	return ok && w != e.Color
}

// At returns the rating as it stands at now: the deviation grows with the
// time since the last rated game (rating.Decay over rating.Periods),
// rating and volatility stay. A rating never changed, or changed after
// now, is returned as it is.
func (r Rating) At(now time.Time) Rating {
	if r.Updated.IsZero() || !now.After(r.Updated) {
		return r
	}
	g := rating.Decay(r.glicko(), rating.Periods(now.Sub(r.Updated)))
	r.Deviation = g.Deviation
	return r
}

// Provisional reports whether the rating is not yet reliable: its
// deviation is above rating.ProvisionalDeviation.
func (r Rating) Provisional() bool { return r.glicko().Provisional() }

// Display returns the rating rounded, with "?" while provisional: "1873",
// "1500?".
func (r Rating) Display() string { return r.glicko().Display() }

func (r Rating) glicko() rating.Rating {
	return rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
}

// add counts a game that ended with o, played with colour c.
func (t *Tally) add(c game.Color, o game.Outcome) {
	switch w, decisive := o.Winner(); {
	case !decisive:
		t.Drawn++
	case w == c:
		t.Won++
	default:
		t.Lost++
	}
}

// rateAndLog is the part of a game's end that concerns each player beyond
// the tallies: in every scope the game counts in, a rated game rates both
// players (Glicko-2, one game as one rating period, each player's deviation
// first grown by the time since their last rated game), records the change
// on the game, and every finished game gets an entry in both players'
// logs. finish calls it after the tallies, in the transaction that ends the
// game, so a game is rated exactly once: a retried transaction starts
// again from what is stored, and an ended game cannot end again. An
// aborted game, with no result, changes nothing here.
func (s *Service) rateAndLog(tx Tx, g *Game) error {
	if g.Outcome.Result == game.NoResult {
		return nil
	}
	rated := g.Rated && g.White.ID != g.Black.ID
	score := 0.5 // White's
	if w, decisive := g.Outcome.Winner(); decisive {
		score = 1
		if w == game.Black {
			score = 0
		}
	}
	first := g.FirstMoves()
	g.Ratings = nil
	speed := g.Speed()
	for _, scope := range g.Scopes() {
		var ps [2]Player
		for c := range ps {
			p, err := tx.Player(scope, g.RecordID(game.Color(c)))
			switch {
			case errors.Is(err, ErrNotFound):
				// finish writes both players' records first; a storage
				// that does not show a transaction its own writes would
				// reset ratings here.
				return errors.New("play: a player's record written at the game's end is not there to rate")
			case err != nil:
				return err
			}
			ps[c] = p
		}
		// ps keep the tallies of every game in scope; rs the ratings of
		// the game's speed, the same records for correspondence.
		rs := &ps
		var speedRecords [2]Player
		if speed != Correspondence && rated {
			for c := range speedRecords {
				p, err := tx.Player(RatingScope(scope, speed), g.RecordID(game.Color(c)))
				switch {
				case errors.Is(err, ErrNotFound):
					p = NewPlayer(RatingScope(scope, speed), g.RecordID(game.Color(c)))
				case err != nil:
					return err
				}
				p.Name = ps[c].Name
				p.count(game.Color(c), g)
				speedRecords[c] = p
			}
			rs = &speedRecords
		}
		if rated {
			change := RatingChange{Scope: scope}
			var before [2]rating.Rating
			for c := range rs {
				r := rs[c].Rating.At(g.Ended)
				before[c] = r.glicko()
				change.Before[c], change.Deviation[c] = r.Rating, r.Deviation
			}
			w, b := rating.Game(before[game.White], before[game.Black], score)
			for c, r := range [2]rating.Rating{w, b} {
				p := &rs[c]
				updated := p.Rating.Updated
				if g.Ended.After(updated) {
					updated = g.Ended
				}
				p.Rating = Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility, Updated: updated}
				p.RatedGames++
				p.RatedTally.add(game.Color(c), g.Outcome)
				change.After[c] = r.Rating
				if err := tx.PutPlayer(*p); err != nil {
					return err
				}
			}
			g.Ratings = append(g.Ratings, change)
		}
		for c := range ps {
			col := game.Color(c)
			e := LogEntry{Scope: scope, User: ps[c].User, Game: g.ID, Ended: g.Ended, Color: col,
				Opponent: g.RecordID(col.Other()), Outcome: g.Outcome, First: first[c], Rated: rated, Speed: speed}
			if rated {
				e.Rating, e.Deviation = rs[c].Rating.Rating, rs[c].Rating.Deviation
			}
			if err := tx.PutLogEntry(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// RatingScope is the scope that keeps the ratings of speed sp in scope
// (a guild id, or "" for everywhere): scope itself for correspondence,
// whose ratings are those from before live games, else scope and the
// speed's name after a "~" ("~blitz", "1234~rapid"). Each has its own
// players' records (their ratings, rated games and results of that
// speed) and so its own leaderboard (Leaderboard), and no other kind of
// record: migrate and backup keep them as any player's.
func RatingScope(scope string, sp Speed) string {
	if sp == Correspondence {
		return scope
	}
	return scope + "~" + sp.String()
}

// RecordID returns the id under which the seat of colour c is counted,
// rated and logged: the player's id, or for the computer engine its id
// and level ("ID/engine5"), so that each level has a rating of its own.
func (g *Game) RecordID(c game.Color) string {
	if l := g.Engine[c]; l > 0 {
		return fmt.Sprintf("%s/engine%d", g.Seat(c).ID, l)
	}
	return g.Seat(c).ID
}

// FirstMoves returns White's and Black's first moves in SAN, as the
// players' logs keep them (LogEntry.First), for a game from the ice start
// position; "" for a side that has not moved, and for both in a game set
// up from another position, where a first move says nothing of a player's
// taste.
func (g *Game) FirstMoves() (first [2]string) {
	if g.StartFEN != game.StartFEN {
		return first
	}
	p := game.StartPosition()
	for i := 0; i < 2 && i < len(g.Moves); i++ {
		m, err := game.ParseUCI(g.Moves[i].UCI)
		if err != nil || !p.IsLegal(m) {
			return first
		}
		first[i] = p.SAN(m)
		p = p.Apply(m)
	}
	return first
}
