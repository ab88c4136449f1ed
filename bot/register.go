package bot

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/bwmarrin/discordgo"
)

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
	if b.registered.Load() {
		return nil
	}
	// The other shards only read the commands, for their ids (/help).
	readOnly := b.cfg.ShardID != 0
	cmds := declarations(&b.cfg)
	app := b.app.Load().(string)
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
			b.noteCommandIDs(guild, have)
			continue
		}
		if want == nil {
			want = []*discordgo.ApplicationCommand{}
		}
		got, err := b.overwriteCommands(app, guild, want)
		if err != nil {
			return fmt.Errorf("registering the commands of %q: %w", guild, redact(err))
		}
		b.noteCommandIDs(guild, got)
		b.log.Info("registered the commands", "guild", guild, "commands", len(want))
	}
	b.registered.Store(true)
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
