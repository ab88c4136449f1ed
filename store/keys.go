package store

import (
	"encoding/binary"
	"math"
	"time"
)

// The buckets of schema version 5 (as of 4). Every one is at the top level, so a
// transaction reaches each with one lookup. Keys are built so that bbolt's
// byte order is the useful order: ids and times are big-endian, and the
// parts of compound keys are separated by NUL (which checkID keeps out of
// ids), so a prefix seek finds exactly one user's or guild's entries.
var (
	bucketMeta       = []byte("meta")       // "schema" → uint32; "created" → time; its sequence numbers games and challenges
	bucketActive     = []byte("active")     // id → play.Game, active games (binary, play's gamerecord.go)
	bucketArchive    = []byte("archive")    // id → play.Game, finished games (binary)
	bucketChallenges = []byte("challenges") // id → play.Challenge
	bucketPlayers    = []byte("players")    // scope NUL user → play.Player ("" scope: global)
	bucketPrefs      = []byte("prefs")      // user → play.Prefs
	bucketStats      = []byte("stats")      // scope NUL → play.Stats
	bucketLog        = []byte("log")        // scope NUL user NUL id → play.LogEntry, binary (log.go)

	// Indexes. Except for idx.channel, the value is empty and the key says
	// it all.
	bucketChannels   = []byte("idx.channel")    // channel → id, the active game of each channel
	bucketDeadlines  = []byte("idx.deadline")   // time id → "" (active games)
	bucketReminders  = []byte("idx.reminder")   // time id → "" (active games)
	bucketExpiries   = []byte("idx.expiry")     // time id → "" (challenges)
	bucketUserGames  = []byte("idx.userGames")  // user NUL id → "" (active games)
	bucketGuildGames = []byte("idx.guildGames") // guild NUL id → "" (active games)
	bucketFinished   = []byte("idx.finished")   // id → "" (finished games)
	bucketUserArch   = []byte("idx.userArch")   // user NUL id → "" (finished games)
	bucketGuildArch  = []byte("idx.guildArch")  // guild NUL id → "" (finished games)
	bucketChallUsers = []byte("idx.challUser")  // user NUL id → "" (challenges from or to the user)
	bucketRatings    = []byte("idx.rating")     // scope NUL rating games user → standing (standings.go)
)

// allBuckets lists the buckets of the current schema, created by Open.
var allBuckets = [][]byte{
	bucketMeta, bucketActive, bucketArchive, bucketChallenges,
	bucketPlayers, bucketPrefs, bucketStats, bucketLog,
	bucketChannels, bucketDeadlines, bucketReminders, bucketExpiries,
	bucketUserGames, bucketGuildGames, bucketFinished, bucketUserArch, bucketGuildArch, bucketChallUsers,
	bucketRatings,
}

// indexBuckets lists the buckets that hold only index entries: everything
// in them can be rebuilt from the records.
var indexBuckets = [][]byte{
	bucketChannels, bucketDeadlines, bucketReminders, bucketExpiries,
	bucketUserGames, bucketGuildGames, bucketFinished, bucketUserArch, bucketGuildArch, bucketChallUsers,
	bucketRatings,
}

var (
	keySchema  = []byte("schema")
	keyCreated = []byte("created")
	keyConvert = []byte("convert") // while game records are converted (migrate4to5)
	keyCompact = []byte("compact") // once they are, until the file is compacted (compactFile)
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
// the same stored time, so the clamped key is found again; reading one
// (clamped reports it) takes the exact time from the record.
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

// keyTime decodes a timeKey; clamped is true when the time was out of
// range and the key holds only the nearest end.
func keyTime(b []byte) (t time.Time, clamped bool) {
	ns := int64(binary.BigEndian.Uint64(b) ^ 1<<63)
	return time.Unix(0, ns).UTC(), ns == math.MinInt64 || ns == math.MaxInt64
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
