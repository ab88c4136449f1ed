package puzzle

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
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
	s := NewScanner(opt)
	found := s.Game(ctx, start, moves, src.Name)
	if src.SelfPlay {
		found = append(found, s.Branches(ctx, replay(start, moves), src.Seed, src.Name)...)
	}
	return found
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
// first of each idea: one puzzle a position, and one a solution played
// by the same kings (the branches of a game around an Ice Age find the
// same idea in positions that differ by a man far away).
func Collect(found ...[]Puzzle) []Puzzle {
	seen := map[string]bool{}
	var out []Puzzle
	for _, f := range found {
		for _, pz := range f {
			idea := ideaOf(&pz)
			if seen[pz.FEN] || seen[idea] {
				continue
			}
			seen[pz.FEN], seen[idea] = true, true
			out = append(out, pz)
		}
	}
	return out
}

// ideaOf names a puzzle's idea: its goal, its line and where the kings
// stand.
func ideaOf(pz *Puzzle) string {
	kings := ""
	if p, err := pz.Position(); err == nil {
		for _, c := range []game.Color{game.White, game.Black} {
			if s, ok := p.KingSquare(c); ok {
				kings += s.String()
			}
		}
	}
	return string(pz.Goal) + " " + kings + " " + strings.Join(pz.Moves, " ")
}

// The shipped ratings run from CalibratedMin to CalibratedMax.
const (
	CalibratedMin = 600
	CalibratedMax = 2400
)

// Calibrate spreads a set's first ratings evenly over CalibratedMin to
// CalibratedMax in the order of the generator's guesses (ties by id):
// the guess orders puzzles well but bunches them (most are mates in one
// or two), and a ladder from beginner to expert wants them spread. The
// tries of players then move each puzzle's rating where it belongs.
func Calibrate(set []Puzzle) {
	if len(set) < 2 {
		return
	}
	order := make([]int, len(set))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(set[a].Rating, set[b].Rating), cmp.Compare(set[a].ID, set[b].ID))
	})
	for rank, i := range order {
		r := CalibratedMin + (CalibratedMax-CalibratedMin)*rank/(len(set)-1)
		set[i].Rating = (r + 5) / 10 * 10
	}
}
