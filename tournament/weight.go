package tournament

import "math/bits"

// weightWords is the width of an edge weight in 64-bit words. The Dutch
// weights are a tuple of criteria packed from the most important bit
// down (see layout in bracket.go). The widest bracket of the generated
// tournaments of up to 200 players over 11 rounds needs 219 bits; the
// setup refuses a layout that would not fit rather than let fields
// overflow into each other, and a bracket too wide for its hint field
// (bracket.go) goes without it first.
const weightWords = 6

// weight is an unsigned integer of weightWords words, least significant
// word first. The matching only adds, subtracts (never below zero),
// halves and compares, so no sign is needed.
type weight [weightWords]uint64

func (a weight) add(b weight) weight {
	var c uint64
	for i := range a {
		a[i], c = bits.Add64(a[i], b[i], c)
	}
	return a
}

func (a weight) sub(b weight) weight {
	var c uint64
	for i := range a {
		a[i], c = bits.Sub64(a[i], b[i], c)
	}
	return a
}

func (a weight) less(b weight) bool {
	for i := weightWords - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func (a weight) isZero() bool {
	for _, w := range a {
		if w != 0 {
			return false
		}
	}
	return true
}

func (a weight) half() weight {
	for i := 0; i < weightWords-1; i++ {
		a[i] = a[i]>>1 | a[i+1]<<63
	}
	a[weightWords-1] >>= 1
	return a
}

func (a weight) double() weight {
	for i := weightWords - 1; i >= 0; i-- {
		a[i] <<= 1
		if i > 0 {
			a[i] |= a[i-1] >> 63
		}
	}
	return a
}

// quadruple is a << 2.
func (a weight) quadruple() weight {
	for i := weightWords - 1; i > 0; i-- {
		a[i] = a[i]<<2 | a[i-1]>>62
	}
	a[0] <<= 2
	return a
}

// addAt adds v << shift; v must fit the field that starts at shift.
func (a weight) addAt(shift uint, v uint64) weight {
	if v == 0 {
		return a
	}
	var b weight
	w, s := shift/64, shift%64
	b[w] = v << s
	if s != 0 && w+1 < weightWords {
		b[w+1] = v >> (64 - s)
	}
	return a.add(b)
}

// above keeps only the bits at and above shift: the criteria that rank
// before a field.
func (a weight) above(shift uint) weight {
	w, s := shift/64, shift%64
	for i := uint(0); i < w && i < weightWords; i++ {
		a[i] = 0
	}
	if w < weightWords {
		a[w] &^= (uint64(1) << s) - 1
	}
	return a
}

func weightOf(v uint64) weight { return weight{v} }
