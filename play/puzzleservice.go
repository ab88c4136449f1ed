package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// PuzzleEvent is what happened in a player's try at a puzzle.
type PuzzleEvent uint8

const (
	// PuzzleStarted: the player opened the puzzle.
	PuzzleStarted PuzzleEvent = iota + 1
	// PuzzleAdvanced: a right move, more to come.
	PuzzleAdvanced
	// PuzzleSolved: the last right move.
	PuzzleSolved
	// PuzzleFailed: a wrong move.
	PuzzleFailed
	// PuzzleHinted: the player asked for a hint.
	PuzzleHinted
	// PuzzleShown: the player asked for the solution.
	PuzzleShown
)

// PuzzleStep is one event of a try, as the front end judged it: the
// puzzle's rules (package puzzle) decide what is right; play keeps the
// score.
type PuzzleStep struct {
	Scope, User, Name string
	Puzzle            string
	// First is the puzzle's first rating, for a puzzle never tried.
	First int
	// Ply is the solver's moves made when the step was taken; a step
	// whose Ply is not the record's is Stale (a menu left open).
	Ply   int
	Event PuzzleEvent
	At    time.Time
}

// PuzzleResult is the state after a step, and how the ratings moved when
// it was rated.
type PuzzleResult struct {
	Puzzler Puzzler
	Stats   PuzzleStats
	// Rated is set when the step rated the try; Before is then the
	// player's rating before it (grown by the time since the last).
	Rated  bool
	Before Rating
}

// Puzzle records a step of a user's try at a puzzle, in one transaction:
// the first try at a puzzle is rated when it is solved, failed or
// given up (the solution shown); a hint marks it, and a solve after a
// hint is rated as a miss. A later try is practice, never rated.
func (s *Service) Puzzle(ctx context.Context, st PuzzleStep) (PuzzleResult, error) {
	if CheckID("user id", st.User) != nil || CheckID("puzzle id", st.Puzzle) != nil || st.At.IsZero() || st.Event < PuzzleStarted || st.Event > PuzzleShown {
		return PuzzleResult{}, errors.New("play: a puzzle step needs a user, a puzzle, a time and an event")
	}
	if st.Scope != "" && CheckID("scope", st.Scope) != nil {
		return PuzzleResult{}, errors.New("play: a puzzle step's scope is no guild id")
	}
	at := normTime(st.At)
	var res PuzzleResult
	err := s.st.Update(ctx, func(tx Tx) error {
		res = PuzzleResult{}
		p, err := tx.Puzzler(st.Scope, st.User)
		if errors.Is(err, ErrNotFound) {
			p = NewPuzzler(st.Scope, st.User)
		} else if err != nil {
			return err
		}
		stats, err := tx.PuzzleStats(st.Puzzle)
		if errors.Is(err, ErrNotFound) {
			stats = NewPuzzleStats(st.Puzzle, st.First)
		} else if err != nil {
			return err
		}
		if st.Name != "" {
			p.Name = st.Name
		}
		if st.Event == PuzzleStarted {
			p.Current, p.Ply, p.Hinted = st.Puzzle, 0, false
			p.Spoiled = p.HasTried(st.Puzzle)
		} else if p.Current != st.Puzzle || p.Ply != st.Ply {
			return &Refusal{Kind: Stale}
		}
		rate := func(solved bool) {
			if p.Spoiled {
				return
			}
			res.Rated, res.Before = true, p.Rating.At(at)
			RatePuzzle(&p, &stats, solved, at)
			p.Spoiled = true
		}
		switch st.Event {
		case PuzzleAdvanced:
			p.Ply++
		case PuzzleSolved:
			p.Ply++
			rate(!p.Hinted)
		case PuzzleFailed:
			rate(false)
		case PuzzleHinted:
			p.Hinted = true
		case PuzzleShown:
			rate(false)
		}
		res.Puzzler, res.Stats = p, stats
		if err := tx.PutPuzzler(p); err != nil {
			return err
		}
		if res.Rated {
			return tx.PutPuzzleStats(stats)
		}
		return nil
	})
	return res, err
}

