package stream_test

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
)

// BenchmarkFanOut measures a move until every watcher of its game has
// its event: from the act's start (its commit included) to each
// watcher's goroutine receiving it, as a page's connection would, with
// 1,000 and 10,000 watchers on one game. It reports the latency's
// median and 99th percentile over every watcher of every move.
//
// On PostgreSQL the acts are made through another store (another
// process) than the hub's: the latency counts the notification too.
func BenchmarkFanOut(b *testing.B) {
	for _, s := range inProcess {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/watchers=%d", s.name, n), func(b *testing.B) {
				st := s.open(b)
				benchFanOut(b, st, st, n)
			})
		}
	}
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("postgres/watchers=%d", n), func(b *testing.B) {
			st := openPG(b, 2)
			benchFanOut(b, st[0], st[1], n)
		})
	}
}

// benchFanOut plays through actOn and watches through a hub on watchOn.
func benchFanOut(b *testing.B, actOn, watchOn play.Storage, n int) {
	h := newHub(b, watchOn, stream.Options{})
	if actOn != watchOn {
		waitListening(b, actOn, h)
	}
	st := actOn
	var (
		started atomic.Int64 // the act's start, Unix nanoseconds
		got     atomic.Int64 // watchers that have the act's event
		all     = make(chan struct{}, 1)
		lat     = make([][]time.Duration, n)
		tb      *table
		watches []*stream.Watch
		readers sync.WaitGroup
		games   int
	)
	begin := func() {
		for _, w := range watches {
			w.Close()
		}
		readers.Wait()
		games++
		tb = newTable(b, st, fmt.Sprintf("c%d", games))
		watches = watches[:0]
		for i := range n {
			w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				b.Fatal(err)
			}
			watches = append(watches, w)
			readers.Go(func() {
				for range w.Events() {
					lat[i] = append(lat[i], time.Duration(time.Now().UnixNano()-started.Load()))
					if got.Add(1) == int64(n) {
						all <- struct{}{}
					}
				}
			})
		}
	}
	begin()
	b.ResetTimer()
	for range b.N {
		if tb.g.Over() || tb.g.Ply() >= 200 {
			b.StopTimer()
			begin()
			b.StartTimer()
		}
		got.Store(0)
		started.Store(time.Now().UnixNano())
		tb.move()
		<-all
	}
	b.StopTimer()
	for _, w := range watches {
		w.Close()
	}
	readers.Wait()
	var every []time.Duration
	for _, l := range lat {
		every = append(every, l...)
	}
	slices.Sort(every)
	ms := func(q float64) float64 { return float64(every[int(q*float64(len(every)-1))]) / 1e6 }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// BenchmarkWatcherMemory measures what the hub holds for each of 10,000
// watchers of one game (the watchers' own goroutines are the front
// end's).
func BenchmarkWatcherMemory(b *testing.B) {
	const n = 10000
	st := inProcess[0].open(b)
	h := newHub(b, st, stream.Options{})
	tb := newTable(b, st, "c1")
	var per float64
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ws := make([]*stream.Watch, 0, n)
		for range n {
			w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				b.Fatal(err)
			}
			ws = append(ws, w)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		per = float64(after.HeapAlloc-before.HeapAlloc) / n
		for _, w := range ws {
			w.Close()
		}
	}
	b.ReportMetric(per, "bytes/watcher")
}

// BenchmarkGameMemory measures what the hub holds for each game it
// follows, one watcher each, for 1,000 games that each had 40 moves
// while followed (every iteration plays them all: run it -benchtime 1x).
func BenchmarkGameMemory(b *testing.B) {
	const n = 1000
	var per float64
	for range b.N {
		b.StopTimer()
		st := inProcess[0].open(b)
		h := newHub(b, st, stream.Options{})
		var tables []*table
		for i := range n {
			tables = append(tables, newTable(b, st, fmt.Sprintf("c%d", i)))
		}
		b.StartTimer()
		var before, after, bare runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		ws := make([]*stream.Watch, 0, n)
		for _, tb := range tables {
			w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				b.Fatal(err)
			}
			ws = append(ws, w)
		}
		for range 40 {
			for i, tb := range tables {
				if !tb.g.Over() {
					tb.move()
					for len(ws[i].Events()) > 0 {
						<-ws[i].Events()
					}
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
		for _, w := range ws {
			for len(w.Events()) > 0 {
				<-w.Events()
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		// The same games without the hub: what the storage grew by.
		h.Close()
		for _, w := range ws {
			w.Close()
		}
		h = nil
		runtime.GC()
		runtime.ReadMemStats(&bare)
		per = float64(int64(after.HeapAlloc+after.StackInuse)-int64(bare.HeapAlloc+bare.StackInuse)) / n
		_ = before
	}
	b.ReportMetric(per, "bytes/game")
}

// BenchmarkResumeFromTheRecord measures a watcher who resumes 100
// revisions back on a hub that never followed the game (a restart,
// another process), in a game of up to 160 plies: the hub reads the game,
// makes the 100 events its record tells, once, and sends them. What
// a second watcher resuming there costs is the Subscribe of one who
// resumes from the events kept.
func BenchmarkResumeFromTheRecord(b *testing.B) {
	st := inProcess[0].open(b)
	tb := newTable(b, st, "c1")
	for tb.g.Ply() < 160 && !tb.g.Over() {
		tb.moveOn()
	}
	if tb.g.Revision < 102 {
		b.Fatalf("the game ended at revision %d", tb.g.Revision)
	}
	// Beside it, what such a watcher got before the record kept each
	// move's revision, and one who starts still gets: a Sync.
	for _, c := range []struct {
		name          string
		after, events int
	}{{"record", tb.g.Revision - 100, 100}, {"sync", 0, 1}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				h, err := stream.New(st, stream.Options{})
				if err != nil {
					b.Fatal(err)
				}
				w, err := h.Subscribe(ctx, tb.g.ID, c.after)
				if err != nil {
					b.Fatal(err)
				}
				if n := len(w.Events()); n != c.events {
					b.Fatalf("%d events, want %d", n, c.events)
				}
				h.Close()
			}
		})
	}
}
