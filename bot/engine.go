package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// EngineConfig configures the computer opponent: a player challenges it
// by naming the bot itself as the opponent.
//
// The engine's seat is the bot's own user, named after the level
// (engineName); play.Game.Engine remembers the level of each seat, so a
// restart knows which games wait for the engine (resumeEngine).
type EngineConfig struct {
	// Workers is how many engine moves are computed at once; 0 means 2.
	// More wait in order, and their players are told how many are ahead.
	Workers int
	// MoveTime is the most one engine move may take; 0 means
	// engine.DefaultMoveTime. The levels with a time budget scale theirs
	// to it; the others also stop at it.
	MoveTime time.Duration
	// Nodes, when above 0, replaces every time budget by this node
	// budget (or the level's own, if smaller): engine moves are then the
	// same on every run and machine. For tests.
	Nodes int64
	// DefaultLevel is the level of a challenge that names none; 0 means 4.
	DefaultLevel int
	// Rated lets a player ask for a rated game against the engine;
	// otherwise engine games are casual.
	Rated bool
}

func (c EngineConfig) withDefaults() EngineConfig {
	if c.Workers <= 0 {
		c.Workers = 2
	}
	if c.MoveTime <= 0 {
		c.MoveTime = engine.DefaultMoveTime
	}
	if c.DefaultLevel <= 0 {
		c.DefaultLevel = 4
	}
	c.DefaultLevel = min(c.DefaultLevel, engine.Levels)
	return c
}

// drawMargin is how close to equal, in centipawns, the engine finds a
// position before it accepts a draw: a tenth of a pawn, dead equal.
const drawMargin = 10

// drawNodes is the node budget of the search that decides on a draw
// offer: some hundredths of a second, so the answer comes at once.
const drawNodes = 100_000

// engineName is the name of the engine's seat at a level.
func engineName(level int) string { return fmt.Sprintf("Ice Age Engine (level %d)", level) }

// isEngine reports whether user is the bot itself, the engine's seat.
func (b *Bot) isEngine(user string) bool {
	id, _ := b.botUser.Load().(string)
	return id != "" && user == id
}

