package store

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

var _ play.Storage = (*Store)(nil)

// Update runs fn in one read-write transaction and returns once it is
// committed and synced to disk, or returns fn's error with nothing of fn's
// written. Concurrent calls may share one transaction and one fsync
// (group commit, unless Options.Alone), so fn may run more than once and
// must act only through tx. An error that fn returns before writing
// anything (a refusal: play decides those first) does not disturb the
// others sharing the transaction; an error after a write makes the
// shared transaction run again without fn, and fn alone, to be rolled
// back.
func (s *Store) Update(ctx context.Context, fn func(tx play.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	feeding := s.feeds.listening()
	var last *txn // the run that committed, if one did
	err := s.write(func(btx *bolt.Tx) error {
		t := &txn{tx: btx, writable: true, feeding: feeding}
		last = t
		err := fn(t)
		if err != nil && !t.wrote {
			return refuse(err)
		}
		return err
	})
	if err == nil && last != nil {
		s.feeds.tell(last.fed)
	}
	return err
}

// View runs fn in one read-only transaction: it sees one instant, while
// writers go on.
func (s *Store) View(ctx context.Context, fn func(tx play.ReadTx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(btx *bolt.Tx) error { return fn(&txn{tx: btx}) })
}

// txn is a play.Tx on a bbolt transaction.
type txn struct {
	tx       *bolt.Tx
	writable bool
	// wrote is set before the first change, so that an error after it is
	// known to need a rollback.
	wrote bool
	// placed remembers, for the games read or written in this
	// transaction, what their index entries are, so that PutGame need not
	// read and decode the stored record again. Every change to a game
	// goes through PutGame, which keeps it current.
	placed map[uint64]placement
	// feeding: a feed listens, and fed are the games put, in order
	// (feed.go).
	feeding bool
	fed     []play.Committed
}

// willWrite is called by every writing method before it checks anything
// that depends on the write being allowed.
func (t *txn) willWrite() error {
	if !t.writable {
		return fmt.Errorf("%w: a write in a read-only transaction", ErrInvalid)
	}
	return nil
}

// NextID returns a new id from the one sequence of games and challenges.
func (t *txn) NextID() (uint64, error) {
	if err := t.willWrite(); err != nil {
		return 0, err
	}
	t.wrote = true
	id, err := t.tx.Bucket(bucketMeta).NextSequence()
	if err != nil {
		return 0, fmt.Errorf("store: numbering: %w", err)
	}
	return id, nil
}
