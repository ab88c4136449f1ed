package store

import (
	"bytes"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Due is an entry of a scheduler index: what falls due, and when.
type Due struct {
	At      time.Time
	Channel string // the game's channel (deadlines, reminders)
	ID      uint64 // the challenge's id (expiries)
}

// DueDeadlines returns the active games whose deadline is at or before
// now, earliest first, at most limit (0: all). It reads the deadline index
// from its start, never a game record.
func (s *Store) DueDeadlines(now time.Time, limit int) ([]Due, error) {
	return s.due(bucketDeadlines, now, limit)
}

// DueReminders returns the active games whose reminder time is at or
// before now, earliest first, at most limit (0: all). Clear a sent
// reminder with UpdateGame (RemindAt = time.Time{}).
func (s *Store) DueReminders(now time.Time, limit int) ([]Due, error) {
	return s.due(bucketReminders, now, limit)
}

// ExpiredChallenges returns the challenges whose expiry is at or before
// now, earliest first, at most limit (0: all).
func (s *Store) ExpiredChallenges(now time.Time, limit int) ([]Due, error) {
	return s.due(bucketExpiries, now, limit)
}

func (s *Store) due(index []byte, now time.Time, limit int) ([]Due, error) {
	var out []Due
	end := timeKey(now)
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(index).Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) <= 0 && (limit <= 0 || len(out) < limit); k, _ = c.Next() {
			d := Due{At: keyTime(k[:8])}
			if bytes.Equal(index, bucketExpiries) {
				d.ID = binary.BigEndian.Uint64(k[8:])
			} else {
				d.Channel = string(k[8:])
			}
			out = append(out, d)
		}
		return nil
	})
	return out, err
}

// NextDue returns the earliest time anything falls due — a deadline, a
// reminder, a challenge's expiry — so that a scheduler can sleep until
// then; ok is false when nothing is pending. It reads three keys.
func (s *Store) NextDue() (next time.Time, ok bool, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		for _, index := range [][]byte{bucketDeadlines, bucketReminders, bucketExpiries} {
			k, _ := tx.Bucket(index).Cursor().First()
			if k == nil {
				continue
			}
			if t := keyTime(k[:8]); !ok || t.Before(next) {
				next, ok = t, true
			}
		}
		return nil
	})
	return next, ok, err
}
