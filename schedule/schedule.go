package schedule

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Notifier tells players what the clock did that is no act on a game:
// reminders and expired challenges, with whom to tell and how as the
// round decided it from their settings (round.Round.Remind, Expire); it
// renders that decision and makes none. (A deadline that passed is an
// act of the round, which writes its board and whom to tell in the
// outbox, in its own transaction, like any act.) The bot implements it. A call
// comes after the change it announces is committed, once; an error is
// logged and not retried, so a notice is never sent twice (it may be
// lost instead, if the program stops in between).
type Notifier interface {
	// Remind tells the player to move that their deadline nears.
	Remind(ctx context.Context, r round.Reminder) error
	// Expired says that a challenge expired unanswered.
	Expired(ctx context.Context, e round.Expired) error
}

// Options tune a Scheduler. The zero value gives the defaults.
type Options struct {
	// Clock gives the time and the timers; nil means System.
	Clock Clock
	// Logger gets a line per item handled; nil means slog.Default().
	Logger *slog.Logger
	// Batch is how many due items one look at an index reads. Default 100.
	Batch int
	// MaxSleep bounds a sleep. Timers run on the monotonic clock while
	// due times are wall-clock times, which jump when the host sleeps or
	// its clock is set; waking at least this often puts such a jump
	// right. Default an hour: no polling, but no day-long drift either.
	MaxSleep time.Duration
	// Retry is how long to wait after a failure (say, the storage was
	// briefly unavailable) before trying again. Default a minute.
	Retry time.Duration
	// Claimer, when set, hands out the due items of deadlines and
	// reminders, so that the schedulers of several processes sharing one
	// storage each handle different items (pgstore.Store.Claimer). Nil:
	// this scheduler reads the indexes itself, for a storage that one
	// process holds.
	Claimer Claimer
	// Workers is how many due items of one kind are handled at once.
	// Default 8: a catch-up's transactions share commits, and its
	// notices do not wait for one another, while Discord's rate limits
	// are left far from reach.
	Workers int
}

// Claimer claims due items for one scheduler among several: each item
// returned is held for this one, and no other gets it while the claim
// lasts; the claims of a process that died lapse and are taken over.
type Claimer interface {
	// Claim returns up to limit items of the index kind due at now that
	// no other scheduler holds, earliest first, and holds them.
	Claim(ctx context.Context, kind play.DueKind, now time.Time, limit int) ([]play.Due, error)
}

// Scheduler drives the time indexes of a round's play.Service: it
// sleeps until the next item falls due, and hands a deadline to the
// round (Round.TimeOut), a reminder or an expired challenge to play and
// then to a Notifier.
type Scheduler struct {
	clock Clock
	log   *slog.Logger
	opts  Options
	wake  chan struct{}
}

