package i18n

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// Marks say how a front end writes the people and times a refusal names:
// the bot mentions a player and writes a Discord timestamp; the terminal
// writes names and dates.
type Marks struct {
	Player func(id string) string
	Time   func(t time.Time) string
	// Until writes when the asker may try again, as "in 5 minutes" say;
	// nil writes it with Time.
	Until func(t time.Time) string
}

// Refusal says in lang why play refused an act, with the data the
// refusal carries: why a move is not legal, whose turn it is, the
// allowed time controls, the legal moves close to a refused one.
func Refusal(lang Lang, x *play.Refusal, m Marks) string {
	if text, ok := correspondenceRefusal(lang, x, m); ok {
		return text
	}
	if text, ok := limitRefusal(lang, x, m); ok {
		return text
	}
	var me *game.MoveError
	var se *game.SyntaxError
	var text string
	switch {
	case x.Kind == play.IllegalMove && errors.As(x.Err, &me):
		text = MoveError(lang, me)
	case x.Kind == play.NotAMove && errors.As(x.Err, &se):
		text = SyntaxError(lang, se)
	case x.Kind == play.NotYourTurn:
		text = T(lang, "refusal.not_your_turn", map[string]any{"Player": m.Player(x.Who.ID)})
	case x.Kind == play.GameOver:
		text = T(lang, "refusal.game_over", map[string]any{"Outcome": Outcome(lang, x.Outcome)})
	case x.Kind == play.TimeUp:
		text = T(lang, "refusal.time_up", map[string]any{"Deadline": m.Time(x.Deadline)})
	case x.Kind == play.BadTimeControl:
		text = T(lang, "refusal.bad_time_control", map[string]any{"Allowed": joinInts(x.Allowed)})
	case x.Kind == play.NotYourChallenge && x.Who.ID != "":
		text = T(lang, "refusal.not_your_challenge_for", map[string]any{"Player": m.Player(x.Who.ID)})
	default:
		text = T(lang, "refusal."+refusalID(x.Kind), nil)
	}
	// Move errors explain in lower case, to follow other words; a
	// refusal is a sentence of its own, unless it starts with the move
	// as typed ("e4 is not a legal move here"), which keeps its case.
	if typed := refusedText(x); typed == "" || !strings.HasPrefix(text, typed) {
		text = Sentence(text)
	}
	if len(x.Suggestions) > 0 {
		text += "\n" + Suggestions(lang, x.Suggestions)
	}
	return text
}

// refusedText is what the player typed, when a move error or a syntax
// error says it.
func refusedText(x *play.Refusal) string {
	var me *game.MoveError
	if errors.As(x.Err, &me) {
		if me.Text == "" && me.Move != game.NullMove {
			return me.Move.UCI()
		}
		return me.Text
	}
	return ""
}

// Suggestions offers legal moves close to a refused one.
func Suggestions(lang Lang, moves []string) string {
	return T(lang, "refusal.suggestions", map[string]any{"Moves": "`" + strings.Join(moves, "`, `") + "`"})
}

// refusalID is the message id of a refusal kind: its stable name.
func refusalID(k play.RefusalKind) string {
	return strings.NewReplacer(" ", "_", "-", "_").Replace(k.String())
}

// limitRefusal words the refusals of the caps (play.Caps), which say
// when to try again; ok is false for the others.
func limitRefusal(lang Lang, x *play.Refusal, m Marks) (string, bool) {
	until := m.Until
	if until == nil {
		until = m.Time
	}
	switch x.Kind {
	case play.TooManyChallenges:
		return T(lang, "limits.open_challenges", map[string]any{"Number": x.Most, "When": until(x.Until)}), true
	case play.TooManyEngineGames:
		return T(lang, "limits.engine_games", map[string]any{"Number": x.Most}), true
	case play.TooManyPosts:
		return T(lang, "limits.posts", map[string]any{"Number": x.Most, "When": until(x.Until)}), true
	case play.ChallengedLately:
		return T(lang, "limits.challenge", map[string]any{"Player": m.Player(x.Who.ID), "When": until(x.Until)}), true
	}
	return "", false
}

// correspondenceRefusal words the refusals of correspondence play whose
// data a message needs; ok is false for the others.
func correspondenceRefusal(lang Lang, x *play.Refusal, m Marks) (string, bool) {
	switch {
	case (x.Kind == play.IllegalMove || x.Kind == play.NotAMove) && x.Line > 0:
		inner := *x
		inner.Line = 0
		return T(lang, "refusal.line", map[string]any{"Line": x.Line, "Text": Refusal(lang, &inner, m)}), true
	case x.Kind == play.TimeUp && x.Who.ID != "":
		return T(lang, "refusal.time_up_choose", map[string]any{"Deadline": m.Time(x.Deadline), "Player": m.Player(x.Who.ID)}), true
	case x.Kind == play.NoVacationLeft && x.Left <= 0:
		return T(lang, "refusal.no_vacation_left_none", nil), true
	case x.Kind == play.NoVacationLeft:
		return N(lang, "refusal.no_vacation_left", x.Left, nil), true
	case x.Kind == play.PremoveConflict, x.Kind == play.NoReply:
		return T(lang, "refusal."+refusalID(x.Kind), map[string]any{"Line": x.Line}), true
	case x.Kind == play.TooManyPremoves:
		return T(lang, "refusal.too_many_premoves", map[string]any{"Lines": play.MaxPremoveLines, "Plies": play.MaxPremovePlies}), true
	}
	return "", false
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
