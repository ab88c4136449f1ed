package pgstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// LessonProgress returns the user's progress in the lessons; zero if none
// was saved. In a read-write transaction the user's progress is locked
// until the commit, even before it exists.
func (t *txn) LessonProgress(user string) (play.LessonProgress, error) {
	var p play.LessonProgress
	if !validID(user) {
		return p, nil
	}
	if t.writable {
		// FOR UPDATE locks no row that is not there: two first stars of
		// a user earned at once would each read no progress, and the
		// second write would drop the first's. A lock on the user, held
		// until the commit, makes the second wait and read the first's.
		if _, err := t.tx.Exec(t.ctx, `SELECT pg_advisory_xact_lock(hashtext('iceage-lessons:' || current_schema() || ':' || $1))`, user); err != nil {
			return p, t.check(err, "locking the lesson progress of %s", user)
		}
	}
	var rec []byte
	err := t.tx.QueryRow(t.ctx, `SELECT rec FROM lessons WHERE user_id = $1`+t.locking(), user).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return p, t.check(err, "reading the lesson progress of %s", user)
	}
	return p, decode("lesson progress of "+user, rec, &p)
}

// PutLessonProgress writes the user's progress in the lessons.
func (t *txn) PutLessonProgress(user string, p play.LessonProgress) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", user); err != nil {
		return err
	}
	b, err := encode(&p)
	if err != nil {
		return fmt.Errorf("pgstore: encoding the lesson progress of %s: %w", user, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO lessons (user_id, rec) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET rec = excluded.rec`, user, b)
	return t.check(err, "writing the lesson progress of %s", user)
}
