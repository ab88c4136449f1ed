package tournament

// colorOf is the colour that the player at position a gets against the
// player at position b (C.04.3 5.2).
func (d *dutch) colorOf(a, b int) Color {
	if a > b {
		return d.colorOf(b, a).opposite()
	}
	pa, pb := &d.ps[a], &d.ps[b]
	switch {
	case pa.pref == NoColor && pb.pref == NoColor:
		// 5.2.5: the higher-ranked player, by the parity of the pairing
		// number.
		if pa.rank%2 == 0 {
			return d.initial
		}
		return d.initial.opposite()
	case pa.pref == NoColor:
		return pb.pref.opposite()
	case pb.pref == NoColor || pa.pref != pb.pref:
		return pa.pref // 5.2.1: both are granted
	}
	// The same preference: 5.2.2 the stronger one, and of two absolute
	// ones the wider colour difference.
	if pa.strength != pb.strength {
		if pa.strength > pb.strength {
			return pa.pref
		}
		return pa.pref.opposite()
	}
	if pa.strength == prefAbsolute && abs(pa.cd) != abs(pb.cd) {
		if abs(pa.cd) > abs(pb.cd) {
			return pa.pref
		}
		return pa.pref.opposite()
	}
	// 5.2.3: alternate from the latest round in which they had different
	// colours, unplayed rounds left out (C.04.2 3.4).
	for i := 1; i <= len(pa.hist) && i <= len(pb.hist); i++ {
		ca, cb := pa.hist[len(pa.hist)-i], pb.hist[len(pb.hist)-i]
		if ca != cb {
			return ca.opposite()
		}
	}
	// 5.2.4: the higher-ranked player's preference.
	return pa.pref
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// colorRewards scores a pair for the colour criteria C10 … C13, each the
// number of the two players who do not suffer it.
func (d *dutch) colorRewards(a, b int) [4]uint64 {
	ca := d.colorOf(a, b)
	pa, pb := &d.ps[a], &d.ps[b]
	topInvolved := pa.top || pb.top
	var r [4]uint64
	for _, x := range []struct {
		p *dplayer
		c Color
	}{{pa, ca}, {pb, ca.opposite()}} {
		p, c := x.p, x.c
		cd := p.cd + 1
		if c == Black {
			cd = p.cd - 1
		}
		three := len(p.hist) >= 2 && p.hist[len(p.hist)-1] == c && p.hist[len(p.hist)-2] == c
		r[0] += b2u(!(topInvolved && abs(cd) > 2))
		r[1] += b2u(!(topInvolved && three))
		r[2] += b2u(p.pref == NoColor || p.pref == c)
		r[3] += b2u(!(p.strength == prefStrong && p.pref != c))
	}
	return r
}
