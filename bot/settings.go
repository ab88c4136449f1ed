package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/render"
)

// /settings: how a player is told it is their move, their reminders,
// their language and the colours of their boards.

// userSettings answers /settings: a player's settings are play's
// records.
type userSettings struct {
	*shared
}

func settingsOf(b *Bot) *userSettings { return b.settings }

func init() {
	addCommand(appCommand{name: "settings", reach: anywhere, run: runBy(settingsOf, (*userSettings).settingsCommand), help: helpCorrespondence + 4,
		declare: func(*Config) *discordgo.ApplicationCommand {
			reminders := option("settings", "reminders", discordgo.ApplicationCommandOptionString, false)
			reminders.MaxLength = 40
			return command("settings",
				option("settings", "notifications", discordgo.ApplicationCommandOptionString, false, play.NotifyMention, play.NotifyDM, play.NotifyNone),
				reminders,
				option("settings", "language", discordgo.ApplicationCommandOptionString, false, languageChoices...),
				option("settings", "theme", discordgo.ApplicationCommandOptionString, false, play.Themes...))
		}})
}

// languageChoices are the values /settings language takes.
var languageChoices = []string{"auto", "en", "fr", "ru", "nb", "es", "nl"}

// settingsCommand is /settings: with options it changes them, without it
// shows them.
func (us *userSettings) settingsCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	p := us.prefs(in.ctx, in.user)
	opts := options(data)
	if len(opts) == 0 {
		return in.tell(settingsText(in.lang, &p, us.cfg.Theme, us.cfg.Now))
	}
	if o := opts["notifications"]; o != nil {
		p.Notifications = o.StringValue()
	}
	if o := opts["language"]; o != nil {
		p.Language = o.StringValue()
		if p.Language == "auto" {
			p.Language = ""
		}
	}
	if o := opts["theme"]; o != nil {
		p.Theme = o.StringValue()
	}
	if o := opts["reminders"]; o != nil {
		hours, ok := parseHours(o.StringValue())
		if !ok {
			return in.tell(tr(in.lang, "settings.bad_reminders", nil))
		}
		p.Reminders = hours
	}
	saved, err := us.play.SetPrefs(in.ctx, in.user, p, us.cfg.Now())
	if err != nil {
		return err
	}
	// The answer speaks the language just chosen, or the client's if
	// the choice is to follow it.
	var lang i18n.Lang
	if saved.Language != "" {
		lang = i18n.Lang(saved.Language)
	} else {
		lang = us.language(string(in.i.Locale))
	}
	return in.tell("✅ " + tr(lang, "settings.saved", nil) + "\n" + settingsText(lang, &saved, us.cfg.Theme, us.cfg.Now))
}

// parseHours reads reminder hours, "24 1" or "24h, 1h"; "0" means none.
func parseHours(text string) ([]int, bool) {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == ',' || r == ';' })
	if len(fields) == 0 {
		return nil, false
	}
	hours := []int{}
	for _, f := range fields {
		n, err := strconv.Atoi(strings.TrimRight(f, "hчtu"))
		switch {
		case err != nil || n < 0 || n > play.MaxReminderHours:
			return nil, false
		case n > 0:
			hours = append(hours, n)
		}
	}
	if len(hours) > play.MaxReminders {
		return nil, false
	}
	return hours, true
}

// settingsText shows a user's settings; theme is the boards' colours for
// a user who chose none.
func settingsText(lang i18n.Lang, p *play.Prefs, theme render.Theme, now func() time.Time) string {
	notify := p.Notifications
	if notify == "" {
		notify = play.NotifyMention
	}
	lines := []string{"**" + tr(lang, "settings.title", nil) + "**",
		"🔔 " + tr(lang, "settings.notifications", map[string]any{"Value": tr(lang, "choice."+notify, nil)})}
	switch {
	case p.Reminders == nil:
		lines = append(lines, "⏳ "+tr(lang, "settings.reminders_default", map[string]any{"Value": hoursText(lang, play.DefaultReminders)}))
	case len(p.Reminders) == 0:
		lines = append(lines, "⏳ "+tr(lang, "settings.reminders_none", nil))
	default:
		lines = append(lines, "⏳ "+tr(lang, "settings.reminders", map[string]any{"Value": hoursText(lang, p.Reminders)}))
	}
	language := "auto"
	if p.Language != "" {
		language = p.Language
	}
	lines = append(lines, "🌐 "+tr(lang, "settings.language", map[string]any{"Value": tr(lang, "choice."+language, nil)}))
	theme = themeOf(p, theme)
	lines = append(lines, "🎨 "+tr(lang, "settings.theme", map[string]any{"Value": tr(lang, "choice."+theme.String(), nil)}))
	if p.Away(now()) {
		lines = append(lines, "🏖️ "+tr(lang, "games.you_away", map[string]any{"When": timestamp(p.AwayUntil, "f")}))
	}
	if !p.DMRefused.IsZero() {
		lines = append(lines, "✉️ "+tr(lang, "settings.dm_refused", nil))
	}
	return strings.Join(lines, "\n")
}

// themeOf is the theme a user's boards are drawn in: theirs, or else
// byDefault.
func themeOf(p *play.Prefs, byDefault render.Theme) render.Theme {
	if t, err := render.ParseTheme(p.Theme); p.Theme != "" && err == nil {
		return t
	}
	return byDefault
}

// theme is the theme of the pictures drawn for user alone.
func (sh *shared) theme(ctx context.Context, user string) render.Theme {
	p := sh.prefs(ctx, user)
	return themeOf(&p, sh.cfg.Theme)
}

// gameTheme is the theme of a game's board: the one of the player it
// waits for, who looks at it from their side, or of the person when it
// waits for the engine.
func (bd *boards) gameTheme(ctx context.Context, g *play.Game) render.Theme {
	c := g.Turn()
	if g.Engine[c] != 0 {
		c = c.Other()
	}
	if g.Engine[c] != 0 || g.Over() {
		return bd.cfg.Theme
	}
	return bd.theme(ctx, g.Seat(c).ID)
}

func hoursText(lang i18n.Lang, hours []int) string {
	parts := make([]string, len(hours))
	for i, h := range hours {
		parts[i] = i18n.N(lang, "count.hours", h, nil)
	}
	return strings.Join(parts, ", ")
}
