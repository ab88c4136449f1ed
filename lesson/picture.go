package lesson

import (
	"io"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/render"
)

// Picture draws a step's position pos (its start, or where the solver
// got to) from the solver's side, with the squares its goal is about
// marked in green. With a man chosen (from is not NoSquare), its square
// and every square its move reaches are marked in blue, those the rules
// bar included: which is which is for the player to find (squares, not
// arrows, which pile up along a queen's lines). A refused try (not nil)
// is drawn in red: its arrow, and what barred it (the blocker, the
// attackers).
// opt gives the theme, size and header words.
func (st *Step) Picture(w io.Writer, pos *game.Position, from game.Square, refused *game.MoveError, opt render.Options) error {
	if start, err := game.ParseFEN(st.Exercise.FEN); err == nil && start.Turn() == game.Black {
		opt.Orientation = render.BlackBottom
	}
	for _, s := range st.Marks {
		opt.Highlights = append(opt.Highlights, render.Highlight{Square: s, Mark: render.Hint})
	}
	if from != game.NoSquare {
		opt.Highlights = append(opt.Highlights, render.Highlight{Square: from, Mark: render.Info})
		for _, t := range exercise.Targets(pos, from) {
			opt.Highlights = append(opt.Highlights, render.Highlight{Square: t.Move.To(), Mark: render.Info})
		}
	}
	if refused != nil && refused.From.Valid() && refused.To.Valid() {
		opt.Arrows = append(opt.Arrows, render.Arrow{From: refused.From, To: refused.To, Mark: render.Danger})
		if refused.Blocker.Valid() {
			opt.Highlights = append(opt.Highlights, render.Highlight{Square: refused.Blocker, Mark: render.Danger})
		}
		for _, a := range refused.Attackers {
			opt.Highlights = append(opt.Highlights, render.Highlight{Square: a.Square, Mark: render.Danger})
		}
	}
	return render.PNG(w, pos, opt)
}
