package play

import (
	"slices"
	"time"

	"github.com/iceagechess/iceage/rating"
)

// Puzzles are solved alone, against the puzzle: a player's puzzle rating
// (Puzzler) and a puzzle's own (PuzzleStats) move together, Glicko-2,
// player against puzzle, on the player's first try at a puzzle only.
// The daily puzzle of a server (DailyPuzzle) counts who solved it.

// Puzzler is a player's puzzle record in a scope (a server, or "" for
// direct messages).
type Puzzler struct {
	V      int    `json:"v"`
	Scope  string `json:"scope"`
	User   string `json:"user"`
	Name   string `json:"name,omitempty"` // display name at the last try
	Rating Rating `json:"rating"`
	// Rated counts the puzzles rated (first tries), Solved those of
	// them solved.
	Rated  int `json:"rated,omitempty"`
	Solved int `json:"solved,omitempty"`
	// Streak is the run of puzzles solved at the first try, and
	// BestStreak the longest.
	Streak     int `json:"streak,omitempty"`
	BestStreak int `json:"best,omitempty"`
	// Tried are the puzzles already rated for the player, oldest first:
	// a puzzle is rated once, and not offered again.
	Tried []string `json:"tried,omitempty"`
	// Current is the puzzle being tried, Ply the solver's moves made in
	// it, and Spoiled is set once the try counted (solved, failed, or
	// the solution shown): the rest of it is practice.
	Current string `json:"current,omitempty"`
	Ply     int    `json:"ply,omitempty"`
	Spoiled bool   `json:"spoiled,omitempty"`
	// Hinted is set when a hint was shown in the current puzzle: a
	// solve after a hint is rated as a loss, as on Lichess.
	Hinted bool `json:"hinted,omitempty"`
}

// NewPuzzler returns the record of a user who has tried no puzzle.
func NewPuzzler(scope, user string) Puzzler {
	return Puzzler{Scope: scope, User: user,
		Rating: Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}}
}

// HasTried reports whether the puzzle id was rated for the player.
func (p *Puzzler) HasTried(id string) bool { return slices.Contains(p.Tried, id) }

// PuzzleStats is a puzzle's rating, moved by the tries at it, and its
// counts.
type PuzzleStats struct {
	V      int    `json:"v"`
	ID     string `json:"id"`
	Rating Rating `json:"rating"`
	Tries  int    `json:"tries,omitempty"`
	Solved int    `json:"solved,omitempty"`
}

// NewPuzzleStats returns the stats of a puzzle never tried, rated at
// first: its generator's guess, with the deviation of a new player.
func NewPuzzleStats(id string, first int) PuzzleStats {
	return PuzzleStats{ID: id, Rating: Rating{Rating: float64(first), Deviation: DefaultDeviation, Volatility: DefaultVolatility}}
}

// RatePuzzle rates a first try: the player against the puzzle, a win for
// the player when solved. Both ratings move (the player's grown first by
// the time since their last rated try), and the counts, the streak and
// Tried follow. It does nothing for a puzzle already rated for the
// player.
func RatePuzzle(p *Puzzler, s *PuzzleStats, solved bool, now time.Time) {
	if p.HasTried(s.ID) {
		return
	}
	before := p.Rating.At(now)
	score := 0.0
	if solved {
		score = 1
	}
	pr, sr := rating.Game(before.glicko(), s.Rating.glicko(), score)
	p.Rating = Rating{Rating: pr.Rating, Deviation: pr.Deviation, Volatility: pr.Volatility, Updated: now}
	s.Rating = Rating{Rating: sr.Rating, Deviation: sr.Deviation, Volatility: sr.Volatility, Updated: now}
	p.Rated++
	s.Tries++
	if solved {
		p.Solved++
		s.Solved++
		p.Streak++
		p.BestStreak = max(p.BestStreak, p.Streak)
	} else {
		p.Streak = 0
	}
	p.Tried = append(p.Tried, s.ID)
}

// DailyPuzzle is a server's daily puzzle: where and when it is posted,
// and the post of the day.
type DailyPuzzle struct {
	V       int    `json:"v"`
	Guild   string `json:"guild"`
	Channel string `json:"channel,omitempty"` // "" when the server has none
	Hour    int    `json:"hour"`              // UTC, 0–23
	// Day is the day of the last post, "2006-01-02" in UTC; Puzzle its
	// puzzle, Message its message, Solvers who solved it (by user id).
	Day     string   `json:"day,omitempty"`
	Puzzle  string   `json:"puzzle,omitempty"`
	Message string   `json:"message,omitempty"`
	Solvers []string `json:"solvers,omitempty"`
	// Early are who solved the puzzle of day Next from its post before
	// the post was recorded (the click can come first): they become its
	// Solvers when it is.
	Next  string   `json:"next,omitempty"`
	Early []string `json:"early,omitempty"`
}

// On reports whether the server has a daily puzzle.
func (d *DailyPuzzle) On() bool { return d.Channel != "" }

// NextPost returns the first time at or after now at the day's hour,
// UTC.
func (d *DailyPuzzle) NextPost(now time.Time) time.Time {
	now = now.UTC()
	at := time.Date(now.Year(), now.Month(), now.Day(), d.Hour, 0, 0, 0, time.UTC)
	if at.Before(now) {
		at = at.AddDate(0, 0, 1)
	}
	return at
}

func (p *Puzzler) version() *int     { return &p.V }
func (s *PuzzleStats) version() *int { return &s.V }
func (d *DailyPuzzle) version() *int { return &d.V }
