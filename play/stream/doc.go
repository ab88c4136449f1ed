// Package stream streams each game's events to whoever watches it: the
// live web board, a Discord Activity, spectators.
//
// # Basics
//
// A Hub is fed by the storage's commits (play.Feed), not by the acts:
// whatever commits a game — a player's act through any front end, the
// engine's answer, the scheduler's timeout, a tournament's start, and on
// PostgreSQL any process on the database — reaches its watchers, and a
// transaction rolled back never does. The program makes one Hub per
// process, on its storage.
//
// Subscribe watches a game after a revision: the watcher gets the
// revisions it missed, then each as it is committed, in order, each
// once, as an Event — a versioned event like lichess's round's: the
// game's revision, what happened (Kind: a move, an offer, a takeback,
// the end…), who did it, the moves with their SAN and what their Ice
// Age froze, and the whole game after it (position with ice, every
// move's SAN, outcome, offers, deadline, the Ice Age to come), so that a
// page shows it without a replay. A watcher that starts passes 0 and
// gets a Sync, the whole game (Started, at its first revision).
//
// # Design
//
// The storage tells the hub, on the committing goroutine, which games
// each commit wrote, with their stored records: bbolt and memstore in
// the process, PostgreSQL by a NOTIFY sent with the commit to every
// process's listener (the record travels in the notification when it
// fits its 8000 bytes, so that a listener need not read). The hub only
// queues the writes of the games it follows: an act never waits for a
// watcher.
//
// Each followed game has one goroutine, while it has something to do,
// that makes each revision an Event once, from the record and the
// previous one (replaying only the new moves), keeps its events since
// the hub began following it (up to Options.Keep, more than most games
// have; those before, as far as the game's record tells them, are made
// once a watcher asks for them) so that a watcher who resumes is sent
// each revision it missed, and hands each event to every
// watcher by a send that never blocks: a watcher is a buffered channel
// and nothing else, so 10,000 of them cost a few megabytes and no
// goroutine of the hub's (about 300 bytes each; a game followed, a few
// hundred bytes an event kept). A watcher
// whose buffer is full is dropped (ErrTooSlow) and resumes from the last
// revision it received. A game nobody watches is followed for
// Options.Linger more, so that a watcher who reconnects resumes from its
// events; then it is forgotten.
//
// # Resuming
//
// A watcher who resumes is sent each revision it missed from the events
// the hub keeps; from before them (after a restart, on another process
// behind a load balancer, after the game went unwatched for
// Options.Linger), from the game's record, which keeps the revision of
// each move (play.Move.Rev): going back from the game's revision, its
// last is told whatever act made it but a decline, a withdrawal or a
// takeback, and each before it as long as it made a move (or a move and
// the conditional move that answered it). The record keeps no trace of
// the other acts — a draw or a takeback offered, declined or withdrawn,
// the moves a takeback took back, a flag whose choice was made — nor of
// the moves of a record of version 5 and before: a watcher from before
// the last of those gets a Sync of the game as it is instead, as does
// one further behind than Options.Keep, and one that starts (0). An
// event told from the record for a revision before the last carries no
// clocks and no deadline, which the record keeps only as they are now;
// its offers and flag are none, since every move clears them.
//
// # Caveats
//
// Every watcher gets a Sync when the feed lost writes (PostgreSQL's
// listening connection broke) and more than one revision passed
// meanwhile, and when a game's record was too large for a notification
// and the game moved on before it was read.
//
// Two commits of one process may be told crosswise: the hub puts them
// back in order by revision, and reads the game again when a revision
// stays missing for Options.GapWait. A write that changes no revision
// makes a notice when it moved the game to another channel (Rehomed) or
// reminded the player to move (Reminded), sent to the watchers of the
// moment — on PostgreSQL, every process's, as every write of a game is
// notified to all (a record too large to travel with its notification
// is read) — and not kept for those who resume: the record keeps the
// channel and the reminders as they are now, not when they came (a
// notice told by a process whose commit raced a new revision's may be
// lost, and one that came while the game went unwatched, or the
// listening connection was broken, is not told); other such writes —
// conditional moves queued, which are private, a vacation — make none. A
// conditional reply that took effect is the second move of its act's
// Moved event, marked Reply.
package stream
