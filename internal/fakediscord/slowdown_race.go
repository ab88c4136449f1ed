//go:build race

package fakediscord

// Slowdown is how many times longer than in production the code under
// test may take to do the same work: under the race detector Go code runs
// several times slower (the engine's search about nine times, measured on
// two busy cores), so the fake's response window and the waits of tests
// scale by it; the product's own limits do not. Without the race detector
// it is 1.
const Slowdown = 4
