//go:build !race

package fakediscord

// Slowdown is how many times longer than in production the code under
// test may take: 1, and 4 under the race detector (slowdown_race.go).
const Slowdown = 1
