package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// Rematch: a finished game's board carries a Rematch button for either
// player. Against a person it makes a new challenge with the colours
// swapped, the same time control and rating; against the engine it starts
// a new game at once at the same level, colours swapped too.

func init() { clicks.handle(idRematch, gameAct(challengesOf, (*challenges).rematchClick)) }

// idRematch is the Rematch button of a finished game.
var idRematch = gamePattern("rematch")

// rematchButtons are the buttons under a finished game's board.
func rematchButtons(lang i18n.Lang, g *play.Game) []discordgo.MessageComponent {
	if g.Outcome.Reason == game.Aborted {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: tr(lang, "rematch.button", nil), Style: discordgo.PrimaryButton, CustomID: idRematch.forGame(g),
			Emoji: &discordgo.ComponentEmoji{Name: "🔁"}},
	}}}
}

// rematchClick answers Rematch: only the game's players may ask, and only
// once it is over.
func (cs *challenges) rematchClick(in *interaction, a play.Act) error {
	g, err := cs.play.Game(in.ctx, a.Game)
	if err != nil {
		return err
	}
	mine, played := g.ColorOf(in.user)
	switch {
	case !played:
		return &play.Refusal{Kind: play.NotAPlayer, Game: g.ID}
	case !g.Over():
		return in.tell(tr(in.lang, "rematch.not_over", nil))
	}
	// The colours swap: who had White asks for Black.
	color := play.WhiteSide
	if mine == game.White {
		color = play.BlackSide
	}
	n := play.NewChallenge{Guild: g.Guild, Channel: in.i.ChannelID, From: in.seat, Color: color,
		DaysPerMove: g.DaysPerMove, Time: g.TimeControl(), Rated: g.Rated, At: cs.cfg.Now()}
	if level := g.Engine[mine.Other()]; level > 0 {
		return cs.engineChallenge(in, n, level)
	}
	opp := g.Seat(mine.Other())
	n.To = opp
	return cs.challenge(in, n)
}
