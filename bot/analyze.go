package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// Mistake marks: a drop of at least blunderDrop centipawns is "??", of
// at least engine.MistakeDrop "?".
const blunderDrop = 200

// mistakesShown is how many of the worst moves /analyze lists.
const mistakesShown = 5

// analyses answers /analyze. It holds what every feature shares, the
// sight (who may see the game), the cooldowns, the threads' parents
// and the engine's pool the analysis runs in.
type analyses struct {
	*shared
	sight     *sight
	cooldowns *cooldowns
	parents   *parents
	thinkers  *pool
}

func analysesOf(b *Bot) *analyses { return b.analyses }

func init() {
	addCommand(appCommand{name: "analyze", run: runBy(analysesOf, (*analyses).analyzeCommand), help: helpResults + 7,
		declare: func(*Config) *discordgo.ApplicationCommand {
			g := option("analyze", "game", discordgo.ApplicationCommandOptionInteger, false)
			g.MinValue = ptr(1.0)
			return command("analyze", g)
		}})
}

// analyzeCommand scores a finished game (the game named, or the last one
// finished in this channel) and shows its move list with the biggest
// mistakes marked. The analysis may take seconds: the answer is
// deferred, then edited.
func (an *analyses) analyzeCommand(in *interaction, data discordgo.ApplicationCommandInteractionData) error {
	ctx := in.ctx
	var g play.Game
	if o := options(data)["game"]; o != nil {
		// Scoped like /pgn: a game is for those who may see it.
		id := o.IntValue()
		if id <= 0 {
			return in.explain(tr(in.lang, "export.no_such_game", map[string]any{"ID": id}))
		}
		var err error
		if g, err = an.sight.visibleGame(in, uint64(id)); err != nil {
			return err
		}
	} else {
		if _, err := an.play.GameIn(ctx, in.i.ChannelID); err == nil {
			return in.tell(tr(in.lang, "analyze.not_over", nil))
		}
		// The games are read in one transaction, and the threads'
		// parents asked of Discord after it, once acknowledged: no
		// network inside a transaction, none before the answer.
		var gs []play.Game
		err := an.play.Storage().View(ctx, func(tx play.ReadTx) (err error) {
			gs, err = tx.Finished("", in.i.GuildID, 0, 100)
			return err
		})
		if err != nil {
			return err
		}
		found := false
		for _, x := range gs {
			if x.Channel == in.i.ChannelID {
				g, found = x, true
				break
			}
		}
		for _, x := range gs {
			if found || x.Channel == "" {
				break
			}
			if _, known := an.parents.known(x.Channel); !known && !in.pending {
				if err := in.deferReply(false); err != nil {
					return err
				}
			}
			if an.parents.parentOf(ctx, x.Channel) == in.i.ChannelID {
				g, found = x, true
			}
		}
		if found {
			// The asker is in the game's channel (or its parent), which
			// the rule knows from the interaction; it has the last word.
			ok, err := an.sight.canSee(in, &g)
			if err != nil {
				return err
			}
			found = ok
		}
		if !found {
			return in.tell(tr(in.lang, "analyze.none", nil))
		}
	}
	if !g.Over() {
		return in.tell(tr(in.lang, "analyze.not_over", nil))
	}
	start, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return fmt.Errorf("bot: game %d: %w", g.ID, err)
	}
	moves := make([]game.Move, len(g.Moves))
	for i, m := range g.Moves {
		if moves[i], err = game.ParseUCI(m.UCI); err != nil {
			return fmt.Errorf("bot: game %d: %w", g.ID, err)
		}
	}
	// The analysis takes a worker of the engine's pool, as a move of an
	// engine game does, and only when few wait: it never runs beside
	// the pool, nor fills its queue.
	undo, err := an.cooldowns.cooledDown(in, coolAnalyze)
	if err != nil {
		return err
	}
	done := make(chan analysisDone, 1)
	_, ok, _ := an.thinkers.offer(analysisKey(g.ID), analysisQueue, func(ctx context.Context) {
		// The whole analysis gets a few move budgets, whatever the
		// game's length; each position gets an even share of nodes
		// within it.
		actx, cancel := context.WithTimeout(ctx, 5*an.cfg.Engine.MoveTime)
		defer cancel()
		lim := engine.Limits{}
		if an.cfg.Engine.Nodes > 0 {
			lim.Nodes = an.cfg.Engine.Nodes
		}
		a, err := engine.Analyze(actx, start, moves, lim)
		done <- analysisDone{a, err}
	})
	if !ok { // too many wait, or this game's analysis waits already
		undo()
		return in.explain(tr(in.lang, "analyze.busy", nil))
	}
	if !in.pending {
		if err := in.deferReply(false); err != nil {
			return err
		}
	}
	var r analysisDone
	select {
	case r = <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if r.err != nil && !errors.Is(r.err, context.DeadlineExceeded) && !errors.Is(r.err, context.Canceled) {
		return r.err
	}
	return in.edit(analysisMessage(in, &g, start, moves, &r.a))
}

