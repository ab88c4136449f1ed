package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/connlimit"
)

// shuffle is the side to move's knight going back and forth (b1–a3,
// b8–a6), taking the ice when an Ice Age filled its square: a game that
// never ends, for as many moves as a benchmark wants.
func (x *site) shuffle(tb testing.TB) string {
	pos, err := x.g.Position()
	if err != nil {
		tb.Fatal(err)
	}
	for _, m := range pos.LegalMoves(nil) {
		switch u := m.UCI(); u {
		case "b1a3", "a3b1", "b8a6", "a6b8":
			return u
		}
	}
	tb.Fatalf("no knight's move back and forth at ply %d", x.g.Ply())
	return ""
}

// BenchmarkMoveToWatchers: a move, until the event stream of each of
// 1,000 pages watching the game (each its own connection, on loopback)
// has delivered it. Reported: the 50th and 99th percentiles and the
// slowest, over every watcher of every move.
func BenchmarkMoveToWatchers(b *testing.B) {
	const watchers = 1000
	needFiles(b, 2*watchers) // both ends of each connection
	// Every watcher is on loopback: one viewer, allowed them all.
	x := newSite(b, "g1", Options{PerClient: connlimit.Limits{Requests: watchers, Streams: watchers}})
	url := x.srv.URL + x.path() + "/events?after=" + strconv.Itoa(x.g.Revision)
	tr := &http.Transport{MaxIdleConnsPerHost: -1, DisableKeepAlives: true}
	client := &http.Client{Transport: tr}
	type seen struct {
		rev int
		at  time.Time
	}
	got := make(chan seen, watchers*4)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	ready := make(chan struct{}, watchers)
	for range watchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			resp, err := client.Do(req)
			if err != nil {
				if ctx.Err() == nil {
					b.Error(err)
				}
				ready <- struct{}{}
				return
			}
			defer resp.Body.Close()
			r := bufio.NewReaderSize(resp.Body, 64<<10)
			first := true
			for {
				line, err := r.ReadSlice('\n')
				if err != nil {
					return
				}
				if first && strings.HasPrefix(string(line), "retry:") {
					first = false
					ready <- struct{}{}
				}
				if id, ok := strings.CutPrefix(string(line), "id: "); ok {
					rev, _ := strconv.Atoi(strings.TrimSpace(id))
					got <- seen{rev, time.Now()}
				}
			}
		}()
	}
	for range watchers {
		<-ready
	}
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		x.move(x.shuffle(b))
		for n := 0; n < watchers; {
			s := <-got
			if s.rev == x.g.Revision {
				lat = append(lat, s.at.Sub(start))
				n++
			}
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(pct(1), "max-ms")
}

// BenchmarkWatcherMemory: what 10,000 pages watching a game cost the
// listener's process: its heap and goroutine stacks with them open, less
// before, by watcher. The pages' ends of the connections are held by a
// child process, so that only the listener's side is counted.
func BenchmarkWatcherMemory(b *testing.B) {
	const watchers = 10_000
	needFiles(b, watchers) // each process holds one end of each connection
	for range b.N {
		x := newSite(b, "g1", Options{PerClient: connlimit.Limits{Requests: watchers, Streams: watchers}})
		url := x.srv.URL + x.path() + "/events?after=" + strconv.Itoa(x.g.Revision)
		before := inUse()
		child := exec.Command(os.Args[0], "-test.run=^TestHoldWatchers$", "-test.bench=^$")
		child.Env = append(os.Environ(), "ICEAGE_HOLD_WATCHERS="+url, "ICEAGE_HOLD_COUNT="+strconv.Itoa(watchers))
		in, _ := child.StdinPipe()
		out, _ := child.StdoutPipe()
		child.Stderr = os.Stderr
		if err := child.Start(); err != nil {
			b.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "ready") {
			b.Fatalf("the child holding the watchers: %q, %v", line, err)
		}
		after := inUse()
		b.ReportMetric(float64(after.heap+after.stack-before.heap-before.stack)/watchers, "B/watcher")
		b.ReportMetric(float64(after.stack-before.stack)/watchers, "stack-B/watcher")
		in.Close()
		_ = child.Wait()
		x.srv.CloseClientConnections()
	}
}

// memory is the heap and the goroutines' stacks in use.
type memory struct{ heap, stack int64 }

// inUse is the memory in use, after a collection.
func inUse() memory {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return memory{int64(m.HeapInuse), int64(m.StackInuse)}
}

// TestHoldWatchers is the child of BenchmarkWatcherMemory: it opens the
// event streams, says "ready" once each has begun, and holds them until
// its standard input closes. It does nothing in a test run.
func TestHoldWatchers(t *testing.T) {
	url := os.Getenv("ICEAGE_HOLD_WATCHERS")
	if url == "" {
		t.Skip("the child of BenchmarkWatcherMemory")
	}
	n, _ := strconv.Atoi(os.Getenv("ICEAGE_HOLD_COUNT"))
	host := strings.TrimPrefix(url, "http://")
	addr, path, _ := strings.Cut(host, "/")
	conns := make([]net.Conn, 0, n)
	buf := make([]byte, 4096)
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
		var seen []byte
		for !strings.Contains(string(seen), "retry:") {
			k, err := c.Read(buf)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, buf[:k]...)
		}
		conns = append(conns, c)
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	for _, c := range conns {
		c.Close()
	}
}

// BenchmarkSSEEvent: one watcher's event of a 40-move game's view, for a
// correspondence game and for a live one, whose clock's age is written
// into it: shared by the watchers sent it in the same millisecond, and
// made anew (a millisecond later each time).
func BenchmarkSSEEvent(b *testing.B) {
	x := newSite(b, "g1", Options{})
	if !x.randomMoves(40, 1) {
		b.Skip("the game ended")
	}
	mv, err := x.s.views.get(context.Background(), x.g.ID, x.g.Revision, "en")
	if err != nil {
		b.Fatal(err)
	}
	now := t0.Add(time.Hour)
	for _, c := range []struct {
		name  string
		since time.Time
		tick  time.Duration
	}{{"correspondence", time.Time{}, 0}, {"live", now.Add(-7 * time.Second), 0}, {"live-new-ms", now.Add(-7 * time.Second), time.Millisecond}} {
		b.Run(c.name, func(b *testing.B) {
			m := &madeView{rev: mv.rev, data: mv.data, clockSince: c.since}
			b.SetBytes(int64(len(m.data)))
			b.ReportAllocs()
			at := now
			for range b.N {
				at = at.Add(c.tick)
				_ = m.frame(0, at)
			}
		})
	}
}
