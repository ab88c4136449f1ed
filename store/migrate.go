package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// schemaVersion is the layout this code reads and writes.
//
//	1  games (by channel), archive, challenges, players, prefs, stats; the
//	   deadline, reminder and expiry indexes.
//	2  adds the per-user and per-guild indexes (idx.userGames,
//	   idx.guildGames, idx.userArch, idx.guildArch, idx.challUser). Records
//	   of version 1 and 2 have the same fields.
//	3  play's records (record version 3). Active games are kept by id
//	   (bucket active; idx.channel finds a channel's game), and the
//	   deadline, reminder, user and guild indexes of active games name ids,
//	   not channels; idx.finished lists the archive for paging all of it;
//	   games and challenges are numbered from one sequence (meta's).
//	4  adds the players' logs (bucket log, one binary entry per scope,
//	   user and finished game) and the rating index (idx.rating, one
//	   entry per player record with a rated game, in leaderboard order).
//	5  game records in play's binary form (record version 4), about a
//	   seventh of their JSON. The migration only marks the file (meta's
//	   "convert"); convertGames then rewrites the games in transactions
//	   of convertBatch, before Open returns (see convertGames), and
//	   compactFile then writes the file anew, a fifth of its size.
const schemaVersion = 5

// migrations[i] upgrades a file from schema version i+1 to i+2. Each runs
// inside the one transaction of Open, so an upgrade is all or nothing:
// a crash midway leaves the old version, upgraded again at the next Open.
var migrations = []func(tx *bolt.Tx) error{
	migrate1to2,
	migrate2to3,
	migrate3to4,
	migrate4to5,
}

// schemaOf returns the schema version of the file, 0 for an empty file.
func schemaOf(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil }) // the function never fails
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
		if err := createBuckets(tx, allBuckets); err != nil {
			return err
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

func createBuckets(tx *bolt.Tx, names [][]byte) error {
	for _, name := range names {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("creating bucket %s: %w", name, err)
		}
	}
	return nil
}

func deleteBuckets(tx *bolt.Tx, names [][]byte) error {
	for _, name := range names {
		if err := tx.DeleteBucket(name); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return fmt.Errorf("deleting bucket %s: %w", name, err)
		}
	}
	return nil
}

// bucket returns a bucket that an older schema must have.
func bucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	if b := tx.Bucket(name); b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("%w: the file has no bucket %s", ErrCorrupt, name)
}

func putKey(tx *bolt.Tx, bucket, key []byte) error {
	if err := tx.Bucket(bucket).Put(key, []byte{}); err != nil {
		return fmt.Errorf("indexing in %s: %w", bucket, err)
	}
	return nil
}

