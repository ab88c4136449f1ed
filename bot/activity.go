package bot

import (
	"net/http"
	"slices"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// The Discord Activity's doors in the bot: the Play here button under a
// board, whose click answers LAUNCH_ACTIVITY so that Discord opens the
// Activity in the board's channel, and the Entry Point command, with
// which Discord's App Launcher opens it. The Activity itself is served
// by package activity on the web listener.

// ActivityConfig turns the Activity's doors on.
type ActivityConfig struct {
	// Enabled: the application has an Activity (discord.client_id is
	// set, and Activities are on in the developer portal).
	Enabled bool
	// Launched, when set, hears of each Play here click: user asked for
	// the Activity in channel to show game.
	Launched func(user, channel string, game uint64)
	// ChallengeEnded, when set, hears of each challenge of a server's
	// channel declined or withdrawn with its buttons, or expired: the
	// Activity's lobby tells the other side.
	ChallengeEnded func(c play.Challenge, how round.Answer)
}

// challengeEnded tells the Activity, if it listens, that c ended so.
func (a *ActivityConfig) challengeEnded(c *play.Challenge, how round.Answer) {
	if a.ChallengeEnded != nil && c.Guild != "" {
		a.ChallengeEnded(*c, how)
	}
}

// discordgo v0.29.0 lacks these: the LAUNCH_ACTIVITY callback type, the
// Entry Point command type, and its handler that has Discord launch the
// Activity without asking the bot.
const (
	responseLaunchActivity       discordgo.InteractionResponseType = 12
	entryPointCommand            discordgo.ApplicationCommandType  = 4
	handlerDiscordLaunchActivity                                   = 2
)

var idPlayHere = gamePattern("here")

// activities answers a board's Play here button. It holds what every
// feature shares, and the sight: who may see the game.
type activities struct {
	*shared
	sight *sight
}

func activitiesOf(b *Bot) *activities { return b.activities }

func init() { clicks.handle(idPlayHere, gameAct(activitiesOf, (*activities).playHereClick)) }

// activityRow is the row of the Play here button under a board, none
// when there is no Activity.
func (bd *boards) activityRow(lang i18n.Lang, g *play.Game) []discordgo.MessageComponent {
	if !bd.cfg.Activity.Enabled {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "activity.play_here", nil), Style: discordgo.PrimaryButton, CustomID: idPlayHere.forGame(g),
			Emoji: &discordgo.ComponentEmoji{Name: "♟️"}},
	}}}
}

// playHereClick launches the Activity for whoever may see the game: its
// players play there, everyone else watches. An old board's button still
// opens the game as it is now.
func (ac *activities) playHereClick(in *interaction, a play.Act) error {
	g, err := ac.sight.visibleGame(in, a.Game)
	if err != nil {
		return err
	}
	if !ac.cfg.Activity.Enabled {
		return in.explain(tr(in.lang, "activity.off", nil))
	}
	if f := ac.cfg.Activity.Launched; f != nil {
		f(in.user, in.i.ChannelID, g.ID)
	}
	in.answered = true
	return in.out.respondPlain(in.ctx, in.i, &discordgo.InteractionResponse{Type: responseLaunchActivity})
}

// entryPoint is the Activity's Entry Point command: Discord launches the
// Activity when it is chosen, without asking the bot.
func entryPoint() *discordgo.ApplicationCommand {
	// Wherever the commands reach: a game of a group DM plays in its
	// Activity too.
	return &discordgo.ApplicationCommand{Type: entryPointCommand,
		Name: en("activity.entry.name"), NameLocalizations: ptr(localized("activity.entry.name")),
		Description: en("activity.entry.desc"), DescriptionLocalizations: ptr(localized("activity.entry.desc")),
		Contexts: ptr(anywhere.contexts()), IntegrationTypes: ptr(anywhere.installs())}
}

// withEntryPoint is a global command set with the Entry Point command
// when there is an Activity. Without one, an Entry Point Discord has (it
// gives every app with Activities a default one) is kept: a bulk
// overwrite may not drop it.
func (b *Bot) withEntryPoint(want, have []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommand {
	if b.cfg.Activity.Enabled {
		return append(slices.Clip(want), entryPoint())
	}
	for _, c := range have {
		if c.Type == entryPointCommand {
			kept := *c
			return append(slices.Clip(want), &kept)
		}
	}
	return want
}

// commandWithHandler is a command as Discord takes it, with the Entry
// Point's handler, which discordgo's struct lacks.
type commandWithHandler struct {
	*discordgo.ApplicationCommand
	Handler int `json:"handler,omitempty"`
}

// overwriteCommands is discordgo's ApplicationCommandBulkOverwrite, with
// the Entry Point command's handler.
func (b *Bot) overwriteCommands(app, guild string, want []*discordgo.ApplicationCommand) ([]*discordgo.ApplicationCommand, error) {
	body := make([]commandWithHandler, len(want))
	for i, c := range want {
		body[i].ApplicationCommand = c
		if c.Type == entryPointCommand {
			body[i].Handler = handlerDiscordLaunchActivity
		}
	}
	endpoint := discordgo.EndpointApplicationGlobalCommands(app)
	if guild != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(app, guild)
	}
	raw, err := b.s.RequestWithBucketID(http.MethodPut, endpoint, body, endpoint)
	if err != nil {
		return nil, err
	}
	var got []*discordgo.ApplicationCommand
	return got, unmarshal(raw, &got)
}