// OutboxDailyPuzzle is the outbox kind of a server's daily post; its
// Body is the guild id, its Key names the guild and the day.
const OutboxDailyPuzzle = "puzzle.daily"

// DailyKey is the outbox key of a guild's post of a day at an hour: a
// new hour is a new item, and the item of the old one finds itself stale
// (ParseDailyKey).
func DailyKey(guild, day string, hour int) string {
	return "puzzle.daily:" + guild + ":" + day + ":" + strconv.Itoa(hour)
}

// ParseDailyKey reads a DailyKey; ok is false for any other text.
func ParseDailyKey(key string) (guild, day string, hour int, ok bool) {
	parts := strings.Split(key, ":")
	if len(parts) != 4 || parts[0] != "puzzle.daily" {
		return "", "", 0, false
	}
	hour, err := strconv.Atoi(parts[3])
	if err != nil || hour < 0 || hour > 23 || strconv.Itoa(hour) != parts[3] {
		return "", "", 0, false
	}
	if _, err := time.Parse(time.DateOnly, parts[2]); err != nil || CheckID("guild id", parts[1]) != nil {
		return "", "", 0, false
	}
	return parts[1], parts[2], hour, true
}

// DayOf is the day of t in the daily puzzle's calendar: UTC.
func DayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// SetDailyPuzzle sets where and when a server's daily puzzle is posted
// (channel "" stops it), and puts its next post in the outbox, in the
// same transaction, so that it is neither lost nor posted twice.
func (s *Service) SetDailyPuzzle(ctx context.Context, guild, channel string, hour int, at time.Time) (DailyPuzzle, error) {
	if CheckID("guild id", guild) != nil || channel != "" && CheckID("channel id", channel) != nil || at.IsZero() {
		return DailyPuzzle{}, errors.New("play: a daily puzzle needs a server, a channel id and a time")
	}
	if hour < 0 || hour > 23 {
		return DailyPuzzle{}, &Refusal{Kind: BadSettings}
	}
	at = normTime(at)
	var d DailyPuzzle
	err := s.st.Update(ctx, func(tx Tx) error {
		var err error
		if d, err = tx.DailyPuzzle(guild); err != nil {
			return err
		}
		d.Guild, d.Channel, d.Hour = guild, channel, hour
		if err := tx.PutDailyPuzzle(d); err != nil {
			return err
		}
		if !d.On() {
			return nil
		}
		return tx.PutOutbox(nextDaily(&d, at))
	})
	return d, err
}

// nextDaily is the outbox item of a server's next daily post after at:
// today's, at the hour, unless today's was posted already.
func nextDaily(d *DailyPuzzle, at time.Time) OutboxItem {
	due := d.NextPost(at)
	if DayOf(due) == d.Day {
		due = due.AddDate(0, 0, 1)
	}
	return OutboxItem{Key: DailyKey(d.Guild, DayOf(due), d.Hour), Kind: OutboxDailyPuzzle, Body: []byte(d.Guild), Due: due, Created: at}
}

// DailyPosted records a server's post of the day (its puzzle and
// message) and puts the next day's in the outbox. A post for a day
// already posted is refused as Stale: the item was delivered twice.
func (s *Service) DailyPosted(ctx context.Context, guild, day, puzzle, message string, at time.Time) (DailyPuzzle, error) {
	var d DailyPuzzle
	err := s.st.Update(ctx, func(tx Tx) error {
		var err error
		if d, err = tx.DailyPuzzle(guild); err != nil {
			return err
		}
		if d.Day == day {
			return &Refusal{Kind: Stale}
		}
		d.Day, d.Puzzle, d.Message, d.Solvers = day, puzzle, message, nil
		if d.Next == day {
			d.Solvers = d.Early
		}
		d.Next, d.Early = "", nil
		if err := tx.PutDailyPuzzle(d); err != nil {
			return err
		}
		if !d.On() {
			return nil
		}
		return tx.PutOutbox(nextDaily(&d, at))
	})
	return d, err
}

