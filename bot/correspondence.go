package bot

import (
	"context"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Correspondence play in Discord beside its commands (games.go,
// premove.go, vacation.go, settings.go): the choice after a timeout, and
// what boards say of vacations and timeouts. The scheduler's news is told
// in notify.go.

func init() {
	clicks.handle(idClaimWin, gameAct(tablesOf, (*tables).claimWinClick))
	clicks.handle(idClaimDraw, gameAct(tablesOf, (*tables).claimDrawClick))
}

var (
	// idClaimWin and idClaimDraw are the choice after the opponent's
	// time ran out.
	idClaimWin  = gamePattern("cwin")
	idClaimDraw = gamePattern("cdraw")
)

// correspondenceStatus adds to a board's status what correspondence
// brings: a timeout's choice, and the players on vacation.
func (bd *boards) correspondenceStatus(ctx context.Context, lang i18n.Lang, g *play.Game) []string {
	var lines []string
	if f := g.Flag; f != nil {
		lines = append(lines, "⌛ "+tr(lang, "board.flag", map[string]any{"Loser": mention(opponentOf(g, f.By).ID), "Player": mention(f.By),
			"Until": timestamp(g.Deadline, "f")}))
	}
	now := bd.cfg.Now()
	for _, c := range []game.Color{game.White, game.Black} {
		if g.Away(c, now) {
			lines = append(lines, "🏖️ "+tr(lang, "board.away", map[string]any{"Player": mention(g.Seat(c).ID), "When": timestamp(g.AwayUntil[c], "f")}))
		}
	}
	return lines
}

// claimWinClick and claimDrawClick are the choice of a player whose
// opponent ran out of time: acts of the round, whose final board answers
// the click (in place of the timeout's message when it was clicked
// there).
func (tb *tables) claimWinClick(in *interaction, a play.Act) error {
	return tb.claim(in, a, round.ClaimWin, "timeout.claimed_win")
}

func (tb *tables) claimDrawClick(in *interaction, a play.Act) error {
	return tb.claim(in, a, round.ClaimDraw, "timeout.claimed_draw")
}

func (tb *tables) claim(in *interaction, a play.Act, k round.Kind, id string) error {
	out, err := tb.playRound(in, round.Act{Act: a, Kind: k}, onOffer(in))
	if err != nil {
		return err
	}
	tb.outcomes.tellClaimPrivately(in, &out, id)
	return nil
}
