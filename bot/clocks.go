package bot

import (
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/render"
)

// Live time controls in Discord: the time: option of a challenge, its
// autocomplete and its refusals, the words that name a time control, and
// the clocks a board shows. Everything here reads the game as play
// keeps it; the clocks are play's (play.Clock), judged by the server.

// timeOptionName is the option of /challenge that takes a live time
// control, "5+3".
const timeOptionName = "time"

// offeredTimes are the time controls the option's autocomplete offers.
var offeredTimes = play.OfferedTimes

// timeOption declares the time: option: text, so that any control from
// 1+0 to 180+180 can be typed, with the usual ones offered.
func timeOption() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: timeOptionName,
		NameLocalizations: localized("clock.option.name"), Description: en("clock.option.desc"),
		DescriptionLocalizations: localized("clock.option.desc"), Autocomplete: true, MaxLength: 16}
}

// completeTimeOption answers the autocomplete of a command whose only
// option that autocompletes is time: (/challenge, /tournament create).
func (in *interaction) completeTimeOption() error {
	if o := focused(in.i.ApplicationCommandData().Options); o != nil && o.Name == timeOptionName {
		return in.choices(timeChoices(in.lang, o.StringValue()))
	}
	return in.noChoices()
}

// focused returns the option being typed, in a subcommand's too; nil if
// none is.
func focused(opts []*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	for _, o := range opts {
		if o.Focused {
			return o
		}
		if f := focused(o.Options); f != nil {
			return f
		}
	}
	return nil
}

// timeChoices are the time controls offered for what was typed: what
// was typed first when it reads as one, then the usual ones that begin
// with it (all of them when none does), each named with its speed.
func timeChoices(lang i18n.Lang, typed string) []*discordgo.ApplicationCommandOptionChoice {
	typed = strings.TrimSpace(typed)
	var out []*discordgo.ApplicationCommandOptionChoice
	seen := map[string]bool{}
	add := func(tc play.TimeControl) {
		if s := tc.String(); !seen[s] {
			seen[s] = true
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: liveTerms(lang, tc), Value: s})
		}
	}
	if tc, err := play.ParseTimeControl(typed); err == nil {
		add(tc)
	}
	var matching []play.TimeControl
	for _, s := range offeredTimes {
		if strings.HasPrefix(s, typed) {
			tc, _ := play.ParseTimeControl(s)
			matching = append(matching, tc)
		}
	}
	if len(matching) == 0 {
		for _, s := range offeredTimes {
			tc, _ := play.ParseTimeControl(s)
			matching = append(matching, tc)
		}
	}
	for _, tc := range matching {
		add(tc)
	}
	return out
}

// timeOptionOf reads the time: option of a command: the zero control
// when it is not given. Text that is no time control is answered
// privately, saying why, and err is errNotHere: nothing is changed.
func (in *interaction) timeOptionOf(opts map[string]*discordgo.ApplicationCommandInteractionDataOption) (play.TimeControl, error) {
	o := opts[timeOptionName]
	if o == nil {
		return play.TimeControl{}, nil
	}
	tc, err := play.ParseTimeControl(o.StringValue())
	var bad *play.TimeControlError
	if errors.As(err, &bad) {
		if terr := in.tell(badTimeText(in.lang, bad)); terr != nil {
			return tc, terr
		}
		return tc, errNotHere
	}
	return tc, err
}

// The words of time controls are i18n's, shared with the Activity.
var (
	badTimeText = i18n.BadTimeControl
	liveTerms   = i18n.LiveTerms
	speedName   = i18n.SpeedName
	timeTerms   = i18n.TimeTerms
)

// renderClocks are a live game's clocks as its board draws them at now;
// nil for a game without.
func renderClocks(g *play.Game, now time.Time) *render.Clocks {
	k := g.Clock
	if k == nil {
		return nil
	}
	turn := g.Turn()
	return &render.Clocks{White: k.LeftAt(game.White, turn, now), Black: k.LeftAt(game.Black, turn, now),
		Running: turn, Stopped: g.Over() || !k.Running()}
}

// clockLines are a live game's lines in its board's text: both clocks as
// the board was drawn, and when the flag of the player to move falls,
// as a Discord timestamp that ticks in the reader's client (before the
// first move, when the game is aborted for want of it).
func clockLines(lang i18n.Lang, g *play.Game, now time.Time) []string {
	k := g.Clock
	if k == nil || g.Over() {
		return nil
	}
	turn := g.Turn()
	lines := []string{"⏱️ " + tr(lang, "clock.both", map[string]any{
		"White": render.FormatClock(k.LeftAt(game.White, turn, now)), "Black": render.FormatClock(k.LeftAt(game.Black, turn, now))})}
	data := map[string]any{"Player": mention(g.ToMove().ID)}
	if !k.Running() {
		data["When"] = timestamp(g.Deadline, "R")
		return append(lines, "🚩 "+tr(lang, "clock.first_move", data))
	}
	data["When"] = timestamp(k.FlagAt(turn), "R")
	return append(lines, "🚩 "+tr(lang, "clock.flag_falls", data))
}

// liveTimeout is the headline of a live game's timeout that is not a
// plain loss on time: a game aborted for want of a first move, or a
// flag that draws because the opponent could not have won. ok is false
// for any other.
func liveTimeout(lang i18n.Lang, g *play.Game, t *round.TimedOut) (string, bool) {
	if g.Clock == nil {
		return "", false
	}
	switch {
	case g.Outcome.Reason == game.Aborted:
		return "⌛ " + tr(lang, "clock.aborted", map[string]any{"Player": mention(g.White.ID)}), true
	case g.Outcome.Result == game.Draw && g.Outcome.Reason == game.Timeout:
		late := g.ToMove()
		return "⌛ " + tr(lang, "clock.flag_draw", map[string]any{"Loser": mention(late.ID),
			"Winner": mention(opponentOf(g, late.ID).ID), "When": timestamp(t.Due, "R")}), true
	}
	return "", false
}

// sentAt is when the interaction's user sent it, as Discord stamped its
// id, for the lag compensation of a live game's clock (play.Act.Sent):
// zero when the stamp is not to be believed — later than at, or more
// than lagBelieved before it (a clock far off, or an id of another
// kind).
func (in *interaction) sentAt(at time.Time) time.Time {
	sent, err := discordgo.SnowflakeTimestamp(in.i.ID)
	if err != nil || sent.After(at) || at.Sub(sent) > lagBelieved {
		return time.Time{}
	}
	return sent
}

// lagBelieved is the longest way from a user's click to the bot that is
// taken for lag rather than for clocks that disagree.
const lagBelieved = 10 * time.Second
