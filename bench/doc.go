// Package bench measures, in one run, perft on the Chess Programming Wiki
// positions for this project's rules engine, for
// github.com/corentings/chess/v2 (the maintained fork of notnil/chess) and,
// when it is installed, for Stockfish through its UCI "go perft" command.
//
// It is a module of its own so that the main module does not depend on the
// other engines. Run it from this folder:
//
//	go test -run '^$' -bench . -count 5 | tee new.txt
//	benchstat -col /engine new.txt
//
// Two modes are measured: "bulk" counts the last ply's moves without
// playing them, "full" plays every move down to the leaves. Stockfish only
// counts in bulk. Every run checks its count against the published one.
//
// baseline.txt holds such a run on the project's 2-core development
// machine, which other jobs shared at the time; compare a new run with it:
//
//	benchstat baseline.txt new.txt
package bench
