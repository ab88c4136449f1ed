package store

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// schemaVersion is the layout this code reads and writes.
//
//	1  games, archive, challenges, players, prefs, stats; the deadline,
//	   reminder and expiry indexes.
//	2  adds the per-user and per-guild indexes (idx.userGames,
//	   idx.guildGames, idx.userArch, idx.guildArch, idx.challUser) and the
//	   record version 2 (nothing but the number changed in the records).
const schemaVersion = 2

// migrations[i] upgrades a file from schema version i+1 to i+2. Each runs
// inside the one transaction of Open, so an upgrade is all or nothing:
// a crash midway leaves the old version, upgraded again at the next Open.
var migrations = []func(tx *bolt.Tx) error{
	migrate1to2,
}

// schemaOf returns the schema version of the file, 0 for an empty file.
func schemaOf(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		empty := true
		tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return 0, fmt.Errorf("%w: the file is a bbolt database but not an iceage one (no meta bucket)", ErrCorrupt)
		}
		return 0, nil
	}
	v := meta.Get(keySchema)
	if len(v) != 4 {
		return 0, fmt.Errorf("%w: the schema version is missing", ErrCorrupt)
	}
	return int(binary.BigEndian.Uint32(v)), nil
}

// upgrade brings the file to schemaVersion: it creates a new file's
// buckets, runs the migrations an older file needs, and refuses a newer one.
func upgrade(tx *bolt.Tx) error {
	v, err := schemaOf(tx)
	if err != nil {
		return err
	}
	if v > schemaVersion {
		return fmt.Errorf("%w: its schema version is %d, this program knows up to %d; upgrade the program (or restore a backup)", ErrNewerSchema, v, schemaVersion)
	}
	if v == schemaVersion {
		return nil
	}
	if v == 0 {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("creating bucket %s: %w", name, err)
			}
		}
		t, _ := time.Now().UTC().MarshalText()
		if err := tx.Bucket(bucketMeta).Put(keyCreated, t); err != nil {
			return err
		}
		return setSchema(tx, schemaVersion)
	}
	for ; v < schemaVersion; v++ {
		if err := migrations[v-1](tx); err != nil {
			return fmt.Errorf("migrating schema %d to %d: %w", v, v+1, err)
		}
		if err := setSchema(tx, v+1); err != nil {
			return err
		}
	}
	return nil
}

func setSchema(tx *bolt.Tx, v int) error {
	b := make([]byte, 4)
	binary.BigEndian.PutUint32(b, uint32(v))
	return tx.Bucket(bucketMeta).Put(keySchema, b)
}

// migrate1to2 builds the per-user and per-guild indexes from the games,
// the archive and the challenges, and rewrites the records as version 2.
func migrate1to2(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketUserGames, bucketGuildGames, bucketUserArch, bucketGuildArch, bucketChallUsers} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("creating bucket %s: %w", name, err)
		}
	}
	type rewrite struct{ key, val []byte }
	for _, bucket := range [][]byte{bucketGames, bucketArchive} {
		var out []rewrite
		err := tx.Bucket(bucket).ForEach(func(k, v []byte) error {
			var g Game
			if err := decode(fmt.Sprintf("%s record %q", bucket, k), v, &g); err != nil {
				return err
			}
			g.V = recordVersion
			archived := string(bucket) == string(bucketArchive)
			for _, e := range gameEntries(&g, archived) {
				if err := tx.Bucket(e.bucket).Put(e.key, e.val); err != nil {
					return err
				}
			}
			b, err := encode(&g)
			if err != nil {
				return err
			}
			// Put is not allowed while ForEach walks the same bucket.
			out = append(out, rewrite{append([]byte(nil), k...), b})
			return nil
		})
		if err != nil {
			return err
		}
		for _, r := range out {
			if err := tx.Bucket(bucket).Put(r.key, r.val); err != nil {
				return err
			}
		}
	}
	var out [][2][]byte
	err := tx.Bucket(bucketChallenges).ForEach(func(k, v []byte) error {
		var c Challenge
		if err := decode(fmt.Sprintf("challenge %x", k), v, &c); err != nil {
			return err
		}
		c.V = recordVersion
		for _, e := range challengeEntries(&c) {
			if err := tx.Bucket(e.bucket).Put(e.key, e.val); err != nil {
				return err
			}
		}
		b, err := encode(&c)
		if err != nil {
			return err
		}
		out = append(out, [2][]byte{append([]byte(nil), k...), b})
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range out {
		if err := tx.Bucket(bucketChallenges).Put(r[0], r[1]); err != nil {
			return err
		}
	}
	return nil
}
