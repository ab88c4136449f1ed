// Package store keeps the records of package play — games, challenges,
// players and their logs, statistics, settings, tournaments and the
// outbox (play.RecordKinds) — in one bbolt file: no server, one
// writer process, durable commits. It is play's Storage on disk: store
// keeps durability, indexes and transactions; play keeps the decisions
// (who may do what, when); game keeps the rules.
//
// # Basics
//
// Open the file with Open (it waits Options.Timeout for a lock held by
// another process, then fails with ErrLocked), hand the Store to
// play.New, and Close it on shutdown. *Store implements play.Storage:
// Update runs a function in one read-write transaction and returns only
// once the commit is on disk (fsync) — a move the bot acknowledges is
// never lost — and View runs one in a read-only transaction that sees one
// instant while writers go on.
//
// Inside a transaction, records are read and written whole (play.Tx).
// PutGame compares a game with its stored version and moves its index
// entries: an active game holds its channel (at most one active game per
// channel: play.ErrChannelBusy) and is listed by player, guild, deadline
// and reminder; a finished game moves to the archive, frees its channel
// and is listed by player and guild, newest first. Challenges are listed
// by user and by expiry; players by scope (a guild, or "" for
// everywhere) and user, and those with a rated game in the rating index
// too, which PutPlayer keeps in leaderboard order; players' logs by
// scope, user and game; statistics by scope; settings by user. Games and
// challenges take their ids from one sequence (NextID). The outbox
// (play.Outbox, outbox.go) has buckets of its own, created by its first
// write, its items indexed by the time they are due; a look that finds
// nothing due writes nothing.
//
// Every query reads one index from where its answer starts — GameIn,
// ActiveGames, GuildGames, a page of Finished, Due, NextDue, PlayerLog,
// Standings — so its cost is the size of its answer, not the number of
// games stored. A leaderboard of 10,000 players walks the rating index in
// about a millisecond, and the statistics of a player of 5,000 games read
// their log in less (BenchmarkLeaderboard, BenchmarkPlayerStats).
//
// Errors wrap play's sentinels (play.ErrNotFound, play.ErrChannelBusy,
// play.ErrCorrupt) or the store's own (ErrInvalid for an id that cannot
// be part of a key, ErrNewerSchema, ErrLocked); test with errors.Is.
//
// Backup writes a consistent copy of the file while the bot runs
// (bbolt's Tx.WriteTo inside a read transaction); BackupFile and CopyFile
// write it to a file, check the copy for damage and only then rename it
// over the old backup.
//
// # Damage
//
// bbolt trusts its file, and a damaged page can make it panic, fault or
// loop. So Open checks an existing file before it opens it: bbolt's
// consistency check and a walk of every record of every kind (each
// decodes under its own key, each game's checksum matches and its moves replay to its
// stored position, each game is in the bucket of its state and an active
// one is named by its channel's entry, each index entry points at a
// record), in a child process that runs this same program, so that a
// crash or a hang there only ends the child. A damaged file is refused
// with ErrDamaged, whose text says what was found and how to restore a
// backup.
//
// A file past a few tens of megabytes (wholeCheckBelow) is checked in
// two parts, so that an open does not grow with the archive: before Open
// returns, what a start needs (bbolt's free list, and the pages and
// records of every bucket but the archive, its indexes and the players'
// logs, whose size is the active games and the players, not the games
// ever played); then the whole file, in the background, on a copy
// written beside it, as Check does. Damage that this finds makes the
// store refuse every write from then on, with the error that says what
// was found and how to restore a backup; Checked waits for it and
// returns its verdict, and Damage reports it. Close stops it.
//
// While the store runs, a panic or fault that damage causes inside a
// transaction becomes an ErrDamaged error rather than the end of the
// process, and the store refuses every write after it. Check runs the
// whole check on a copy of the live file.
//
// # Layout and encoding
//
// Top-level buckets hold records (active games by id, finished games by
// id, challenges by id, players by scope NUL user, prefs by user, stats
// by scope NUL) and indexes whose keys are the whole entry: big-endian
// time (sign bit flipped, so byte order is time order) followed by an id,
// or an owner id, NUL and an id, so that a prefix seek finds exactly one
// user's or guild's entries; the channel index maps a channel to its
// active game's id. Ids may not contain NUL.
//
// Records are play's, in play's one stored form (play.EncodeRecord): a
// game in a compact binary form — its moves a few bits each, as indexes
// among the legal moves, their times varint deltas, a checksum at the
// end, about 750 bytes for a game of 150 plies — and the other records as
// JSON objects with the record version in their "v" field (the store sets
// it on every write). JSON because those records are small and read far
// more than written, and because it stays readable by tools and by later
// versions: unknown fields are ignored and missing ones read as zero, so
// adding a field needs no migration. A game's form is play's too, and
// changes with a new record version only. The file's schema version is
// in the meta bucket; Open migrates an older file in place, in one
// transaction, and refuses a newer one (ErrNewerSchema), as it refuses a
// record whose version is newer than this program's: read without its
// new fields, it would be written back without them. The migration to
// schema 5 converts the games to the binary form after that
// transaction, in transactions of 10,000 games that each leave a file
// whose games read in either form, and that the next Open goes on with
// after a crash; the reader of the JSON form stays for that. It then
// compacts the file (a copy renamed over it), which the conversion left
// as large as before: 100,000 games of schema 4, 511 MB, become 75 MB
// in one Open of about 20 seconds.
//
// Two more kinds of values are binary: the players' logs (play's LogEntry,
// by scope NUL user NUL game id) and the rating index. Read thousands at
// a time, they are compact binary records that begin with a format
// version, refused when newer like a record's "v" (log.go, standings.go).
// The rating index's key is scope NUL, the rating and the number of rated
// games as ordered bits, and the user, so that byte order is the
// leaderboard's; it holds only what a leaderboard shows, and is rebuilt
// from the player records by the migration that added it.
//
// # Caveats
//
// bbolt allows one process per file: a second Open fails after the
// timeout, so the backup command needs the bot stopped, and a running bot
// backs itself up with Backup or BackupFile.
//
// The whole check reads the whole file and replays every game: a
// fraction of a second for a few thousand games, tens of seconds for a
// million, in the background and on a copy, which needs room beside the
// file (it does not run, and Checked says so, when the disk has less
// than twice the file's size free); until it is done, damage in the
// archive is found only by a read that meets it. bbolt has no checksums on data pages, so damage that
// leaves every record consistent (a letter changed in a player's name)
// goes unseen but in a game, whose record has a checksum of its own;
// random damage does not.
//
// Writes are serialised, and each commit costs an fsync. A write that
// finds no commit in progress commits at once; writes that arrive while
// one is in progress share the next transaction, which begins as soon as
// that commit is done (group commit: none waits for company), and each
// still returns only after that shared commit. For this the function
// given to Update may run more than once, and must act only through its
// transaction. A function that fails before it writes anything (a
// refusal: play decides those first) leaves the shared transaction
// alone; one that fails after writing, or panics, makes the shared
// transaction run again without it, and then it alone, to be rolled back
// — correct, but it costs the others a second run.
//
// A record is rewritten whole on every change, and a game's is encoded by
// replaying it (about 20 µs for 150 plies), so a move costs one small
// write plus the fsync. Reading a game replays it too, which gives its
// position. The archive takes about 1 KB per game of 150 plies with its
// indexes. A file migrated from schema 4 keeps its size (bbolt does not
// give pages back); the space the old records took is reused.
//
// PutPlayer reads the record it replaces (the rating part of its JSON) to
// move its entry in the rating index, so a record that does not read
// cannot be replaced: play never replaces one it could not read anyway.
//
// Long read transactions (a walk over Players, paging through a large
// archive in one View) keep bbolt from reusing pages freed meanwhile, so
// the file may grow while they run.
//
// Values returned are copies, decoded from the file; changing them
// changes nothing stored until they are put back in a transaction.
package store
