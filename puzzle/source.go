package puzzle

import (
	"context"
	"fmt"
	"sync"

	"github.com/iceagechess/iceage/game"
)

// Source is one game to find puzzles in: an engine self-play game, played
// from its seed, or a finished game.
type Source struct {
	// Name names the source in checkpoints and in puzzles' Source.
	Name string
	// SelfPlay, when set, plays the game from Seed (SelfPlay) instead of
	// reading Start and Moves.
	SelfPlay bool
	Seed     uint64
	Start    game.Position
	Moves    []game.Move
}

// SelfPlaySource is the self-play game of seed.
func SelfPlaySource(seed uint64) Source {
	return Source{Name: fmt.Sprintf("selfplay-%d", seed), SelfPlay: true, Seed: seed}
}

// Scan finds the puzzles of one source. It depends on src and opt
// alone, so sources may be scanned in any order, in parallel, and
// resumed.
func (src Source) Scan(ctx context.Context, opt Options) []Puzzle {
	opt = opt.withDefaults()
	start, moves := src.Start, src.Moves
	if src.SelfPlay {
		start, moves = game.StartPosition(), SelfPlay(ctx, src.Seed, opt.MaxPlies)
	}
	return NewScanner(opt).Game(ctx, start, moves, src.Name)
}

// ScanAll scans sources with at most workers at once and calls done with
// each source's puzzles as it finishes (from one goroutine at a time). It
// stops at the first error done returns, or with ctx.
func ScanAll(ctx context.Context, sources []Source, opt Options, workers int, done func(Source, []Puzzle) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan Source)
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for src := range jobs {
				found := src.Scan(ctx, opt)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				if first == nil {
					if err := done(src, found); err != nil {
						first = err
						cancel()
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, src := range sources {
		select {
		case jobs <- src:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// Collect joins the puzzles of several sources, in order, keeping the
// first puzzle of each position.
func Collect(found ...[]Puzzle) []Puzzle {
	seen := map[string]bool{}
	var out []Puzzle
	for _, f := range found {
		for _, pz := range f {
			if seen[pz.FEN] {
				continue
			}
			seen[pz.FEN] = true
			out = append(out, pz)
		}
	}
	return out
}