// engineChallenge starts a game against the engine at once, in a new
// thread (or in the channel where threads are not allowed), and has the
// engine move first when it has White.
func (b *Bot) engineChallenge(in *interaction, n play.NewChallenge, level int) error {
	switch {
	case in.private():
		// The bot is no member of a DM between users: its moves would
		// have nowhere to go.
		return in.tell(tr(in.lang, "install.engine_elsewhere", nil))
	case in.i.GuildID == "" && !in.botDM():
		return in.tell(tr(in.lang, "error.guild_only", nil))
	}
	if level <= 0 {
		level = b.cfg.Engine.DefaultLevel
	}
	level = min(max(level, 1), engine.Levels)
	bot := play.Seat{ID: b.botUser.Load().(string), Name: engineName(level)}
	white, black := n.From, bot
	if n.Color == play.BlackSide || n.Color == play.Random && rand.IntN(2) == 1 {
		white, black = bot, n.From
	}
	var levels [2]int
	if white == bot {
		levels[game.White] = level
	} else {
		levels[game.Black] = level
	}
	var notes []string
	rated := n.Rated && b.cfg.Engine.Rated
	if n.Rated && !rated {
		notes = append(notes, tr(in.lang, "engine.casual_only", nil))
	}
	channel, thread := in.i.ChannelID, ""
	name := truncate(tr(in.public, "thread.name", map[string]any{"White": white.Name, "Black": black.Name}), 100)
	var ch *discordgo.Channel
	var err error
	if in.botDM() {
		ch = &discordgo.Channel{ID: in.i.ChannelID} // a DM has no threads: the game is played in it
	} else {
		ch, err = b.s.ThreadStartComplex(in.i.ChannelID, &discordgo.ThreadStart{Name: name,
			AutoArchiveDuration: threadArchiveMinutes, Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(in.ctx))
	}
	switch {
	case in.botDM():
	case err == nil:
		channel, thread = ch.ID, ch.ID
	case isForbidden(err):
		notes = append(notes, tr(in.public, "challenge.no_threads", nil))
	default:
		return fmt.Errorf("bot: opening a thread for an engine game: %w", err)
	}
	r, err := b.play.Start(in.ctx, play.NewGame{Guild: n.Guild, Channel: channel, White: white, Black: black,
		Rated: rated, DaysPerMove: n.DaysPerMove, Engine: levels, At: b.cfg.Now()})
	if err != nil {
		if thread != "" {
			if _, derr := b.s.ChannelDelete(thread, discordgo.WithContext(in.ctx)); derr != nil {
				b.log.Warn("could not delete the thread of an engine game not started", "thread", thread, "err", derr)
			}
		}
		return err
	}
	g := r.Game
	m := &message{Content: tr(in.public, "engine.started", map[string]any{"Player": mention(in.user), "Level": level, "Channel": channelRef(&g)})}
	for _, note := range notes {
		m.Content += "\n" + note
	}
	m.mentionOnly()
	if err := in.respond(m); err != nil {
		return err
	}
	board, err := b.boardMessage(in.ctx, in.public, view{g: &g, headline: tr(in.public, "game.started", nil), buttons: true, ping: true})
	if err != nil {
		return err
	}
	if _, err = b.post(in.ctx, channel, board); err != nil {
		return err
	}
	b.engineTurn(in, &g)
	return nil
}

// engineTurn queues the engine's move in g if it is the engine's turn.
// When the move must wait for others, the player who just acted (in,
// when there is one) is told, privately, how many games are ahead.
func (b *Bot) engineTurn(in *interaction, g *play.Game) {
	if g.EngineToMove() == 0 {
		return
	}
	id := g.ID
	ahead, ok := b.thinkers.submit(id, func(ctx context.Context) { b.engineMove(ctx, id) })
	if !ok || ahead == 0 || in == nil {
		return
	}
	if err := in.tell(i18n.N(in.lang, "engine.queued", ahead, nil)); err != nil {
		b.log.Warn("telling a player the engine is busy", "game", id, "err", err)
	}
}

// resumeDeadline bounds the search for the games waiting for the engine.
const resumeDeadline = time.Minute

// resumeEngine queues the engine's move in every game where it is due:
// after a restart, or a reconnection, nothing is lost.
func (b *Bot) resumeEngine() {
	id, _ := b.botUser.Load().(string)
	if id == "" || b.play == nil {
		return
	}
	ctx, cancel := context.WithTimeout(b.life, resumeDeadline)
	defer cancel()
	gs, err := b.play.ActiveGames(ctx, id)
	if err != nil {
		b.log.Error("finding the engine's games", "err", err)
		return
	}
	for i := range gs {
		b.engineTurn(nil, &gs[i])
	}
}

// limits returns the search limits of an engine move at level in game
// id at ply: the level's, within the configured budget, seeded by the
// game and the ply so that a replayed game replays the same choices.
func (b *Bot) limits(level int, id uint64, ply int) engine.Limits {
	lim := engine.Level(level)
	lim.Seed = id<<16 ^ uint64(ply)
	c := b.cfg.Engine
	switch {
	case c.Nodes > 0:
		lim.Time = 0
		if lim.Nodes == 0 || lim.Nodes > c.Nodes {
			lim.Nodes = c.Nodes
		}
	case lim.Time > 0:
		lim.Time = lim.Time * c.MoveTime / engine.DefaultMoveTime
	default:
		lim.Time = c.MoveTime
	}
	return lim
}

// engines holds an engine for each worker: each search resets it first,
// so moves do not depend on which worker computed them.
var engines = sync.Pool{New: func() any { return engine.New(engine.Options{}) }}

// search runs one search on a pooled engine.
func search(ctx context.Context, p game.Position, lim engine.Limits) engine.Result {
	e := engines.Get().(*engine.Engine)
	defer engines.Put(e)
	e.Reset()
	return e.Search(ctx, p, lim)
}

// engineMove computes and plays the engine's move in game id, then posts
// the board in the game's channel. A game changed meanwhile (a draw
// offer, a takeback) is read again; one no longer waiting for the engine
// is left alone. A cancelled ctx (the bot stops) plays nothing: the
// next start queues the move again.
func (b *Bot) engineMove(ctx context.Context, id uint64) {
	for range 3 {
		g, err := b.play.Game(ctx, id)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			b.log.Error("reading a game for the engine", "game", id, "err", err)
			return
		}
		level := g.EngineToMove()
		if level == 0 {
			return
		}
		pos, err := g.Position()
		if err != nil {
			b.log.Error("reading a game for the engine", "game", id, "err", err)
			return
		}
		res := search(ctx, pos, b.limits(level, id, g.Ply()))
		if ctx.Err() != nil || res.Best == game.NullMove {
			return
		}
		a := play.Act{By: g.ToMove().ID, Game: id, Revision: g.Revision, At: b.cfg.Now()}
		r, err := b.play.Move(ctx, a, res.Best.UCI())
		var x *play.Refusal
		if errors.As(err, &x) && x.Kind == play.Stale {
			continue
		}
		if err != nil {
			b.log.Error("the engine's move was refused", "game", id, "move", res.Best.UCI(), "err", err)
			return
		}
		b.Metrics.Moves.Add(1)
		lang := b.guildLang(ctx, r.Game.Guild)
		v := view{g: &r.Game, played: r.Move, buttons: true, ping: true,
			headline: tr(lang, "game.moved", map[string]any{"Player": mention(a.By), "Move": "**" + r.Move.SAN + "**"})}
		m, err := b.boardMessage(ctx, lang, v)
		if err == nil {
			_, err = b.post(ctx, r.Game.Channel, m)
		}
		if err != nil {
			b.log.Error("posting the engine's move", "game", id, "err", err)
		}
		b.afterMove(ctx, &r)
		return
	}
}

