package stream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iceagechess/iceage/play"
)

// Errors a Watch ends with (Watch.Err) and Subscribe returns.
var (
	// ErrTooSlow: the watcher did not take its events as fast as they
	// came, and was dropped so that nobody waits for it. It subscribes
	// again after the last revision it received.
	ErrTooSlow = errors.New("stream: the watcher fell behind and was dropped; subscribe again after the last revision received")
	// ErrClosed: the watch or the hub was closed.
	ErrClosed = errors.New("stream: closed")
	// ErrNoGame: no game has that id.
	ErrNoGame = errors.New("stream: no such game")
)

// Defaults of Options.
const (
	DefaultBuffer  = 16
	DefaultKeep    = 4096
	DefaultLinger  = time.Minute
	DefaultGapWait = time.Second
	DefaultRecheck = time.Minute
)

// Options tune a Hub. The zero value gives the defaults.
type Options struct {
	// Buffer is how many events a watcher may leave waiting before it is
	// dropped (ErrTooSlow), beyond those it missed and is sent as it
	// resumes.
	Buffer int
	// Keep is how many of the last events of each followed game are
	// kept, so that a watcher who resumes is sent each revision it
	// missed (since the hub began following the game, and before as far
	// as the game's record tells); further behind, it gets a Sync. A
	// game rarely has more revisions than the default.
	Keep int
	// Linger is how long a game nobody watches any more is still
	// followed, so that a watcher who reconnects resumes from its events.
	Linger time.Duration
	// GapWait is how long a revision missing from the storage's feed is
	// waited for (two commits of a process may be told crosswise)
	// before the game is read again.
	GapWait time.Duration
	// Recheck is how often a followed game is read again all the same:
	// on PostgreSQL, a process that dies between a commit and its
	// notification leaves it untold.
	Recheck time.Duration
	// Logger logs what the hub cannot read; nil logs nothing.
	Logger *slog.Logger
}

// Hub streams the events of games to their watchers. It follows the
// games that have watchers through the storage's feed (play.Feed), so
// that every act committed through the storage — by any front end, the
// engine, the scheduler, or on PostgreSQL any process — reaches them.
// It is safe for concurrent use.
type Hub struct {
	st   play.Storage
	opts Options
	stop func() // the feed's

	mu     sync.RWMutex
	games  map[uint64]*follow
	closed bool
}

// New returns a Hub fed by st, which must implement play.Feed (every
// storage of this module does). Close it when done.
func New(st play.Storage, opts Options) (*Hub, error) {
	feed, ok := st.(play.Feed)
	if !ok {
		return nil, fmt.Errorf("stream: the storage %T tells no commits", st)
	}
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.Linger <= 0 {
		opts.Linger = DefaultLinger
	}
	if opts.GapWait <= 0 {
		opts.GapWait = DefaultGapWait
	}
	if opts.Recheck <= 0 {
		opts.Recheck = DefaultRecheck
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	h := &Hub{st: st, opts: opts, games: map[uint64]*follow{}}
	h.stop = feed.Feed(h.committed)
	return h, nil
}

// Close ends every watch (ErrClosed) and stops following.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	fs := make([]*follow, 0, len(h.games))
	for _, f := range h.games {
		fs = append(fs, f)
		f.push(item{kind: closing})
	}
	h.mu.Unlock()
	h.stop()
	for _, f := range fs {
		<-f.done
	}
	h.mu.Lock()
	h.games = map[uint64]*follow{}
	h.mu.Unlock()
}

// committed is the storage's feed: on the act's path, it only queues
// the games that are followed.
func (h *Hub) committed(games []play.Committed, lost bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if lost {
		for _, f := range h.games {
			f.push(item{kind: resync})
		}
		return
	}
	for _, c := range games {
		if c.Game == 0 {
			continue // a tournament's write
		}
		if f := h.games[c.Game]; f != nil {
			f.push(item{c: c})
		}
	}
}

