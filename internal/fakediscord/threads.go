package fakediscord

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// defaultActiveThreads is Discord's limit of active threads in a guild.
const defaultActiveThreads = 1000

// archiveDurations are the auto_archive_duration values Discord takes, in
// minutes: an hour, a day, three days and a week.
var archiveDurations = []int{60, 1440, 4320, 10080}

func isThread(c *Channel) bool {
	switch c.Type {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

// now is the fake's clock for threads' idleness: real time, moved on by
// Pass.
func (s *Server) nowLocked() time.Time { return time.Now().Add(s.skew) }

// activeThreadsLocked counts a guild's threads that are not archived.
func (s *Server) activeThreadsLocked(guildID string) int {
	n := 0
	for _, c := range s.channels {
		if c.GuildID == guildID && isThread(c) && !c.archived {
			n++
		}
	}
	return n
}

func (s *Server) threadLimitLocked(guildID string) int {
	if g := s.guilds[guildID]; g != nil && g.ActiveThreadLimit > 0 {
		return g.ActiveThreadLimit
	}
	return defaultActiveThreads
}

// Pass moves the fake's clock for threads on by d, as if that much time
// went by with nothing said: every thread with no message for its
// auto_archive_duration is archived, with a THREAD_UPDATE, as Discord
// does. It returns the ids of the threads it archived.
func (s *Server) Pass(d time.Duration) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skew += d
	var archived []string
	for _, id := range s.channelOrder {
		c := s.channels[id]
		if c == nil || !isThread(c) || c.archived {
			continue
		}
		if s.nowLocked().Sub(c.lastActive) >= time.Duration(c.archiveMinutes)*time.Minute {
			s.setArchivedLocked(c, true)
			archived = append(archived, c.ID)
		}
	}
	return archived
}

// Archive archives a thread, as a moderator or Discord's idle timer does.
func (s *Server) Archive(threadID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.channels[threadID]; c != nil && isThread(c) {
		s.setArchivedLocked(c, true)
	} else {
		s.tb.Errorf("fakediscord: Archive: no thread %q", threadID)
	}
}

// Say is a member's message in a channel, as far as threads care: in an
// archived thread that is not locked it unarchives the thread, as
// Discord does for anyone who may post there, and in any thread it
// restarts the idle timer (Pass). The message itself is not kept: the bot
// reads no messages but its own. In a locked thread it answers 403
// (160005), past the guild's ActiveThreadLimit 400 (160006).
func (s *Server) Say(userID, channelID string) *Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	switch {
	case c == nil:
		return errUnknownChannel
	case s.users[userID] == nil:
		return errUnknownUser
	case !isThread(c):
		return nil
	case c.locked:
		return errThreadLocked
	case c.archived && s.activeThreadsLocked(c.GuildID) >= s.threadLimitLocked(c.GuildID):
		return errActiveThreads
	case c.archived:
		s.setArchivedLocked(c, false)
	}
	c.lastActive = s.nowLocked()
	return nil
}

// ThreadStartsInThreads is how many times a thread was asked to start
// inside a thread, which Discord refuses (400, 50024): a bot that knows
// where it is asks the thread's parent instead.
func (s *Server) ThreadStartsInThreads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threadsInThreads
}

// DeleteMessage deletes a message, as its author or a moderator does.
func (s *Server) DeleteMessage(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.messages[id] == nil {
		s.tb.Errorf("fakediscord: DeleteMessage: no message %q", id)
		return
	}
	delete(s.messages, id)
}

// Lock locks a thread, as a moderator does, and with archived closes it
// too: only members with Manage Threads (never the bot) may then post in it
// or unarchive it.
func (s *Server) Lock(threadID string, archived bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[threadID]
	if c == nil || !isThread(c) {
		s.tb.Errorf("fakediscord: Lock: no thread %q", threadID)
		return
	}
	c.locked = true
	if archived {
		c.archived, c.archivedAt = true, s.nowLocked()
	}
	s.broadcastLocked("THREAD_UPDATE", s.channelJSON(c))
}

// DeleteChannel deletes a channel or thread, as a moderator does: a
// THREAD_DELETE (CHANNEL_DELETE for a channel, and for each of its
// threads), and from then on 404 Unknown Channel (10003) for it and its
// messages.
func (s *Server) DeleteChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[id]
	if c == nil {
		s.tb.Errorf("fakediscord: DeleteChannel: no channel %q", id)
		return
	}
	for _, t := range s.channels {
		if t.ParentID == id {
			s.deleteChannelLocked(t)
		}
	}
	s.deleteChannelLocked(c)
}

func (s *Server) deleteChannelLocked(c *Channel) {
	delete(s.channels, c.ID)
	s.channelOrder = slices.DeleteFunc(s.channelOrder, func(id string) bool { return id == c.ID })
	for id, m := range s.messages {
		if m.ChannelID == c.ID {
			delete(s.messages, id)
		}
		if m.ThreadID == c.ID {
			m.ThreadID = ""
		}
	}
	if isThread(c) {
		s.broadcastLocked("THREAD_DELETE", map[string]any{"id": c.ID, "guild_id": c.GuildID, "parent_id": c.ParentID, "type": c.Type})
		return
	}
	s.broadcastLocked("CHANNEL_DELETE", s.channelJSON(c))
}

func (s *Server) setArchivedLocked(c *Channel, archived bool) {
	c.archived = archived
	if archived {
		c.archivedAt = s.nowLocked()
	} else {
		c.lastActive = s.nowLocked()
	}
	s.broadcastLocked("THREAD_UPDATE", s.channelJSON(c))
}

