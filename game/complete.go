package game

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// Complete returns the legal moves of p that the text typed so far may
// become, with their SAN, best first: what a front end offers as a
// player types a move (Discord's autocomplete, the terminal's Tab).
//
// Every notation ParseMove reads is taken as a prefix: SAN as written
// ("Nxf6", "O-O"); SAN however it is cased, with "x", "+", "#", "=",
// "-", spaces and annotations left out and 0 for O ("nf6", "0-0", "o-o",
// "e8q"); UCI ("e2e4", "e7e8q", "e1g1" for O-O); long algebraic and a
// man's letter with its file, rank or square ("e2-e4", "Ng1-f3", "Ngf3",
// "N1f3", "Pe4"); figurines ("♘f3"). The moves whose SAN begins as typed
// come first, then those that match however written, then those matched
// in another notation. Within each, a move that the text spells whole
// comes first, then checks, then captures of men (ice is no man), then
// the rest, each group by SAN. Empty text gives every legal move. Every
// move returned is legal in p, its SAN reads back as it (ParseMove), and
// a text that ParseMove reads as a move offers that move.
func Complete(p *Position, typed string) []MoveSAN {
	typed = strings.TrimSpace(typed)
	norm := looseForm(nil, typed)
	if typed != "" && len(norm) == 0 {
		return nil // only signs: "x", "+", "-"
	}
	pawnLetter := strings.HasPrefix(typed, "P")
	type ranked struct {
		MoveSAN
		tier, whole, order int
	}
	var out []ranked
	var buf [32]byte
	for _, m := range p.SANs() {
		r := ranked{MoveSAN: m, tier: -1, whole: 1}
		san := looseForm(buf[:0], m.SAN)
		switch {
		case strings.HasPrefix(m.SAN, typed):
			r.tier = 0
		case bytes.HasPrefix(san, norm):
			r.tier = 1
		}
		if r.tier >= 0 {
			if len(norm) > 0 && bytes.Equal(san, norm) {
				r.whole = 0
			}
		} else if prefix, whole := otherForms(p, m.Move, pawnLetter, norm); prefix {
			r.tier = 2
			if whole {
				r.whole = 0
			}
		} else {
			continue
		}
		switch {
		case strings.ContainsAny(m.SAN, "+#"):
			r.order = 0
		case p.capturesMan(m.Move):
			r.order = 1
		default:
			r.order = 2
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.whole, b.whole), cmp.Compare(a.order, b.order), strings.Compare(a.SAN, b.SAN))
	})
	moves := make([]MoveSAN, len(out))
	for i, r := range out {
		moves[i] = r.MoveSAN
	}
	return moves
}

// otherForms reports whether norm begins one of the ways other than SAN
// that ParseMove reads m, in looseForm, and whether it spells one whole:
// UCI, and the man's letter with the target square, after its file, its
// rank or its square. A pawn's come without a letter, and with "p" when
// pawnLetter (the text began with a capital P: a lower-case p is no
// letter to ParseMove).
func otherForms(p *Position, m Move, pawnLetter bool, norm []byte) (prefix, whole bool) {
	from, to := m.From(), m.To()
	// letter, from file, from rank, to file, to rank, promotion
	b := [6]byte{0, 'a' + byte(from.File()), '1' + byte(from.Rank()), 'a' + byte(to.File()), '1' + byte(to.Rank())}
	n := 5
	if k := m.Promotion(); k != NoKind {
		b[5], n = k.Letter()+'a'-'A', 6
	}
	k := p.board[from].Kind()
	b[0] = k.Letter() + 'a' - 'A'
	target, file, rank := b[3:n], b[1:2], b[2:3]
	try := func(parts ...[]byte) bool {
		pre, w := spells(norm, parts...)
		prefix, whole = prefix || pre, whole || w
		return whole
	}
	if try(b[1:n]) { // UCI
		return
	}
	if k == Pawn {
		if try(file, target) || try(rank, target) || !pawnLetter {
			return
		}
	}
	letter := b[:1]
	_ = try(letter, target) || try(letter, file, target) || try(letter, rank, target) || try(b[:n])
	return
}

// spells reports whether norm begins the concatenation of parts, and
// whether it is all of it.
func spells(norm []byte, parts ...[]byte) (prefix, whole bool) {
	for i, part := range parts {
		if len(norm) <= len(part) {
			if !bytes.HasPrefix(part, norm) {
				return false, false
			}
			whole = len(norm) == len(part)
			for _, rest := range parts[i+1:] {
				whole = whole && len(rest) == 0
			}
			return true, whole
		}
		if !bytes.Equal(norm[:len(part)], part) {
			return false, false
		}
		norm = norm[len(part):]
	}
	return false, false // longer than the form
}

// looseForm appends to dst a move as typed or written reduced to what
// matters for matching: lower case, figurines as letters, without the
// signs of capture, check, promotion, annotation, en passant and long
// algebraic, and with o for 0 (castling as 0-0).
func looseForm(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			s = figurines.Replace(s)
			break
		}
	}
	start := len(dst)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		switch c {
		case 'x', '+', '#', '=', '-', '!', '?', ' ', '\t', ':', '(', ')', '/':
		case '0':
			dst = append(dst, 'o')
		default:
			dst = append(dst, c)
		}
	}
	out := dst[start:]
	if bytes.HasSuffix(out, []byte("e.p.")) {
		dst = dst[:len(dst)-4] // "exd6 e.p."
	} else if n := len(out); n > 2 && out[n-2] == 'e' && out[n-1] == 'p' && isRank(out[n-3]) {
		dst = dst[:len(dst)-2] // "exd6ep"
	}
	return dst
}

// capturesMan reports whether m takes a man (not ice), en passant
// included.
func (p *Position) capturesMan(m Move) bool {
	if p.board[m.To()] != NoPiece { // the mailbox holds no ice
		return true
	}
	x := p.board[m.From()]
	return x.Kind() == Pawn && m.To() == p.EnPassant() && m.To().File() != m.From().File()
}
