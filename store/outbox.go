package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

// The outbox's buckets, created by the first write that needs them, so
// that files of older programs need no migration: a file without them has
// an empty outbox.
var (
	bucketOutbox    = []byte("outbox")     // key → play.OutboxItem as JSON
	bucketOutboxDue = []byte("idx.outbox") // time NUL key → "", by OutboxItem.Due
)

var _ play.Outbox = (*Store)(nil)

func outboxDueKey(it *play.OutboxItem) []byte {
	return join(timeKey(it.Due), []byte(it.Key))
}

// outboxBuckets returns the outbox's buckets, creating them if need be.
func outboxBuckets(tx *bolt.Tx) (items, due *bolt.Bucket, err error) {
	if items, err = tx.CreateBucketIfNotExists(bucketOutbox); err != nil {
		return nil, nil, fmt.Errorf("store: the outbox: %w", err)
	}
	if due, err = tx.CreateBucketIfNotExists(bucketOutboxDue); err != nil {
		return nil, nil, fmt.Errorf("store: the outbox's index: %w", err)
	}
	return items, due, nil
}

// putOutboxItem writes it and its index entry, replacing the entry of
// old (nil: a new item).
func putOutboxItem(items, due *bolt.Bucket, it *play.OutboxItem, old *play.OutboxItem) error {
	v, err := json.Marshal(it)
	if err != nil {
		return fmt.Errorf("store: encoding outbox item %q: %w", it.Key, err)
	}
	if old != nil {
		if err := due.Delete(outboxDueKey(old)); err != nil {
			return err
		}
	}
	if err := items.Put([]byte(it.Key), v); err != nil {
		return err
	}
	return due.Put(outboxDueKey(it), nil)
}

func getOutboxItem(items *bolt.Bucket, key string) (*play.OutboxItem, error) {
	v := items.Get([]byte(key))
	if v == nil {
		return nil, nil
	}
	var it play.OutboxItem
	if err := json.Unmarshal(v, &it); err != nil {
		return nil, fmt.Errorf("%w: outbox item %q: %v", play.ErrCorrupt, key, err)
	}
	return &it, nil
}

// PutOutbox adds items to the outbox in the transaction; a key already
// pending keeps its item.
func (t *txn) PutOutbox(its ...play.OutboxItem) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	for _, it := range its {
		if it.Key == "" {
			return fmt.Errorf("%w: an outbox item without a key", ErrInvalid)
		}
	}
	t.wrote = true
	items, due, err := outboxBuckets(t.tx)
	if err != nil {
		return err
	}
	for _, it := range its {
		if items.Get([]byte(it.Key)) != nil {
			continue
		}
		it.Owner = ""
		if err := putOutboxItem(items, due, &it, nil); err != nil {
			return fmt.Errorf("store: putting outbox item %q: %w", it.Key, err)
		}
	}
	return nil
}

// ClaimOutbox implements play.Outbox: one durable transaction that moves
// the items it hands out to the end of their lease.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]play.OutboxItem, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	// Most looks find nothing due: they read, and commit (and sync)
	// nothing.
	end := timeKey(now)
	var anyDue bool
	if err := s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketOutboxDue); b != nil {
			k, _ := b.Cursor().First()
			anyDue = len(k) >= 8 && string(k[:8]) <= string(end)
		}
		return nil
	}); err != nil || !anyDue {
		return nil, err
	}
	var out []play.OutboxItem
	err := s.write(func(tx *bolt.Tx) error {
		out = out[:0]
		if tx.Bucket(bucketOutboxDue) == nil {
			return nil
		}
		items, due, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		var keys []string
		c := due.Cursor()
		for k, _ := c.First(); k != nil && len(keys) < limit; k, _ = c.Next() {
			if len(k) < 9 || string(k[:8]) > string(end) {
				break
			}
			keys = append(keys, string(k[9:]))
		}
		for _, key := range keys {
			it, err := getOutboxItem(items, key)
			if err != nil {
				return err
			}
			if it == nil {
				return fmt.Errorf("%w: the outbox's index names item %q, which is missing", play.ErrCorrupt, key)
			}
			claimed := *it
			claimed.Due, claimed.Owner = now.Add(lease), owner
			if err := putOutboxItem(items, due, &claimed, it); err != nil {
				return err
			}
			out = append(out, claimed)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: claiming outbox items: %w", unrefuse(err))
	}
	return out, nil
}

// DoneOutbox implements play.Outbox.
func (s *Store) DoneOutbox(ctx context.Context, keys ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(keys) == 0 {
		return nil
	}
	err := s.write(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketOutbox) == nil {
			return nil
		}
		items, due, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		for _, key := range keys {
			it, err := getOutboxItem(items, key)
			if err != nil {
				return err
			}
			if it == nil {
				continue
			}
			if err := due.Delete(outboxDueKey(it)); err != nil {
				return err
			}
			if err := items.Delete([]byte(key)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: marking %d outbox items done: %w", len(keys), unrefuse(err))
	}
	return nil
}

// RetryOutbox implements play.Outbox.
func (s *Store) RetryOutbox(ctx context.Context, key, owner string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.write(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketOutbox) == nil {
			return nil
		}
		items, due, err := outboxBuckets(tx)
		if err != nil {
			return err
		}
		it, err := getOutboxItem(items, key)
		if err != nil || it == nil || it.Owner != owner {
			return err
		}
		again := *it
		again.Due, again.Owner = at, ""
		again.Tries++
		return putOutboxItem(items, due, &again, it)
	})
	if err != nil {
		return fmt.Errorf("store: retrying outbox item %q: %w", key, unrefuse(err))
	}
	return nil
}

// exportOutbox calls fn for every item of the outbox (Export).
func exportOutbox(ctx context.Context, tx *bolt.Tx, fn func(play.OutboxItem) error) error {
	b := tx.Bucket(bucketOutbox)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		it, err := getOutboxItem(b, string(k))
		if err != nil {
			return err
		}
		return fn(*it)
	})
}