// ThreadMembers returns the ids of a thread's members, the bot first when
// it is one.
func (s *Server) ThreadMembers(threadID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[threadID]
	if c == nil {
		return nil
	}
	return append([]string(nil), c.members...)
}

// postableLocked refuses a bot's message in a channel as Discord does for
// the thread's state, and unarchives an archived thread that is not
// locked, as a message sent there does.
func (s *Server) postableLocked(c *Channel) *Error {
	if !isThread(c) {
		return nil
	}
	if c.locked {
		return errThreadLocked
	}
	if c.archived {
		if s.activeThreadsLocked(c.GuildID) >= s.threadLimitLocked(c.GuildID) {
			return errActiveThreads
		}
		s.setArchivedLocked(c, false)
	}
	c.lastActive = s.nowLocked()
	return nil
}

// editableLocked refuses a change to what is in an archived thread.
func editableLocked(c *Channel) *Error {
	if c != nil && isThread(c) && c.archived {
		return errArchivedThread
	}
	return nil
}

// modifyChannel is PATCH /channels/{channel}: the bot may rename its
// threads, change their archive time and archive or unarchive them, but
// not lock them (that needs Manage Threads) nor change a channel.
func (s *Server) modifyChannel(r *http.Request, rep *reply) {
	call := Call{Kind: KindChannelEdit, JSON: rep.raw}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	c := s.channels[r.PathValue("channel")]
	if rep.err = s.canSeeLocked(c); rep.err != nil {
		return
	}
	if !isThread(c) {
		rep.err = errMissingPermissions
		return
	}
	var p struct {
		Name                *string `json:"name"`
		Archived            *bool   `json:"archived"`
		Locked              *bool   `json:"locked"`
		AutoArchiveDuration *int    `json:"auto_archive_duration"`
	}
	if json.Unmarshal(rep.raw, &p) != nil {
		rep.err = invalid("not a thread modification")
		return
	}
	unarchive := p.Archived != nil && !*p.Archived && c.archived
	switch {
	case p.Locked != nil && *p.Locked != c.locked:
		rep.err = errMissingPermissions
	case c.locked && unarchive:
		rep.err = errMissingPermissions
	case c.archived && !unarchive && (p.Name != nil || p.AutoArchiveDuration != nil):
		rep.err = errArchivedThread
	case p.Name != nil && (*p.Name == "" || len([]rune(*p.Name)) > 100):
		rep.err = invalid("a thread's name has 1 to 100 characters", "name")
	case p.AutoArchiveDuration != nil && !slices.Contains(archiveDurations, *p.AutoArchiveDuration):
		rep.err = invalid("auto_archive_duration is 60, 1440, 4320 or 10080", "auto_archive_duration")
	case unarchive && s.activeThreadsLocked(c.GuildID) >= s.threadLimitLocked(c.GuildID):
		rep.err = errActiveThreads
	}
	if rep.err != nil {
		return
	}
	if p.Name != nil {
		c.Name = *p.Name
	}
	if p.AutoArchiveDuration != nil {
		c.archiveMinutes = *p.AutoArchiveDuration
	}
	if p.Archived != nil && *p.Archived != c.archived {
		s.setArchivedLocked(c, *p.Archived)
	} else {
		s.broadcastLocked("THREAD_UPDATE", s.channelJSON(c))
	}
	call.Channel = *c
	rep.body = s.channelJSON(c)
}

// addThreadMember is PUT /channels/{thread}/thread-members/{user}.
func (s *Server) addThreadMember(r *http.Request, rep *reply) {
	call := Call{Kind: KindThreadMember, JSON: rep.raw}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	c := s.channels[r.PathValue("channel")]
	id := r.PathValue("user")
	switch {
	case s.canSeeLocked(c) != nil:
		rep.err = s.canSeeLocked(c)
	case !isThread(c):
		rep.err = errChannelType
	case c.archived:
		rep.err = errArchivedThread
	case id != "@me" && s.users[id] == nil:
		rep.err = errUnknownUser
	}
	if rep.err != nil {
		return
	}
	if id == "@me" {
		id = s.bot.ID
	}
	call.Channel, call.UserID = *c, id
	if !slices.Contains(c.members, id) {
		c.members = append(c.members, id)
		s.broadcastLocked("THREAD_MEMBERS_UPDATE", map[string]any{
			"id": c.ID, "guild_id": c.GuildID, "member_count": len(c.members),
			"added_members": []any{map[string]any{"id": c.ID, "user_id": id, "join_timestamp": timestamp(time.Now()), "flags": 0}},
		})
	}
}

// Archived tells whether a thread is archived.
func (c Channel) Archived() bool { return c.archived }

// Locked tells whether a thread is locked.
func (c Channel) Locked() bool { return c.locked }

// AutoArchiveMinutes is a thread's auto_archive_duration.
func (c Channel) AutoArchiveMinutes() int { return c.archiveMinutes }

// SetActiveThreadLimit changes how many threads may be active at once in a
// guild (Guild.ActiveThreadLimit).
func (s *Server) SetActiveThreadLimit(guildID string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.guilds[guildID]; g != nil {
		g.ActiveThreadLimit = n
	} else {
		s.tb.Errorf("fakediscord: SetActiveThreadLimit: no guild %q", guildID)
	}
}

// SetNoMutualGuild changes whether a user shares no server with the bot
// (User.NoMutualGuild).
func (s *Server) SetNoMutualGuild(userID string, none bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.users[userID]; u != nil {
		u.NoMutualGuild = none
	} else {
		s.tb.Errorf("fakediscord: SetNoMutualGuild: no user %q", userID)
	}
}