// Feed passes on its storage's feed (play.Feed), for what follows
// other writes than a game's: a tournament's page.
func (h *Hub) Feed(fn func(games []play.Committed, lost bool)) (stop func()) {
	return h.st.(play.Feed).Feed(fn) // New took no storage that is not one
}

var _ play.Feed = (*Hub)(nil)

// Followed returns how many games the hub follows.
func (h *Hub) Followed() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.games)
}

// Subscribe watches a game's events after revision after: those it
// missed first, then each as it is committed, in order, each once. A
// watcher that starts passes 0 and gets a Sync (Started for a game at
// its first revision). A watcher further behind than the events kept
// (Options.Keep), or than the game's record tells (see the package's
// Resuming), gets a Sync of the game as it is, then what follows. Events up to after are not sent, even if the hub
// has not heard of after yet.
func (h *Hub) Subscribe(ctx context.Context, game uint64, after int) (*Watch, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrClosed
	}
	f := h.games[game]
	if f == nil {
		f = &follow{h: h, id: game, ready: make(chan struct{}), done: make(chan struct{}), pending: map[int]play.Committed{}}
		h.games[game] = f
		f.push(item{kind: loading})
	}
	f.refs.Add(1)
	h.mu.Unlock()
	select {
	case <-f.ready:
	case <-ctx.Done():
		f.release()
		return nil, ctx.Err()
	}
	if f.loadErr != nil {
		f.release()
		return nil, f.loadErr
	}
	w := &Watch{f: f, after: after}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		f.refs.Add(-1)
		return nil, ErrClosed
	}
	f.catchUp(w)
	w.index = len(f.watchers)
	f.watchers = append(f.watchers, w)
	return w, nil
}

// Watch is one watcher of a game. Its events come on Events, which is
// closed when the watch ends: Err then says why.
type Watch struct {
	f     *follow
	ch    chan *Event
	after int // events up to this revision are not sent
	index int // in f.watchers; -1 once ended
	err   error
}

// Events returns the channel of the watch's events.
func (w *Watch) Events() <-chan *Event { return w.ch }

// Err returns why the watch ended: ErrTooSlow, ErrClosed; nil while it
// goes on.
func (w *Watch) Err() error {
	w.f.mu.Lock()
	defer w.f.mu.Unlock()
	return w.err
}

// Close ends the watch (ErrClosed) and closes its channel.
func (w *Watch) Close() {
	w.f.mu.Lock()
	defer w.f.mu.Unlock()
	w.f.end(w, ErrClosed)
}

// item is what a follow has to do: a write of its game (committed),
// or one of the others.
type item struct {
	kind itemKind
	c    play.Committed
}

type itemKind uint8

const (
	committed itemKind = iota
	loading            // read the game first
	resync             // writes may have gone untold: read the game again
	tick               // a time came, or a watcher left: see what is due
	closing            // the hub closes
)

// follow follows one game for its watchers. What it has to do is
// queued (push) and done in order by one goroutine, which runs while
// there is something to do: a game nobody acts on costs no goroutine.
// It makes each revision an event and hands it to every watcher
// without waiting for any.
type follow struct {
	h  *Hub
	id uint64
	// refs counts the watchers and the Subscribes under way; it grows
	// only under h.mu, so that a follow forgotten has none.
	refs atomic.Int32

	qmu     sync.Mutex
	queue   []item
	running bool        // a goroutine does the queue
	timer   *time.Timer // pushes a tick when a time is due

	ready   chan struct{} // closed once loaded (or not: loadErr)
	loadErr error
	done    chan struct{} // closed once it stopped for the hub's Close

	// Owned by the working goroutine; written under mu, so that
	// Subscribe reads them.
	mu     sync.Mutex
	at     followed
	hist   []*Event // the last events, of consecutive revisions
	syncEv *Event   // the Sync of at, once made
	// recordTried: the events the record tells before hist were put
	// there, if any (fromRecord).
	recordTried bool
	watchers    []*Watch
	stopped     bool

	// Owned by the working goroutine alone.
	dead     bool                   // forgotten, closed or never loaded: does nothing more
	pending  map[int]play.Committed // revisions told ahead of a missing one
	readAt   time.Time              // when to read the game again (zero: no need)
	readLast time.Time              // when it was last read
	idle     time.Time              // since when nobody watches (zero: someone does)
}

