package bot

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestThePoolRunsAtMostItsWorkersInOrder(t *testing.T) {
	p := newPool(context.Background(), 2)
	// Each job waits for a token of its own, so that the test, not the
	// scheduler, decides when a worker frees: the order in which waiting
	// jobs start is then the pool's alone.
	release := make(chan struct{})
	started := make(chan uint64, 6)
	var running, most atomic.Int32
	var done sync.WaitGroup
	var aheads []int
	for k := uint64(1); k <= 6; k++ {
		done.Add(1)
		ahead, ok := p.submit(k, func(context.Context) {
			defer done.Done()
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			started <- k
			<-release
			running.Add(-1)
		})
		if !ok {
			t.Fatalf("job %d was not taken", k)
		}
		aheads = append(aheads, ahead)
	}
	if _, ok := p.submit(5, func(context.Context) {}); ok {
		t.Errorf("a second job for a key that waits was taken")
	}
	// Jobs 1 and 2 start at once, in either order; each job that ends
	// lets the next waiting one start, first come first served.
	first := []uint64{<-started, <-started}
	slices.Sort(first)
	if !slices.Equal(first, []uint64{1, 2}) {
		t.Errorf("the first jobs to run were %v, want 1 and 2", first)
	}
	for want := uint64(3); want <= 6; want++ {
		release <- struct{}{}
		if k := <-started; k != want {
			t.Errorf("job %d started when job %d was next in line", k, want)
		}
	}
	release <- struct{}{}
	release <- struct{}{}
	done.Wait()
	p.close()
	if most.Load() > 2 {
		t.Errorf("%d jobs ran at once on 2 workers", most.Load())
	}
	if !slices.Equal(aheads, []int{0, 0, 2, 3, 4, 5}) {
		t.Errorf("jobs were told %v ahead of them", aheads)
	}
}

func TestClosingThePoolCancelsRunningJobsAndDropsWaitingOnes(t *testing.T) {
	p := newPool(context.Background(), 1)
	started := make(chan struct{})
	var cancelled, ranLate atomic.Bool
	p.submit(1, func(ctx context.Context) {
		close(started)
		select {
		case <-ctx.Done():
			cancelled.Store(true)
		case <-time.After(10 * time.Second):
		}
	})
	p.submit(2, func(context.Context) { ranLate.Store(true) })
	<-started
	p.close() // returns only once job 1 has returned
	if !cancelled.Load() {
		t.Errorf("the running job was not cancelled, or close did not wait for it")
	}
	if ranLate.Load() {
		t.Errorf("a waiting job ran after close")
	}
	if _, ok := p.submit(3, func(context.Context) {}); ok {
		t.Errorf("a closed pool took a job")
	}
	if r, w := p.load(); r != 0 || w != 0 {
		t.Errorf("after close %d jobs run and %d wait", r, w)
	}
}

func TestAnOfferIsRefusedWhenTooManyWait(t *testing.T) {
	p := newPool(context.Background(), 1)
	release := make(chan struct{})
	var done sync.WaitGroup
	job := func(context.Context) { defer done.Done(); <-release }
	for k, want := range []struct{ ok, full bool }{{true, false}, {true, false}, {true, false}, {false, true}, {false, true}} {
		done.Add(1)
		_, ok, full := p.offer(uint64(k+1), 2, job)
		if ok != want.ok || full != want.full {
			t.Errorf("offer %d: ok %v full %v, want %v %v", k+1, ok, full, want.ok, want.full)
		}
		if !ok {
			done.Done()
		}
	}
	// Engine moves are not bounded by offers' limit.
	done.Add(1)
	if _, ok := p.submit(99, job); !ok {
		t.Error("a submit was refused behind a full queue of offers")
	}
	close(release)
	done.Wait()
	p.close()
}
