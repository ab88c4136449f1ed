package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// /premove: conditional moves, answers queued to the moves a player
// expects.

// premoves answers /premove: a premove is an act of the round.
type premoves struct {
	*shared
}

func premovesOf(b *Bot) *premoves { return b.premoves }

func init() {
	addCommand(appCommand{name: "premove", reach: anywhere, run: runBy(premovesOf, (*premoves).premoveCommand), help: helpCorrespondence + 2,
		declare: func(*Config) *discordgo.ApplicationCommand {
			line := option("premove", "line", discordgo.ApplicationCommandOptionString, false)
			line.MaxLength = premoveMaxLength
			return command("premove", line, option("premove", "clear", discordgo.ApplicationCommandOptionBoolean, false))
		}})
}

// premoveMaxLength bounds /premove's text: a dozen lines of moves.
const premoveMaxLength = 300

// premoveCommand is /premove: queue conditional moves (line), drop them
// (clear), or show them. Everything it says is for the asker alone.
func (pm *premoves) premoveCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	g, err := pm.gameHere(in)
	if err != nil {
		return err
	}
	opts := options(data)
	text := ""
	if o := opts["line"]; o != nil {
		text = o.StringValue()
	}
	clear := opts["clear"] != nil && opts["clear"].BoolValue()
	var lines [][]string
	switch {
	case clear:
	case strings.TrimSpace(text) != "":
		if q := g.Premoves; q != nil && q.By == in.user {
			lines = append(lines, q.Lines...)
		}
		lines = append(lines, parseLines(text)...)
	default:
		return in.tell(premoveText(in.lang, &g, in.user))
	}
	out, err := pm.round.Do(in.ctx, round.Act{Act: pm.act(in, &g), Kind: round.Premove, Lines: lines})
	if err != nil {
		return err
	}
	r := out.Result
	if clear && text == "" {
		return in.tell(tr(in.lang, "premove.cleared", nil))
	}
	return in.tell(premoveText(in.lang, &r.Game, in.user))
}

// parseLines reads /premove's text: lines separated by ";" (or new
// lines), each moves separated by spaces or commas, move numbers ("12.",
// "12...") left out.
func parseLines(text string) [][]string {
	var out [][]string
	for _, l := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '|' }) {
		var moves []string
		for _, f := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
			f = strings.TrimLeft(f, "0123456789")
			f = strings.TrimLeft(f, ".…")
			if f != "" {
				moves = append(moves, f)
			}
		}
		if len(moves) > 0 {
			out = append(out, moves)
		}
	}
	return out
}

// premoveText shows user's queue of conditional moves in g, in SAN.
func premoveText(lang i18n.Lang, g *play.Game, user string) string {
	q := g.Premoves
	if q == nil || q.By != user || len(q.Lines) == 0 {
		return tr(lang, "premove.none", nil)
	}
	start, err := g.Position()
	if err != nil {
		return tr(lang, "premove.none", nil)
	}
	var out []string
	for i, l := range q.Lines {
		pos := start
		var steps []string
		for k := 0; k+1 < len(l); k += 2 {
			var pair [2]string
			for j := range 2 {
				mv, err := game.ParseUCI(l[k+j])
				if err != nil {
					pair[j] = l[k+j]
					continue
				}
				pair[j] = pos.SAN(mv)
				pos = pos.Apply(mv)
			}
			steps = append(steps, pair[0]+" → **"+pair[1]+"**")
		}
		out = append(out, fmt.Sprintf("%d. %s", i+1, strings.Join(steps, " · ")))
	}
	more := func(n int) string { return i18n.N(lang, "premove.more", n, nil) }
	return fit(tr(lang, "premove.header", nil), out, "\n", contentLimit, 0, more)
}

// contentLimit is the most characters Discord takes in a message's
// content.
const contentLimit = 2000
