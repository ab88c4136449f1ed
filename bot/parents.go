package bot

import "sync"

// parents knows the parent channel of each thread the bot has heard of,
// and "" for the channels that are no threads. A thread's parent never
// changes, so what the gateway's events, the threads the bot opens and
// Discord's answers tell is kept for the process's life; the threads'
// code, /analyze and the visibility rule's look-ups all note and read it
// here.
type parents struct {
	byChannel sync.Map // channel id → parent channel id, "" for no thread
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
