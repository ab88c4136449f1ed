package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/play"
)

func dueIndex(kind play.DueKind) ([]byte, error) {
	switch kind {
	case play.DueDeadline:
		return bucketDeadlines, nil
	case play.DueReminder:
		return bucketReminders, nil
	case play.DueExpiry:
		return bucketExpiries, nil
	}
	return nil, fmt.Errorf("%w: no time index of kind %d", ErrInvalid, kind)
}

// Due returns the entries of a time index due at or before now, earliest
// first, at most limit (none for a limit of 0 or less). It reads the
// index from its start, never a record, so its cost is the number of
// entries due, not the number of games.
func (t *txn) Due(kind play.DueKind, now time.Time, limit int) ([]play.Due, error) {
	index, err := dueIndex(kind)
	if err != nil {
		return nil, err
	}
	var out []play.Due
	end := timeKey(now)
	c := t.tx.Bucket(index).Cursor()
	for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
		if len(k) != 16 {
			return nil, fmt.Errorf("%w: an entry of %s is %x", ErrCorrupt, index, k)
		}
		if bytes.Compare(k[:8], end) > 0 {
			break
		}
		d, err := t.dueEntry(kind, k)
		if err != nil {
			return nil, err
		}
		if d.At.After(now) {
			continue // a far time clamped to the same key as now
		}
		out = append(out, d)
	}
	return out, nil
}

// NextDue returns the earliest time in a time index, so that a scheduler
// can sleep until then; ok is false when the index is empty. It reads one
// key.
func (t *txn) NextDue(kind play.DueKind) (time.Time, bool, error) {
	index, err := dueIndex(kind)
	if err != nil {
		return time.Time{}, false, err
	}
	k, _ := t.tx.Bucket(index).Cursor().First()
	if k == nil {
		return time.Time{}, false, nil
	}
	if len(k) != 16 {
		return time.Time{}, false, fmt.Errorf("%w: an entry of %s is %x", ErrCorrupt, index, k)
	}
	d, err := t.dueEntry(kind, k)
	return d.At, err == nil, err
}

// dueEntry decodes an index key; a time outside the range of a key is
// read from the record.
func (t *txn) dueEntry(kind play.DueKind, k []byte) (play.Due, error) {
	at, clamped := keyTime(k[:8])
	d := play.Due{At: at, ID: binary.BigEndian.Uint64(k[8:])}
	if !clamped {
		return d, nil
	}
	if kind == play.DueExpiry {
		c, err := t.Challenge(d.ID)
		d.At = c.Expires
		return d, err
	}
	g, err := t.Game(d.ID)
	d.At = g.Deadline
	if kind == play.DueReminder {
		d.At = g.RemindAt
	}
	return d, err
}
