package bot

import (
	"context"
	"sync"
)

// lifetime is the bot's own context, the root of every interaction's,
// and the count of the work under way: interactions and background work
// enter it, and Run ends it once all that entered has left. It is one
// type because the order matters: an Add racing a Wait that may already
// have returned is a misuse of sync.WaitGroup, so gate orders each enter
// before end's Wait, or after closing is set and then refuses it.
type lifetime struct {
	root     context.Context
	stop     context.CancelFunc
	inflight sync.WaitGroup
	gate     sync.Mutex
	closing  bool // under gate
}

func newLifetime() *lifetime {
	l := &lifetime{}
	l.root, l.stop = context.WithCancel(context.Background())
	return l
}

// ctx is the bot's context: it ends when Run has finished the work in
// flight.
func (l *lifetime) ctx() context.Context { return l.root }

// enter counts one more piece of work in flight, unless Run is stopping:
// then it returns false and the work is not done. Work that entered
// calls leave when it is done.
func (l *lifetime) enter() bool {
	l.gate.Lock()
	defer l.gate.Unlock()
	if l.closing {
		return false
	}
	l.inflight.Add(1)
	return true
}

func (l *lifetime) leave() { l.inflight.Done() }

// end refuses new work, waits for the work in flight, and ends the
// bot's context.
func (l *lifetime) end() {
	l.gate.Lock()
	l.closing = true
	l.gate.Unlock()
	l.inflight.Wait()
	l.stop()
}