// DailySolved counts user among the solvers of a server's puzzle of
// day; added is false when they were counted already or the day is
// older than the last post's. A solve of a day after the last post's
// comes from a post not yet recorded, and is counted when it is
// (DailyPosted).
func (s *Service) DailySolved(ctx context.Context, guild, day, user string) (d DailyPuzzle, added bool, err error) {
	if CheckID("guild id", guild) != nil || CheckID("user id", user) != nil {
		return d, false, fmt.Errorf("play: a daily solve needs a server and a user")
	}
	err = s.st.Update(ctx, func(tx Tx) error {
		added = false
		var err error
		if d, err = tx.DailyPuzzle(guild); err != nil {
			return err
		}
		switch {
		case d.Day == day:
			if slices.Contains(d.Solvers, user) {
				return nil
			}
			d.Solvers = append(d.Solvers, user)
		case day > d.Day: // days compare as their "2006-01-02"
			if d.Next != day {
				d.Next, d.Early = day, nil
			}
			if slices.Contains(d.Early, user) {
				return nil
			}
			d.Early = append(d.Early, user)
		default:
			return nil
		}
		added = true
		return tx.PutDailyPuzzle(d)
	})
	return d, added, err
}

// DailyPuzzleOf returns a server's daily puzzle.
func (s *Service) DailyPuzzleOf(ctx context.Context, guild string) (DailyPuzzle, error) {
	var d DailyPuzzle
	err := s.st.View(ctx, func(tx ReadTx) error {
		var err error
		d, err = tx.DailyPuzzle(guild)
		return err
	})
	return d, err
}

// PuzzlerOf returns a user's puzzle record in scope, a new one if none.
func (s *Service) PuzzlerOf(ctx context.Context, scope, user string) (Puzzler, error) {
	p := NewPuzzler(scope, user)
	err := s.st.View(ctx, func(tx ReadTx) error {
		got, err := tx.Puzzler(scope, user)
		if err == nil {
			p = got
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	})
	return p, err
}

// PuzzleStatsOf returns a puzzle's stats, a new one rated first if it
// was never tried.
func (s *Service) PuzzleStatsOf(ctx context.Context, id string, first int) (PuzzleStats, error) {
	st := NewPuzzleStats(id, first)
	err := s.st.View(ctx, func(tx ReadTx) error {
		got, err := tx.PuzzleStats(id)
		if err == nil {
			st = got
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		return nil
	})
	return st, err
}

// PuzzleRatings returns the rating of every puzzle tried, by id, as
// its tries have moved it; a puzzle never tried is not in it.
func (s *Service) PuzzleRatings(ctx context.Context) (map[string]float64, error) {
	var out map[string]float64
	err := s.st.View(ctx, func(tx ReadTx) error {
		out = map[string]float64{}
		return tx.TriedPuzzles(func(st PuzzleStats) error {
			out[st.ID] = st.Rating.Rating
			return nil
		})
	})
	return out, err
}

// PuzzleBoard returns the puzzle records of scope with a rated try,
// highest rating first (then most puzzles rated, then user id), at
// most limit.
func (s *Service) PuzzleBoard(ctx context.Context, scope string, limit int) ([]Puzzler, error) {
	var out []Puzzler
	err := s.st.View(ctx, func(tx ReadTx) error {
		out = out[:0]
		return tx.Puzzlers(scope, func(p Puzzler) error {
			if p.Rated > 0 {
				out = append(out, p)
			}
			return nil
		})
	})
	slices.SortFunc(out, func(a, b Puzzler) int {
		switch {
		case a.Rating.Rating != b.Rating.Rating:
			if a.Rating.Rating > b.Rating.Rating {
				return -1
			}
			return 1
		case a.Rated != b.Rated:
			return b.Rated - a.Rated
		}
		return strings.Compare(a.User, b.User)
	})
	return out[:min(len(out), max(limit, 0))], err
}
