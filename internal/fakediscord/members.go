package fakediscord

import (
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// Members' permissions. Every member may do what basePermissions allows;
// SetMemberPermissions grants a member more in a guild (an admin's Manage
// Server, say). Discord offers a command whose default_member_permissions
// a member lacks to no one but those members an admin let use it in the
// server's Integrations settings (AllowCommand).

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

// memberPermissionsLocked is what a member may do in a guild.
func (s *Server) memberPermissionsLocked(guildID, userID string) int64 {
	return basePermissions | s.memberPerms[[2]string{guildID, userID}]
}

// memberPermissionsJSON is a member's permissions as an interaction
// carries them: a decimal string.
func (s *Server) memberPermissionsJSON(guildID, userID string) string {
	return strconv.FormatInt(s.memberPermissionsLocked(guildID, userID), 10)
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
