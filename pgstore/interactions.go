package pgstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
)

// interactionKind is the kind, in the claims table, of the interaction
// ids seen: far from play's due kinds (1, 2, 3), which the schedulers
// claim there.
const interactionKind = 1000

// FirstTime reports whether any process sharing the database has seen
// interaction id before, and remembers it for life: a request captured
// and posted again to another process behind the load balancer is then
// refused there too. An id is remembered as a claim that lapses after
// life; lapsed ones are removed now and then.
func (s *Store) FirstTime(ctx context.Context, id uint64, life time.Duration) (first bool, err error) {
	if err := s.stalled(); err != nil {
		return false, err
	}
	defer func() { s.observe(err) }()
	ctx, cancel := context.WithTimeout(ctx, s.txTimeout)
	defer cancel()
	var got int64
	err = s.pool.QueryRow(ctx, `INSERT INTO claims (kind, id, at, owner, until)
		VALUES ($1, $2, 0, 'interaction', now() + make_interval(secs => $3::float8))
		ON CONFLICT (kind, id, at) DO UPDATE SET until = excluded.until WHERE claims.until < now()
		RETURNING id`, interactionKind, int64(id), life.Seconds()).Scan(&got) // #nosec G115 -- a Discord snowflake, below 2^63
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil // there, and alive
	}
	if err != nil {
		return false, fmt.Errorf("pgstore: remembering interaction %d: %w", id, err)
	}
	if rand.IntN(100) == 0 { // #nosec G404 -- how often to sweep, not a secret
		if _, err := s.pool.Exec(ctx, `DELETE FROM claims WHERE kind = $1 AND until < now()`, interactionKind); err != nil {
			return true, fmt.Errorf("pgstore: forgetting lapsed interactions: %w", err)
		}
	}
	return true, nil
}