// engineAnswersDraw has the engine answer a draw offer made to it in g:
// it accepts only when its evaluation finds the position dead equal. It
// returns the result of its answer, or ok false when g's offer is not
// the engine's to answer.
func (b *Bot) engineAnswersDraw(ctx context.Context, g *play.Game) (r play.Result, ok bool, err error) {
	o := g.DrawOffer
	if o == nil || g.Over() {
		return play.Result{}, false, nil
	}
	offerer, _ := g.ColorOf(o.By)
	if g.Engine[offerer.Other()] == 0 {
		return play.Result{}, false, nil
	}
	pos, err := g.Position()
	if err != nil {
		return play.Result{}, true, err
	}
	res := search(ctx, pos, engine.Limits{Nodes: drawNodes})
	a := play.Act{By: g.Seat(offerer.Other()).ID, Game: g.ID, Revision: g.Revision, At: b.cfg.Now()}
	if abs(res.Score) <= drawMargin {
		r, err = b.play.AcceptDraw(ctx, a)
	} else {
		r, err = b.play.DeclineDraw(ctx, a)
	}
	return r, true, err
}

// engineAnswersTakeback has the engine grant a takeback asked of it (play
// refuses them in rated games before they are asked). ok is false when
// the request is not the engine's to answer.
func (b *Bot) engineAnswersTakeback(ctx context.Context, g *play.Game) (r play.Result, ok bool, err error) {
	o := g.Takeback
	if o == nil || g.Over() {
		return play.Result{}, false, nil
	}
	asker, _ := g.ColorOf(o.By)
	if g.Engine[asker.Other()] == 0 {
		return play.Result{}, false, nil
	}
	a := play.Act{By: g.Seat(asker.Other()).ID, Game: g.ID, Revision: g.Revision, At: b.cfg.Now()}
	r, err = b.play.AcceptTakeback(ctx, a)
	return r, true, err
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