// analysisQueue is how many jobs may wait in the engine's pool for an
// analysis still to be taken.
const analysisQueue = 4

// analysisKey is an analysis's key in the engine's pool, apart from the
// keys of the engine's moves (game ids).
func analysisKey(game uint64) uint64 { return game | 1<<63 }

type analysisDone struct {
	a   engine.Analysis
	err error
}

// analysisMessage shows a game's moves with the mistakes marked, and the
// worst of them with what the engine preferred.
func analysisMessage(in *interaction, g *play.Game, start game.Position, moves []game.Move, a *engine.Analysis) *message {
	lang := in.lang
	marks := map[int]string{}
	for _, m := range a.Mistakes {
		marks[m.Ply] = "?"
		if m.Drop >= blunderDrop {
			marks[m.Ply] = "??"
		}
	}
	pos := start
	sans, bests := make([]string, len(moves)), map[int]string{}
	texts := make([]string, len(moves))
	for i, mv := range moves {
		sans[i] = pos.SAN(mv)
		if i < len(a.Best) && a.Best[i] != game.NullMove {
			bests[i] = pos.SAN(a.Best[i])
		}
		texts[i] = sans[i] + marks[i]
		if marks[i] != "" {
			texts[i] = "**" + texts[i] + "**"
		}
		pos, _ = pos.ApplyWithEvent(mv)
	}
	parts := i18n.NumberedMoves(&start, texts)
	// Whole moves only, so that a mistake's bold is never cut.
	list := fit("", parts, " ", 4000, 0, func(int) string { return "…" })
	e := &discordgo.MessageEmbed{
		Title:       tr(lang, "analyze.title", map[string]any{"White": g.White.Name, "Black": g.Black.Name}),
		Description: list,
		Color:       colorOver,
		Footer:      &discordgo.MessageEmbedFooter{Text: tr(lang, "analyze.legend", nil) + fmt.Sprintf(" · #%d", g.ID)},
	}
	var lines []string
	for _, m := range a.Mistakes[:min(len(a.Mistakes), mistakesShown)] {
		by := g.White
		if (m.Ply%2 == 0) == (start.Turn() == game.Black) {
			by = g.Black
		}
		lines = append(lines, tr(lang, "analyze.mistake", map[string]any{
			"Move": "**" + sans[m.Ply] + marks[m.Ply] + "**", "Player": mention(by.ID),
			"Drop": fmt.Sprintf("%.1f", float64(m.Drop)/100), "Best": "**" + bests[m.Ply] + "**"}))
	}
	// Analyze scores each position in turn: a move was checked when the
	// position after it was scored too.
	checked := max(len(a.Scores)-1, 0)
	cut := checked < len(moves)
	value := tr(lang, "analyze.clean", nil)
	switch {
	case len(lines) > 0:
		value = strings.Join(lines, "\n")
	case cut:
		value = tr(lang, "analyze.none_so_far", nil)
	}
	if cut {
		num := start.FullMoveNumber() + (checked+int(start.Turn()))/2
		value += "\n" + tr(lang, "analyze.cut_short", map[string]any{"Move": num})
	}
	e.Fields = []*discordgo.MessageEmbedField{{Name: tr(lang, "analyze.mistakes", nil), Value: truncate(value, 1024)}}
	m := &message{Embeds: []*discordgo.MessageEmbed{e}, Components: []discordgo.MessageComponent{}}
	m.mentionOnly()
	return m
}
