package store

import (
	"bytes"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// The puzzle records' buckets come with their first record, like the
// servers' settings: a file that has none reads as no puzzle tried.
var (
	bucketPuzzlers    = []byte("puzzlers")     // scope NUL user → play.Puzzler
	bucketPuzzleStats = []byte("puzzle.stats") // puzzle id → play.PuzzleStats
	bucketDaily       = []byte("puzzle.daily") // guild → play.DailyPuzzle
)

// Puzzler returns the user's puzzle record in scope, or ErrNotFound.
func (t *txn) Puzzler(scope, user string) (play.Puzzler, error) {
	var p play.Puzzler
	var v []byte
	if b := t.tx.Bucket(bucketPuzzlers); b != nil && validID(user) && checkScope(scope) == nil {
		v = b.Get(playerKey(scope, user))
	}
	if v == nil {
		return p, fmt.Errorf("%w: user %s has no puzzle record in scope %q", play.ErrNotFound, user, scope)
	}
	return p, decode(fmt.Sprintf("puzzle record of %s in scope %q", user, scope), v, &p)
}

// Puzzlers calls fn for every puzzle record of scope, in user id order.
// In a read-write transaction the records are read first, so that fn may
// write.
func (t *txn) Puzzlers(scope string, fn func(play.Puzzler) error) error {
	b := t.tx.Bucket(bucketPuzzlers)
	if b == nil || checkScope(scope) != nil {
		return nil
	}
	var all []play.Puzzler
	pre := prefix(scope)
	c := b.Cursor()
	for k, v := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, v = c.Next() {
		var p play.Puzzler
		if err := decode(fmt.Sprintf("puzzle record %q", k), v, &p); err != nil {
			return err
		}
		all = append(all, p)
	}
	for _, p := range all {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// PuzzleStats returns a puzzle's stats, or ErrNotFound.
func (t *txn) PuzzleStats(id string) (play.PuzzleStats, error) {
	var s play.PuzzleStats
	var v []byte
	if b := t.tx.Bucket(bucketPuzzleStats); b != nil && validID(id) {
		v = b.Get([]byte(id))
	}
	if v == nil {
		return s, fmt.Errorf("%w: puzzle %q was never tried", play.ErrNotFound, id)
	}
	return s, decode(fmt.Sprintf("stats of puzzle %q", id), v, &s)
}

// TriedPuzzles calls fn for the stats of every puzzle tried, in puzzle
// id order, all read first so that fn may write.
func (t *txn) TriedPuzzles(fn func(play.PuzzleStats) error) error {
	b := t.tx.Bucket(bucketPuzzleStats)
	if b == nil {
		return nil
	}
	var all []play.PuzzleStats
	err := b.ForEach(func(k, v []byte) error {
		var s play.PuzzleStats
		if err := decode(fmt.Sprintf("stats of puzzle %q", k), v, &s); err != nil {
			return err
		}
		all = append(all, s)
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range all {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// DailyPuzzle returns a server's daily puzzle; zero if none.
func (t *txn) DailyPuzzle(guild string) (play.DailyPuzzle, error) {
	var d play.DailyPuzzle
	b := t.tx.Bucket(bucketDaily)
	if b == nil || !validID(guild) {
		return d, nil
	}
	if v := b.Get([]byte(guild)); v != nil {
		return d, decode("daily puzzle of server "+guild, v, &d)
	}
	return d, nil
}

// PutPuzzler writes a puzzle record under its Scope and User.
func (t *txn) PutPuzzler(p play.Puzzler) error {
	if err := checkID("user id", p.User); err != nil {
		return err
	}
	if err := checkScope(p.Scope); err != nil {
		return err
	}
	return t.putIn(bucketPuzzlers, playerKey(p.Scope, p.User), &p, "the puzzle record of "+p.User)
}

// PutPuzzleStats writes a puzzle's stats.
func (t *txn) PutPuzzleStats(s play.PuzzleStats) error {
	if err := checkID("puzzle id", s.ID); err != nil {
		return err
	}
	return t.putIn(bucketPuzzleStats, []byte(s.ID), &s, "the stats of puzzle "+s.ID)
}

// PutDailyPuzzle writes a server's daily puzzle.
func (t *txn) PutDailyPuzzle(d play.DailyPuzzle) error {
	if err := checkID("guild id", d.Guild); err != nil {
		return err
	}
	return t.putIn(bucketDaily, []byte(d.Guild), &d, "the daily puzzle of server "+d.Guild)
}

// putIn writes v under key in the bucket, made if it is not there yet.
func (t *txn) putIn(bucket, key []byte, v any, what string) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	enc, err := encode(v)
	if err != nil {
		return fmt.Errorf("store: encoding %s: %w", what, err)
	}
	b, err := t.tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	t.wrote = true
	return b.Put(key, enc)
}

// exportPuzzles walks the records of one of the puzzle kinds.
func exportPuzzles(kind play.RecordKind, each func([]byte, func(k, v []byte) error) error, walk play.Walk) error {
	switch kind {
	case play.KindPuzzler:
		return each(bucketPuzzlers, func(k, v []byte) error {
			var p play.Puzzler
			if err := decode(fmt.Sprintf("puzzle record %q", k), v, &p); err != nil {
				return err
			}
			return walk(play.Record{Puzzler: &p})
		})
	case play.KindPuzzleStats:
		return each(bucketPuzzleStats, func(k, v []byte) error {
			var s play.PuzzleStats
			if err := decode(fmt.Sprintf("stats of puzzle %q", k), v, &s); err != nil {
				return err
			}
			return walk(play.Record{PuzzleStats: &s})
		})
	default:
		return each(bucketDaily, func(k, v []byte) error {
			var d play.DailyPuzzle
			if err := decode(fmt.Sprintf("daily puzzle of server %q", k), v, &d); err != nil {
				return err
			}
			return walk(play.Record{DailyPuzzle: &d})
		})
	}
}

// checkPuzzles checks that the records of one of the puzzle kinds decode.
func checkPuzzles(kind play.RecordKind, r *report, each func([]byte, func(k, v []byte))) {
	switch kind {
	case play.KindPuzzler:
		each(bucketPuzzlers, func(k, v []byte) { checkRecord(r, fmt.Sprintf("the puzzle record %q", k), v, new(play.Puzzler)) })
	case play.KindPuzzleStats:
		each(bucketPuzzleStats, func(k, v []byte) { checkRecord(r, fmt.Sprintf("the stats of puzzle %q", k), v, new(play.PuzzleStats)) })
	default:
		each(bucketDaily, func(k, v []byte) {
			checkRecord(r, fmt.Sprintf("the daily puzzle of server %q", k), v, new(play.DailyPuzzle))
		})
	}
}
