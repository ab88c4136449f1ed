package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/play"
)

// route sends an interaction to its handler.
func (b *Bot) route(in *interaction) error {
	if in.user == "" {
		return errors.New("bot: an interaction without a user")
	}
	b.prepare(in)
	switch in.i.Type {
	case discordgo.InteractionApplicationCommand:
		data := in.i.ApplicationCommandData()
		if data.CommandType == discordgo.UserApplicationCommand {
			return b.challengeMember(in, data)
		}
		h, ok := map[string]func(*interaction, discordgo.ApplicationCommandInteractionData) error{
			"challenge": b.challengeCommand,
			"move":      b.moveCommand,
			"board":     b.boardCommand,
			"resign":    b.resignCommand,
			"draw":      b.drawCommand,
			"abort":     b.abortCommand,
			"takeback":  b.takebackCommand,
			"rules":     b.rulesCommand,
			"help":      b.helpCommand,
			"analyze":   b.analyzeCommand,
		}[data.Name]
		if !ok {
			h, ok = b.correspondenceHandlers()[data.Name]
		}
		if !ok {
			h, ok = b.recordHandlers()[data.Name]
		}
		if !ok {
			return in.tell(tr(in.lang, "error.unknown_command", nil))
		}
		return h(in, data)
	case discordgo.InteractionApplicationCommandAutocomplete:
		return b.autocomplete(in)
	case discordgo.InteractionMessageComponent:
		return b.component(in)
	}
	return nil
}

// component routes a click by its custom id: "ch:verb:challenge" or
// "g:verb:game:revision".
func (b *Bot) component(in *interaction) error {
	parts := strings.Split(in.i.MessageComponentData().CustomID, ":")
	num := func(k int) (uint64, bool) {
		if k >= len(parts) {
			return 0, false
		}
		n, err := strconv.ParseUint(parts[k], 10, 64)
		return n, err == nil
	}
	switch {
	case len(parts) == 2 && parts[0] == "gs" && parts[1] == "open":
		return b.gamesSelect(in)
	case parts[0] == "lb" || parts[0] == "rec":
		return b.recordClick(in, parts)
	case len(parts) == 3 && parts[0] == "ch":
		id, ok := num(2)
		if !ok {
			break
		}
		switch parts[1] {
		case "accept":
			return b.acceptClick(in, id)
		case "decline":
			return b.declineClick(in, id)
		}
	case len(parts) == 4 && parts[0] == "g":
		id, ok1 := num(2)
		rev, ok2 := num(3)
		if !ok1 || !ok2 {
			break
		}
		a := play.Act{By: in.user, Game: id, Revision: int(rev), At: b.cfg.Now()}
		if h, ok := gameClicks[parts[1]]; ok {
			return h(b, in, a)
		}
	}
	return fmt.Errorf("bot: unknown button %q", in.i.MessageComponentData().CustomID)
}

// gameClicks are the buttons that act on a game.
var gameClicks = map[string]func(*Bot, *interaction, play.Act) error{
	"resign":   (*Bot).resignClick,
	"resignok": (*Bot).resignConfirmed,
	"draw":     (*Bot).drawClick,
	"dyes":     (*Bot).drawAcceptClick,
	"dno":      (*Bot).drawDeclineClick,
	"flip":     (*Bot).flipClick,
	"abort":    (*Bot).abortClick,
	"tyes":     (*Bot).takebackAcceptClick,
	"tno":      (*Bot).takebackDeclineClick,
	"cwin":     (*Bot).claimWinClick,
	"cdraw":    (*Bot).claimDrawClick,
}

// options reads a command's options by name.
func options(data discordgo.ApplicationCommandInteractionData) map[string]*discordgo.ApplicationCommandInteractionDataOption {
	m := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	for _, o := range data.Options {
		m[o.Name] = o
	}
	return m
}
