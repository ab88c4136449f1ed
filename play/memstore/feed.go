package memstore

import "github.com/iceagechess/iceage/play"

var _ play.Feed = (*Memory)(nil)

// feeds are the functions that Feed registered, by number.
type feeds struct {
	fns  map[int]func([]play.Committed, bool)
	next int
}

// tell calls every function with the games of a commit, under the
// storage's lock: commits are told in their order.
func (f *feeds) tell(games []play.Committed) {
	if len(games) == 0 {
		return
	}
	for _, fn := range f.fns {
		fn(games, false)
	}
}

// Feed implements play.Feed: fn is called as each Update commits, in
// the order of the commits.
func (m *Memory) Feed(fn func(games []play.Committed, lost bool)) (stop func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.feeds.fns == nil {
		m.feeds.fns = map[int]func([]play.Committed, bool){}
	}
	n := m.feeds.next
	m.feeds.next++
	m.feeds.fns[n] = fn
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.feeds.fns, n)
	}
}

// feed notes g for the feeds, in its stored form, if any listens. A game
// put twice at one revision is told as last put.
func (t *memTx) feed(g play.Game) error {
	if len(t.m.feeds.fns) == 0 {
		return nil
	}
	b, err := play.EncodeRecord(&g)
	if err != nil {
		return err
	}
	c := play.Committed{Game: g.ID, Revision: g.Revision, Record: b}
	if n := len(t.fed); n > 0 && t.fed[n-1].Game == g.ID && t.fed[n-1].Revision == g.Revision {
		t.fed[n-1] = c
		return nil
	}
	t.fed = append(t.fed, c)
	return nil
}

// feedTournament notes a write of tournament id for the feeds, once a
// transaction.
func (t *memTx) feedTournament(id uint64) {
	if len(t.m.feeds.fns) == 0 {
		return
	}
	t.fed = play.NoteTournament(t.fed, id)
}
