package engine

import "github.com/iceagechess/iceage/game"

// The transposition table: one entry a slot, indexed by the low bits of
// the Zobrist key and checked with the whole key. An entry is replaced by
// a search of the same or greater depth, or by any search once it is from
// an older Search call (its generation differs), so deep results of the
// current search survive and stale ones make room.

type bound uint8

const (
	boundNone  bound = iota
	boundUpper       // the score is at most this (all moves failed low)
	boundLower       // the score is at least this (a move failed high)
	boundExact
)

// ttEntry is 16 bytes.
type ttEntry struct {
	key   uint64
	move  game.Move
	score int16
	depth int8
	bound bound
	gen   uint8
	_     [3]byte
}

type table struct {
	entries []ttEntry
	mask    uint64
	gen     uint8
}

// newTable returns a table of at most bytes bytes (a power of two of
// entries, at least 1024).
func newTable(bytes int) table {
	n := 1024
	for n*2*16 <= bytes {
		n *= 2
	}
	return table{entries: make([]ttEntry, n), mask: uint64(n - 1)}
}

func (t *table) clear() {
	clear(t.entries)
	t.gen = 0
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != boundNone
}

func (t *table) store(key uint64, m game.Move, score, depth int, b bound) {
	e := &t.entries[key&t.mask]
	if e.key == key && e.gen == t.gen && int(e.depth) > depth && b != boundExact {
		return
	}
	if e.key != key && e.gen == t.gen && int(e.depth) > depth+2 {
		return
	}
	if m == game.NullMove && e.key == key {
		m = e.move // keep a known good move
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), bound: b, gen: t.gen}
}

// toTT and fromTT turn a mate score between "plies from the root" and
// "plies from this node", so that a mate found in one part of the tree
// reads right where the position recurs at another distance from the
// root.
func toTT(score, ply int) int {
	switch {
	case score >= mateBound:
		return score + ply
	case score <= -mateBound:
		return score - ply
	}
	return score
}

func fromTT(score, ply int) int {
	switch {
	case score >= mateBound:
		return score - ply
	case score <= -mateBound:
		return score + ply
	}
	return score
}
