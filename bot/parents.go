package bot

import (
	"context"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// parents knows the parent channel of each thread the bot has heard of,
// and "" for the channels that are no threads. A thread's parent never
// changes, so what the gateway's events, the threads the bot opens and
// Discord's answers tell is kept for the process's life; the threads'
// code, /analyze and the visibility rule's look-ups all note and read it
// here.
type parents struct {
	discord   *discordgo.Session // asked of a channel no event told
	byChannel sync.Map           // channel id → parent channel id, "" for no thread
}

// note remembers channel's parent, "" when channel is no thread.
func (p *parents) note(channel, parent string) { p.byChannel.Store(channel, parent) }

// known returns channel's parent, if it was noted.
func (p *parents) known(channel string) (string, bool) {
	v, ok := p.byChannel.Load(channel)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// parentOf returns the channel a thread belongs to, "" if channel is no
// thread or is unknown. A thread's parent never changes: each channel is
// asked of Discord once, unless GUILD_CREATE listed it (catchUpThreads).
// A channel's own parent is its category, not reported here.
func (p *parents) parentOf(ctx context.Context, channel string) string {
	if p, ok := p.known(channel); ok {
		return p
	}
	ch, err := p.discord.Channel(channel, discordgo.WithContext(ctx))
	switch {
	case err == nil && ch != nil:
		parent := ""
		if isThreadType(ch.Type) {
			parent = ch.ParentID
		}
		p.note(channel, parent)
		return parent
	case errCode(err) == codeUnknownChannel || isForbidden(err):
		p.note(channel, "")
	}
	return ""
}
