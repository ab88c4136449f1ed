package play

import (
	"context"
	"errors"
	"time"
)

// Errors a Storage returns. Implementations wrap them with context; test
// with errors.Is.
var (
	// ErrNotFound: no such game, challenge or player record.
	ErrNotFound = errors.New("not found")
	// ErrChannelBusy: PutGame of an active game into a channel that
	// holds another active game.
	ErrChannelBusy = errors.New("a game is already going on in this channel")
	// ErrCorrupt: a stored record cannot be read, or a game does not
	// replay. Operators restore from a backup.
	ErrCorrupt = errors.New("damaged record")
)

// Storage keeps the records of play durably. package store implements it
// on bbolt; memstore.New in memory. Implementations are safe for
// concurrent use.
type Storage interface {
	// Update runs fn in one read-write transaction and returns after it
	// is committed durably, or fn's error with nothing written. fn may
	// run more than once (a storage may batch and retry), so it must act
	// only through tx.
	Update(ctx context.Context, fn func(tx Tx) error) error
	// View runs fn in one read-only transaction: it sees one instant.
	View(ctx context.Context, fn func(tx ReadTx) error) error
}

// ReadTx reads records inside a transaction. Returned values are copies.
type ReadTx interface {
	// Game returns the game with that id, active or finished.
	Game(id uint64) (Game, error)
	// GameIn returns the active game of a channel, or ErrNotFound.
	GameIn(channel string) (Game, error)
	// ActiveGames returns the user's active games, oldest first.
	ActiveGames(user string) ([]Game, error)
	// GuildGames returns a guild's active games, oldest first.
	GuildGames(guild string) ([]Game, error)
	// Finished returns finished games, newest first: those of the user
	// (or, with user "", of the guild; or, with both "", all), with ids
	// below before (0: no bound), at most limit.
	Finished(user, guild string, before uint64, limit int) ([]Game, error)

	// Challenge returns the pending challenge with that id.
	Challenge(id uint64) (Challenge, error)
	// Challenges returns the pending challenges made by or to the user.
	Challenges(user string) ([]Challenge, error)

	// Player returns the user's record in scope, or ErrNotFound.
	Player(scope, user string) (Player, error)
	// Players calls fn for every player record of scope, in no order;
	// an error from fn stops the walk and is returned.
	Players(scope string, fn func(Player) error) error
	// Standings calls fn for the players of scope with a rated game
	// (RatedGames above zero) in leaderboard order, CompareStandings':
	// highest rating first, then most rated games, then user id. Each
	// Standing has the player's User, Name, Rating as stored (not grown
	// to any time) and RatedTally as Tally; Rank is zero. An error from
	// fn stops the walk and is returned, so a caller that wants the top
	// of the board reads only the top. A storage answers from an index
	// kept in this order, without reading whole player records.
	Standings(scope string, fn func(Standing) error) error
	// Stats returns the counts of scope (zero Stats if none).
	Stats(scope string) (Stats, error)
	// Prefs returns the user's settings (zero Prefs if none).
	Prefs(user string) (Prefs, error)
	// ServerSettings returns a server's settings (zero if none).
	ServerSettings(guild string) (ServerSettings, error)
	// LessonProgress returns the user's progress in the lessons (zero
	// if none).
	LessonProgress(user string) (LessonProgress, error)
	// PlayerLog calls fn for every entry of the user's log in scope, in
	// increasing order of game id; an error from fn stops the walk and is
	// returned. A user with no log has no entries.
	PlayerLog(scope, user string, fn func(LogEntry) error) error

	// Due returns the items of an index due at or before now, earliest
	// first, at most limit; NextDue the earliest time in the index. A
	// limit of zero or less returns nothing, here and in Finished.
	Due(kind DueKind, now time.Time, limit int) ([]Due, error)
	NextDue(kind DueKind) (at time.Time, ok bool, err error)

	// Tournament returns the tournament with that id; Tournaments a
	// guild's, newest first; TournamentOf the id of the tournament whose
	// round started the game (ErrNotFound when none did).
	Tournament(id uint64) (TournamentRecord, error)
	Tournaments(guild string) ([]TournamentRecord, error)
	TournamentOf(game uint64) (uint64, error)

	// Recent returns what the user did lately that the caps count (zero
	// if nothing). In a read-write transaction a storage shared by
	// processes locks the user's record until the commit, even one not
	// written yet: play reads it before it counts anything a cap
	// bounds, so that one user's acts are counted one after the other.
	Recent(user string) (Recent, error)

	// Puzzler returns the user's puzzle record in scope, or ErrNotFound;
	// Puzzlers calls fn for every puzzle record of scope, in no order
	// (an error from fn stops the walk and is returned).
	Puzzler(scope, user string) (Puzzler, error)
	Puzzlers(scope string, fn func(Puzzler) error) error
	// PuzzleStats returns a puzzle's rating and counts, or ErrNotFound
	// for a puzzle never tried.
	PuzzleStats(id string) (PuzzleStats, error)
	// TriedPuzzles calls fn for the stats of every puzzle tried, in no
	// order (an error from fn stops the walk and is returned).
	TriedPuzzles(fn func(PuzzleStats) error) error
	// DailyPuzzle returns a server's daily puzzle (zero if none).
	DailyPuzzle(guild string) (DailyPuzzle, error)
}

// Tx reads and writes records inside a read-write transaction.
type Tx interface {
	ReadTx
	// NextID returns a new id, unique among games and challenges.
	NextID() (uint64, error)
	// PutGame creates or replaces a game and its index entries. An active
	// game holds its channel (ErrChannelBusy if another active game has
	// it); a finished one moves to the archive and frees the channel.
	PutGame(g Game) error
	// PutChallenge creates or replaces a challenge; DeleteChallenge
	// removes one (ErrNotFound if it is not there).
	PutChallenge(c Challenge) error
	DeleteChallenge(id uint64) error
	PutPlayer(p Player) error
	// PutLogEntry creates or replaces the entry of e.Game in the log of
	// e.User in e.Scope: putting the same entry twice leaves one.
	PutLogEntry(e LogEntry) error
	PutStats(s Stats) error
	PutPrefs(user string, p Prefs) error
	PutServerSettings(guild string, s ServerSettings) error
	PutLessonProgress(user string, p LessonProgress) error
	// PutOutbox adds items to the outbox (see Outbox), committed with
	// the rest of the transaction; an item whose Key is pending already
	// is left as it is.
	PutOutbox(items ...OutboxItem) error
	// PutTournament creates or replaces a tournament and indexes its
	// games. A game once listed stays listed: the games of the record it
	// replaces that r does not list are kept, after r's (KeepGames), and
	// Tournament returns them all.
	PutTournament(r TournamentRecord) error
	// PutRecent replaces the user's Recent; an empty one (Recent.Empty)
	// may be deleted.
	PutRecent(user string, r Recent) error
	// PutPuzzler, PutPuzzleStats and PutDailyPuzzle create or replace
	// a puzzle record, a puzzle's stats and a server's daily puzzle.
	PutPuzzler(p Puzzler) error
	PutPuzzleStats(s PuzzleStats) error
	PutDailyPuzzle(d DailyPuzzle) error
}

// DueKind names a time index.
type DueKind uint8

const (
	DueDeadline DueKind = 1 // active games by Deadline
	DueReminder DueKind = 2 // active games by RemindAt
	DueExpiry   DueKind = 3 // challenges by Expires
)

// Due is one entry of a time index: a game's or a challenge's id.
type Due struct {
	At time.Time
	ID uint64
}
