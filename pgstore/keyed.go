package pgstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// A keyed table keeps one record a key (a user's, a server's): its
// key's column and rec. Its rows are read and written alike; table and
// column are the package's own names, never input.
type keyed struct {
	table, column string
	// idName names the key in errors: "user id", "guild id".
	idName string
}

var (
	prefsTable   = keyed{"prefs", "user_id", "user id"}
	serversTable = keyed{"servers", "guild_id", "guild id"}
	lessonsTable = keyed{"lessons", "user_id", "user id"}
	// dailyPuzzlesTable keeps a server's daily puzzle.
	dailyPuzzlesTable = keyed{"daily_puzzles", "guild_id", "guild id"}
)

// getKeyed reads the record kept under key into a T, what naming it in
// errors; zero if none was saved.
func getKeyed[T any](t *txn, k keyed, key, what string) (T, error) {
	var v T
	if !validID(key) {
		return v, nil
	}
	// #nosec G202 -- table and column are the package's names (keyed), never input
	read := `SELECT rec FROM ` + k.table + ` WHERE ` + k.column + ` = $1` + t.locking()
	rec, found, err := t.readRecord(k.table, key, what, read, key)
	if err != nil || !found {
		return v, err
	}
	return v, decode(what, rec, &v)
}

// readRecord reads the one record that read (a query by key, ending in
// t.locking()) finds with args, what naming it in errors; found is false
// when there is none. Every record a read-write transaction reads to
// update is read here: FOR UPDATE locks no row that is not there, so two
// transactions that both found none would both insert, and the second's
// record would lose the first's (two first tries of one puzzle at once
// counted once). A lock on table and key orders them instead, and the
// second reads the first's row once it committed.
func (t *txn) readRecord(table, key, what, read string, args ...any) (rec []byte, found bool, err error) {
	err = t.tx.QueryRow(t.ctx, read, args...).Scan(&rec)
	if errors.Is(err, pgx.ErrNoRows) && t.writable {
		if _, err := t.tx.Exec(t.ctx, `SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))`, table, key); err != nil {
			return nil, false, t.check(err, "locking the %s", what)
		}
		err = t.tx.QueryRow(t.ctx, read, args...).Scan(&rec)
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, t.check(err, "reading the %s", what)
	}
	return rec, true, nil
}

// putKeyed writes v as the record kept under key, what naming it in
// errors.
func putKeyed[T any](t *txn, k keyed, key, what string, v *T) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID(k.idName, key); err != nil {
		return err
	}
	b, err := encode(v)
	if err != nil {
		return fmt.Errorf("pgstore: encoding the %s: %w", what, err)
	}
	// #nosec G202 -- table and column are the package's names (keyed), never input
	_, err = t.tx.Exec(t.ctx, `INSERT INTO `+k.table+` (`+k.column+`, rec) VALUES ($1, $2)
		ON CONFLICT (`+k.column+`) DO UPDATE SET rec = excluded.rec`, key, b)
	return t.check(err, "writing the %s", what)
}
