package pgstore

import (
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// Recent returns what the user did lately; zero if nothing.
func (t *txn) Recent(user string) (play.Recent, error) {
	var r play.Recent
	if !validID(user) {
		return r, nil
	}
	what := "recent acts of " + user
	rec, found, err := t.readRecord("recent", user, what, `SELECT rec FROM recent WHERE user_id = $1`+t.locking(), user)
	if err != nil || !found {
		return r, err
	}
	return r, decode(what, rec, &r)
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
