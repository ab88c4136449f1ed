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
// table (a migration that SQL cannot do, such as converting the games to
// the binary form, runs its Go part after its file, in the same
// transaction: afterMigration); a schema newer than the program is refused (ErrNewerSchema).
// Hand the Store to play.New and Close it on shutdown.
//
// The outbox (play.Outbox, outbox.go) is a table of its own (migration
// 3): a claim takes due items with FOR UPDATE SKIP LOCKED and moves each
// to the end of its lease, so two processes never hold one item, and the
// items of a process that died are due again when their lease ends.
//
// Update runs a function in one transaction and returns after the
// commit (durable as the server's synchronous_commit makes it: by
// default, flushed to its write-ahead log). The records it reads by key
// are locked (SELECT … FOR UPDATE) until then, so acts on one game, and
// the updates of the statistics that every game's end makes, queue one
// behind the other and each sees the last committed state: play's
// revision check refuses a stale act as it does on bbolt. A transaction
// that loses a race all the same — a deadlock, a channel or a record
// that another transaction created meanwhile — is rolled back and run
// again on the new state, so the function may run more than once and
// must act only through its transaction. A function that returns an error has nothing
// written. View runs a function in a read-only REPEATABLE READ
// transaction: one snapshot, never disturbed by writers.
//
// Records are play's, in the one stored form package store writes too
// (play.EncodeRecord, record version in "v"): games in play's compact
// binary form as bytea (about 440 bytes for a game of 150 plies, 770
// with the table's indexes), the other records as JSONB; beside them
// the columns that their indexes need: a game's channel, guild, players, state (active or finished),
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
// Nothing waits for ever on a database that stalls: a connection is
// opened within DefaultConnectTimeout, the server cancels a statement
// after DefaultStatementTimeout (row locks waited for included) and a
// transaction whose client went silent after a minute, and Update and
// View give up after Options.TxTimeout, waiting for a connection
// included. Once one runs out of time, every call fails at once with
// ErrStalled until the database answers a ping again (breaker.go), so
// that the several reads of one interaction do not each wait out the
// timeout. A connection string's own connect_timeout and
// statement_timeout win.
//
// # Caveats
//
// Ids come from a sequence, which a rolled-back transaction does not
// give back: ids have gaps, and two games created at once may commit in
// the other order. They are unique, which is all play needs.
//
// A read-write transaction locks the rows it reads, lists included (a
// user's or a guild's active games, a user's challenges), but cannot
// lock rows that are not there yet: two transactions that each look for
// a record and, finding none, create one, may both proceed (two
// identical challenges made at the same instant). A record created twice
// under one key is caught by its primary key and the loser runs again.
// Finished games and due items are read without locks.
//
// Players reads a scope's records before calling its function, so that
// the function may use the transaction; a walk over a huge scope holds
// them all in memory.
package pgstore
