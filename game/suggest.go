package game

import "sort"

// Suggest returns up to limit legal moves of p close to what was typed, best
// first, so that a front end can answer "did you mean …". A move is close
// when it is made by the man the text names (kind, and file or rank or
// square if given) or goes to the square the text names; moves that do
// both come first. Text that does not parse still counts by the squares
// and the piece letter in it. Suggest is meant for the failure path: it
// generates the legal moves and gives nil when nothing is close or limit
// is below 1.
func Suggest(p *Position, text string, limit int) []Move {
	spec, err := parseSpec(text)
	named := true // whether the text names a man
	if err != nil {
		spec = looseSpec(text)
		named = spec.piece != NoKind || spec.fromFile >= 0
	}
	var buf [maxMoves]Move
	legal := p.LegalMoves(buf[:0])
	type scored struct {
		m     Move
		score int
	}
	var out []scored
	for _, m := range legal {
		score := 0
		from, to := m.From(), m.To()
		x := p.board[from]
		if spec.castle != 0 {
			if x.Kind() == King {
				score = 3
			}
		} else {
			kindOK := spec.piece == NoKind || x.Kind() == spec.piece || spec.orPawn && x.Kind() == Bishop
			if spec.piece == Pawn && spec.fromFile < 0 && spec.to.Valid() {
				// "d5" for a pawn names no file: the pawns next to the
				// target's file are meant as much as the one on it.
				kindOK = kindOK && absi(from.File()-spec.to.File()) <= 1
			}
			fileOK := spec.fromFile < 0 || from.File() == spec.fromFile || spec.orPawn && x.Kind() == Bishop
			rankOK := spec.fromRank < 0 || from.Rank() == spec.fromRank
			if named && kindOK && fileOK && rankOK {
				score += 3
			}
			if to == spec.to {
				score += 4
				if m.Promotion() == spec.promo || m.Promotion() == Queen {
					score++
				}
			}
		}
		if score >= 3 {
			out = append(out, scored{m, score})
		}
	}
	// Ties go to the move landing nearest the square the text named.
	near := func(m Move) int {
		if !spec.to.Valid() {
			return 0
		}
		return max(absi(m.To().File()-spec.to.File()), absi(m.To().Rank()-spec.to.Rank()))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return near(out[i].m) < near(out[j].m)
	})
	if len(out) > limit {
		out = out[:max(limit, 0)] // a limit below zero asks for nothing, as zero does
	}
	var moves []Move
	for _, s := range out {
		moves = append(moves, s.m)
	}
	return moves
}

// looseSpec reads what it can from text that is not a move: a piece letter
// at the start and the squares in it, the last being the target.
func looseSpec(text string) moveSpec {
	spec := moveSpec{piece: NoKind, fromFile: -1, fromRank: -1, to: NoSquare}
	if len(text) > 0 {
		if k := letterKind(text[0]); k != Pawn {
			spec.piece = k
		}
	}
	var squares []Square
	for i := 0; i+1 < len(text); i++ {
		if isFile(text[i]) && isRank(text[i+1]) {
			squares = append(squares, SquareAt(int(text[i]-'a'), int(text[i+1]-'1')))
		}
	}
	switch n := len(squares); {
	case n == 1:
		spec.to = squares[0]
	case n >= 2:
		spec.to = squares[n-1]
		spec.fromFile, spec.fromRank = squares[0].File(), squares[0].Rank()
	}
	return spec
}
