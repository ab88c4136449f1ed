package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play/round"
)

// /vacation: a player's clocks stand still in all their games.

// vacations answers /vacation, and tells the opponents. It holds what
// every feature shares, the notices and the languages.
type vacations struct {
	*shared
	notices *notices
	locales *locales
}

func vacationsOf(b *Bot) *vacations { return b.vacations }

func init() {
	addCommand(appCommand{name: "vacation", run: runBy(vacationsOf, (*vacations).vacationCommand), help: helpCorrespondence + 3, declare: declareVacation})
}

// declareVacation declares /vacation; the yearly allowance is the most
// it takes at once.
func declareVacation(cfg *Config) *discordgo.ApplicationCommand {
	days := option("vacation", "days", discordgo.ApplicationCommandOptionInteger, true)
	days.MinValue = ptr(0.0)
	// A MaxValue of 0 would go unsent (omitempty): with no allowance,
	// play refuses every vacation and says why.
	days.MaxValue = float64(max(cfg.VacationDays, 0))
	return command("vacation", days)
}

// vacationCommand is /vacation days: away for days, or back with 0.
func (vc *vacations) vacationCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	days := 0
	if o := options(data)["days"]; o != nil {
		days = int(o.IntValue())
	}
	if days < 0 {
		days = 0
	}
	away, err := vc.round.Vacation(in.ctx, in.user, days, vc.cfg.Now())
	if err != nil {
		return err
	}
	var lines []string
	if away.Back {
		lines = append(lines, "👋 "+tr(in.lang, "vacation.back", nil))
	} else {
		lines = append(lines, "🏖️ "+tr(in.lang, "vacation.started", map[string]any{"Until": timestamp(away.Until, "f")}))
		if len(away.Games) > 0 {
			lines = append(lines, i18n.N(in.lang, "vacation.paused", len(away.Games), nil))
		}
	}
	lines = append(lines, i18n.N(in.lang, "vacation.left", away.Left, nil))
	if err := in.tell(strings.Join(lines, "\n")); err != nil {
		return err
	}
	vc.announceAway(in.ctx, in.user, away)
	return nil
}

// announceAway tells the opponents, in each game's thread and without a
// ping, that a player's clock stands still, or runs again; in a private
// game, by direct message or not at all, as the round decided from their
// settings (away.Tells).
func (vc *vacations) announceAway(ctx context.Context, user string, away round.Vacation) {
	for _, g := range away.Playing {
		note := func(lang i18n.Lang, where string) *message {
			text := "🏖️ " + tr(lang, "vacation.note", map[string]any{"Player": mention(user), "Until": timestamp(away.Until, "f")})
			if away.Back {
				text = "👋 " + tr(lang, "vacation.note_back", map[string]any{"Player": mention(user)})
			}
			m := &message{Content: strings.TrimSpace(text + "\n" + where)}
			m.mentionOnly()
			return m
		}
		if g.Private {
			// No post in a DM without the bot: the opponent hears it
			// alone.
			t, ok := away.Tells[g.ID]
			if !ok || t.How != round.DirectMessage {
				continue
			}
			err := vc.notices.dm(ctx, t.User, note(vc.notices.tellLang(ctx, &t, g.Guild), gameLink(&g)))
			if err != nil && !errors.Is(err, errDMClosed) {
				vc.log.Warn("announcing a vacation", "game", g.ID, "err", err)
			}
			continue
		}
		m := note(vc.locales.guildLang(ctx, g.Guild), "")
		if _, err := vc.post(ctx, g.Channel, m); err != nil {
			vc.log.Warn("announcing a vacation", "game", g.ID, "err", err)
		}
	}
}
