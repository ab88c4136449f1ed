package web

import (
	"context"
	"errors"
	"hash/fnv"
	"strconv"
	"sync"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/tournament"
)

// followed keeps the tournaments whose pages are open, each as it was
// last committed, and tells their watchers each new state. It is fed by
// the storage's feed (play.Feed), which tells every tournament a
// committed transaction wrote — a result, a round paired, a withdrawal,
// the end — and on PostgreSQL those of every process: a rolled-back
// write is never shown. It listens to the feed only while a page is
// open, and reads a followed tournament once for each commit that wrote
// it, however many watch it.
type followed struct {
	st   play.Storage
	feed play.Feed // nil: no page follows live (each polls)
	// recheck is how often a followed tournament is read all the same:
	// on PostgreSQL, a process that dies between a commit and its
	// notification leaves it untold.
	recheck time.Duration

	// feedMu orders the feed's starts and stops. It is never taken
	// under mu: a storage calls committed, which takes mu, under a lock
	// its Feed and stop take too.
	feedMu sync.Mutex
	mu     sync.Mutex
	stop   func() // the feed's; nil while nothing is followed
	tours  map[uint64]*tourFollow
}

// tourFollow is one followed tournament: a goroutine that reads it when
// woken, while it has watchers.
type tourFollow struct {
	id       uint64
	wake     chan struct{} // a commit wrote it (buffered, one)
	quit     chan struct{} // closed when its last watcher left
	ready    chan struct{} // closed once it was first read
	err      error         // of the first read, once ready
	mu       sync.Mutex
	cur      *tourState
	watchers map[*tourWatch]struct{}
}

// tourState is a tournament as one commit left it, and its version: a
// hash of its stored form, the id of its page's events.
type tourState struct {
	t       *tournament.Tournament
	version string
	// views are its page as JSON in each language asked for, made once
	// for all its watchers.
	mu    sync.Mutex
	views map[i18n.Lang][]byte
}

// tourWatch is one page's watch: the latest state not yet sent.
type tourWatch struct {
	f  *tourFollow
	ch chan *tourState // buffered, one: a state replaces the one unsent
}

// errNoFeed: the storage tells no commits, so no page follows live (it
// polls).
var errNoFeed = errors.New("web: the storage tells no commits")

// newFollowed follows the tournaments of st, told by feed (the hub's,
// which passes on its storage's: st may wrap it and tell nothing).
func newFollowed(st play.Storage, feed play.Feed) *followed {
	if feed == nil {
		feed, _ = st.(play.Feed)
	}
	return &followed{st: st, feed: feed, recheck: time.Minute, tours: map[uint64]*tourFollow{}}
}

// watch follows tournament id for a page, until the page closes the
// watch (close), and returns its state as now committed; the watch's
// channel then gets each newer one. play.ErrNotFound: no tournament has
// that id; ctx bounds the wait for the first read.
func (fs *followed) watch(ctx context.Context, id uint64) (*tourWatch, *tourState, error) {
	feed := fs.feed
	if feed == nil {
		return nil, nil, errNoFeed
	}
	fs.feedMu.Lock()
	fs.mu.Lock()
	listening := fs.stop != nil
	fs.mu.Unlock()
	if !listening {
		stop := feed.Feed(fs.committed)
		fs.mu.Lock()
		fs.stop = stop
		fs.mu.Unlock()
	}
	fs.mu.Lock()
	f := fs.tours[id]
	if f == nil {
		f = &tourFollow{id: id, wake: make(chan struct{}, 1), quit: make(chan struct{}), ready: make(chan struct{}),
			watchers: map[*tourWatch]struct{}{}}
		fs.tours[id] = f
		go fs.run(f)
	}
	w := &tourWatch{f: f, ch: make(chan *tourState, 1)}
	f.mu.Lock()
	f.watchers[w] = struct{}{}
	f.mu.Unlock()
	fs.mu.Unlock()
	fs.feedMu.Unlock()
	select {
	case <-f.ready:
	case <-ctx.Done():
		fs.close(w)
		return nil, nil, ctx.Err()
	}
	if f.err != nil {
		fs.close(w)
		return nil, nil, f.err
	}
	f.mu.Lock()
	cur := f.cur
	f.mu.Unlock()
	return w, cur, nil
}

// close ends a watch; the last of a tournament's stops following it,
// and the last of all stops the feed.
func (fs *followed) close(w *tourWatch) {
	fs.feedMu.Lock()
	defer fs.feedMu.Unlock()
	fs.mu.Lock()
	stop := fs.unwatch(w)
	fs.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// unwatch takes w away under fs.mu, and returns the feed's stop when
// nothing is followed any more.
func (fs *followed) unwatch(w *tourWatch) (stop func()) {
	f := w.f
	f.mu.Lock()
	delete(f.watchers, w)
	left := len(f.watchers)
	f.mu.Unlock()
	if left > 0 || fs.tours[f.id] != f {
		return nil
	}
	delete(fs.tours, f.id)
	close(f.quit)
	if len(fs.tours) > 0 {
		return nil
	}
	stop, fs.stop = fs.stop, nil
	return stop
}

// committed is the storage's feed: on the committing goroutine, it only
// wakes the followers of the tournaments written.
func (fs *followed) committed(cs []play.Committed, lost bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for id, f := range fs.tours {
		if lost {
			f.poke()
			continue
		}
		for _, c := range cs {
			if c.Tournament == id {
				f.poke()
				break
			}
		}
	}
}

func (f *tourFollow) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// run reads the tournament at first, then after each commit that wrote
// it (and now and then all the same), and hands each new state to every
// watcher, until its last watcher leaves.
func (fs *followed) run(f *tourFollow) {
	tick := time.NewTicker(fs.recheck)
	defer tick.Stop()
	first := true
	for {
		st, err := fs.read(f.id)
		if first {
			f.mu.Lock()
			f.cur, f.err = st, err
			f.mu.Unlock()
			close(f.ready)
			first = false
			if err != nil {
				<-f.quit
				return
			}
		} else if err == nil {
			f.publish(st)
		}
		select {
		case <-f.quit:
			return
		case <-f.wake:
		case <-tick.C:
		}
	}
}

// publish hands st to every watcher, unless it is the state they have.
func (f *tourFollow) publish(st *tourState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cur != nil && f.cur.version == st.version {
		return
	}
	f.cur = st
	for w := range f.watchers {
		select { // the state unsent gives way to the newer
		case <-w.ch:
		default:
		}
		w.ch <- st // this goroutine alone sends: never blocks
	}
}

// read reads the tournament as committed.
func (fs *followed) read(id uint64) (*tourState, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return readTournament(ctx, fs.st, id)
}

// tourVersion names a tournament's stored state: its page's event id.
func tourVersion(rec play.TournamentRecord) string {
	h := fnv.New64a()
	_, _ = h.Write(rec.Body)
	if rec.Finished {
		_, _ = h.Write([]byte{1})
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// ParseTourVersion reads the version a tournament's page saw last (its
// Last-Event-ID, or the query's "after"): up to 16 hexadecimal digits,
// or none; ok is false for anything else.
func ParseTourVersion(v string) (string, bool) {
	if len(v) > 16 {
		return "", false
	}
	for _, c := range []byte(v) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	return v, true
}

// count returns how many tournaments are followed.
func (fs *followed) count() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return len(fs.tours)
}