// New returns a Scheduler; Run starts it.
func New(opts Options) *Scheduler {
	if opts.Clock == nil {
		opts.Clock = System
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Batch <= 0 {
		opts.Batch = 100
	}
	if opts.MaxSleep <= 0 {
		opts.MaxSleep = time.Hour
	}
	if opts.Retry <= 0 {
		opts.Retry = time.Minute
	}
	if opts.Workers <= 0 {
		opts.Workers = 8
	}
	return &Scheduler{clock: opts.Clock, log: opts.Logger, opts: opts, wake: make(chan struct{}, 1)}
}

// Wake makes a sleeping Scheduler look at the indexes again: something
// changed that may fall due sooner than what it sleeps for. It never
// blocks; wakes while one is pending count once.
func (s *Scheduler) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Watch returns st wrapped so that every committed Update wakes s: give
// it to play.New, and no change to a deadline goes unseen. The
// scheduler's own changes do not wake it: it looks at the indexes after
// them anyway. A storage with an outbox keeps it (play.Outbox).
func (s *Scheduler) Watch(st play.Storage) play.Storage {
	if ob, ok := st.(play.Outbox); ok {
		return watchedOutbox{watched{st, s}, ob}
	}
	return watched{st, s}
}

// watchedOutbox is a watched storage with its outbox.
type watchedOutbox struct {
	watched
	play.Outbox
}

type watched struct {
	play.Storage
	s *Scheduler
}

func (w watched) Update(ctx context.Context, fn func(tx play.Tx) error) error {
	err := w.Storage.Update(ctx, fn)
	if err == nil && ctx.Value(ownChange{}) != w.s {
		w.s.Wake()
	}
	return err
}

// ownChange marks the context of the scheduler's own calls to play.
type ownChange struct{}

// Run handles the due items of r's games and challenges, telling n, until ctx ends: first all that
// fell due while the program was down (the catch-up), then each as it
// falls due, sleeping in between until the earliest due time, or until
// Wake. It returns nil when ctx ends; failures are logged and retried.
func (s *Scheduler) Run(ctx context.Context, r *round.Round, n Notifier) error {
	for {
		select { // what happens from here on is seen by RunDue
		case <-s.wake:
		default:
		}
		sleep := s.opts.MaxSleep
		now := s.clock.Now()
		next, ok, err := s.runDue(ctx, r, n, now)
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			s.log.Error("scheduler", "err", err, "retry in", s.opts.Retry)
			sleep = s.opts.Retry
		case ok && !next.After(now):
			// Still due after a pass: an item refused each time. Try
			// again later instead of spinning.
			sleep = s.opts.Retry
		case ok:
			// Due during the pass, or later: at once, or then.
			sleep = min(sleep, max(next.Sub(s.clock.Now()), 0))
		}
		c, stop := s.clock.Timer(sleep)
		select {
		case <-ctx.Done():
			stop()
			return nil
		case <-s.wake:
			stop()
		case <-c:
		}
	}
}

// RunDue handles every item due at the clock's time — deadlines first,
// then expired challenges, then reminders — and returns when the next
// item falls due (ok false when no item waits). Each item is tried once
// per call: one that play refuses (a move came first) is skipped, and
// its index entry is gone or later by then.
func (s *Scheduler) RunDue(ctx context.Context, r *round.Round, n Notifier) (next time.Time, ok bool, err error) {
	return s.runDue(ctx, r, n, s.clock.Now())
}

func (s *Scheduler) runDue(ctx context.Context, r *round.Round, n Notifier, now time.Time) (next time.Time, ok bool, err error) {
	ctx = context.WithValue(ctx, ownChange{}, s)
	svc := r.Service()
	if err := s.deadlines(ctx, r, now); err != nil {
		return time.Time{}, false, err
	}
	if err := s.expiries(ctx, r, n, now); err != nil {
		return time.Time{}, false, err
	}
	if err := s.reminders(ctx, r, n, now); err != nil {
		return time.Time{}, false, err
	}
	return NextDue(ctx, svc.Storage())
}

// NextDue returns the earliest due time in any of st's time indexes.
func NextDue(ctx context.Context, st play.Storage) (next time.Time, ok bool, err error) {
	err = st.View(ctx, func(tx play.ReadTx) error {
		for _, k := range []play.DueKind{play.DueDeadline, play.DueReminder, play.DueExpiry} {
			at, has, err := tx.NextDue(k)
			if err != nil {
				return err
			}
			if has && (!ok || at.Before(next)) {
				next, ok = at, true
			}
		}
		return nil
	})
	return next, ok, err
}