// migrate1to2 builds the per-user and per-guild indexes from the games,
// the archive and the challenges. The records themselves stay as they are
// (version 1 reads as version 2), so the migration writes only small index
// keys, even for an archive of hundreds of thousands of games.
func migrate1to2(tx *bolt.Tx) error {
	if err := createBuckets(tx, [][]byte{bucketUserGames, bucketGuildGames, bucketUserArch, bucketGuildArch, bucketChallUsers}); err != nil {
		return err
	}
	for _, name := range [][]byte{v2Games, bucketArchive, bucketChallenges} {
		if _, err := bucket(tx, name); err != nil {
			return err
		}
	}
	for _, name := range [][]byte{v2Games, bucketArchive} {
		archived := string(name) == string(bucketArchive)
		err := tx.Bucket(name).ForEach(func(k, v []byte) error {
			var g struct {
				ID      uint64    `json:"id"`
				Guild   string    `json:"guild"`
				Channel string    `json:"channel"`
				White   play.Seat `json:"white"`
				Black   play.Seat `json:"black"`
			}
			if err := json.Unmarshal(v, &g); err != nil {
				return fmt.Errorf("%w: %s record %q: %v", ErrCorrupt, name, k, err)
			}
			users, guilds, last := bucketUserGames, bucketGuildGames, []byte(g.Channel)
			if archived {
				users, guilds, last = bucketUserArch, bucketGuildArch, u64(g.ID)
			}
			for _, u := range v2Players(g.White.ID, g.Black.ID) {
				if err := putKey(tx, users, join([]byte(u), last)); err != nil {
					return err
				}
			}
			if g.Guild != "" {
				return putKey(tx, guilds, join([]byte(g.Guild), last))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return tx.Bucket(bucketChallenges).ForEach(func(k, v []byte) error {
		var c play.Challenge
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("%w: challenge %x: %v", ErrCorrupt, k, err)
		}
		for _, u := range v2Players(c.From.ID, c.To.ID) {
			if u != "" {
				if err := putKey(tx, bucketChallUsers, join([]byte(u), u64(c.ID))); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// migrate2to3 moves the records to play's and the keys to ids:
//
//   - Active games (few) are read, converted (toPlay) and written again
//     by id with their indexes, which are rebuilt.
//   - Archived games (many) stay as they are: a finished record of
//     version 2 reads as play's record (its offers were cleared, its Ice
//     Age list is ignored). Only idx.finished is added, one key each.
//   - The counts that play keeps and store did not are computed from the
//     archive: each scope's Ice Ages and each player's losses to a frozen
//     king. Aborted games leave ByReason, which now counts results only.
//   - A challenge of random colour says so; game and challenge ids come
//     from one sequence now, which continues after both old ones.
//   - Prefs stay as they are: their fields that play's Prefs lacks
//     (orientation, vacation) are kept until the user's settings change.
//
// It writes through the current code (PutGame, PutStats, PutPlayer), so
// it creates the current schema's buckets; the later migrations start
// from what it leaves.
func migrate2to3(tx *bolt.Tx) error {
	for _, name := range [][]byte{v2Games, bucketArchive, bucketChallenges, bucketStats, bucketPlayers, bucketMeta} {
		if _, err := bucket(tx, name); err != nil {
			return err
		}
	}
	var active []play.Game
	err := tx.Bucket(v2Games).ForEach(func(k, v []byte) error {
		var o v2Game
		if err := json.Unmarshal(v, &o); err != nil {
			return fmt.Errorf("%w: the game of channel %q: %v", ErrCorrupt, k, err)
		}
		active = append(active, o.toPlay())
		return nil
	})
	if err != nil {
		return err
	}
	if err := deleteBuckets(tx, [][]byte{v2Games, v2GameIDs, bucketDeadlines, bucketReminders, bucketUserGames, bucketGuildGames}); err != nil {
		return err
	}
	if err := createBuckets(tx, allBuckets); err != nil {
		return err
	}
	t := &txn{tx: tx, writable: true}
	for _, g := range active {
		if err := t.PutGame(g); err != nil {
			return fmt.Errorf("game %d: %w", g.ID, err)
		}
	}

	iceAges := map[string]int{}   // scope → Ice Ages of its finished games
	frozen := map[[2]string]int{} // scope, user → games lost to a frozen king
	var rewrite []uint64          // archived games with offers left in them
	err = tx.Bucket(bucketArchive).ForEach(func(k, v []byte) error {
		var s v2Summary
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("%w: archived game %x: %v", ErrCorrupt, k, err)
		}
		if s.DrawOffer != "" || s.Takeback != "" {
			rewrite = append(rewrite, s.ID)
		}
		scopes := []string{""}
		if s.Guild != "" {
			scopes = append(scopes, s.Guild)
		}
		if s.Status.Reason != game.Aborted {
			for _, scope := range scopes {
				iceAges[scope] += len(s.IceAges)
			}
		}
		if w, ok := s.Status.Winner(); ok && s.Status.Reason == game.KingFrozen {
			loser := s.White.ID
			if w == game.White {
				loser = s.Black.ID
			}
			for _, scope := range scopes {
				frozen[[2]string{scope, loser}]++
			}
		}
		return putKey(tx, bucketFinished, k)
	})
	if err != nil {
		return err
	}
	for _, id := range rewrite {
		var o v2Game
		if err := json.Unmarshal(tx.Bucket(bucketArchive).Get(u64(id)), &o); err != nil {
			return fmt.Errorf("%w: archived game %d: %v", ErrCorrupt, id, err)
		}
		g := o.toPlay()
		b, err := encode(&g)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketArchive).Put(u64(id), b); err != nil {
			return err
		}
	}

	var stats []play.Stats
	err = tx.Bucket(bucketStats).ForEach(func(k, v []byte) error {
		var st play.Stats
		if err := json.Unmarshal(v, &st); err != nil {
			return fmt.Errorf("%w: stats %q: %v", ErrCorrupt, k, err)
		}
		if len(k) == 0 || k[len(k)-1] != 0 {
			return fmt.Errorf("%w: a stats key %q without its NUL", ErrCorrupt, k)
		}
		st.Scope = string(k[:len(k)-1])
		delete(st.ByReason, game.Aborted)
		if len(st.ByReason) == 0 {
			st.ByReason = nil
		}
		st.IceAges = iceAges[st.Scope]
		stats = append(stats, st)
		return nil
	})
	if err != nil {
		return err
	}
	for _, st := range stats {
		if err := t.PutStats(st); err != nil {
			return err
		}
	}
	for k, n := range frozen {
		p, err := t.Player(k[0], k[1])
		if errors.Is(err, play.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		p.FrozenLosses = n
		if err := t.PutPlayer(p); err != nil {
			return err
		}
	}

	var challenges []play.Challenge
	err = tx.Bucket(bucketChallenges).ForEach(func(k, v []byte) error {
		var c play.Challenge
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("%w: challenge %x: %v", ErrCorrupt, k, err)
		}
		if c.Color == "" {
			c.Color = play.Random
		}
		challenges = append(challenges, c)
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range challenges {
		b, err := encode(&c)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketChallenges).Put(u64(c.ID), b); err != nil {
			return err
		}
	}
	meta, chall := tx.Bucket(bucketMeta), tx.Bucket(bucketChallenges)
	if chall.Sequence() > meta.Sequence() {
		if err := meta.SetSequence(chall.Sequence()); err != nil {
			return err
		}
	}
	return chall.SetSequence(0)
}

// migrate3to4 adds the players' logs and the rating index:
//
//   - The log is filled from the archive as play fills it at each end:
//     every finished game but an aborted one is an entry in both
//     players' logs, in every scope it counts in, with the opponent, the
//     result and each player's first move. Schema 3's programs rated no
//     game (the ratings came with schema 4), so no entry is rated: a
//     player's rating chart starts with their first game rated by this
//     program.
//   - The rating index is built from the player records, one entry for
//     each with a rated game. It is rebuilt whole, as migrate2to3 may
//     have begun it.
//
// Archived games are read without their moves but the first two, so the
// migration costs about as much as reading the archive once.
func migrate3to4(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketArchive, bucketPlayers} {
		if _, err := bucket(tx, name); err != nil {
			return err
		}
	}
	if err := deleteBuckets(tx, [][]byte{bucketRatings}); err != nil {
		return err
	}
	if err := createBuckets(tx, [][]byte{bucketLog, bucketRatings}); err != nil {
		return err
	}
	var entries []play.LogEntry
	err := tx.Bucket(bucketArchive).ForEach(func(k, v []byte) error {
		s, err := readV3Summary(k, v)
		if err != nil {
			return err
		}
		if s.Outcome.Result == game.NoResult {
			return nil // aborted: no entry
		}
		g := play.Game{ID: s.ID, Guild: s.Guild, White: s.White, Black: s.Black, StartFEN: s.StartFEN}
		for _, m := range s.Moves {
			if m.UCI != "" {
				g.Moves = append(g.Moves, m)
			}
		}
		first := g.FirstMoves()
		for _, scope := range g.Scopes() {
			for _, c := range []game.Color{game.White, game.Black} {
				entries = append(entries, play.LogEntry{Scope: scope, User: g.Seat(c).ID, Game: s.ID, Ended: s.Ended,
					Color: c, Opponent: g.Seat(c.Other()).ID, Outcome: s.Outcome, First: first[c]})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	t := &txn{tx: tx, writable: true}
	for _, e := range entries {
		if err := t.PutLogEntry(e); err != nil {
			return fmt.Errorf("the log of game %d: %w", e.Game, err)
		}
	}
	ratings := tx.Bucket(bucketRatings)
	return tx.Bucket(bucketPlayers).ForEach(func(k, v []byte) error {
		p, err := decodePlayer(k, v)
		if err != nil {
			return err
		}
		if e, ok := standingEntry(&p); ok {
			if err := ratings.Put(e.key, e.val); err != nil {
				return fmt.Errorf("indexing the rating of %q: %w", k, err)
			}
		}
		return nil
	})
}

// migrate4to5 marks the file for convertGames, which rewrites its game
// records in the binary form. Until it is done both forms are read, so
// the file is whole at every commit.
func migrate4to5(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketActive, bucketArchive} {
		if _, err := bucket(tx, name); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keyConvert, []byte{})
}

// convertBatch is how many games convertGames rewrites in one
// transaction: a transaction holds what it writes in memory until its
// commit, and an archive of a million games is most of a gigabyte.
var convertBatch = 10000

// converting reports whether the file still has game records to convert.
func converting(tx *bolt.Tx) bool {
	meta := tx.Bucket(bucketMeta)
	return meta != nil && meta.Get(keyConvert) != nil
}

// convertGames rewrites the game records that are still JSON in the
// binary form, convertBatch of them per transaction, until none is left,
// the active games first and then the archive, each in key order. Meta's
// "convert" holds where it got to (empty: at the start; else the bucket,
// 0 for the active games and 1 for the archive, and the last key done)
// and is deleted at the end: a crash between two transactions leaves a
// file whose converted games and JSON ones both read, and the next Open
// goes on from there.
func convertGames(db guardedDB) error {
	pending := false
	if err := db.View(func(tx *bolt.Tx) error { pending = converting(tx); return nil }); err != nil || !pending {
		return err
	}
	for done := false; !done; {
		err := db.Update(func(tx *bolt.Tx) (err error) {
			done, err = convertSome(tx, convertBatch)
			return err
		})
		if err != nil {
			return fmt.Errorf("converting the games to the compact form: %w", err)
		}
	}
	return nil
}

// convertSome converts at most n games from where the last call stopped;
// done is true when none is left.
func convertSome(tx *bolt.Tx, n int) (done bool, err error) {
	meta := tx.Bucket(bucketMeta)
	at := meta.Get(keyConvert)
	if at == nil {
		return true, nil
	}
	which, after := 0, []byte(nil)
	if len(at) > 0 {
		which, after = int(at[0]), at[1:]
	}
	buckets := [][]byte{bucketActive, bucketArchive}
	for ; which < len(buckets); which, after = which+1, nil {
		b := tx.Bucket(buckets[which])
		type rec struct{ k, v []byte }
		var todo []rec
		var last []byte
		c := b.Cursor()
		k, v := c.First()
		if after != nil {
			if k, v = c.Seek(after); k != nil && bytes.Equal(k, after) {
				k, v = c.Next()
			}
		}
		for ; k != nil && len(todo) < n; k, v = c.Next() {
			last = k
			if _, ok := jsonRecord(v); ok {
				todo = append(todo, rec{bytes.Clone(k), bytes.Clone(v)})
			}
		}
		more := k != nil
		last = bytes.Clone(last)
		for _, r := range todo {
			var g play.Game
			if err := decode(fmt.Sprintf("game %x", r.k), r.v, &g); err != nil {
				return false, err
			}
			enc, err := encode(&g)
			if err != nil {
				return false, fmt.Errorf("game %d: %w", g.ID, err)
			}
			if err := b.Put(r.k, enc); err != nil {
				return false, fmt.Errorf("game %d: %w", g.ID, err)
			}
		}
		if more {
			return false, meta.Put(keyConvert, append([]byte{byte(which)}, last...))
		}
	}
	if err := meta.Delete(keyConvert); err != nil {
		return false, err
	}
	return true, meta.Put(keyCompact, []byte{})
}

// compacting reports whether the file is marked for compactFile.
func compacting(db guardedDB) bool {
	marked := false
	_ = db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		marked = meta != nil && meta.Get(keyCompact) != nil
		return nil
	})
	return marked
}

// compactFile rewrites the database db, open on path, into a new file,
// its pages full (bbolt's Compact), and puts that in its place: the
// conversion of the games leaves the file as large as their JSON made it
// (bbolt gives no page back), four fifths of it free. The copy is
// written beside the file, synced, and renamed over it, so a crash
// leaves the one file or the other, both whole; meta's "compact", which
// the copy does not keep, makes the next Open try again. It returns the
// database open on the new file, or on the old one if the compaction
// failed before the rename, with the error; nil only if neither opens.
func compactFile(path string, db *bolt.DB, lock time.Duration) (*bolt.DB, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".compact*")
	if err != nil {
		return db, fmt.Errorf("compacting: %w", err)
	}
	tmp := f.Name()
	_ = f.Close() // bbolt opens it again
	keep := func(err error) (*bolt.DB, error) {
		_ = os.Remove(tmp) // the copy is only left over
		return db, fmt.Errorf("compacting: %w", err)
	}
	dst, err := bolt.Open(tmp, 0o600, nil)
	if err != nil {
		return keep(err)
	}
	dst.NoSync = true // synced once, below
	err = bolt.Compact(dst, db, 64<<20)
	if err == nil {
		err = dst.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keyCompact) })
	}
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return keep(err)
	}
	// The lock goes with the old file; the new one is locked at its open.
	if err := db.Close(); err != nil {
		return keep(err)
	}
	err = os.Rename(tmp, path)
	if err == nil {
		err = syncDir(filepath.Dir(path))
	} else {
		_ = os.Remove(tmp) // the old file stays, marked
	}
	reopened, oerr := bolt.Open(path, 0o600, &bolt.Options{Timeout: lock})
	if oerr != nil {
		return nil, fmt.Errorf("compacting: reopening: %w", oerr)
	}
	if err != nil {
		return reopened, fmt.Errorf("compacting: %w", err)
	}
	return reopened, nil
}
