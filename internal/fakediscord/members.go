package fakediscord

import (
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Members' permissions, computed as Discord computes them. In a guild,
// @everyone (a role whose id is the guild's) allows basePermissions; a
// member's roles (User.Roles, AddRole) and SetMemberPermissions grant
// more; Administrator, or owning the guild (SetOwner), grants all. In a
// channel, its overwrites (SetOverwrites) apply in Discord's order:
// @everyone's, then the member's roles' together (an allow beats a deny),
// then the member's own; without View Channel a member may do nothing
// there. A thread has its parent's. A DM or group DM is its recipients'.
//
// Discord lets no one use a command or a component in a channel they
// cannot view: the fake reports such a dispatch as a test error.
// Interactions carry the member's permissions in their channel, and
// resolved members' and channels' theirs, as on Discord.
//
// Discord offers a command whose default_member_permissions a member
// lacks to no one but those members an admin let use it in the server's
// Integrations settings (AllowCommand).

// Role is a role of a guild: what it allows its members. A user has the
// roles whose ids User.Roles lists, in every guild that has them.
type Role struct {
	ID          string // a fresh snowflake when empty
	Name        string // "role" and the id when empty
	Permissions int64  // discordgo.Permission* bits
}

// Overwrite is a channel's permission overwrite for a role (the guild's
// id for @everyone) or, when Member, a member.
type Overwrite struct {
	ID          string
	Member      bool
	Allow, Deny int64
}

// AddRole adds a role to a guild and returns it with its defaults filled
// in; a connected bot gets its GUILD_ROLE_CREATE.
func (s *Server) AddRole(guildID string, r Role) Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	if g == nil {
		s.tb.Errorf("fakediscord: AddRole: no guild %q", guildID)
		return r
	}
	if r.ID == "" {
		r.ID = newID()
	}
	if r.Name == "" {
		r.Name = "role" + r.ID
	}
	g.roles = append(g.roles, r)
	if !g.WithoutBot {
		s.broadcastLocked("GUILD_ROLE_CREATE", map[string]any{"guild_id": g.ID, "role": roleJSON(r, len(g.roles))})
	}
	return r
}

// SetOwner makes a user the owner of a guild.
func (s *Server) SetOwner(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.guilds[guildID]; g != nil {
		g.ownerID = userID
	} else {
		s.tb.Errorf("fakediscord: SetOwner: no guild %q", guildID)
	}
}

// SetOverwrites replaces a guild channel's permission overwrites for
// roles and members, as an admin edits them; a connected bot that sees
// the channel gets its CHANNEL_UPDATE. Threads have none of their own.
func (s *Server) SetOverwrites(channelID string, overwrites ...Overwrite) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	switch {
	case c == nil || c.GuildID == "":
		s.tb.Errorf("fakediscord: SetOverwrites: no guild channel %q", channelID)
		return
	case isThread(c):
		s.tb.Errorf("fakediscord: SetOverwrites: %q is a thread; Discord keeps overwrites on its parent", channelID)
		return
	}
	c.Overwrites = append([]Overwrite(nil), overwrites...)
	if s.botCanSeeLocked(c) {
		s.broadcastLocked("CHANNEL_UPDATE", s.channelJSON(c))
	}
}

// SetMemberPermissions gives a member of a guild the permissions perms on
// top of basePermissions, in every channel of the guild.
func (s *Server) SetMemberPermissions(guildID, userID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.memberPerms == nil {
		s.memberPerms = map[[2]string]int64{}
	}
	s.memberPerms[[2]string{guildID, userID}] = perms
}

// AllowCommand lets every member of a guild use the command name whatever
// its default_member_permissions, as an admin's override in the server's
// Integrations settings does.
func (s *Server) AllowCommand(guildID, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.allowed == nil {
		s.allowed = map[[2]string]bool{}
	}
	s.allowed[[2]string{guildID, name}] = true
}

// allPermissions is what an administrator or a guild's owner may do.
const allPermissions = int64(^uint64(0) >> 1)

// memberPermissionsLocked is what a member may do in a guild before any
// channel's overwrites.
func (s *Server) memberPermissionsLocked(guildID, userID string) int64 {
	g := s.guilds[guildID]
	if g == nil {
		return 0
	}
	if userID == g.ownerID {
		return allPermissions
	}
	p := int64(basePermissions) | s.memberPerms[[2]string{guildID, userID}]
	if u := s.users[userID]; u != nil {
		for _, r := range g.roles {
			if slices.Contains(u.Roles, r.ID) {
				p |= r.Permissions
			}
		}
	}
	if p&discordgo.PermissionAdministrator != 0 {
		return allPermissions
	}
	return p
}

// userPermissionsLocked is what a user may do in a channel: in a guild,
// their guild permissions with the channel's (a thread's parent's)
// overwrites applied in Discord's order; in a DM or group DM, its
// recipients may do what basePermissions allows.
func (s *Server) userPermissionsLocked(c *Channel, userID string) int64 {
	if c == nil {
		return 0
	}
	if c.GuildID == "" {
		if userID == c.RecipientID || slices.Contains(c.Recipients, userID) {
			return basePermissions
		}
		return 0
	}
	if isThread(c) {
		c = s.channels[c.ParentID]
		if c == nil {
			return 0
		}
	}
	p := s.memberPermissionsLocked(c.GuildID, userID)
	if p == allPermissions {
		return p
	}
	var roles []string
	if u := s.users[userID]; u != nil {
		roles = u.Roles
	}
	apply := func(allow, deny int64) { p = p&^deny | allow }
	for _, o := range c.Overwrites {
		if !o.Member && o.ID == c.GuildID {
			apply(o.Allow, o.Deny)
		}
	}
	var allow, deny int64
	for _, o := range c.Overwrites {
		if !o.Member && o.ID != c.GuildID && slices.Contains(roles, o.ID) {
			allow, deny = allow|o.Allow, deny|o.Deny
		}
	}
	apply(allow, deny)
	for _, o := range c.Overwrites {
		if o.Member && o.ID == userID {
			apply(o.Allow, o.Deny)
		}
	}
	if p&discordgo.PermissionViewChannel == 0 {
		return 0
	}
	return p
}

// userPermissionsJSON is a user's permissions in c as interactions carry
// them: a decimal string.
func (s *Server) userPermissionsJSON(c *Channel, userID string) string {
	return strconv.FormatInt(s.userPermissionsLocked(c, userID), 10)
}

// lacksPermissionsLocked says why Discord would not offer cmd to a member
// of guildID, or "".
func (s *Server) lacksPermissionsLocked(cmd *discordgo.ApplicationCommand, guildID, userID string) string {
	if cmd == nil || cmd.DefaultMemberPermissions == nil || guildID == "" || s.allowed[[2]string{guildID, cmd.Name}] {
		return ""
	}
	need := *cmd.DefaultMemberPermissions
	if s.memberPermissionsLocked(guildID, userID)&need != need {
		return "the member lacks its default_member_permissions " + strconv.FormatInt(need, 10)
	}
	return ""
}
