package play

import (
	"context"
	"fmt"
	"strconv"
)

// RecordKind is a kind of record that a storage keeps. Every kind is
// written through one method of Tx and is listed here once: an export
// gives the records of every kind, a copy writes them back, and
// playtest's suite checks that a storage exports each one it keeps.
// Indexes are no kind: a storage rebuilds them from the records as they
// are put (a tournament's index of games is its record's Games).
type RecordKind uint8

// The kinds of record, in the order an export gives them. Their numbers
// may change: they are never stored.
const (
	KindGame        RecordKind = iota + 1 // Game, active or finished (Tx.PutGame)
	KindChallenge                         // Challenge, pending (Tx.PutChallenge)
	KindPlayer                            // Player, per scope (Tx.PutPlayer)
	KindLogEntry                          // LogEntry of a player's log (Tx.PutLogEntry)
	KindStats                             // Stats, per scope (Tx.PutStats)
	KindPrefs                             // Prefs of a user (Tx.PutPrefs)
	KindServer                            // ServerSettings of a guild (Tx.PutServerSettings)
	KindTournament                        // TournamentRecord and its games (Tx.PutTournament)
	KindOutbox                            // OutboxItem, pending or claimed (Tx.PutOutbox)
	KindPuzzler                           // Puzzler, per scope (Tx.PutPuzzler)
	KindPuzzleStats                       // PuzzleStats of a puzzle tried (Tx.PutPuzzleStats)
	KindDailyPuzzle                       // DailyPuzzle of a guild (Tx.PutDailyPuzzle)
	KindLessons                           // LessonProgress of a user (Tx.PutLessonProgress)
)

// kindInfo is what the registry knows of a kind.
type kindInfo struct {
	one, many string // its name, for counts and errors
	// writer is the method of Tx that writes it.
	writer string
	// in returns the kind's field of a record, nil if it is not set.
	in func(r *Record) any
	// put writes a record of the kind.
	put func(tx Tx, r *Record) error
	// key names a record among those of its kind.
	key func(r *Record) string
}

// kinds is the registry, indexed by RecordKind.
var kinds = [...]kindInfo{
	KindGame: {
		one: "game", many: "games", writer: "PutGame",
		in:  func(r *Record) any { return nilIfNil(r.Game) },
		put: func(tx Tx, r *Record) error { return tx.PutGame(*r.Game) },
		key: func(r *Record) string { return strconv.FormatUint(r.Game.ID, 10) },
	},
	KindChallenge: {
		one: "challenge", many: "challenges", writer: "PutChallenge",
		in:  func(r *Record) any { return nilIfNil(r.Challenge) },
		put: func(tx Tx, r *Record) error { return tx.PutChallenge(*r.Challenge) },
		key: func(r *Record) string { return strconv.FormatUint(r.Challenge.ID, 10) },
	},
	KindPlayer: {
		one: "player record", many: "player records", writer: "PutPlayer",
		in:  func(r *Record) any { return nilIfNil(r.Player) },
		put: func(tx Tx, r *Record) error { return tx.PutPlayer(*r.Player) },
		key: func(r *Record) string { return scoped(r.Player.Scope, r.Player.User) },
	},
	KindLogEntry: {
		one: "log entry", many: "log entries", writer: "PutLogEntry",
		in:  func(r *Record) any { return nilIfNil(r.LogEntry) },
		put: func(tx Tx, r *Record) error { return tx.PutLogEntry(*r.LogEntry) },
		key: func(r *Record) string {
			return scoped(r.LogEntry.Scope, r.LogEntry.User) + " game " + strconv.FormatUint(r.LogEntry.Game, 10)
		},
	},
	KindStats: {
		one: "stats", many: "stats", writer: "PutStats",
		in:  func(r *Record) any { return nilIfNil(r.Stats) },
		put: func(tx Tx, r *Record) error { return tx.PutStats(*r.Stats) },
		key: func(r *Record) string { return scoped(r.Stats.Scope, "") },
	},
	KindPrefs: {
		one: "prefs", many: "prefs", writer: "PutPrefs",
		in:  func(r *Record) any { return nilIfNil(r.Prefs) },
		put: func(tx Tx, r *Record) error { return tx.PutPrefs(r.User, *r.Prefs) },
		key: func(r *Record) string { return "of " + r.User },
	},
	KindServer: {
		one: "server settings", many: "server settings", writer: "PutServerSettings",
		in:  func(r *Record) any { return nilIfNil(r.Server) },
		put: func(tx Tx, r *Record) error { return tx.PutServerSettings(r.Guild, *r.Server) },
		key: func(r *Record) string { return "of " + r.Guild },
	},
	KindTournament: {
		one: "tournament", many: "tournaments", writer: "PutTournament",
		in:  func(r *Record) any { return nilIfNil(r.Tournament) },
		put: func(tx Tx, r *Record) error { return tx.PutTournament(*r.Tournament) },
		key: func(r *Record) string { return strconv.FormatUint(r.Tournament.ID, 10) },
	},
	KindOutbox: {
		one: "outbox item", many: "outbox items", writer: "PutOutbox",
		in:  func(r *Record) any { return nilIfNil(r.Outbox) },
		put: func(tx Tx, r *Record) error { return tx.PutOutbox(*r.Outbox) },
		key: func(r *Record) string { return strconv.Quote(r.Outbox.Key) },
	},
	KindPuzzler: {
		one: "puzzle record", many: "puzzle records", writer: "PutPuzzler",
		in:  func(r *Record) any { return nilIfNil(r.Puzzler) },
		put: func(tx Tx, r *Record) error { return tx.PutPuzzler(*r.Puzzler) },
		key: func(r *Record) string { return scoped(r.Puzzler.Scope, r.Puzzler.User) },
	},
	KindPuzzleStats: {
		one: "puzzle's stats", many: "puzzles' stats", writer: "PutPuzzleStats",
		in:  func(r *Record) any { return nilIfNil(r.PuzzleStats) },
		put: func(tx Tx, r *Record) error { return tx.PutPuzzleStats(*r.PuzzleStats) },
		key: func(r *Record) string { return strconv.Quote(r.PuzzleStats.ID) },
	},
	KindDailyPuzzle: {
		one: "daily puzzle", many: "daily puzzles", writer: "PutDailyPuzzle",
		in:  func(r *Record) any { return nilIfNil(r.DailyPuzzle) },
		put: func(tx Tx, r *Record) error { return tx.PutDailyPuzzle(*r.DailyPuzzle) },
		key: func(r *Record) string { return "of " + r.DailyPuzzle.Guild },
	},
	KindLessons: {
		one: "lesson progress", many: "lesson progress", writer: "PutLessonProgress",
		in:  func(r *Record) any { return nilIfNil(r.Lessons) },
		put: func(tx Tx, r *Record) error { return tx.PutLessonProgress(r.User, *r.Lessons) },
		key: func(r *Record) string { return "of " + r.User },
	},
}

