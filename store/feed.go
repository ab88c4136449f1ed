package store

import (
	"sync"
	"sync/atomic"

	"github.com/iceagechess/iceage/play"
)

var _ play.Feed = (*Store)(nil)

// feeds are the functions that Feed registered.
type feeds struct {
	mu  sync.Mutex
	fns play.Feeders
	// now is a copy of fns that the commits read without the lock.
	now atomic.Pointer[[]func([]play.Committed, bool)]
}

func (f *feeds) listening() bool {
	p := f.now.Load()
	return p != nil && len(*p) > 0
}

// tell calls every function with the games of a commit. It runs on the
// committing goroutine after bbolt released its writer's lock, so that
// the calls of two commits may cross; the receivers order them by
// revision (play.Feed).
func (f *feeds) tell(games []play.Committed) {
	if len(games) == 0 {
		return
	}
	if p := f.now.Load(); p != nil {
		for _, fn := range *p {
			fn(games, false)
		}
	}
}

func (f *feeds) publish() {
	fns := f.fns.List()
	f.now.Store(&fns)
}

// Feed implements play.Feed: fn is called as each Update of this
// process commits (a bbolt file has one process).
func (s *Store) Feed(fn func(games []play.Committed, lost bool)) (stop func()) {
	f := &s.feeds
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.fns.Add(fn)
	f.publish()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.fns.Remove(n)
		f.publish()
	}
}

// feed notes the game put, in its stored form b, when a feed listens. A
// game put twice at one revision is told as last put.
func (t *txn) feed(g *play.Game, b []byte) {
	if !t.feeding {
		return
	}
	c := play.Committed{Game: g.ID, Revision: g.Revision, Record: b}
	if n := len(t.fed); n > 0 && t.fed[n-1].Game == g.ID && t.fed[n-1].Revision == g.Revision {
		t.fed[n-1] = c
		return
	}
	t.fed = append(t.fed, c)
}

// feedTournament notes a write of tournament id, when a feed listens,
// once a transaction.
func (t *txn) feedTournament(id uint64) {
	if t.feeding {
		t.fed = play.NoteTournament(t.fed, id)
	}
}