// due walks the entries of an index due at now, each once, in batches.
// An entry is its game and its time: a game whose deadline moved and
// fell due again (a timeout choice that lapsed too while the program was
// down) comes again.
func (s *Scheduler) due(ctx context.Context, st play.Storage, kind play.DueKind, now time.Time, fn func(play.Due) error) error {
	type entry struct {
		id uint64
		at int64
	}
	tried := map[entry]bool{}
	for {
		var batch []play.Due
		var err error
		if s.opts.Claimer != nil {
			// What this scheduler claimed stays claimed: the next
			// claim gets only items new to it.
			batch, err = s.opts.Claimer.Claim(ctx, kind, now, s.opts.Batch)
		} else {
			err = st.View(ctx, func(tx play.ReadTx) (err error) {
				// Ask for enough to get past the entries already tried,
				// which a refused item leaves in place.
				batch, err = tx.Due(kind, now, len(tried)+s.opts.Batch)
				return err
			})
		}
		if err != nil {
			return err
		}
		var fresh []play.Due
		for _, d := range batch {
			if e := (entry{d.ID, d.At.UnixNano()}); !tried[e] {
				tried[e] = true
				fresh = append(fresh, d)
			}
		}
		if len(fresh) == 0 {
			return nil
		}
		if err := s.each(fresh, fn); err != nil {
			return err
		}
	}
}

// each calls fn for every item, Options.Workers at a time, and returns
// the first error. Items are independent games: handled together, their
// transactions can share a commit (store's group commit) and their notices
// go out side by side.
func (s *Scheduler) each(items []play.Due, fn func(play.Due) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, s.opts.Workers)
	for _, d := range items {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(d); err != nil {
				mu.Lock()
				first = cmp.Or(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

func (s *Scheduler) deadlines(ctx context.Context, r *round.Round, now time.Time) error {
	return s.due(ctx, r.Service().Storage(), play.DueDeadline, now, func(d play.Due) error {
		out, err := r.TimeOut(ctx, d.ID, now)
		if skip(err) {
			s.log.Debug("deadline passed over", "game", d.ID, "why", err)
			return nil
		}
		if err != nil {
			return err
		}
		s.log.Info("deadline", "game", d.ID, "event", out.Result.Event.String(), "due", d.At, "late", now.Sub(d.At).Round(time.Second))
		return nil
	})
}

func (s *Scheduler) expiries(ctx context.Context, r *round.Round, n Notifier, now time.Time) error {
	// Expire writes; most wakes have nothing to expire, and a look is a
	// read.
	var due bool
	err := r.Service().Storage().View(ctx, func(tx play.ReadTx) error {
		at, ok, err := tx.NextDue(play.DueExpiry)
		due = ok && !at.After(now)
		return err
	})
	if err != nil || !due {
		return err
	}
	for {
		cs, err := r.Expire(ctx, now, s.opts.Batch)
		if err != nil {
			return err
		}
		for _, e := range cs {
			s.log.Info("challenge expired", "challenge", e.Challenge.ID)
			if err := n.Expired(ctx, e); err != nil {
				s.log.Error("announcing an expired challenge", "challenge", e.Challenge.ID, "err", err)
			}
		}
		if len(cs) < s.opts.Batch {
			return nil
		}
	}
}

func (s *Scheduler) reminders(ctx context.Context, rd *round.Round, n Notifier, now time.Time) error {
	return s.due(ctx, rd.Service().Storage(), play.DueReminder, now, func(d play.Due) error {
		r, err := rd.Remind(ctx, d.ID, now)
		if skip(err) {
			s.log.Debug("reminder passed over", "game", d.ID, "why", err)
			return nil
		}
		if err != nil {
			return err
		}
		if r.Hours == 0 || !r.Deadline.After(now) {
			return nil // nothing left to remind of; a timeout speaks for a passed deadline
		}
		s.log.Info("reminder", "game", d.ID, "user", r.To.ID, "hours", r.Hours)
		if err := n.Remind(ctx, r); err != nil {
			s.log.Error("sending a reminder", "game", d.ID, "err", err)
		}
		return nil
	})
}

// skip reports a refusal: the item changed since it was read (a move, an
// end) and is no longer due.
func skip(err error) bool {
	var x *play.Refusal
	return errors.As(err, &x)
}
