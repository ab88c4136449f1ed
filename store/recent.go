package store

import (
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// bucketRecent holds what each user did lately that the caps count:
// user → play.Recent. Made by the first write: a file without it reads
// as nothing done lately. Its records matter for minutes to a day, so
// Export leaves them out.
var bucketRecent = []byte("recent")

// Recent returns what the user did lately; zero if nothing. bbolt has one
// writer at a time, so a read-write transaction needs no lock of its own.
func (t *txn) Recent(user string) (play.Recent, error) {
	var r play.Recent
	b := t.tx.Bucket(bucketRecent)
	if b == nil || !validID(user) {
		return r, nil
	}
	if v := b.Get([]byte(user)); v != nil {
		return r, decode("recent acts of "+user, v, &r)
	}
	return r, nil
}

// PutRecent replaces what the user did lately; an empty Recent is deleted.
func (t *txn) PutRecent(user string, r play.Recent) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", user); err != nil {
		return err
	}
	b, err := t.tx.CreateBucketIfNotExists(bucketRecent)
	if err != nil {
		return fmt.Errorf("store: the users' recent acts: %w", err)
	}
	t.wrote = true
	if r.Empty() {
		return b.Delete([]byte(user))
	}
	v, err := encode(&r)
	if err != nil {
		return fmt.Errorf("store: encoding the recent acts of %s: %w", user, err)
	}
	return b.Put([]byte(user), v)
}
