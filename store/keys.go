package store

import (
	"encoding/binary"
	"math"
	"time"
)

// The buckets of schema version 2. Every one is at the top level, so a
// transaction reaches each with one lookup. Keys are built so that bbolt's
// byte order is the useful order: ids and times are big-endian, and the
// parts of compound keys are separated by NUL (which checkID keeps out of
// ids), so a prefix seek finds exactly one user's or guild's entries.
var (
	bucketMeta       = []byte("meta")       // "schema" → uint32; "created" → time
	bucketGames      = []byte("games")      // channel → Game (active games only)
	bucketGameIDs    = []byte("gameIDs")    // id → channel, for active games
	bucketArchive    = []byte("archive")    // id → Game (finished games)
	bucketChallenges = []byte("challenges") // id → Challenge
	bucketPlayers    = []byte("players")    // scope NUL user → Player ("" scope: global)
	bucketPrefs      = []byte("prefs")      // user → Prefs
	bucketStats      = []byte("stats")      // scope NUL → Stats

	// Indexes: the value is empty, the key says it all.
	bucketDeadlines  = []byte("idx.deadline")   // time channel → ""
	bucketReminders  = []byte("idx.reminder")   // time channel → ""
	bucketExpiries   = []byte("idx.expiry")     // time id → "" (challenges)
	bucketUserGames  = []byte("idx.userGames")  // user NUL channel → "" (active games)
	bucketGuildGames = []byte("idx.guildGames") // guild NUL channel → "" (active games)
	bucketUserArch   = []byte("idx.userArch")   // user NUL id → "" (archived games)
	bucketGuildArch  = []byte("idx.guildArch")  // guild NUL id → "" (archived games)
	bucketChallUsers = []byte("idx.challUser")  // user NUL id → "" (challenges from or to the user)
)

// allBuckets lists the buckets of the current schema, created by Open.
var allBuckets = [][]byte{
	bucketMeta, bucketGames, bucketGameIDs, bucketArchive, bucketChallenges,
	bucketPlayers, bucketPrefs, bucketStats,
	bucketDeadlines, bucketReminders, bucketExpiries,
	bucketUserGames, bucketGuildGames, bucketUserArch, bucketGuildArch, bucketChallUsers,
}

var (
	keySchema  = []byte("schema")
	keyCreated = []byte("created")
)

func u64(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// timeKey encodes t as big-endian Unix nanoseconds with the sign bit
// flipped, so that byte order is time order, before 1970 included.
// Instants outside the years 1678 to 2262, where UnixNano is undefined
// (it wraps: a challenge meant to expire in 3000 would sort as 1831 and
// expire at once), are clamped to the nearest end, so a far future still
// sorts last and a far past first. Deleting an entry rebuilds its key from
// the same stored time, so the clamped key is found again.
func timeKey(t time.Time) []byte {
	var ns int64
	switch {
	case t.Before(minKeyTime):
		ns = math.MinInt64
	case t.After(maxKeyTime):
		ns = math.MaxInt64
	default:
		ns = t.UnixNano()
	}
	return u64(uint64(ns) ^ 1<<63)
}

// The instants whose Unix nanoseconds fit in an int64.
var (
	minKeyTime = time.Unix(0, math.MinInt64)
	maxKeyTime = time.Unix(0, math.MaxInt64)
)

func keyTime(b []byte) time.Time {
	return time.Unix(0, int64(binary.BigEndian.Uint64(b)^1<<63)).UTC()
}

// join builds a compound key: the parts separated by NUL.
func join(parts ...[]byte) []byte {
	n := len(parts) - 1
	for _, p := range parts {
		n += len(p)
	}
	b := make([]byte, 0, n)
	for i, p := range parts {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, p...)
	}
	return b
}

// prefix returns the seek prefix of s's entries in a compound-key index.
func prefix(s string) []byte { return append([]byte(s), 0) }
