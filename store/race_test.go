//go:build race

package store

// raceEnabled is true under the race detector, which slows JSON and bbolt
// tenfold: the long tests do less there.
const raceEnabled = true
