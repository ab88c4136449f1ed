package bot

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/render"
)

// iceAgeExample is the position of /rules' Ice Age: Black's 20th move is
// due and a white knight stands alone on d4, so the Ice Age after ...Nxf6
// freezes it.
const iceAgeExample = "rnbqkbnr/pppppppp/********/********/***N****/********/PPPPPPPP/R1BQKBNR b KQkq - 0 20"

// rulesImages are drawn once: the start position and the example Ice Age.
var rulesImages = sync.OnceValues(func() ([2]image, error) {
	var out [2]image
	start := game.StartPosition()
	var buf bytes.Buffer
	if err := render.PNG(&buf, &start, render.Options{Size: 384, NoHeader: true}); err != nil {
		return out, err
	}
	out[0] = image{name: "start.png", data: bytes.Clone(buf.Bytes()), alt: render.AltText(&start)}
	p, err := game.ParseFEN(iceAgeExample)
	if err != nil {
		return out, fmt.Errorf("bot: the Ice Age example: %w", err)
	}
	mv, err := game.ParseMove(&p, "Nxf6")
	if err != nil {
		return out, fmt.Errorf("bot: the Ice Age example: %w", err)
	}
	after, ev := p.ApplyWithEvent(mv)
	if ev == nil {
		return out, fmt.Errorf("bot: the Ice Age example brings no Ice Age")
	}
	buf.Reset()
	if err := render.IceAge(&buf, ev, &after, render.Options{Size: 320, NoHeader: true}); err != nil {
		return out, err
	}
	out[1] = image{name: "iceage.png", data: bytes.Clone(buf.Bytes()), alt: render.IceAgeAltText(ev, &after)}
	return out, nil
})

func init() {
	addCommand(appCommand{name: "rules", reach: anywhere, run: (*Bot).rulesCommand, help: helpOther + 1, declare: plain("rules")})
	addCommand(appCommand{name: "help", reach: anywhere, run: (*Bot).helpCommand, help: helpOther + 2, declare: plain("help")})
}

func (b *Bot) rulesCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	imgs, err := rulesImages()
	if err != nil {
		return err
	}
	m := &message{Flags: discordgo.MessageFlagsEphemeral}
	m.attach(imgs[0])
	m.attach(imgs[1])
	m.Embeds = []*discordgo.MessageEmbed{
		{Title: tr(in.lang, "rules.title", nil), Description: tr(in.lang, "rules.text", nil), Color: colorOngoing,
			Image: &discordgo.MessageEmbedImage{URL: "attachment://start.png"}},
		{Title: tr(in.lang, "rules.iceage_title", nil), Description: tr(in.lang, "rules.iceage_text", nil), Color: colorOngoing,
			Image: &discordgo.MessageEmbedImage{URL: "attachment://iceage.png"}},
	}
	return in.respond(m)
}

func (b *Bot) helpCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	var lines []string
	for _, c := range helpOrder() {
		lines = append(lines, fmt.Sprintf("`/%s` — %s", c.name, tr(in.lang, "cmd."+c.name+".desc", nil)))
	}
	m := &message{Flags: discordgo.MessageFlagsEphemeral, Embeds: []*discordgo.MessageEmbed{{
		Title: tr(in.lang, "help.title", nil), Color: colorOngoing,
		Description: tr(in.lang, "help.intro", nil) + "\n\n" + strings.Join(lines, "\n") + "\n\n" + tr(in.lang, "help.notation", nil),
	}}}
	return in.respond(m)
}

// tr is a message in lang; data fills its template.
func tr(lang i18n.Lang, id string, data map[string]any) string { return i18n.T(lang, id, data) }
