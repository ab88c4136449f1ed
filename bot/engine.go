package bot

import (
	"fmt"
	"math/rand/v2"
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
// The engine's seat is the bot's own user, named after the level in the
// language of the place (i18n.EngineName); play.Game.Engine remembers the level of each seat.
// The engine plays through package round: its turn is an item of the
// outbox, which the delivery loop of any process hands to the pool.
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

// engineChallenge starts a game against the engine at once, in a new
// thread (or in the channel where threads are not allowed), and has the
// engine move first when it has White.
func (cs *challenges) engineChallenge(in *interaction, n play.NewChallenge, level int) error {
	switch {
	case in.private():
		// The bot is no member of a DM between users: its moves would
		// have nowhere to go.
		return in.tell(tr(in.lang, "install.engine_elsewhere", nil))
	case in.i.GuildID == "" && !in.botDM():
		return in.tell(tr(in.lang, "error.guild_only", nil))
	}
	if !in.botDM() {
		if err := in.mayHostGame(); err != nil {
			return err
		}
	}
	if level <= 0 {
		level = cs.cfg.Engine.DefaultLevel
	}
	level = min(max(level, 1), engine.Levels)
	// The engine's seat is named in the language of the place it plays
	// in, as the thread's name is.
	bot := play.Seat{ID: cs.self.userID(), Name: i18n.EngineName(in.public, level)}
	white, black := n.From, bot
	// #nosec G404 -- the colours of a casual game against the engine, not a secret
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
	rated := n.Rated && cs.cfg.Engine.Rated
	if n.Rated && !rated {
		notes = append(notes, tr(in.lang, "engine.casual_only", nil))
	}
	start := play.NewGame{Guild: n.Guild, White: white, Black: black,
		Rated: rated, DaysPerMove: n.DaysPerMove, Time: n.Time, Engine: levels, At: cs.cfg.Now(), Caps: cs.cfg.Limits.caps()}
	// Refused before a thread is opened for it; Start checks the caps
	// again in its transaction.
	if err := cs.play.MayStart(in.ctx, start); err != nil {
		return err
	}
	// Opening a thread may wait on Discord: acknowledge first.
	if err := in.deferReply(false); err != nil {
		return err
	}
	name := truncate(tr(in.public, "thread.name", map[string]any{"White": white.Name, "Black": black.Name}), 100)
	var place threadPlace
	var err error
	if in.botDM() || !cs.serverSettings(in).Threads.Or(true) {
		// A DM has no threads, and a server may want none: the game is
		// played in the channel.
		place = threadPlace{channel: in.i.ChannelID}
	} else {
		place, err = cs.threads.openGameThread(in.ctx, in, name, "")
	}
	if err != nil {
		return fmt.Errorf("bot: opening a thread for an engine game: %w", err)
	}
	channel, thread := place.channel, place.thread
	if place.note != "" {
		notes = append(notes, place.note)
	}
	start.Channel, start.At = channel, cs.cfg.Now()
	started, err := cs.round.Start(in.ctx, start)
	if err != nil {
		if thread != "" {
			if _, derr := cs.s.ChannelDelete(thread, discordgo.WithContext(in.ctx)); derr != nil {
				cs.log.Warn("could not delete the thread of an engine game not started", "thread", thread, "err", derr)
			}
		}
		return err
	}
	// The outbox posts the board in the game's channel, and the pool has
	// the engine's first move if it has White.
	defer cs.outbox.wakeUp()
	if place.later > 0 {
		cs.threads.moveLater(in.ctx, started.Game.ID, channel, place.later)
	}
	if thread != "" {
		cs.threads.addPlayers(in.ctx, thread, n.From.ID)
	}
	m := &message{Content: tr(in.public, "engine.started", map[string]any{"Player": mention(in.user), "Level": level, "Channel": channelRef(&play.Game{Guild: n.Guild, Channel: channel})})}
	for _, note := range notes {
		m.Content += "\n" + note
	}
	m.mentionOnly()
	return in.edit(m)
}
