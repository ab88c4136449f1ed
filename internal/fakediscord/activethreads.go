package fakediscord

import "net/http"

// listActiveThreads is GET /guilds/{guild}/threads/active, with the
// bot's token: the guild's threads that are not archived and that the
// bot can see, public and private, each with its parent (parent_id), in
// the order they were made; and the bot's memberships of them, which
// the fake does not keep (an empty list).
func (s *Server) listActiveThreads(r *http.Request, rep *reply) {
	g, err := s.guildSeenLocked(r.PathValue("guild"))
	if err != nil {
		rep.err = err
		return
	}
	threads := []any{}
	for _, id := range s.channelOrder {
		c := s.channels[id]
		if c == nil || c.GuildID != g.ID || !isThread(c) || c.archived || s.canSeeLocked(c) != nil {
			continue
		}
		threads = append(threads, s.channelJSON(c))
	}
	rep.body = map[string]any{"threads": threads, "members": []any{}}
}
