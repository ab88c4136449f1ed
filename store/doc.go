// Package store keeps Ice Age Chess games, challenges, players and
// statistics in one bbolt file: no server, one writer process, durable
// commits.
//
// # Basics
//
// Open the file with Open (it waits Options.Timeout for a lock held by
// another process, then fails with ErrLocked) and Close it on shutdown.
// Every exported method is one transaction: reads see one consistent
// instant, writes are all or nothing and are on disk (fsync) before the
// method returns — a move the bot acknowledges is never lost.
//
// A game lives under its channel (or thread) id while active: at most one
// per channel (ErrChannelBusy). PlayMove plays a UCI move in one read-write
// transaction: it loads the record, checks the player, the version (the
// ply the user saw — ErrConflict if the game moved on, so of two clicks at
// once exactly one plays), refuses a move at or after the deadline
// (ErrTimeUp: the mover lost on time, which TimeOut records), checks
// legality and applies the move through package game, updates the deadline, the reminder and the indexes, and
// archives the game if it ended, counting it for the players and the
// variant statistics. UpdateGame does the same for everything else (draw
// offers, message ids), through a callback; it does not know who asked,
// so the caller checks that. Resign and DeclineChallenge take the user and
// refuse one who has no say (ErrNotPlayer); TakeBack needs the ply the
// takeback was agreed at.
//
// Finished games move to the archive, keyed by id, queryable by player,
// guild and id (ArchiveOfPlayer, ArchiveOfGuild, ArchivedGame, GameByID)
// and exportable (EachArchived). Challenges wait with an expiry until
// AcceptChallenge turns one into a game, in the same transaction that
// removes it. Player records hold the Glicko-2 state and game counts per
// guild and globally; Prefs hold each user's settings.
//
// The scheduler asks DueDeadlines, DueReminders, ExpiredChallenges and
// NextDue: each reads an index ordered by time from its start, so its cost
// is the number of entries due, not the number of games.
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
// consistency check and a walk of every record (each decodes under its
// own key, each game's moves replay to its stored position, each index
// entry points at a record), in a child process that runs this same
// program, so that a crash or a hang there only ends the child. A damaged
// file is refused with ErrDamaged, whose text says what was found and how
// to restore a backup. While the store runs, a panic or fault that damage
// causes inside a transaction becomes an ErrDamaged error rather than the
// end of the process, and the store refuses every write after it. Check
// runs the check of Open on a copy of the live file.
//
// # Layout and encoding
//
// Top-level buckets hold records (games by channel, archive by id,
// challenges by id, players by scope NUL user, prefs by user, stats by
// scope NUL) and indexes whose keys are the whole entry: big-endian time
// (sign bit flipped, so byte order is time order) followed by a channel or
// id, or an owner id, NUL, and a channel or id. Ids may not contain NUL.
//
// Records are JSON objects with a "v" field (the record version). JSON
// because records are small and read far more than written, and because
// it stays readable by tools and by later versions: unknown fields are
// ignored and missing ones read as zero, so adding a field needs no
// migration. Moves are encoded compactly as ["e2d3", unixMillis]; a
// game's status is game.Outcome as {"Result": n, "Reason": n}, with
// game's stable numbers. The
// file's schema version is in the meta bucket; Open migrates an older file
// in place, in one transaction, and refuses a newer one (ErrNewerSchema),
// as it refuses a record whose "v" is newer than this program's: read
// without its new fields, it would be written back without them.
//
// # Caveats
//
// bbolt allows one process per file: a second Open fails after the
// timeout, so the backup command needs the bot stopped, and a running bot
// backs itself up with Backup or BackupFile.
//
// The damage check at Open reads the whole file and replays every game:
// a fraction of a second for a few thousand games, about a minute for a
// million. bbolt has no checksums on data pages, so damage that leaves
// every record consistent (a letter changed in a player's name) goes
// unseen; random damage does not. A fault in the commit of a batch of
// writes happens in bbolt's own goroutine, which no guard reaches.
//
// Writes are serialised, and each commit costs an fsync. A write that
// finds no other in progress commits at once; writes that arrive while
// others are in progress share one transaction (bbolt's Batch, waiting at
// most Options.BatchDelay for company), and each still returns only after
// that shared commit. For this the UpdateGame callback may run more than
// once and must only edit the game it is given.
//
// A record is rewritten whole on every change; a game of 300 plies is
// about 8 KB, so a move costs one small write plus the fsync. The archive
// takes about 6 KB per game of 150 plies (records over a page spill into
// overflow pages).
//
// Long walks (EachArchived, Players) hold a read transaction; bbolt cannot
// reuse pages freed meanwhile, so the file may grow during a long export.
//
// Values returned are copies, decoded from the file; changing them
// changes nothing stored.
package store