// push queues it, and starts the working goroutine if none runs. It
// never blocks for long: it is on the act's path.
func (f *follow) push(it item) {
	f.qmu.Lock()
	f.queue = append(f.queue, it)
	start := !f.running
	f.running = true
	f.qmu.Unlock()
	if start {
		go f.work()
	}
}

func (f *follow) poke() { f.push(item{kind: tick}) }

// release gives back a reference of a Subscribe that failed.
func (f *follow) release() {
	f.refs.Add(-1)
	f.poke()
}

// end ends w with err, under f.mu.
func (f *follow) end(w *Watch, err error) {
	if w.index < 0 {
		return
	}
	last := len(f.watchers) - 1
	f.watchers[w.index] = f.watchers[last]
	f.watchers[w.index].index = w.index
	f.watchers[last] = nil
	f.watchers = f.watchers[:last]
	w.index, w.err = -1, err
	close(w.ch)
	f.refs.Add(-1)
	f.poke()
}

// catchUp makes w's channel and sends it, under f.mu, what it missed
// after w.after: each revision, when the events kept, or those the
// game's record tells before them, go back that far; else a Sync. The channel holds them and Options.Buffer more.
func (f *follow) catchUp(w *Watch) {
	cur := f.at.game.Revision
	behind := cur - w.after
	var missed []*Event
	switch {
	case behind <= 0:
	case len(f.hist) > 0 && f.hist[0].Revision <= w.after+1:
		missed = f.hist[w.after+1-f.hist[0].Revision:]
	case w.after > 0 && f.fromRecord() && f.hist[0].Revision <= w.after+1:
		// A watcher that starts (0) gets a Sync: the events the record
		// tells are made only for one that resumes.
		missed = f.hist[w.after+1-f.hist[0].Revision:]
	default:
		if f.syncEv == nil {
			f.syncEv = f.at.sync()
		}
		missed = []*Event{f.syncEv}
	}
	w.ch = make(chan *Event, f.h.opts.Buffer+len(missed))
	for _, ev := range missed {
		w.ch <- ev
	}
}

// fromRecord puts before the events kept those of the revisions before
// them that the game's record tells (followed.fromRecord), under f.mu,
// once: the record never tells further back later (only a restart of
// the events kept tries again). It reports whether any events are kept.
func (f *follow) fromRecord() bool {
	if !f.recordTried {
		f.recordTried = true
		evs := f.at.fromRecord()
		if len(f.hist) > 0 {
			i := 0
			for i < len(evs) && evs[i].Revision < f.hist[0].Revision {
				i++
			}
			evs = evs[:i]
		}
		if len(evs) > 0 {
			f.hist = append(evs, f.hist...)
			if n := f.h.opts.Keep; len(f.hist) > n {
				f.hist = slices.Clone(f.hist[len(f.hist)-n:])
			}
		}
	}
	return len(f.hist) > 0
}

// publish makes ev, the event of the revision of at, the follow's state
// and hands it to every watcher; a watcher whose buffer is full is
// dropped. restart: ev does not continue the events kept.
func (f *follow) publish(ev *Event, at followed, restart bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at, f.syncEv = at, nil
	if ev.Kind == Sync {
		f.syncEv = ev
	}
	if restart {
		clear(f.hist)
		f.hist = f.hist[:0]
		f.recordTried = false
	}
	// A watcher further behind than the events kept gets a Sync.
	if n := f.h.opts.Keep; len(f.hist) >= n+n/2 {
		f.hist = slices.Clone(f.hist[len(f.hist)-n:])
	}
	f.hist = append(f.hist, ev)
	for i := 0; i < len(f.watchers); {
		w := f.watchers[i]
		if ev.Revision <= w.after {
			i++
			continue
		}
		select {
		case w.ch <- ev:
			i++
		default:
			f.end(w, ErrTooSlow) // moves the last watcher to i
		}
	}
}

