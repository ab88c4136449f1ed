package bot

import (
	"context"
	"sync"
)

// pool runs the engine's work on a bounded number of goroutines, first
// come first served, so that a few long searches never slow the
// interactions of other games. A job is keyed by its game: a game has at
// most one job waiting, and asking again while it waits adds nothing.
//
// Close cancels the context the running jobs were given, drops those
// still waiting (a restart finds them again in the storage) and waits
// for the running ones to return.
type pool struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	workers int
	busy    int             // goroutines running a job
	queue   []poolJob       // waiting, oldest first
	waiting map[uint64]bool // keys in queue
	running map[uint64]bool // keys being run
	closed  bool
	wg      sync.WaitGroup
}

type poolJob struct {
	key uint64
	run func(context.Context)
}

// newPool returns a pool of at most workers goroutines (at least 1).
func newPool(life context.Context, workers int) *pool {
	ctx, cancel := context.WithCancel(life)
	return &pool{ctx: ctx, cancel: cancel, workers: max(workers, 1),
		waiting: map[uint64]bool{}, running: map[uint64]bool{}}
}

// submit queues run for key and reports how many jobs are ahead of it
// (running or waiting before it): 0 when it starts at once. ok is false
// after Close, or when a job with that key already waits (ahead is then
// that job's place).
func (p *pool) submit(key uint64, run func(context.Context)) (ahead int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.submitLocked(key, run)
}

// offer queues run for key as submit does, unless it would have to wait
// behind limit or more waiting jobs: then it queues nothing and full is
// true. Work that a user may ask for again and again (an analysis) goes
// through offer, so that no one fills the queue the engine's games wait
// in.
func (p *pool) offer(key uint64, limit int, run func(context.Context)) (ahead int, ok, full bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busy >= p.workers && len(p.queue) >= limit {
		return p.busy + len(p.queue), false, true
	}
	ahead, ok = p.submitLocked(key, run)
	return ahead, ok, false
}

func (p *pool) submitLocked(key uint64, run func(context.Context)) (ahead int, ok bool) {
	if p.closed {
		return 0, false
	}
	if p.waiting[key] {
		for i, j := range p.queue {
			if j.key == key {
				return p.busy + i, false
			}
		}
	}
	ahead = p.busy + len(p.queue)
	j := poolJob{key: key, run: run}
	if p.busy < p.workers {
		p.busy++
		p.running[key] = true
		p.wg.Add(1)
		go p.work(j)
		return 0, true
	}
	p.queue = append(p.queue, j)
	p.waiting[key] = true
	return ahead, true
}

// work runs j, then the waiting jobs in turn, until none waits.
func (p *pool) work(j poolJob) {
	defer p.wg.Done()
	for {
		j.run(p.ctx)
		p.mu.Lock()
		delete(p.running, j.key)
		if len(p.queue) == 0 || p.closed {
			p.busy--
			p.mu.Unlock()
			return
		}
		j = p.queue[0]
		p.queue = p.queue[1:]
		delete(p.waiting, j.key)
		p.running[j.key] = true
		p.mu.Unlock()
	}
}

// load returns how many jobs run and how many wait.
func (p *pool) load() (running, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy, len(p.queue)
}

// close stops the pool: no more jobs are taken, those waiting are
// dropped, the running ones see their context cancelled, and close
// returns once they have returned.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.queue, p.waiting = nil, map[uint64]bool{}
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
}
