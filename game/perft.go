package game

// Perft returns the number of move paths of length depth from p: the leaf
// count used to check move generators against one another. A node where
// the game is over (a king frozen, no legal move, or the half-move clock at
// 100 or more) has no children. The last ply is counted without playing its
// moves ("bulk counting").
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	return perft(p, depth)
}

// perft takes the position by value: a pointer to a child would make the
// compiler move every child to the heap, as it cannot see that the
// recursion keeps no pointer.
func perft(p Position, depth int) uint64 {
	if p.halfmove >= 100 {
		return 0
	}
	if depth == 1 {
		return uint64(p.countLegal())
	}
	var buf [256]Move
	var n uint64
	for _, m := range p.LegalMoves(buf[:0]) {
		n += perft(p.Apply(m), depth-1)
	}
	return n
}

// PerftCount is the leaf count below one root move.
type PerftCount struct {
	Move  Move
	Nodes uint64
}

// PerftDivide returns Perft(p, depth) split by root move, in the order of
// LegalMoves, for comparing generators move by move. It returns nothing
// when depth < 1 or the game is over.
func PerftDivide(p Position, depth int) []PerftCount {
	if depth < 1 || p.halfmove >= 100 {
		return nil
	}
	var out []PerftCount
	for _, m := range p.LegalMoves(nil) {
		q := p.Apply(m)
		out = append(out, PerftCount{Move: m, Nodes: Perft(q, depth-1)})
	}
	return out
}
