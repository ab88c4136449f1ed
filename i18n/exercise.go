package i18n

import (
	"errors"

	"github.com/iceagechess/iceage/exercise"
	"github.com/iceagechess/iceage/game"
)

// TryResult says in lang why a try at an exercise (a lesson's step, a
// puzzle) was wrong: the game's own reason for an illegal move ("the
// rook on h1 cannot reach h5: ice on h3 blocks it"), or why a legal one
// missed the goal ("Your king froze in the Ice Age: that loses."). A
// good try (Going, Solved) has nothing to explain: "".
func TryResult(lang Lang, r *exercise.Result) string {
	switch r.Verdict {
	case exercise.Illegal:
		var me *game.MoveError
		var se *game.SyntaxError
		switch {
		case errors.As(r.Err, &me):
			return Sentence(MoveError(lang, me))
		case errors.As(r.Err, &se):
			return Sentence(SyntaxError(lang, se))
		}
		return T(lang, "exercise.illegal", nil)
	case exercise.Missed:
		return missed(lang, r)
	}
	return ""
}

// missed says why a legal try missed its goal.
func missed(lang Lang, r *exercise.Result) string {
	switch r.Why {
	case exercise.OffLine:
		return T(lang, "exercise.missed.off_line", nil)
	case exercise.OwnKingFroze:
		if r.After.Outcome().Reason == game.BothKingsFrozen {
			return T(lang, "exercise.missed.both_kings_froze", nil)
		}
		return T(lang, "exercise.missed.own_king_froze", nil)
	case exercise.Lost:
		return T(lang, "exercise.missed.lost", map[string]any{"Outcome": Outcome(lang, r.After.Outcome())})
	case exercise.Ended:
		return T(lang, "exercise.missed.ended", map[string]any{"Outcome": Outcome(lang, r.After.Outcome())})
	case exercise.NotForced:
		return T(lang, "exercise.missed.not_forced", nil)
	case exercise.OwnManFroze:
		var own []game.Placement
		if r.IceAge != nil {
			for _, f := range r.IceAge.Frozen {
				if f.Piece.Color() == r.Solver {
					own = append(own, f)
				}
			}
		}
		return T(lang, "exercise.missed.own_man_froze", map[string]any{"Frozen": FrozenMen(lang, own)})
	case exercise.Filled:
		return T(lang, "exercise.missed.filled", nil)
	}
	return T(lang, "exercise.missed.out_of_moves", nil)
}