// work does what is queued, then ends until the next push.
func (f *follow) work() {
	for {
		f.qmu.Lock()
		items := f.queue
		f.queue = nil
		if len(items) == 0 {
			f.running = false
			f.qmu.Unlock()
			return
		}
		f.qmu.Unlock()
		for _, it := range items {
			if !f.dead {
				f.do(it)
			}
		}
		if !f.dead {
			f.due(time.Now())
		}
	}
}

// do does one item.
func (f *follow) do(it item) {
	switch it.kind {
	case loading:
		f.loadErr = f.load()
		if f.loadErr != nil {
			f.dead = true
			h := f.h
			h.mu.Lock()
			if h.games[f.id] == f {
				delete(h.games, f.id)
			}
			h.mu.Unlock()
			close(f.done)
		}
		close(f.ready)
		if !f.dead {
			f.timer = time.AfterFunc(f.h.opts.Recheck, f.poke)
		}
	case committed:
		f.apply(it.c)
	case resync:
		f.readAt = time.Now()
	case closing:
		f.dead = true
		f.timer.Stop()
		f.mu.Lock()
		f.stopped = true
		for len(f.watchers) > 0 {
			f.end(f.watchers[0], ErrClosed)
		}
		f.mu.Unlock()
		close(f.done)
	}
}

// due does what is due at now: reading the game again, forgetting it
// after Options.Linger unwatched; and sets the timer for what is next.
func (f *follow) due(now time.Time) {
	h := f.h
	if now.Sub(f.readLast) >= h.opts.Recheck || !f.readAt.IsZero() && !now.Before(f.readAt) {
		f.resync()
	}
	if f.refs.Load() > 0 {
		f.idle = time.Time{}
	} else if f.idle.IsZero() {
		f.idle = now
	} else if now.Sub(f.idle) >= h.opts.Linger && f.forget() {
		f.dead = true
		f.timer.Stop()
		return
	}
	next := h.opts.Recheck - now.Sub(f.readLast)
	if !f.readAt.IsZero() {
		next = min(next, f.readAt.Sub(now))
	}
	if !f.idle.IsZero() {
		next = min(next, h.opts.Linger-now.Sub(f.idle))
	}
	f.timer.Reset(max(next, time.Millisecond))
}

// forget stops following if nobody watches or subscribes.
func (f *follow) forget() bool {
	h := f.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed { // Close waits for the follow to end its watches
		return false
	}
	if f.refs.Load() > 0 {
		return false
	}
	delete(h.games, f.id)
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	return true
}

// read reads the game from the storage.
func (f *follow) read() (play.Game, error) {
	f.readLast = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var g play.Game
	err := f.h.st.View(ctx, func(tx play.ReadTx) (err error) {
		g, err = tx.Game(f.id)
		return err
	})
	if errors.Is(err, play.ErrNotFound) {
		return g, fmt.Errorf("%w: %d", ErrNoGame, f.id)
	}
	if err != nil {
		return g, fmt.Errorf("stream: reading game %d: %w", f.id, err)
	}
	return g, nil
}

// load reads the game to follow. The follow is in the hub's map already,
// so every commit after this read is queued for it.
func (f *follow) load() error {
	g, err := f.read()
	if err != nil {
		return err
	}
	at, err := load(g)
	if err != nil {
		return fmt.Errorf("stream: game %d: %w", f.id, err)
	}
	f.mu.Lock()
	f.at = at
	f.mu.Unlock()
	return nil
}

