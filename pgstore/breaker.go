package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// ErrStalled means the database did not answer in time a moment ago and
// is not waited for again until it answers a probe: the call fails at
// once. It wraps context.DeadlineExceeded, as the timeout that tripped
// it did.
var ErrStalled = fmt.Errorf("pgstore: the database stopped answering; not waiting on it until it answers again: %w", context.DeadlineExceeded)

// probeEvery is how often a stalled database is asked whether it
// answers again.
const probeEvery = 500 * time.Millisecond

// breaker keeps the callers of a stalled database from each waiting out
// a timeout: once a transaction runs out of time, every call fails at
// once (ErrStalled) while one goroutine pings the database, and the
// first answer closes it again. An interaction makes several reads in a
// row; without it, each would wait its full timeout and the apology
// would come after Discord stopped listening.
type breaker struct {
	open  atomic.Bool
	stop  chan struct{}
	close sync.Once
}

// stalled returns ErrStalled while the breaker is open.
func (s *Store) stalled() error {
	if s.brk.open.Load() {
		return ErrStalled
	}
	return nil
}

// observe opens the breaker when err says that time ran out, and starts
// the probe.
func (s *Store) observe(err error) {
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrStalled) {
		return
	}
	if s.brk.open.CompareAndSwap(false, true) {
		go s.probe()
	}
}

// probe pings the database until it answers, then closes the breaker.
func (s *Store) probe() {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), s.txTimeout)
		err := s.pool.Ping(ctx)
		cancel()
		if err == nil {
			s.brk.open.Store(false)
			return
		}
		select {
		case <-s.brk.stop:
			return
		case <-time.After(probeEvery):
		}
	}
}
