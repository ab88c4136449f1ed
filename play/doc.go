// Package play is the life of an Ice Age Chess game between people: who
// may do what, and when. Challenges, moves, draw offers, takebacks, abort,
// resignation and timeouts are decided here, once, for every front end —
// the Discord bot, the terminal and the scheduler drive the same Service.
//
// # Basics
//
// A Service works on a Storage that this package defines (Update and View
// transactions over a few records: Game, Challenge, Player, LogEntry,
// Stats, Prefs). package store implements it on bbolt and package
// memstore in memory; playtest has the behavioural suite every
// implementation must pass. The kinds of record are listed once
// (RecordKinds): each storage's Export gives every kind, Copy writes
// them into another storage and checks it holds the same, and the suite
// fails when a record written through a transaction is missing from an
// export.
//
// Players are opaque string ids and time is passed in: the package does
// no I/O of its own and reads no clock. Every act on a game names who asks
// (Act.By), the game by its id (never only its channel) and the revision
// the asker saw (Act.Revision). Every change to a game — a move, an offer,
// its withdrawal, a takeback, the end — bumps Game.Revision, and an act
// made at another revision is refused as stale and changes nothing, so a
// stale button from an old message can never act on a newer game, and of
// two clicks at once exactly one is applied.
//
// Acts return a Result that a front end renders without replaying the
// game: the game after the act, what happened (Event) and, for a move,
// its SAN, the positions before and after and the Ice Age it brought.
// Refusals are *Refusal errors with a stable Kind and the data a message
// needs; illegal moves come back as a *Refusal wrapping game's
// *game.MoveError or *game.SyntaxError, with suggestions.
//
// Bookkeeping that no player does on the game — a reminder claimed, a
// vacation moving a deadline, conditional moves queued — is written
// without bumping the revision, so it never makes a button stale.
//
// However a game ends, its end is processed exactly once, in the
// transaction that ends it: the game is archived by the storage, the
// players' tallies and the variant statistics are counted, a rated game
// changes both players' Glicko-2 ratings (package rating) globally and in
// its guild, the game is added to both players' logs, and the
// Options.OnEnd hooks run on the same transaction. A retried transaction
// starts again from what is stored and an ended game cannot end again, so
// no game is rated twice.
//
// # Ratings and statistics
//
// Ratings are Glicko-2 as package rating computes them, kept per scope: a
// guild id, and "" for everywhere. They are part of a game's end, not an
// OnEnd hook, so that every front end rates the same way without wiring
// anything: a rated game that ends with a result (not aborted) is rated as
// one rating period, each player's deviation first grown by the time since
// their last rated game (Rating.At). The game keeps the ratings it was
// rated from and to (Game.Ratings), for PGN's WhiteElo and BlackElo.
//
// Every finished game but an aborted one also goes into both players' logs
// (LogEntry, one per scope, user and game): their opponent, result, first
// move and rating after the game. PlayerStats reads a player's record and
// walks their log once; it never reads games. Leaderboard walks the
// standings of a scope, which the storage keeps in rating order
// (ReadTx.Standings), and builds only the page asked for; a player with
// no rated game for InactiveAfter (90 days) is off the board until their
// next one. VariantStats reads the
// counts kept at each end, History the archive, and Game.PGN exports a
// game with its ratings, time control and Ice Age comments.
//
// # Correspondence
//
// A game with days per move has a Deadline, restarted by every move;
// the storage indexes it, and the reminders' RemindAt, for a scheduler
// (package schedule) that calls TimeOut and Remind when they fall due and
// Expire for challenges. Each player chooses their reminders (Prefs;
// Options.Reminders by default): Remind claims one in a transaction
// before it is sent, and Game.Reminded keeps what was claimed, so none
// is sent twice. A server may let the opponent of a player out of time
// choose between the win and a draw (Options.OpponentChooses, or the
// server's own ServerSettings: Game.Flag, ClaimWin, ClaimDraw). A
// server's settings (SetServerSettings) also hold its language, default
// time control, threads and games channel, for the front end to follow. Vacation pauses a player's clocks in all their
// games, within a yearly allowance. Premove queues conditional moves,
// which Move plays in the same transaction as the move they answer.
//
// # Live games
//
// A game with a live time control (TimeControl: minutes each and
// seconds added a move, 1+0 to 180+180) keeps its clocks (Game.Clock):
// each side's time as its turn began, when the turn began, and each
// player's lag compensation (Lag, as Lichess gives it). A move is charged
// from the act that gave the turn to its own act's time, less its lag
// (Act.Sent), and earns the increment. Its Deadline is when the flag of
// the side to move falls, with the grace of that player's lag: the same
// index and the same TimeOut as correspondence, so that a move and a
// flag are decided once, in their transactions. A flag loses unless the
// opponent could not win (game.Position.CouldWin); a game whose first
// move does not come within FirstMoveTime is aborted. Each speed
// (Speed) has its own ratings, kept in a scope of their own
// (RatingScope); the scope's own ratings are the correspondence ones.
//
// # The outbox
//
// What an act leaves to do outside — post a board, tell a player, let
// the engine move — is written in the act's own transaction as an
// OutboxItem (Tx.PutOutbox), under an idempotency key, so that nothing
// acknowledged is forgotten when a process dies or Discord refuses an
// answer. Service.Then is how a caller (package round) writes them: it
// runs a function in the transaction of every act, after the act. A
// storage hands the items out to delivery loops (Outbox): ClaimOutbox
// holds items for a lease, so that of many processes one delivers each,
// and an item whose claimer died is due again when its lease ends;
// DoneOutbox marks items delivered, RetryOutbox tries again later
// (OutboxBackoff). Delivery is at least once; deliveries make
// themselves idempotent with the key. playtest's suite checks the
// outbox of every storage.
//
// # Caveats
//
// Storage.Update may run its function more than once (a storage may
// batch transactions and retry them), so everything an act decides is a
// pure function of what it reads in the transaction. A refusal is decided
// before anything is written.
package play
