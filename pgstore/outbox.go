package pgstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

var _ play.Outbox = (*Store)(nil)

// PutOutbox adds items to the outbox in the transaction; a key already
// pending keeps its item.
func (t *txn) PutOutbox(items ...play.OutboxItem) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	for _, it := range items {
		if it.Key == "" {
			return fmt.Errorf("%w: an outbox item without a key", ErrInvalid)
		}
		body := it.Body
		if body == nil {
			body = []byte{}
		}
		_, err := t.tx.Exec(t.ctx, `INSERT INTO outbox (key, game, kind, body, due, created, tries)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING`,
			it.Key, int64(it.Game), it.Kind, body, nanos(it.Due), nanos(it.Created), it.Tries)
		if err := t.check(err, "putting outbox item %q", it.Key); err != nil {
			return err
		}
	}
	return nil
}

// claimOutboxSQL hands out due items that no other transaction has
// locked (SKIP LOCKED: two claimers never wait for each other, and never
// get the same row), moving each to the end of its lease.
const claimOutboxSQL = `
UPDATE outbox o SET due = $2, owner = $3
FROM (SELECT key, due FROM outbox WHERE due <= $1 ORDER BY due, key LIMIT $4 FOR UPDATE SKIP LOCKED) d
WHERE o.key = d.key
RETURNING o.key, o.game, o.kind, o.body, o.due, o.created, o.tries, o.owner, d.due`

// ClaimOutbox implements play.Outbox. The lease counts from now as the
// caller's clock tells it, like the items' times, which the acts took
// from the same clocks.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]play.OutboxItem, error) {
	if limit <= 0 {
		return nil, nil
	}
	var out []play.OutboxItem
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		out = out[:0]
		rows, err := tx.Query(ctx, claimOutboxSQL, nanos(now), nanos(now.Add(lease)), owner, limit)
		if err != nil {
			return err
		}
		var it play.OutboxItem
		var game, due, created, was int64
		wasDue := map[string]int64{}
		_, err = pgx.ForEachRow(rows, []any{&it.Key, &game, &it.Kind, &it.Body, &due, &created, &it.Tries, &it.Owner, &was}, func() error {
			c := it
			c.Game, c.Due, c.Created = uint64(game), time.Unix(0, due).UTC(), time.Unix(0, created).UTC()
			c.Body = append([]byte(nil), it.Body...)
			out = append(out, c)
			wasDue[c.Key] = was
			return nil
		})
		// RETURNING keeps no order: back to the order they were due in.
		slices.SortFunc(out, func(a, b play.OutboxItem) int {
			return cmp.Or(cmp.Compare(wasDue[a.Key], wasDue[b.Key]), strings.Compare(a.Key, b.Key))
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("pgstore: claiming outbox items: %w", err)
	}
	return out, nil
}

// DoneOutbox implements play.Outbox.
func (s *Store) DoneOutbox(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM outbox WHERE key = ANY($1)`, keys); err != nil {
		return fmt.Errorf("pgstore: marking %d outbox items done: %w", len(keys), err)
	}
	return nil
}

// RetryOutbox implements play.Outbox.
func (s *Store) RetryOutbox(ctx context.Context, key, owner string, at time.Time) error {
	_, err := s.pool.Exec(ctx, `UPDATE outbox SET due = $3, owner = '', tries = tries + 1 WHERE key = $1 AND owner = $2`,
		key, owner, nanos(at))
	if err != nil {
		return fmt.Errorf("pgstore: retrying outbox item %q: %w", key, err)
	}
	return nil
}

// exportOutbox calls fn for every item of the outbox (Export).
func exportOutbox(ctx context.Context, tx pgx.Tx, fn func(play.OutboxItem) error) error {
	rows, err := tx.Query(ctx, `SELECT key, game, kind, body, due, created, tries, owner FROM outbox ORDER BY key`)
	if err != nil {
		return fmt.Errorf("pgstore: exporting the outbox: %w", err)
	}
	var it play.OutboxItem
	var game, due, created int64
	_, err = pgx.ForEachRow(rows, []any{&it.Key, &game, &it.Kind, &it.Body, &due, &created, &it.Tries, &it.Owner}, func() error {
		c := it
		c.Game, c.Due, c.Created = uint64(game), time.Unix(0, due).UTC(), time.Unix(0, created).UTC()
		c.Body = append([]byte(nil), it.Body...)
		return fn(c)
	})
	if err != nil {
		return fmt.Errorf("pgstore: exporting the outbox: %w", err)
	}
	return nil
}
