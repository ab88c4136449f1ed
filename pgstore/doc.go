// Package pgstore keeps the records of package play in PostgreSQL (or a
// server that speaks its protocol), over pgx: the networked store that
// any number of bot processes share, where package store's bbolt file
// serves one process. It is play's Storage like store; play keeps the
// decisions, game the rules.
//
// # Basics
//
// Open connects a pool to a database URL (its search_path, if given,
// chooses the schema) and brings the schema up to date: the migrations
// are SQL files embedded from migrations/, applied in order in one
// transaction under an advisory lock, and recorded in the schema_version
// table; a schema newer than the program is refused (ErrNewerSchema).
// Hand the Store to play.New and Close it on shutdown.
//
// Update runs a function in one SERIALIZABLE transaction and returns
// after the commit (durable as the server's synchronous_commit makes
// it: by default, flushed to its write-ahead log). A transaction that
// loses a race with another — a serialization failure, a deadlock, a
// channel taken meanwhile — is rolled back and run again on the new
// state, so the function may run more than once and must act only
// through its transaction; play's revision check then refuses a stale
// act as it does on bbolt. A function that returns an error has nothing
// written. View runs a function in a read-only REPEATABLE READ
// transaction: one snapshot, never disturbed by writers.
//
// Records are play's, as the JSON objects package store writes (record
// version in "v"), kept as JSONB beside the columns that their indexes
// need: a game's channel, guild, players, state (active or finished),
// deadline and reminder; a challenge's users and expiry; players by
// scope and user; stats by scope; prefs by user. Times in indexes are
// Unix nanoseconds, so a due time compares exactly as in Go. Every query
// reads one index from where its answer starts: the active game of a
// channel (a unique partial index: at most one active game per channel,
// play.ErrChannelBusy), a user's or a guild's active games, a page of
// finished games newest first, the due items of a time index.
//
// Errors wrap play's sentinels (play.ErrNotFound, play.ErrChannelBusy,
// play.ErrCorrupt) or the package's own (ErrInvalid, ErrNewerSchema);
// test with errors.Is.
//
// # Caveats
//
// Ids come from a sequence, which a rolled-back transaction does not
// give back: ids have gaps, and two games created at once may commit in
// the other order. They are unique, which is all play needs.
//
// Players reads a scope's records before calling its function, so that
// the function may use the transaction; a walk over a huge scope holds
// them all in memory.
package pgstore
