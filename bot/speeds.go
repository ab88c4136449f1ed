package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// Ratings per speed in Discord: /leaderboard speed:blitz, and the lines
// of /stats. Each live speed has its own ratings (play.RatingScope); the
// ratings from before live games are the correspondence ones, which a
// leaderboard without speed: shows as before.

// speedOptionName is /leaderboard's option that picks a speed.
const speedOptionName = "speed"

// speedOption declares speed:, the speeds as its choices.
func speedOption() *discordgo.ApplicationCommandOption {
	o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: speedOptionName,
		NameLocalizations: localized("clock.speed_option.name"), Description: en("clock.speed_option.desc"),
		DescriptionLocalizations: localized("clock.speed_option.desc")}
	for _, sp := range play.Speeds {
		id := "clock.speed_choice." + sp.String()
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: en(id), NameLocalizations: localized(id), Value: sp.String()})
	}
	return o
}

// speedIn reads a command's speed: option: correspondence without it, or
// with a value that names none (Discord sends only the choices).
func speedIn(opts map[string]*discordgo.ApplicationCommandInteractionDataOption) play.Speed {
	if o := opts[speedOptionName]; o != nil {
		if sp, ok := play.ParseSpeed(o.StringValue()); ok {
			return sp
		}
	}
	return play.Correspondence
}

// boardScope is a leaderboard's scope as its buttons carry it: "server"
// or "global", then "~" and the speed for a live one ("server~blitz").
func boardScope(scope string, sp play.Speed) string {
	if sp == play.Correspondence {
		return scope
	}
	return scope + "~" + sp.String()
}

// parseBoardScope reads what boardScope wrote; ok is false for anything
// else.
func parseBoardScope(s string) (scope string, sp play.Speed, ok bool) {
	scope, speed, live := strings.Cut(s, "~")
	if scope != scopeServer && scope != scopeGlobal {
		return "", 0, false
	}
	if !live {
		return scope, play.Correspondence, true
	}
	sp, ok = play.ParseSpeed(speed)
	return scope, sp, ok && sp != play.Correspondence && speed == sp.String()
}

// boardTitle is a leaderboard's title: its scope's, and its speed's
// for a live one ("Global leaderboard · blitz").
func boardTitle(lang i18n.Lang, scope string, sp play.Speed) string {
	t := tr(lang, "leaderboard.title."+scope, nil)
	if sp != play.Correspondence {
		t += " · " + speedName(lang, sp)
	}
	return t
}

// speedLines are a player's ratings of the live speeds in scope, a line
// each ("blitz: **1612?** ± 120, 3 rated games"); "" for none.
func (rs *records) speedLines(ctx context.Context, lang i18n.Lang, scope, user string, rating func(play.Player) string) (string, error) {
	ps, err := rs.play.SpeedRatings(ctx, scope, user)
	if err != nil || len(ps) == 0 {
		return "", err
	}
	lines := make([]string, len(ps))
	for i := range ps {
		lines[i] = tr(lang, "clock.speed_line", map[string]any{"Speed": speedName(lang, play.SpeedOf(&ps[i])), "Rating": rating(ps[i])})
	}
	return strings.Join(lines, "\n"), nil
}
