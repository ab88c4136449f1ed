package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

// The tournaments' buckets, created by the first write that needs them,
// so that files of older programs need no migration.
var (
	bucketTournaments = []byte("tournaments")    // id → play.TournamentRecord as JSON
	bucketGuildTourn  = []byte("idx.guildTourn") // guild NUL id → ""
	bucketTournGames  = []byte("idx.tournGame")  // game id → tournament id
)

func (t *txn) tournamentRecord(id uint64) (play.TournamentRecord, bool, error) {
	var r play.TournamentRecord
	b := t.tx.Bucket(bucketTournaments)
	if b == nil {
		return r, false, nil
	}
	v := b.Get(u64(id))
	if v == nil {
		return r, false, nil
	}
	if err := json.Unmarshal(v, &r); err != nil || r.ID != id {
		return r, false, fmt.Errorf("%w: tournament %d does not decode", ErrCorrupt, id)
	}
	return r, true, nil
}

// Tournament returns the tournament with that id.
func (t *txn) Tournament(id uint64) (play.TournamentRecord, error) {
	r, ok, err := t.tournamentRecord(id)
	if err == nil && !ok {
		err = fmt.Errorf("%w: no tournament has id %d", play.ErrNotFound, id)
	}
	return r, err
}

// Tournaments returns a guild's tournaments, newest first.
func (t *txn) Tournaments(guild string) ([]play.TournamentRecord, error) {
	idx := t.tx.Bucket(bucketGuildTourn)
	if idx == nil || !validID(guild) {
		return nil, nil
	}
	var ids []uint64
	p := prefix(guild)
	c := idx.Cursor()
	for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Next() {
		if len(k) != len(p)+8 {
			return nil, fmt.Errorf("%w: a tournament index key of %d bytes", ErrCorrupt, len(k))
		}
		ids = append(ids, binary.BigEndian.Uint64(k[len(p):]))
	}
	out := make([]play.TournamentRecord, 0, len(ids))
	for i := len(ids) - 1; i >= 0; i-- {
		r, ok, err := t.tournamentRecord(ids[i])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%w: the guild index names tournament %d, which is missing", ErrCorrupt, ids[i])
		}
		out = append(out, r)
	}
	return out, nil
}

// TournamentOf returns the tournament whose round started the game.
func (t *txn) TournamentOf(game uint64) (uint64, error) {
	if idx := t.tx.Bucket(bucketTournGames); idx != nil {
		if v := idx.Get(u64(game)); len(v) == 8 {
			return binary.BigEndian.Uint64(v), nil
		}
	}
	return 0, fmt.Errorf("%w: no tournament started game %d", play.ErrNotFound, game)
}

// PutTournament creates or replaces a tournament and indexes its games.
func (t *txn) PutTournament(r play.TournamentRecord) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := r.CheckIDs(); err != nil {
		return invalid(err)
	}
	for _, g := range r.Games {
		if other, err := t.TournamentOf(g); err == nil && other != r.ID {
			return fmt.Errorf("%w: game %d belongs to tournament %d already", ErrInvalid, g, other)
		}
	}
	old, had, err := t.tournamentRecord(r.ID)
	if err != nil {
		return err
	}
	if had && old.Guild != r.Guild {
		return fmt.Errorf("%w: tournament %d cannot move from guild %s to %s", ErrInvalid, r.ID, old.Guild, r.Guild)
	}
	r = r.Clone()
	r.KeepGames(old.Games)
	v, err := json.Marshal(&r)
	if err != nil {
		return fmt.Errorf("store: encoding tournament %d: %w", r.ID, err)
	}
	t.wrote = true
	var bs [3]*bolt.Bucket
	for i, name := range [][]byte{bucketTournaments, bucketGuildTourn, bucketTournGames} {
		if bs[i], err = t.tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("store: the tournaments: %w", err)
		}
	}
	if err := bs[0].Put(u64(r.ID), v); err != nil {
		return err
	}
	if err := bs[1].Put(join([]byte(r.Guild), u64(r.ID)), nil); err != nil {
		return err
	}
	for _, g := range r.Games {
		if err := bs[2].Put(u64(g), u64(r.ID)); err != nil {
			return err
		}
	}
	t.feedTournament(r.ID)
	return nil
}