// apply takes a write of the feed: a new revision, or a notice at the
// current one.
func (f *follow) apply(c play.Committed) {
	switch {
	case c.Revision > f.at.game.Revision:
		f.pending[c.Revision] = c
		f.drain()
	case c.Revision == f.at.game.Revision && len(f.pending) == 0:
		var g play.Game
		if c.Record == nil {
			// Too large to travel with PostgreSQL's notification: read.
			var err error
			if g, err = f.read(); err != nil {
				f.h.opts.Logger.Warn("stream: reading a game", "game", f.id, "err", err)
				return
			}
			if g.Revision != c.Revision {
				f.advance(g)
				return
			}
		} else if err := play.DecodeRecord(c.Record, &g); err != nil {
			f.h.opts.Logger.Warn("stream: a game's record", "game", f.id, "revision", c.Revision, "err", err)
			return
		}
		ev, at, ok := f.at.notice(g)
		if ok {
			f.tell(ev, at)
		} else if at.game.ID != 0 {
			f.mu.Lock()
			f.at = at
			f.mu.Unlock()
		}
	}
}

// tell makes at the follow's state and hands the notice ev, at the
// revision of the follow's last event, to every watcher; it is not kept
// for those who resume.
func (f *follow) tell(ev *Event, at followed) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at, f.syncEv = at, nil
	for i := 0; i < len(f.watchers); {
		w := f.watchers[i]
		if ev.Revision < w.after {
			i++
			continue
		}
		select {
		case w.ch <- ev:
			i++
		default:
			f.end(w, ErrTooSlow) // moves the last watcher to i
		}
	}
}

// drain applies the pending writes that continue the game, and waits
// Options.GapWait for a missing one before reading the game again. The
// time to read is cleared only by a read: a gap that filled meanwhile
// costs a read that finds nothing new.
func (f *follow) drain() {
	for {
		c, ok := f.pending[f.at.game.Revision+1]
		if !ok {
			break
		}
		delete(f.pending, c.Revision)
		if !f.step(c) {
			return
		}
	}
	for rev := range f.pending {
		if rev <= f.at.game.Revision {
			delete(f.pending, rev)
		}
	}
	if len(f.pending) > 0 && f.readAt.IsZero() {
		f.readAt = time.Now().Add(f.h.opts.GapWait)
	}
}

// step applies a write of the next revision; false when it could not
// be read, and the game is to be read again.
func (f *follow) step(c play.Committed) bool {
	var g play.Game
	if c.Record == nil {
		var err error
		if g, err = f.read(); err != nil {
			f.h.opts.Logger.Warn("stream: reading a game", "game", f.id, "err", err)
			f.readAt = time.Now().Add(f.h.opts.GapWait)
			return false
		}
	} else if err := play.DecodeRecord(c.Record, &g); err != nil {
		f.h.opts.Logger.Warn("stream: a game's record", "game", f.id, "revision", c.Revision, "err", err)
		f.readAt = time.Now()
		return false
	}
	f.advance(g)
	return true
}

// advance makes g, of a later revision, the follow's state: the event
// of the next revision, or a Sync after a gap.
func (f *follow) advance(g play.Game) {
	if g.Revision <= f.at.game.Revision {
		return
	}
	if g.Revision == f.at.game.Revision+1 {
		if ev, at, ok := f.at.next(g); ok {
			f.publish(ev, at, false)
			return
		}
	}
	at, err := load(g)
	if err != nil {
		f.h.opts.Logger.Warn("stream: a game that does not replay", "game", f.id, "revision", g.Revision, "err", err)
		return
	}
	f.publish(at.sync(), at, true)
}

// resync reads the game again: writes may have gone untold.
func (f *follow) resync() {
	g, err := f.read()
	if err != nil {
		f.h.opts.Logger.Warn("stream: reading a game again", "game", f.id, "err", err)
		f.readAt = time.Now().Add(f.h.opts.GapWait)
		return
	}
	f.readAt = time.Time{}
	f.advance(g)
	f.drain()
}
