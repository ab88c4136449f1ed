package store

import (
	"errors"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// group is the group commit of a Store's writes. Writes are serialised
// and each commit costs an fsync, so the writes that arrive while a
// commit is in progress share the next one: its leader, the first of
// them, commits them all in one transaction as soon as the commit before
// is done, and each returns only after that commit. No write waits for
// company (bbolt's Batch waits up to its MaxBatchDelay, on the path of
// every move of a busy bot), and a busy server still pays one fsync for
// many moves.
type group struct {
	mu      sync.Mutex
	queue   []*pending // waiting for the next commit, in their order
	leading bool       // a leader is committing; the queue waits for it
}

// pending is one write in the group.
type pending struct {
	fn  func(*bolt.Tx) error
	err error
	// solo: fn failed in company (after writing, or by panicking), so its
	// writer runs it alone, to report its own error or panic.
	solo bool
	// turn says true when this write leads the next commit, false when
	// a commit that held it is done.
	turn chan bool
}

// write runs fn in a read-write transaction and returns only after the
// commit. A lone writer commits at once; writers that arrive while a
// commit is in progress share the next (see group). fn may run more than
// once (a shared transaction runs again without a writer that failed in
// it), so it must only set its results, never act on the world.
func (s *Store) write(fn func(tx *bolt.Tx) error) error {
	if s.alone {
		return unrefuse(s.db.Update(fn))
	}
	g := &s.group
	p := &pending{fn: fn, turn: make(chan bool, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, p)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if lead || <-p.turn {
		s.lead(p)
	}
	if p.solo {
		return unrefuse(s.db.Update(fn))
	}
	return unrefuse(p.err)
}

// lead commits every write queued until now, p's among them, then hands
// the next commit to the first write that queued meanwhile and tells the
// batch's other writers that theirs is done.
func (s *Store) lead(p *pending) {
	g := &s.group
	g.mu.Lock()
	batch := g.queue
	g.queue = nil
	g.mu.Unlock()
	defer func() {
		var r any
		if len(batch) > 1 {
			// Not expected (runShared catches the writers' panics), but
			// a panic here must not tell the others their write is done.
			r = recover()
		}
		g.mu.Lock()
		if len(g.queue) > 0 {
			g.queue[0].turn <- true
		} else {
			g.leading = false
		}
		g.mu.Unlock()
		for _, q := range batch {
			if q != p {
				q.solo = q.solo || r != nil
				q.turn <- false
			}
		}
		if r != nil {
			panic(r)
		}
	}()
	s.commit(batch)
}

// commit runs the batch's functions in one transaction and sets each
// one's err. A refusal (an error before writing) is that writer's alone
// and leaves the transaction to the others. A writer that fails after
// writing, or panics, is set apart to run solo, and the others run again
// without it. An error of the commit itself, or damage met, is everyone's.
func (s *Store) commit(batch []*pending) {
	if len(batch) == 1 {
		batch[0].err = s.db.Update(batch[0].fn) // its panic is its writer's own
		return
	}
	live := batch
	for len(live) > 0 {
		var failed *pending
		err := s.db.Update(func(tx *bolt.Tx) error {
			for _, p := range live {
				if err := runShared(tx, p); err != nil {
					failed = p
					return err
				}
			}
			return nil
		})
		if failed == nil {
			if err != nil {
				for _, p := range live {
					p.err = err
				}
			}
			return
		}
		failed.solo = true
		rest := make([]*pending, 0, len(live)-1)
		for _, p := range live {
			if p != failed {
				rest = append(rest, p)
			}
		}
		live = rest
	}
}

// errSolo stops a shared transaction whose writer panicked.
var errSolo = errors.New("store: a writer panicked in a shared transaction")

// runShared runs p's function in a shared transaction. Its refusal is
// kept as p's result and not returned; its failure is. A panic of bbolt
// or this package (damage) goes on to the guard of the transaction,
// which fails everyone's write; the writer's own panic (play's code)
// stops the transaction, to be raised again in the writer's goroutine
// when it runs alone.
func runShared(tx *bolt.Tx, p *pending) (err error) {
	p.err = nil
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if raisedByStorage() {
			panic(r) // raised again here, in this package: the guard sees damage
		}
		err = errSolo
	}()
	err = p.fn(tx)
	var r refusal
	if errors.As(err, &r) {
		p.err = err
		return nil
	}
	return err
}
