package memstore

import (
	"cmp"
	"maps"
	"slices"

	"github.com/iceagechess/iceage/play"
)

// puzzleMaps hold the puzzle records: the committed ones in Memory, a
// transaction's writes in memTx.
type puzzleMaps struct {
	puzzlers map[[2]string]play.Puzzler
	stats    map[string]play.PuzzleStats
	daily    map[string]play.DailyPuzzle
}

func newPuzzleMaps() puzzleMaps {
	return puzzleMaps{puzzlers: map[[2]string]play.Puzzler{}, stats: map[string]play.PuzzleStats{}, daily: map[string]play.DailyPuzzle{}}
}

// commit copies a transaction's writes into the committed maps.
func (m *puzzleMaps) commit(tx *puzzleMaps) {
	maps.Copy(m.puzzlers, tx.puzzlers)
	maps.Copy(m.stats, tx.stats)
	maps.Copy(m.daily, tx.daily)
}

func clonePuzzler(p play.Puzzler) play.Puzzler {
	p.Tried = slices.Clone(p.Tried)
	return p
}

func cloneDaily(d play.DailyPuzzle) play.DailyPuzzle {
	d.Solvers = slices.Clone(d.Solvers)
	return d
}

func (t *memTx) Puzzler(scope, user string) (play.Puzzler, error) {
	k := [2]string{scope, user}
	if p, ok := t.pz.puzzlers[k]; ok {
		return clonePuzzler(p), nil
	}
	if p, ok := t.m.pz.puzzlers[k]; ok {
		return clonePuzzler(p), nil
	}
	return play.Puzzler{}, notFound("user %s has no puzzle record in scope %q", user, scope)
}

func (t *memTx) Puzzlers(scope string, fn func(play.Puzzler) error) error {
	seen := map[string]bool{}
	for _, src := range []map[[2]string]play.Puzzler{t.pz.puzzlers, t.m.pz.puzzlers} {
		for _, k := range slices.SortedFunc(maps.Keys(src), comparePair) {
			if k[0] != scope || seen[k[1]] {
				continue
			}
			seen[k[1]] = true
			if err := fn(clonePuzzler(src[k])); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *memTx) PuzzleStats(id string) (play.PuzzleStats, error) {
	if s, ok := t.pz.stats[id]; ok {
		return s, nil
	}
	if s, ok := t.m.pz.stats[id]; ok {
		return s, nil
	}
	return play.PuzzleStats{}, notFound("puzzle %q was never tried", id)
}

func (t *memTx) TriedPuzzles(fn func(play.PuzzleStats) error) error {
	seen := map[string]bool{}
	for _, src := range []map[string]play.PuzzleStats{t.pz.stats, t.m.pz.stats} {
		for _, id := range slices.Sorted(maps.Keys(src)) {
			if seen[id] {
				continue
			}
			seen[id] = true
			if err := fn(src[id]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *memTx) DailyPuzzle(guild string) (play.DailyPuzzle, error) {
	if d, ok := t.pz.daily[guild]; ok {
		return cloneDaily(d), nil
	}
	return cloneDaily(t.m.pz.daily[guild]), nil
}

func (t *memTx) PutPuzzler(p play.Puzzler) error {
	if err := t.writable(); err != nil {
		return err
	}
	t.pz.puzzlers[[2]string{p.Scope, p.User}] = clonePuzzler(p)
	return nil
}

func (t *memTx) PutPuzzleStats(s play.PuzzleStats) error {
	if err := t.writable(); err != nil {
		return err
	}
	t.pz.stats[s.ID] = s
	return nil
}

func (t *memTx) PutDailyPuzzle(d play.DailyPuzzle) error {
	if err := t.writable(); err != nil {
		return err
	}
	t.pz.daily[d.Guild] = cloneDaily(d)
	return nil
}

// exportPuzzles walks the records of one of the puzzle kinds, by key.
func (m *Memory) exportPuzzles(kind play.RecordKind, walk play.Walk) error {
	switch kind {
	case play.KindPuzzler:
		return each(m.pz.puzzlers, comparePair, func(p play.Puzzler) error {
			p = clonePuzzler(p)
			return walk(play.Record{Puzzler: &p})
		})
	case play.KindPuzzleStats:
		return each(m.pz.stats, cmp.Compare, func(s play.PuzzleStats) error { return walk(play.Record{PuzzleStats: &s}) })
	default:
		return each(m.pz.daily, cmp.Compare, func(d play.DailyPuzzle) error {
			d = cloneDaily(d)
			return walk(play.Record{DailyPuzzle: &d})
		})
	}
}
