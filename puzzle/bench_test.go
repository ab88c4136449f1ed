package puzzle

import "testing"

// BenchmarkProveMateInTwo re-runs the proof of the shipped set's first
// proven puzzle of two moves: every first move against every defence.
func BenchmarkProveMateInTwo(b *testing.B) {
	for _, pz := range Set() {
		if pz.Proven && pz.SolverMoves() == 2 {
			b.ReportAllocs()
			for b.Loop() {
				if err := pz.Prove(); err != nil {
					b.Fatal(err)
				}
			}
			return
		}
	}
	b.Skip("no proven puzzle of two moves")
}

// BenchmarkRight judges a solver's move, as each click of /puzzle does.
func BenchmarkRight(b *testing.B) {
	pz := Set()[0]
	pos, _, _ := pz.At(0)
	line, _ := pz.Line()
	b.ReportAllocs()
	for b.Loop() {
		pz.Right(&pos, 0, line[0])
	}
}
