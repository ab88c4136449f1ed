package web

import (
	"bufio"
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/connlimit"
	"github.com/iceagechess/iceage/tournament"
)

// BenchmarkTournamentResultToWatchers: a result of a Swiss of 100
// players committed, until 500 pages of it (in two languages) have its
// event: the tournament read once, its page made once a language, and a
// write to each. Each op is one result (50 a round, nine rounds: run it
// with -benchtime of at most 450x). Its B/op is mostly the readers'
// in the same process, each copying every frame it reads.
func BenchmarkTournamentResultToWatchers(b *testing.B) {
	const watchers = 500
	needFiles(b, 2*watchers)
	x := newSite(b, "777", Options{PerClient: connlimit.Limits{Requests: watchers, Streams: watchers}})
	y := newTourney(b, x, 100, 9)
	url := x.srv.URL + y.path() + "/events"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableKeepAlives: true}}
	type seen struct {
		id string
		at time.Time
	}
	got := make(chan seen, watchers*4)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	ready := make(chan struct{}, watchers)
	for i := range watchers {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			req.Header.Set("Accept-Language", []string{"en", "fr"}[i%2])
			resp, err := client.Do(req)
			if err != nil {
				if ctx.Err() == nil {
					b.Error(err)
				}
				ready <- struct{}{}
				return
			}
			defer resp.Body.Close()
			r := bufio.NewReaderSize(resp.Body, 256<<10)
			first := true
			for {
				line, err := r.ReadSlice('\n')
				if err != nil && err != bufio.ErrBufferFull {
					return
				}
				if id, ok := strings.CutPrefix(string(line), "id: "); ok {
					if first {
						first = false
						ready <- struct{}{}
						continue
					}
					got <- seen{strings.TrimSpace(id), time.Now()}
				}
			}
		})
	}
	for range watchers {
		<-ready
	}
	var lat []time.Duration
	board := 0
	b.ResetTimer()
	for range b.N {
		if board == len(y.tr.Played[len(y.tr.Played)-1].Boards) {
			b.StopTimer()
			y.next(b)
			if y.tr.Status != tournament.Running {
				b.Fatalf("no round left: run with -benchtime of at most 450x")
			}
			board = 0
			for range watchers { // the new round's event
				<-got
			}
			b.StartTimer()
		}
		start := time.Now()
		y.result(b, board, []tournament.Outcome{tournament.Win, tournament.Draw, tournament.Loss}[board%3])
		board++
		for range watchers {
			s := <-got
			lat = append(lat, s.at.Sub(start))
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(pct(1), "max-ms")
}