// nilIfNil returns p, or an untyped nil for a nil pointer, so that a
// kind's in can be compared with nil.
func nilIfNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return p
}

func scoped(scope, user string) string {
	s := "scope " + strconv.Quote(scope)
	if user != "" {
		s = user + " in " + s
	}
	return s
}

// RecordKinds returns every kind of record, in the order an export gives
// them.
func RecordKinds() []RecordKind {
	out := make([]RecordKind, 0, len(kinds)-1)
	for k := range kinds[1:] {
		out = append(out, RecordKind(k+1))
	}
	return out
}

// Valid reports whether k is a kind of the registry.
func (k RecordKind) Valid() bool { return k > 0 && int(k) < len(kinds) }

// String returns the kind's name in the plural: "games".
func (k RecordKind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("RecordKind(%d)", uint8(k))
	}
	return kinds[k].many
}

// Count says n records of the kind in English: "1 game", "2 games".
func (k RecordKind) Count(n int) string {
	if !k.Valid() {
		return fmt.Sprintf("%d of %v", n, k)
	}
	if n == 1 {
		return "1 " + kinds[k].one
	}
	return strconv.Itoa(n) + " " + kinds[k].many
}

// Writer returns the name of the Tx method that writes records of the
// kind.
func (k RecordKind) Writer() string {
	if !k.Valid() {
		return ""
	}
	return kinds[k].writer
}

// Record is one record of any kind, as an export gives it and a copy puts
// it: exactly one of the pointers is set, and User or Guild when the
// record's kind is keyed by them.
type Record struct {
	Game        *Game
	Challenge   *Challenge
	Player      *Player
	LogEntry    *LogEntry
	Stats       *Stats
	Prefs       *Prefs // of User
	Server      *ServerSettings
	Tournament  *TournamentRecord
	Outbox      *OutboxItem
	Puzzler     *Puzzler
	PuzzleStats *PuzzleStats
	DailyPuzzle *DailyPuzzle
	Lessons     *LessonProgress // of User

	User  string // whose Prefs or Lessons
	Guild string // whose Server settings
}

// Kind returns the record's kind, or 0 if it holds none or more than one.
func (r *Record) Kind() RecordKind {
	var found RecordKind
	for k := range kinds[1:] {
		if kinds[k+1].in(r) != nil {
			if found != 0 {
				return 0
			}
			found = RecordKind(k + 1)
		}
	}
	return found
}

// Value returns the record itself: the *Game, *Challenge, … it holds, nil
// if it holds no single one.
func (r *Record) Value() any {
	if k := r.Kind(); k != 0 {
		return kinds[k].in(r)
	}
	return nil
}

// String names the record: "game 12", "log entry u1 in scope "" game 12".
func (r Record) String() string {
	k := r.Kind()
	if k == 0 {
		return "a record of no single kind"
	}
	return kinds[k].one + " " + kinds[k].key(&r)
}

// Put writes the record in tx with its kind's Tx method.
func (r *Record) Put(tx Tx) error {
	k := r.Kind()
	if k == 0 {
		return fmt.Errorf("play: %v cannot be put", r)
	}
	if err := kinds[k].put(tx, r); err != nil {
		return fmt.Errorf("putting %v: %w", r, err)
	}
	return nil
}

// Exporter is a Storage that can list all of its records, so that one
// storage can be copied into another (the migrate command copies a bbolt
// file into PostgreSQL and back).
type Exporter interface {
	// Export calls walk for every record of every kind (RecordKinds),
	// from one consistent view, kind by kind in RecordKinds' order, and
	// returns the last id NextID had given as of that view. An error from
	// walk stops the export and is returned. A storage that meets a kind
	// it does not know refuses to export, rather than leave it out.
	Export(ctx context.Context, walk Walk) (lastID uint64, err error)
	// Renumber makes NextID return ids above last from now on.
	Renumber(ctx context.Context, last uint64) error
}

// Walk receives the records of an export, one at a time. The record and
// what it points to are the walk's to keep.
type Walk func(Record) error

// UnknownKind is the error of an Export that meets a kind it cannot
// list.
func UnknownKind(storage string, k RecordKind) error {
	return fmt.Errorf("%s: cannot export the %v records: this storage does not know them", storage, k)
}
