package memstore

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/iceagechess/iceage/play"
)

var _ play.Exporter = (*Memory)(nil)

// Export calls walk for every record, kind by kind in play.RecordKinds'
// order and by key within a kind, holding the storage's lock: walk must
// not use the storage.
func (m *Memory) Export(ctx context.Context, walk play.Walk) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, kind := range play.RecordKinds() {
		var err error
		switch kind {
		case play.KindGame:
			err = each(m.games, cmp.Compare, func(g play.Game) error {
				g = g.Clone()
				return walk(play.Record{Game: &g})
			})
		case play.KindChallenge:
			err = each(m.challenges, cmp.Compare, func(c play.Challenge) error { return walk(play.Record{Challenge: &c}) })
		case play.KindPlayer:
			err = each(m.players, comparePair, func(p play.Player) error { return walk(play.Record{Player: &p}) })
		case play.KindLogEntry:
			err = each(m.logs, comparePair, func(log []play.LogEntry) error {
				for _, e := range log {
					if err := walk(play.Record{LogEntry: &e}); err != nil {
						return err
					}
				}
				return nil
			})
		case play.KindStats:
			err = each(m.stats, cmp.Compare, func(st play.Stats) error {
				st.ByReason = maps.Clone(st.ByReason)
				return walk(play.Record{Stats: &st})
			})
		case play.KindPrefs:
			for _, user := range slices.Sorted(maps.Keys(m.prefs)) {
				p := m.prefs[user]
				p.Reminders = slices.Clone(p.Reminders)
				if err = walk(play.Record{Prefs: &p, User: user}); err != nil {
					break
				}
			}
		case play.KindServer:
			for _, guild := range slices.Sorted(maps.Keys(m.servers)) {
				s := m.servers[guild]
				if err = walk(play.Record{Server: &s, Guild: guild}); err != nil {
					break
				}
			}
		case play.KindTournament:
			err = each(m.tournaments, cmp.Compare, func(r play.TournamentRecord) error {
				r = r.Clone()
				return walk(play.Record{Tournament: &r})
			})
		case play.KindOutbox:
			err = each(m.outbox, cmp.Compare, func(it play.OutboxItem) error {
				it.Body = slices.Clone(it.Body)
				return walk(play.Record{Outbox: &it})
			})
		case play.KindPuzzler, play.KindPuzzleStats, play.KindDailyPuzzle:
			err = m.exportPuzzles(kind, walk)
		case play.KindLessons:
			for _, user := range slices.Sorted(maps.Keys(m.lessons)) {
				p := m.lessons[user].Clone()
				if err = walk(play.Record{Lessons: &p, User: user}); err != nil {
					break
				}
			}
		default:
			err = play.UnknownKind("memstore", kind)
		}
		if err != nil {
			return m.seq, err
		}
	}
	return m.seq, nil
}

// Renumber makes NextID return ids above last (it never goes back).
func (m *Memory) Renumber(ctx context.Context, last uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq = max(m.seq, last)
	return nil
}

// each calls fn for the values of m in the order of their keys.
func each[K comparable, V any](m map[K]V, compare func(a, b K) int, fn func(V) error) error {
	for _, k := range slices.SortedFunc(maps.Keys(m), compare) {
		if err := fn(m[k]); err != nil {
			return err
		}
	}
	return nil
}

func comparePair(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }
