package pgstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// DefaultLease is how long a scheduler holds the items it claimed when
// Claimer is given no lease: long enough to decide an item and announce
// it, short enough that the items of a process that died are taken over
// within minutes.
const DefaultLease = 2 * time.Minute

// Claimer returns the claims of one scheduler process, owner (a name for
// operators, such as host:pid), holding each item for lease (DefaultLease
// if not positive). It implements schedule.Claimer.
func (s *Store) Claimer(owner string, lease time.Duration) *Claimer {
	if lease <= 0 {
		lease = DefaultLease
	}
	return &Claimer{s: s, owner: owner, lease: lease}
}

// Claimer hands the due items of the time indexes to the schedulers of
// several processes, each item to one of them.
type Claimer struct {
	s     *Store
	owner string
	lease time.Duration
}

// claimSQL picks due items that nobody holds, skipping the rows that
// another transaction has locked (a claim or a move in progress), and
// records the claims. The claims table's primary key decides a race
// between two claimers that picked the same item: the insert of the
// second does nothing, unless the claim it meets has lapsed, when it
// takes it over. Only the claims won are returned. The look for a claim
// is a subquery per candidate, one probe of the primary key: as an anti
// join, the planner, misled by the small table's stale statistics, may
// scan all the claims for every candidate.
const claimSQL = `
WITH due AS (
	SELECT %[1]s AS id, %[2]s AS at FROM %[3]s t
	WHERE %[4]s %[2]s <= $1
		AND (SELECT 1 FROM claims c WHERE c.kind = $2 AND c.id = t.%[1]s AND c.at = t.%[2]s AND c.until >= now()) IS NULL
	ORDER BY %[2]s, %[1]s LIMIT $3
	FOR UPDATE OF t SKIP LOCKED
)
INSERT INTO claims (kind, id, at, owner, until)
	SELECT $2, id, at, $4, now() + make_interval(secs => $5::float8) FROM due
ON CONFLICT (kind, id, at) DO UPDATE SET owner = excluded.owner, until = excluded.until
	WHERE claims.until < now()
RETURNING id, at`

var claimQueries = map[play.DueKind]string{
	play.DueDeadline: fmt.Sprintf(claimSQL, "id", "deadline", "games", "active AND deadline IS NOT NULL AND"),
	play.DueReminder: fmt.Sprintf(claimSQL, "id", "remind_at", "games", "active AND remind_at IS NOT NULL AND"),
	play.DueExpiry:   fmt.Sprintf(claimSQL, "id", "expires", "challenges", ""),
}

// Claim returns up to limit items of the index kind due at now that no
// other scheduler holds, earliest first, and holds them for this one
// until the lease ends. An item handled stays claimed until then, so a
// refused item is not tried again by anyone meanwhile; claims that lapsed
// more than an hour ago are deleted on the way.
func (c *Claimer) Claim(ctx context.Context, kind play.DueKind, now time.Time, limit int) ([]play.Due, error) {
	q, ok := claimQueries[kind]
	if !ok {
		return nil, fmt.Errorf("%w: no time index of kind %d", ErrInvalid, kind)
	}
	if limit <= 0 {
		return nil, nil
	}
	var out []play.Due
	err := pgx.BeginTxFunc(ctx, c.s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		out = out[:0]
		if _, err := tx.Exec(ctx, `DELETE FROM claims WHERE until < now() - interval '1 hour'`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, q, nanos(now), int16(kind), limit, c.owner, c.lease.Seconds())
		if err != nil {
			return err
		}
		var id, at int64
		_, err = pgx.ForEachRow(rows, []any{&id, &at}, func() error {
			out = append(out, play.Due{ID: uint64(id), At: time.Unix(0, at).UTC()})
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("pgstore: claiming due items of index %d: %w", kind, err)
	}
	slices.SortFunc(out, func(a, b play.Due) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ID, b.ID)) })
	// A far time is clamped in the index; the record has it exactly.
	for i, d := range out {
		if clamped(nanos(d.At)) {
			err := c.s.View(ctx, func(tx play.ReadTx) error {
				t := tx.(*txn)
				e, err := t.dueEntry(kind, int64(d.ID), nanos(d.At))
				out[i] = e
				return err
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
