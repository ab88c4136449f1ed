// Package engine is the computer opponent of Ice Age Chess: a search over
// package game's moves with an evaluation that understands ice and the
// Ice Age. It has no I/O and no Discord; the bot and the selfplay command
// drive it.
//
// # Basics
//
// New makes an Engine; Search finds the best move in a position within
// Limits (a depth, a node budget, a time budget) and returns it with its
// score, depth, node count and principal variation. Level(n) gives the
// limits of the eight playing levels, from 1, a beginner who blunders on
// purpose, to 8, full strength within DefaultMoveTime; Choose is the
// one-call form, safe for concurrent use. Analyze scores every position of
// a game and lists the moves that lost most (for /analyze).
//
// The search is iterative deepening over negamax alpha-beta with
// principal variation search and aspiration windows, a transposition
// table keyed by Zobrist numbers that include ice and the Ice Age phase,
// quiescence over captures (men first; ice only where taking it checks or
// saves a man from freezing), move ordering by the table's move, MVV-LVA,
// killers and history, late-move reductions, check extensions and mate
// scores (Mate, MateIn). A frozen king is a won or lost game like a mate.
// The Ice Age is seen exactly inside the horizon, since game.Apply plays
// it as part of Black's 20th (40th, …) move, and at the horizon Black's
// Ice-Age move is always searched, never guessed. The evaluation (eval.go)
// counts material (ice is worth nothing), mobility through ice, king
// safety with ice as a shield, and above all the coming Ice Age: men that
// would freeze now, kings first, weighted by the plies left, and sheltered
// squares beside the king.
//
// # Levels
//
// Levels 1–4 search one or two plies and choose at random (with the
// Limits' Seed) among the moves within a margin of the best, from 400
// centipawns at level 1 to 25 at level 4; level 5 has a node budget and a
// margin of 10; levels 6–8 always play their best move within budgets
// that grow about fourfold a level, up to DefaultMoveTime. The ladder test
// plays every level against the one below on small node budgets, in the
// same order; engine/testdata/ladder.md has its results.
//
// # Speed
//
// About 2.5 million nodes a second on one core of the development machine
// in a middlegame, 4 million from the ice start (go test -bench .
// ./engine): depth 6 from the ice start in about 3 ms, from a middlegame
// with ice in about 20 ms; the static evaluation takes about 0.1 µs.
// Level 8's two seconds reach depth 12 from the start and about 8 in a
// middlegame. The table is 16 MiB by default (Options.TableBytes).
//
// # Caveats
//
// An Engine keeps its table, killers and history between searches and is
// not safe for concurrent use: give each goroutine its own Engine (they
// share nothing), or call Choose. Searches limited by depth or nodes are
// deterministic: the same calls on an Engine in the same state give the
// same results on any machine (Zobrist keys come from a fixed seed;
// randomness only from Limits.Seed). A time budget is not: the engine
// reads the clock (Options.Now) only when Limits.Time is set, and then
// stops at the deadline with the best move of the iterations completed.
// Every search also stops at MaxNodes. The fifty-move clock is not part
// of the table's key, and there is no draw by repetition in this variant
// (docs/rules.md §5), so the search does not look for repetitions.
package engine
