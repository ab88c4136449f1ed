// Package clocktest is a fake schedule.Clock that only a test moves, so
// that days of correspondence pass in microseconds and every sleep can be
// checked: when it was asked for and until when.
package clocktest

import (
	"context"
	"sync"
	"time"
)

// Clock is a fake clock. Its time moves only by Advance and Set; a timer
// fires when the time reaches its due time. It is safe for concurrent
// use.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*timer      // pending, in creation order
	due     []time.Time   // every timer's due time, by number
	changed chan struct{} // closed and replaced whenever a timer is made
}

type timer struct {
	at time.Time
	c  chan time.Time
}

// New returns a clock that reads t.
func New(t time.Time) *Clock { return &Clock{now: t, changed: make(chan struct{})} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Timer returns a timer that fires when the clock reaches Now()+d.
func (c *Clock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	c.due = append(c.due, t.at)
	if !t.at.After(c.now) {
		t.c <- c.now
	} else {
		c.timers = append(c.timers, t)
	}
	close(c.changed)
	c.changed = make(chan struct{})
	stop := func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, p := range c.timers {
			if p == t {
				c.timers = append(c.timers[:i], c.timers[i+1:]...)
				return true
			}
		}
		return false
	}
	return t.c, stop
}

// Advance moves the clock forward by d and fires the timers then due.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the clock to t (never back) and fires the timers then due.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
	kept := c.timers[:0]
	for _, p := range c.timers {
		if p.at.After(c.now) {
			kept = append(kept, p)
			continue
		}
		p.c <- c.now
	}
	c.timers = kept
}

// Timers returns how many timers have been made so far.
func (c *Clock) Timers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.due)
}

// Pending returns the due times of the timers not yet fired or stopped,
// in creation order.
func (c *Clock) Pending() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Time, len(c.timers))
	for i, p := range c.timers {
		out[i] = p.at
	}
	return out
}

// AwaitTimer waits until the clock's n-th timer (counting from 1) has
// been made, and returns when it is due: a test calls it to know that
// the code under test has gone to sleep, and until when. It fails when
// ctx ends first.
func (c *Clock) AwaitTimer(ctx context.Context, n int) (time.Time, error) {
	for {
		c.mu.Lock()
		if len(c.due) >= n {
			at := c.due[n-1]
			c.mu.Unlock()
			return at, nil
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}
