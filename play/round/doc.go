// Package round plays an act of a game and everything that follows from
// it, for every front end: the Discord bot, the terminal and selfplay
// play through it, and nothing outside it and package engine chooses the
// engine's moves.
//
// # Basics
//
// Round.Do runs an Act — a move, an offer, its answer, a resignation —
// through package play, and then what the rules of a game's life make of
// it: a conditional reply (play plays it in the same transaction), the
// engine's answer to a draw or takeback offered to it (at once: a search
// of some hundredths of a second), the engine's turn (handed to
// Options.Think, the front end's pool of workers), and who must be told
// what. It returns typed Events — Moved,
// IceAge, Ended, Offered, Declined, TookBack, Dropped, Tell{User, Why},
// EngineThinking{Ahead} — never sentences: each front end says them in
// its own words and languages.
//
// The engine is a player here: its seat is a user of play's (a Discord
// bot plays it as itself), play.Game.Engine keeps its level per colour,
// EngineOptions.Limits its budget and seed (the game's id and ply, so a
// game replays the same), Engine what it does when it has the turn.
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
