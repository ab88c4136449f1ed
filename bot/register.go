package bot

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"
)

// identity is what READY tells the bot of itself, and what registering
// the commands left: the application's and the bot user's ids, whether
// the commands are where they belong, and their ids for /help. READY
// writes it, on any shard and at any reconnection; interactions read it.
type identity struct {
	app        atomic.Value // string: the application id
	user       atomic.Value // string: the bot's own user id
	registered atomic.Bool  // the commands are where they belong
	commandIDs sync.Map     // guild ("" for global) NUL name → id
	ready      chan struct{}
	readyOnce  sync.Once
}

func newIdentity() *identity {
	i := &identity{ready: make(chan struct{})}
	i.app.Store("")
	i.user.Store("")
	return i
}

func (i *identity) noteApp(id string)  { i.app.Store(id) }
func (i *identity) noteUser(id string) { i.user.Store(id) }

// appID is the application's id, "" before READY.
func (i *identity) appID() string { return i.app.Load().(string) }

// userID is the bot's own user id, the engine's seat; "" before READY.
func (i *identity) userID() string { return i.user.Load().(string) }

// isEngine reports whether user is the bot itself, the engine's seat.
func (i *identity) isEngine(user string) bool {
	id := i.userID()
	return id != "" && user == id
}

// markReady closes the channel readied returns, once.
func (i *identity) markReady() { i.readyOnce.Do(func() { close(i.ready) }) }

// readied is closed once READY came and the commands were registered.
func (i *identity) readied() <-chan struct{} { return i.ready }

// markRegistered notes that the commands are where they belong: no
// later READY registers them again.
func (i *identity) markRegistered()    { i.registered.Store(true) }
func (i *identity) isRegistered() bool { return i.registered.Load() }

// noteCommandIDs remembers the ids Discord gave the commands registered
// in guild ("" globally), for /help's mentions.
func (i *identity) noteCommandIDs(guild string, cmds []*discordgo.ApplicationCommand) {
	for _, c := range cmds {
		if c != nil && c.ID != "" {
			i.commandIDs.Store(guild+"\x00"+c.Name, c.ID)
		}
	}
}

// commandID is the id of a registered command as a member of guild sees
// it: the guild's own registration, else the global one; "" if unknown.
func (i *identity) commandID(guild, name string) string {
	for _, scope := range []string{guild, ""} {
		if id, ok := i.commandIDs.Load(scope + "\x00" + name); ok {
			return id.(string)
		}
	}
	return ""
}

// registerGuildsChecked is the most servers of READY whose own command
// sets are looked at, to remove, when the commands are global: a bot in
// more servers than that is past development, where guild sets come from.
const registerGuildsChecked = 25

// register puts the commands where they belong: in each development guild
// (Config.Guilds), with the global set emptied so that no command shows
// twice, or globally, with the sets of the servers in READY emptied. Only
// shard 0 does it, once per process, and only where Discord's set differs
// from the declarations: every READY of every shard overwrote them
// before. Either way the commands' ids are noted, for /help.
func (b *Bot) register(r *discordgo.Ready) error {
	if b.self.isRegistered() {
		return nil
	}
	// The other shards only read the commands, for their ids (/help).
	readOnly := b.cfg.ShardID != 0
	cmds := declarations(&b.cfg)
	app := b.self.appID()
	put := map[string][]*discordgo.ApplicationCommand{}
	if len(b.cfg.Guilds) == 0 {
		put[""] = cmds
		for i, g := range r.Guilds {
			if i >= registerGuildsChecked {
				break
			}
			put[g.ID] = nil
		}
	} else {
		put[""] = nil
		for _, g := range b.cfg.Guilds {
			put[g] = cmds
		}
	}
	for _, guild := range slices.Sorted(maps.Keys(put)) {
		want := put[guild]
		have, err := b.s.ApplicationCommands(app, guild)
		if err != nil {
			if guild != "" && len(want) == 0 {
				continue // a server that lets the bot read none: nothing of ours there
			}
			return fmt.Errorf("reading the commands of %q: %w", guild, redact(err))
		}
		if guild == "" {
			want = b.withEntryPoint(want, have)
		}
		if readOnly || sameCommands(have, want) {
			b.self.noteCommandIDs(guild, have)
			continue
		}
		if want == nil {
			want = []*discordgo.ApplicationCommand{}
		}
		got, err := b.overwriteCommands(app, guild, want)
		if err != nil {
			return fmt.Errorf("registering the commands of %q: %w", guild, redact(err))
		}
		b.self.noteCommandIDs(guild, got)
		b.log.Info("registered the commands", "guild", guild, "commands", len(want))
	}
	b.self.markRegistered()
	return nil
}

// sameCommands reports whether Discord's commands are the declared ones,
// field for field but for what Discord adds (ids, versions).
func sameCommands(have, want []*discordgo.ApplicationCommand) bool {
	if len(have) != len(want) {
		return false
	}
	canon := func(cs []*discordgo.ApplicationCommand) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			d := *c
			d.ID, d.ApplicationID, d.GuildID, d.Version = "", "", "", ""
			if d.Type == 0 {
				d.Type = discordgo.ChatApplicationCommand
			}
			b, _ := json.Marshal(d)
			out[i] = fmt.Sprintf("%d %s %s", d.Type, d.Name, b)
		}
		slices.SortFunc(out, func(a, b string) int { return cmp.Compare(a, b) })
		return out
	}
	return slices.Equal(canon(have), canon(want))
}
