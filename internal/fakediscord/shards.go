package fakediscord

import "strconv"

// Gateway shards, as Discord routes events to them: a session that
// identified as shard i of n gets the events of the guilds whose
// shard_id = (guild_id >> 22) % n is i, and shard 0 those of no guild
// (direct messages). A session without a shard is shard 0 of 1, and gets
// everything. Discord sends a guild's GUILD_CREATE and its interactions
// to its shard alone, so that two processes, shard 0 and shard 1 of 2,
// never both act on one interaction.
type shard struct{ id, count int }

// holds reports whether the shard gets the events of guild ("" for
// direct messages).
func (sh shard) holds(guild string) bool {
	if sh.count <= 1 {
		return true
	}
	if guild == "" {
		return sh.id == 0
	}
	id, err := strconv.ParseUint(guild, 10, 64)
	if err != nil {
		return sh.id == 0
	}
	return int((id>>22)%uint64(sh.count)) == sh.id
}

// ShardOf is the shard of count that gets guild's events.
func ShardOf(guild string, count int) int {
	for i := range count {
		if (shard{i, count}).holds(guild) {
			return i
		}
	}
	return 0
}

// broadcastGuildLocked dispatches an event of guild on every session
// whose shard holds it, and returns how many there were.
func (s *Server) broadcastGuildLocked(guild, event string, d any) int {
	n := 0
	for _, sess := range s.sessions {
		if !sess.dead && sess.shard.holds(guild) {
			s.sendLocked(sess, event, d)
			n++
		}
	}
	return n
}
