package game

// CouldWin reports whether c could still win from p by some series of
// legal moves, with the opponent's help (FIDE Article 6.9, read for the
// Ice Age: docs/rules.md §5). It errs on the side of yes: it answers no
// only when a win is impossible, so that a flag never becomes a draw
// that should have lost.
//
// A side with a man besides its king can keep its king beside that man
// while the enemy king stands alone when an Ice Age comes: the enemy
// king freezes alone, and c wins. A lone king can still win in the same
// way beside an enemy man. Only a lone king against a lone king can
// never win: it never gives check, and kings are never neighbours, so
// at the next Ice Age both kings freeze together (a draw). A side whose
// king has frozen has lost already.
func (p *Position) CouldWin(c Color) bool {
	if p.kinds[King]&p.men[c] == 0 {
		return false
	}
	mine := p.men[c] &^ p.kinds[King]
	theirs := p.men[c.Other()] &^ p.kinds[King]
	return mine != 0 || theirs != 0
}
