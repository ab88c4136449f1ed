// Package puzzle is Ice Age Chess's puzzles: the set that ships with the
// program (Set, embedded from set.jsonl), the generator that finds them
// in engine self-play and in finished games, and the exhaustive proofs
// of the short ones.
//
// # Basics
//
// A Puzzle is a position (FEN, the solver to move, '*' for ice), a line
// in UCI (the solver's move, the reply, …, ending on the solver's move),
// a Goal (Mate, Freeze, or Advantage for the engine-judged ones), themes
// and a first rating. Check replays a puzzle and checks its goal; Prove
// re-runs the proof of a proven one; Right judges a solver's move at a
// step (the line's move or, for a mate or a freeze, any move that
// reaches it at once); Exercise makes it an exercise (package exercise)
// whose replies the line scripts. Pick chooses one near a rating, Daily
// the puzzle of a day.
//
// A freeze is won when the opponent's king freezes: at once, by the Ice
// Age of the solver's own move (Black's 20th, 40th, …), or by the Ice Age
// of the opponent's next move, whatever that move is (docs/rules.md §4).
// Forces, WinsWithin and Winners decide "forces a win within n moves"
// by searching every move and every defence, nothing pruned; a puzzle
// whose goal is a mate or a freeze within MaxProvenMoves is kept only
// when exactly one first move forces it and no shorter win exists.
//
// The generator (Scanner, Source, ScanAll) follows the ideas of
// Lichess's puzzle generator, read, not copied: a position where the
// opponent's move made the winning chances jump (WinChances); an only
// move, the best beating the second best (Engine.SearchExcept) by a wide
// margin on a deeper search; the line extended while the solver's next
// move is again the only one; no one-move puzzle that only takes a man
// left hanging. The variant's own themes come from the Ice Age: around
// each Ice Age of a self-play game, other lines are played to it
// (Branches) and the positions one move off the path are searched. Each
// source depends on its seed and the Options alone, so `iceage puzzles
// generate` scans sources in parallel (-workers), keeps each game's
// puzzles in a checkpoint file as it finishes and resumes where it was;
// Collect keeps the first puzzle of each idea, and Calibrate spreads the
// generator's guesses of difficulty over CalibratedMin–CalibratedMax.
//
// # Caveats
//
// A first rating is a guess (rate.go); players' tries move a puzzle's
// rating afterwards, Glicko-2, in package play. Engine-judged puzzles are
// as good as the engine's search at the generator's budgets: the tests
// check that each line keeps the advantage on a fresh search. The shipped
// set is the output of one run (`iceage puzzles generate -seed 1 -games
// N`); a change to the generator changes the set, and the golden test of
// a small run says so.
package puzzle
