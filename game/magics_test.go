package game

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var findMagics = flag.Bool("findmagics", false, "search the magic constants again and print them as Go source")

// Every blocker subset of every square looks up the same attacks as the slow
// ray walk: the fixed magic constants have no harmful collision.
func TestMagicLookupsMatchRayWalks(t *testing.T) {
	for _, c := range []struct {
		name   string
		dirs   *[4][2]int
		lookup func(Square, Bitboard) Bitboard
	}{
		{"rook", &rookDirs, rookAttacks},
		{"bishop", &bishopDirs, bishopAttacks},
	} {
		for s := Square(0); s < 64; s++ {
			mask := relevantMask(s, c.dirs)
			sub := Bitboard(0)
			for {
				// Squares outside the mask must not change the answer.
				occ := sub | ^mask&Bitboard(0x8142_2418_1824_4281*uint64(s+1))
				if got, want := c.lookup(s, occ), slideAttacks(s, occ, c.dirs); got != want {
					t.Fatalf("%s on %s with blockers %#x: table gives %#x, rays give %#x", c.name, s, uint64(occ), uint64(got), uint64(want))
				}
				sub = (sub - mask) & mask
				if sub == 0 {
					break
				}
			}
		}
	}
}

// TestFindMagics re-runs the search that produced magics.go when the flag
// -findmagics is given: go test -run TestFindMagics -findmagics ./game
func TestFindMagics(t *testing.T) {
	if !*findMagics {
		t.Skip("run with -findmagics to search the constants again")
	}
	var out strings.Builder
	rng := xorshift(0x1ce_a9e_c4e55)
	for _, c := range []struct {
		name string
		dirs *[4][2]int
	}{{"rookMagic", &rookDirs}, {"bishopMagic", &bishopDirs}} {
		fmt.Fprintf(&out, "\t%s = [64]uint64{\n", c.name)
		for s := Square(0); s < 64; s++ {
			m := searchMagic(s, c.dirs, &rng)
			fmt.Fprintf(&out, "\t\t%#016x, // %s\n", m, s)
		}
		fmt.Fprintf(&out, "\t}\n")
	}
	t.Log("\n" + out.String())
}

type xorshift uint64

func (x *xorshift) next() uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return uint64(*x) * 0x2545f4914f6cdd1d
}

// searchMagic tries sparse random multipliers until one maps every blocker
// subset of s to an index whose slot holds no different attacks.
func searchMagic(s Square, dirs *[4][2]int, rng *xorshift) uint64 {
	mask := relevantMask(s, dirs)
	n := mask.Count()
	var occs, atts []Bitboard
	sub := Bitboard(0)
	for {
		occs = append(occs, sub)
		atts = append(atts, slideAttacks(s, sub, dirs))
		sub = (sub - mask) & mask
		if sub == 0 {
			break
		}
	}
	used := make([]Bitboard, 1<<n)
	epoch := make([]int, 1<<n)
	for try := 1; ; try++ {
		// The AND of three draws is a sparse number, the kind that makes
		// a good magic; three calls, not one value used thrice.
		a, b, c := rng.next(), rng.next(), rng.next()
		magic := a & b & c
		if Bitboard((uint64(mask)*magic)>>56).Count() < 6 {
			continue
		}
		ok := true
		for i, o := range occs {
			idx := uint64(o) * magic >> (64 - n)
			if epoch[idx] != try {
				epoch[idx], used[idx] = try, atts[i]
			} else if used[idx] != atts[i] {
				ok = false
				break
			}
		}
		if ok {
			return magic
		}
	}
}
