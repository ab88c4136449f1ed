package pgstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// Recent returns what the user did lately; zero if nothing. In a
// read-write transaction the user's row is made if missing, then locked
// until the commit: FOR UPDATE alone locks no row that is not there, and
// two processes would then count the same user's challenges at once,
// each without the other's.
func (t *txn) Recent(user string) (play.Recent, error) {
	var r play.Recent
	if !validID(user) {
		return r, nil
	}
	if t.writable {
		if _, err := t.tx.Exec(t.ctx, `INSERT INTO recent (user_id, rec) VALUES ($1, '{}') ON CONFLICT (user_id) DO NOTHING`, user); err != nil {
			return r, t.check(err, "making the recent acts of %s", user)
		}
	}
	var rec []byte
	err := t.tx.QueryRow(t.ctx, `SELECT rec FROM recent WHERE user_id = $1`+t.locking(), user).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, nil
	}
	if err != nil {
		return r, t.check(err, "reading the recent acts of %s", user)
	}
	return r, decode("recent acts of "+user, rec, &r)
}

// PutRecent replaces what the user did lately; an empty Recent is deleted.
func (t *txn) PutRecent(user string, r play.Recent) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", user); err != nil {
		return err
	}
	if r.Empty() {
		_, err := t.tx.Exec(t.ctx, `DELETE FROM recent WHERE user_id = $1`, user)
		return t.check(err, "clearing the recent acts of %s", user)
	}
	b, err := encode(&r)
	if err != nil {
		return fmt.Errorf("pgstore: encoding the recent acts of %s: %w", user, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO recent (user_id, rec) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET rec = excluded.rec`, user, b)
	return t.check(err, "writing the recent acts of %s", user)
}
