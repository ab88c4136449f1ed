package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

var _ play.Exporter = (*Store)(nil)

// Export calls walk for every record, kind by kind in play.RecordKinds'
// order, from one read transaction.
func (s *Store) Export(ctx context.Context, walk play.Walk) (lastID uint64, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		lastID = tx.Bucket(bucketMeta).Sequence()
		each := func(name []byte, fn func(k, v []byte) error) error {
			b := tx.Bucket(name)
			if b == nil { // the tournaments' and outbox's buckets come with their first record
				return nil
			}
			return b.ForEach(func(k, v []byte) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				return fn(k, v)
			})
		}
		for _, kind := range play.RecordKinds() {
			var err error
			switch kind {
			case play.KindGame:
				for _, b := range [][]byte{bucketActive, bucketArchive} {
					if err = each(b, func(k, v []byte) error {
						var g play.Game
						if err := decode(fmt.Sprintf("game %x", k), v, &g); err != nil {
							return err
						}
						return walk(play.Record{Game: &g})
					}); err != nil {
						break
					}
				}
			case play.KindChallenge:
				err = each(bucketChallenges, func(k, v []byte) error {
					var c play.Challenge
					if err := decode(fmt.Sprintf("challenge %x", k), v, &c); err != nil {
						return err
					}
					return walk(play.Record{Challenge: &c})
				})
			case play.KindPlayer:
				err = each(bucketPlayers, func(k, v []byte) error {
					var p play.Player
					if err := decode(fmt.Sprintf("player %q", k), v, &p); err != nil {
						return err
					}
					return walk(play.Record{Player: &p})
				})
			case play.KindLogEntry:
				var d logDecoder
				err = each(bucketLog, func(k, v []byte) error {
					e, err := exportLogEntry(&d, k, v)
					if err != nil {
						return err
					}
					return walk(play.Record{LogEntry: &e})
				})
			case play.KindStats:
				err = each(bucketStats, func(k, v []byte) error {
					var st play.Stats
					if err := decode(fmt.Sprintf("stats %q", k), v, &st); err != nil {
						return err
					}
					return walk(play.Record{Stats: &st})
				})
			case play.KindPrefs:
				err = each(bucketPrefs, func(k, v []byte) error {
					var p play.Prefs
					if err := decode(fmt.Sprintf("prefs of %q", k), v, &p); err != nil {
						return err
					}
					return walk(play.Record{Prefs: &p, User: string(k)})
				})
			case play.KindServer:
				err = each(bucketServers, func(k, v []byte) error {
					var s play.ServerSettings
					if err := decode(fmt.Sprintf("settings of server %q", k), v, &s); err != nil {
						return err
					}
					return walk(play.Record{Server: &s, Guild: string(k)})
				})
			case play.KindTournament:
				err = exportTournaments(tx, each, walk)
			case play.KindOutbox:
				err = exportOutbox(ctx, tx, func(it play.OutboxItem) error { return walk(play.Record{Outbox: &it}) })
			case play.KindPuzzler, play.KindPuzzleStats, play.KindDailyPuzzle:
				err = exportPuzzles(kind, each, walk)
			case play.KindLessons:
				err = each(bucketLessons, func(k, v []byte) error {
					var p play.LessonProgress
					if err := decode(fmt.Sprintf("lesson progress of %q", k), v, &p); err != nil {
						return err
					}
					return walk(play.Record{Lessons: &p, User: string(k)})
				})
			default:
				err = play.UnknownKind("store", kind)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return lastID, err
}

// exportLogEntry decodes an entry of bucketLog, key and value.
func exportLogEntry(d *logDecoder, k, v []byte) (play.LogEntry, error) {
	// scope NUL user NUL id: neither the scope nor the user holds a NUL.
	var e play.LogEntry
	scope, rest, ok := bytes.Cut(k, []byte{0})
	if !ok || len(rest) < 10 || rest[len(rest)-9] != 0 {
		return e, fmt.Errorf("%w: a log key %q", ErrCorrupt, k)
	}
	e.Scope, e.User = string(scope), string(rest[:len(rest)-9])
	e.Game = binary.BigEndian.Uint64(rest[len(rest)-8:])
	if err := d.decode(v, &e); err != nil {
		return e, fmt.Errorf("the log of %s in scope %q, game %d: %w", e.User, e.Scope, e.Game, err)
	}
	return e, nil
}

// exportTournaments walks the tournaments, each with the games that its
// index gives it: those of its record, then any that the index kept
// after the record dropped them (a game once listed stays listed), so
// that a copy's PutTournament rebuilds the same index.
func exportTournaments(tx *bolt.Tx, each func([]byte, func(k, v []byte) error) error, walk play.Walk) error {
	indexed := map[uint64][]uint64{}
	err := each(bucketTournGames, func(k, v []byte) error {
		if len(k) != 8 || len(v) != 8 {
			return fmt.Errorf("%w: a tournament's game index entry %x → %x", ErrCorrupt, k, v)
		}
		t := binary.BigEndian.Uint64(v)
		indexed[t] = append(indexed[t], binary.BigEndian.Uint64(k))
		return nil
	})
	if err != nil {
		return err
	}
	return each(bucketTournaments, func(k, v []byte) error {
		var r play.TournamentRecord
		if err := json.Unmarshal(v, &r); err != nil || len(k) != 8 || r.ID != binary.BigEndian.Uint64(k) {
			return fmt.Errorf("%w: tournament %x does not decode", ErrCorrupt, k)
		}
		listed := make(map[uint64]bool, len(r.Games))
		for _, g := range r.Games {
			listed[g] = true
		}
		for _, g := range indexed[r.ID] {
			if !listed[g] {
				r.Games = append(r.Games, g)
			}
		}
		return walk(play.Record{Tournament: &r})
	})
}

// Renumber makes NextID return ids above last (it never goes back).
func (s *Store) Renumber(ctx context.Context, last uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMeta)
		if b.Sequence() >= last {
			return nil
		}
		return b.SetSequence(last)
	})
}
