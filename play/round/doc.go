// Package round plays an act of a game and everything that follows from
// it, for every front end: the Discord bot, the terminal and selfplay
// play through it, and nothing outside it and package engine chooses the
// engine's moves.
//
// # Basics
//
// The round is the only door to a game: the bot, the scheduler and the
// tournament runner act on games through it alone (TestTheRoundIsTheOnlyDoor
// checks that they use none of play.Service's act methods). Its doors:
// Do for a player's act (a move, an offer, its answer, a claim after a
// timeout, a resignation, an abort, conditional moves), Start and
// StartWith for a new game (a game against the engine, a tournament's
// board), Accept for a challenge accepted, Ask for a challenge made —
// which accepts instead the opponent's own challenge waiting on the same
// terms, so that two players pressing Rematch start one game — TimeOut
// for a deadline passed (the scheduler's), Rehome for a game moved to
// another channel. Each writes what follows from it in its own
// transaction.
//
// Round.Do runs an Act through package play, and then what the rules of
// a game's life make of it: a conditional reply (play plays it in the same transaction), the
// engine's answer to a draw or takeback offered to it (at once: a search
// of some hundredths of a second), the engine's turn (handed to
// Options.Think, the front end's pool of workers), and who must be told
// what. It returns typed Events — Moved, IceAge, Ended, Offered,
// Declined, TookBack, Dropped, TimedOut, Rehomed, Tell{User, Why, How,
// Lang}, EngineThinking{Ahead} — never sentences: each front end says
// them in its own words and languages.
//
// The engine is a player here: its seat is a user of play's (a Discord
// bot plays it as itself), play.Game.Engine keeps its level per colour,
// EngineOptions.Limits its budget and seed (the game's id and ply, so a
// game replays the same), Engine what it does when it has the turn.
//
// # Who is told, and how
//
// Each Tell event carries the act's decision (Decide): a mention where
// the game is played, a direct message, or nothing, and the player's
// language, from their settings read once in the act's transaction. A
// front end does what it says, falling back to a mention when a direct
// message is refused; it never reads the settings to decide again. What
// is no act on a game decides the same way, from the settings read in
// the transaction of the change it announces: a reminder (Remind), an
// expired private challenge (Expire), a vacation (Vacation), a
// tournament's bye (TellOf, in the pairing's transaction). The
// board's theme (Delivery.Theme) is read there too, and a Moved or
// IceAge event carries the position and what froze, so that drawing the
// board replays nothing.
//
// # The outbox
//
// Whatever an act leaves to do is written in the act's own transaction,
// as items of play's outbox (play.OutboxItem, play.Outbox), each under an
// idempotency key made of the game, its revision and the item's kind:
//
//   - KindBoard: the board after the act, with its events (Delivery).
//     When the front end shows it itself (Act.Answers, an interaction's
//     answer), the item waits Options.Hold; Shown marks it delivered,
//     NotShown hands it to the outbox at once, and if the process dies
//     in between the hold ends and any process delivers it.
//   - KindTell: the same Delivery, for the Tell events — what a front end
//     says to players apart from the board, by direct message say.
//   - KindEngine: the engine has the turn, or an offer to answer. A game
//     with the engine to move is pending work in storage: the delivery
//     loop of any process claims the item and hands it to its pool, which
//     runs EngineTurn; it survives any crash, and needs no search of the
//     games at start.
//
// A delivery loop (each front end has its own; the bot's posts to
// Discord) claims due items (play.Outbox.ClaimOutbox, with a lease, so
// that of many processes exactly one holds an item), delivers them,
// marks them done, and retries a failure after play.OutboxBackoff.
//
// # Caveats
//
// Delivery is at least once: a process that dies after delivering and
// before marking done delivers again when the lease ends. A delivery that
// does something outside makes itself idempotent with the item's key
// (the bot sends it as Discord's message nonce, enforced). The board
// item's events and game are those of the act: a later act does not
// change them, so a board delivered late shows the game as it was, and
// the front end says so if it likes by comparing revisions.
//
// EngineThinking is not in the outbox: it is about the asker's act and
// only Do returns it. The engine's turn taken by Options.Think is also in
// the outbox; a pool that drops it (the process stops) loses nothing.
package round
