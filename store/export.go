package store

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

var _ play.Exporter = (*Store)(nil)

// Export calls w's functions for every record, from one read
// transaction.
func (s *Store) Export(ctx context.Context, w play.Walk) error {
	return s.db.View(func(tx *bolt.Tx) error {
		if w.LastID != nil {
			if err := w.LastID(tx.Bucket(bucketMeta).Sequence()); err != nil {
				return err
			}
		}
		each := func(b []byte, fn func(k, v []byte) error) error {
			return tx.Bucket(b).ForEach(func(k, v []byte) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				return fn(k, v)
			})
		}
		if w.Game != nil {
			for _, b := range [][]byte{bucketActive, bucketArchive} {
				err := each(b, func(k, v []byte) error {
					var g play.Game
					if err := decode(fmt.Sprintf("game %x", k), v, &g); err != nil {
						return err
					}
					return w.Game(g)
				})
				if err != nil {
					return err
				}
			}
		}
		if w.Challenge != nil {
			err := each(bucketChallenges, func(k, v []byte) error {
				var c play.Challenge
				if err := decode(fmt.Sprintf("challenge %x", k), v, &c); err != nil {
					return err
				}
				return w.Challenge(c)
			})
			if err != nil {
				return err
			}
		}
		if w.Player != nil {
			err := each(bucketPlayers, func(k, v []byte) error {
				var p play.Player
				if err := decode(fmt.Sprintf("player %q", k), v, &p); err != nil {
					return err
				}
				return w.Player(p)
			})
			if err != nil {
				return err
			}
		}
		if w.Stats != nil {
			err := each(bucketStats, func(k, v []byte) error {
				var st play.Stats
				if err := decode(fmt.Sprintf("stats %q", k), v, &st); err != nil {
					return err
				}
				return w.Stats(st)
			})
			if err != nil {
				return err
			}
		}
		if b := tx.Bucket(bucketServers); w.Server != nil && b != nil {
			err := each(bucketServers, func(k, v []byte) error {
				var s play.ServerSettings
				if err := decode(fmt.Sprintf("settings of server %q", k), v, &s); err != nil {
					return err
				}
				return w.Server(string(k), s)
			})
			if err != nil {
				return err
			}
		}
		if w.Outbox != nil {
			if err := exportOutbox(ctx, tx, w.Outbox); err != nil {
				return err
			}
		}
		if w.Prefs != nil {
			err := each(bucketPrefs, func(k, v []byte) error {
				var p play.Prefs
				if err := decode(fmt.Sprintf("prefs of %q", k), v, &p); err != nil {
					return err
				}
				return w.Prefs(string(k), p)
			})
			if err != nil {
				return err
			}
		}
		return nil
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
