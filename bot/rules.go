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

// rulesExample is the position of /rules' Ice Age: the start, Black's
// move that brings it, and the position after.
type rulesExample struct {
	start, after game.Position
	ev           *game.IceAge
}

var rulesPositions = sync.OnceValues(func() (rulesExample, error) {
	x := rulesExample{start: game.StartPosition()}
	p, err := game.ParseFEN(iceAgeExample)
	if err != nil {
		return x, fmt.Errorf("bot: the Ice Age example: %w", err)
	}
	mv, err := game.ParseMove(&p, "Nxf6")
	if err != nil {
		return x, fmt.Errorf("bot: the Ice Age example: %w", err)
	}
	x.after, x.ev = p.ApplyWithEvent(mv)
	if x.ev == nil {
		return x, fmt.Errorf("bot: the Ice Age example brings no Ice Age")
	}
	return x, nil
})

// rulesImages are drawn once: the start position and the example Ice Age.
// Their descriptions are in the reader's language (rulesPictures).
var rulesImages = sync.OnceValues(func() ([2][]byte, error) {
	var out [2][]byte
	x, err := rulesPositions()
	if err != nil {
		return out, err
	}
	var buf bytes.Buffer
	if err := render.PNG(&buf, &x.start, render.Options{Size: 384, NoHeader: true}); err != nil {
		return out, err
	}
	out[0] = bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := render.IceAge(&buf, x.ev, &x.after, render.Options{Size: 320, NoHeader: true}); err != nil {
		return out, err
	}
	out[1] = bytes.Clone(buf.Bytes())
	return out, nil
})

// rulesPictures are /rules' pictures described in lang.
func rulesPictures(lang i18n.Lang) ([2]image, error) {
	pics, err := rulesImages()
	if err != nil {
		return [2]image{}, err
	}
	x, err := rulesPositions()
	if err != nil {
		return [2]image{}, err
	}
	return [2]image{
		{name: "start.png", data: pics[0], alt: i18n.BoardDescription(lang, &x.start)},
		{name: "iceage.png", data: pics[1], alt: i18n.IceAgeDescription(lang, x.ev, &x.after)},
	}, nil
}

// guide answers /rules and /help. It holds the bot's identity, whose
// commands' ids /help mentions.
type guide struct {
	self *identity
}

func guideOf(b *Bot) *guide { return b.guide }

func init() {
	addCommand(appCommand{name: "rules", reach: anywhere, run: runBy(guideOf, (*guide).rulesCommand), help: helpOther + 1, declare: plain("rules")})
	addCommand(appCommand{name: "help", reach: anywhere, run: runBy(guideOf, (*guide).helpCommand), help: helpOther + 2, declare: plain("help")})
}

func (gd *guide) rulesCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	imgs, err := rulesPictures(in.lang)
	if err != nil {
		return err
	}
	m := &message{Flags: discordgo.MessageFlagsEphemeral}
	m.attach(imgs[0])
	m.attach(imgs[1])
	m.Embeds = []*discordgo.MessageEmbed{
		{Title: tr(in.lang, "rules.title", nil), Description: tr(in.lang, "rules.text", nil), Color: colorOngoing,
			Image: &discordgo.MessageEmbedImage{URL: "attachment://start.png"}},
		{Title: tr(in.lang, "rules.iceage_title", nil), Description: tr(in.lang, "rules.iceage_text", nil) + "\n\n📚 " + tr(in.lang, "rules.learn", nil), Color: colorOngoing,
			Image: &discordgo.MessageEmbedImage{URL: "attachment://iceage.png"}},
	}
	return in.respond(m)
}

func (gd *guide) helpCommand(in *interaction, _ discordgo.ApplicationCommandInteractionData) error {
	var lines []string
	for _, c := range helpOrder() {
		if in.i.GuildID == "" && c.reach != anywhere {
			continue // a server's command, not offered in DMs
		}
		lines = append(lines, gd.helpLine(in, c))
	}
	m := &message{Flags: discordgo.MessageFlagsEphemeral, Embeds: []*discordgo.MessageEmbed{{
		Title: tr(in.lang, "help.title", nil), Color: colorOngoing,
		Description: tr(in.lang, "help.intro", nil) + "\n♟️ " + tr(in.lang, "clickmove.how_to", nil) + "\n\n" + strings.Join(lines, "\n") + "\n\n" + tr(in.lang, "help.notation", nil),
	}}}
	return in.respond(m)
}

// helpLine is one command in /help: a mention Discord shows as the
// command, under its name in the reader's language, that a click fills
// in; or its name alone when Discord did not say its id.
func (gd *guide) helpLine(in *interaction, c *appCommand) string {
	local := tr(in.lang, "cmd."+c.name+".name", nil)
	desc := tr(in.lang, "cmd."+c.name+".desc", nil)
	id := gd.self.commandID(in.i.GuildID, c.name)
	switch {
	case id == "":
		return "`/" + local + "` — " + desc
	case local != c.name:
		// The reader's name for it first: Discord may show the mention
		// by the command's own name.
		return "**/" + local + "** · </" + c.name + ":" + id + "> — " + desc
	}
	return "</" + c.name + ":" + id + "> — " + desc
}

// tr is a message in lang; data fills its template.
func tr(lang i18n.Lang, id string, data map[string]any) string { return i18n.T(lang, id, data) }
