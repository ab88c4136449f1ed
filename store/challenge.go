package store

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// challengeEntries lists the index entries of a challenge: its expiry,
// and its challenger and challenged user.
func challengeEntries(c *play.Challenge) []entry {
	id := u64(c.ID)
	es := []entry{{bucketExpiries, append(timeKey(c.Expires), id...), nil}}
	es = append(es, entry{bucketChallUsers, join([]byte(c.From.ID), id), nil})
	if c.To.ID != "" && c.To.ID != c.From.ID {
		es = append(es, entry{bucketChallUsers, join([]byte(c.To.ID), id), nil})
	}
	return es
}

// loadChallenge reads challenge id; ok is false if there is none.
func (t *txn) loadChallenge(id uint64) (c play.Challenge, ok bool, err error) {
	v := t.tx.Bucket(bucketChallenges).Get(u64(id))
	if v == nil {
		return c, false, nil
	}
	if err := decode(fmt.Sprintf("challenge %d", id), v, &c); err != nil {
		return c, false, err
	}
	if c.ID != id {
		return c, false, fmt.Errorf("%w: the record stored as challenge %d is challenge %d", ErrCorrupt, id, c.ID)
	}
	return c, true, nil
}

// Challenge returns the pending challenge with that id.
func (t *txn) Challenge(id uint64) (play.Challenge, error) {
	c, ok, err := t.loadChallenge(id)
	if err == nil && !ok {
		err = fmt.Errorf("%w: no challenge has id %d (answered, withdrawn or expired)", play.ErrNotFound, id)
	}
	return c, err
}

// Challenges returns the pending challenges made by or to the user,
// oldest first.
func (t *txn) Challenges(user string) ([]play.Challenge, error) {
	if !validID(user) {
		return nil, nil
	}
	var out []play.Challenge
	pre := prefix(user)
	c := t.tx.Bucket(bucketChallUsers).Cursor()
	for k, _ := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
		if len(k) != len(pre)+8 {
			return nil, fmt.Errorf("%w: an entry of %s ends in %x, not a challenge id", ErrCorrupt, bucketChallUsers, k[len(pre):])
		}
		id := binary.BigEndian.Uint64(k[len(pre):])
		ch, ok, err := t.loadChallenge(id)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: %s names challenge %d, which is not there", ErrCorrupt, bucketChallUsers, id)
		}
		out = append(out, ch)
	}
	return out, nil
}

// PutChallenge creates or replaces a challenge and moves its index
// entries.
func (t *txn) PutChallenge(c play.Challenge) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := invalid(c.CheckIDs()); err != nil {
		return err
	}
	old, found, err := t.loadChallenge(c.ID)
	if err != nil {
		return err
	}
	b, err := encode(&c)
	if err != nil {
		return fmt.Errorf("store: encoding challenge %d: %w", c.ID, err)
	}
	t.wrote = true
	if err := t.tx.Bucket(bucketChallenges).Put(u64(c.ID), b); err != nil {
		return fmt.Errorf("store: writing challenge %d: %w", c.ID, err)
	}
	var was []entry
	if found {
		was = challengeEntries(&old)
	}
	return t.moveEntries(was, challengeEntries(&c))
}

// DeleteChallenge removes a challenge and its index entries, or fails
// with play.ErrNotFound: of two answers at once, one wins.
func (t *txn) DeleteChallenge(id uint64) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	c, err := t.Challenge(id)
	if err != nil {
		return err
	}
	t.wrote = true
	if err := t.tx.Bucket(bucketChallenges).Delete(u64(id)); err != nil {
		return fmt.Errorf("store: deleting challenge %d: %w", id, err)
	}
	return t.moveEntries(challengeEntries(&c), nil)
}
