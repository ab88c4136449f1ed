package pgstore

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// Puzzler returns the user's puzzle record in scope, or ErrNotFound.
func (t *txn) Puzzler(scope, user string) (play.Puzzler, error) {
	var p play.Puzzler
	notFound := fmt.Errorf("%w: user %s has no puzzle record in scope %q", play.ErrNotFound, user, scope)
	if !validID(user) || checkScope(scope) != nil {
		return p, notFound
	}
	what := fmt.Sprintf("puzzle record of %s in scope %q", user, scope)
	rec, found, err := t.readRecord("puzzlers", scope+" "+user, what,
		`SELECT rec FROM puzzlers WHERE scope = $1 AND user_id = $2`+t.locking(), scope, user)
	if err != nil {
		return p, err
	}
	if !found {
		return p, notFound
	}
	return p, decode(what, rec, &p)
}

// Puzzlers calls fn for every puzzle record of scope, in user id order,
// all read before fn is called, so that fn may use the transaction.
func (t *txn) Puzzlers(scope string, fn func(play.Puzzler) error) error {
	if checkScope(scope) != nil {
		return nil
	}
	rows, err := t.tx.Query(t.ctx, `SELECT rec FROM puzzlers WHERE scope = $1 ORDER BY user_id`, scope)
	if err != nil {
		return t.check(err, "reading the puzzle records of %q", scope)
	}
	var ps []play.Puzzler
	var rec []byte
	_, err = pgx.ForEachRow(rows, []any{&rec}, func() error {
		var p play.Puzzler
		if err := decode(fmt.Sprintf("a puzzle record of %q", scope), rec, &p); err != nil {
			return err
		}
		ps = append(ps, p)
		return nil
	})
	if err != nil {
		return t.check(err, "reading the puzzle records of %q", scope)
	}
	for _, p := range ps {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// PuzzleStats returns a puzzle's stats, or ErrNotFound.
func (t *txn) PuzzleStats(id string) (play.PuzzleStats, error) {
	var s play.PuzzleStats
	notFound := fmt.Errorf("%w: puzzle %q was never tried", play.ErrNotFound, id)
	if !validID(id) {
		return s, notFound
	}
	what := fmt.Sprintf("stats of puzzle %q", id)
	rec, found, err := t.readRecord("puzzle_stats", id, what, `SELECT rec FROM puzzle_stats WHERE puzzle_id = $1`+t.locking(), id)
	if err != nil {
		return s, err
	}
	if !found {
		return s, notFound
	}
	return s, decode(what, rec, &s)
}

// TriedPuzzles calls fn for the stats of every puzzle tried, in puzzle
// id order, all read before fn is called, so that fn may use the
// transaction.
func (t *txn) TriedPuzzles(fn func(play.PuzzleStats) error) error {
	rows, err := t.tx.Query(t.ctx, `SELECT rec FROM puzzle_stats ORDER BY puzzle_id`)
	if err != nil {
		return t.check(err, "reading the puzzles' stats")
	}
	var all []play.PuzzleStats
	var rec []byte
	_, err = pgx.ForEachRow(rows, []any{&rec}, func() error {
		var s play.PuzzleStats
		if err := decode("a puzzle's stats", rec, &s); err != nil {
			return err
		}
		all = append(all, s)
		return nil
	})
	if err != nil {
		return t.check(err, "reading the puzzles' stats")
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
	return getKeyed[play.DailyPuzzle](t, dailyPuzzlesTable, guild, "daily puzzle of server "+guild)
}

// PutPuzzler writes a puzzle record under its Scope and User.
func (t *txn) PutPuzzler(p play.Puzzler) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", p.User); err != nil {
		return err
	}
	if err := checkScope(p.Scope); err != nil {
		return err
	}
	b, err := encode(&p)
	if err != nil {
		return fmt.Errorf("pgstore: encoding the puzzle record of %s: %w", p.User, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO puzzlers (scope, user_id, rec) VALUES ($1, $2, $3)
		ON CONFLICT (scope, user_id) DO UPDATE SET rec = excluded.rec`, p.Scope, p.User, b)
	return t.check(err, "writing the puzzle record of %s in scope %q", p.User, p.Scope)
}

// PutPuzzleStats writes a puzzle's stats.
func (t *txn) PutPuzzleStats(s play.PuzzleStats) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("puzzle id", s.ID); err != nil {
		return err
	}
	b, err := encode(&s)
	if err != nil {
		return fmt.Errorf("pgstore: encoding the stats of puzzle %s: %w", s.ID, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO puzzle_stats (puzzle_id, rec) VALUES ($1, $2)
		ON CONFLICT (puzzle_id) DO UPDATE SET rec = excluded.rec`, s.ID, b)
	return t.check(err, "writing the stats of puzzle %s", s.ID)
}

// PutDailyPuzzle writes a server's daily puzzle.
func (t *txn) PutDailyPuzzle(d play.DailyPuzzle) error {
	return putKeyed(t, dailyPuzzlesTable, d.Guild, "daily puzzle of server "+d.Guild, &d)
}

// exportPuzzles walks the records of one of the puzzle kinds.
func exportPuzzles(kind play.RecordKind, each func(what, sql string, fn func(key string, rec []byte) error) error, walk play.Walk) error {
	switch kind {
	case play.KindPuzzler:
		return each("puzzle records", `SELECT scope || ' ' || user_id, rec FROM puzzlers ORDER BY scope, user_id`, func(k string, rec []byte) error {
			var p play.Puzzler
			if err := decode("puzzle record "+k, rec, &p); err != nil {
				return err
			}
			return walk(play.Record{Puzzler: &p})
		})
	case play.KindPuzzleStats:
		return each("puzzles' stats", `SELECT puzzle_id, rec FROM puzzle_stats ORDER BY puzzle_id`, func(k string, rec []byte) error {
			var s play.PuzzleStats
			if err := decode("stats of puzzle "+k, rec, &s); err != nil {
				return err
			}
			return walk(play.Record{PuzzleStats: &s})
		})
	default:
		return each("daily puzzles", `SELECT guild_id, rec FROM daily_puzzles ORDER BY guild_id`, func(k string, rec []byte) error {
			var d play.DailyPuzzle
			if err := decode("daily puzzle of server "+k, rec, &d); err != nil {
				return err
			}
			return walk(play.Record{DailyPuzzle: &d})
		})
	}
}
