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
//	   idx.guildGames, idx.userArch, idx.guildArch, idx.challUser). Records
//	   of version 1 and 2 have the same fields.
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
// the archive and the challenges. The records themselves stay as they are
// (version 1 reads as version 2) and take the new version when next
// written, so the migration writes only small index keys, even for an
// archive of hundreds of thousands of games.
func migrate1to2(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketUserGames, bucketGuildGames, bucketUserArch, bucketGuildArch, bucketChallUsers} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("creating bucket %s: %w", name, err)
		}
	}
	for _, bucket := range [][]byte{bucketGames, bucketArchive} {
		archived := string(bucket) == string(bucketArchive)
		err := tx.Bucket(bucket).ForEach(func(k, v []byte) error {
			var g Game
			if err := decode(fmt.Sprintf("%s record %q", bucket, k), v, &g); err != nil {
				return err
			}
			return putEntries(tx, gameEntries(&g, archived))
		})
		if err != nil {
			return err
		}
	}
	return tx.Bucket(bucketChallenges).ForEach(func(k, v []byte) error {
		var c Challenge
		if err := decode(fmt.Sprintf("challenge %x", k), v, &c); err != nil {
			return err
		}
		return putEntries(tx, challengeEntries(&c))
	})
}
