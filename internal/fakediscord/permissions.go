package fakediscord

import (
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// basePermissions are what the bot and users may do in a channel unless
// the channel denies some of it.
const basePermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory |
	discordgo.PermissionAddReactions | discordgo.PermissionUseExternalEmojis |
	discordgo.PermissionCreatePublicThreads | discordgo.PermissionCreatePrivateThreads |
	discordgo.PermissionSendMessagesInThreads

const threadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionCreatePrivateThreads

// botPermissionsLocked is what the bot may do in a channel: the base
// permissions less what the channel denies, and a thread what its parent
// denies as well.
func (s *Server) botPermissionsLocked(c *Channel) int64 {
	if c == nil {
		return 0
	}
	p := int64(basePermissions)
	for c != nil && c.GuildID != "" {
		p &^= c.Deny
		if c.NoThreads {
			p &^= threadPermissions
		}
		if c.ParentID == "" {
			break
		}
		c = s.channels[c.ParentID]
	}
	if p&discordgo.PermissionViewChannel == 0 {
		return 0
	}
	return p
}

// permissionsLocked is an interaction's app_permissions in c.
func (s *Server) permissionsLocked(c *Channel) string {
	if !s.botCanSeeLocked(c) {
		return strconv.FormatInt(appPermissionsUserInstall, 10)
	}
	return strconv.FormatInt(s.botPermissionsLocked(c), 10)
}

// canSeeLocked refuses a request on a channel that is gone (10003) or that
// the bot may not view (50001).
func (s *Server) canSeeLocked(c *Channel) *Error {
	switch {
	case c == nil:
		return errUnknownChannel
	case !s.botCanSeeLocked(c) || s.botPermissionsLocked(c)&discordgo.PermissionViewChannel == 0:
		return errMissingAccess
	}
	return nil
}

// mayLocked refuses what the bot lacks the permission for in a channel.
func (s *Server) mayLocked(c *Channel, perm int64) *Error {
	if err := s.canSeeLocked(c); err != nil {
		return err
	}
	if s.botPermissionsLocked(c)&perm != perm {
		return errMissingPermissions
	}
	return nil
}

// SetPermissions sets the permissions a channel denies the bot, as a
// server's admin changes them; its threads follow. Interactions carry the
// new permissions in app_permissions from now on.
func (s *Server) SetPermissions(channelID string, deny int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	if c == nil {
		s.tb.Errorf("fakediscord: SetPermissions: no channel %q", channelID)
		return
	}
	c.Deny = deny
	s.broadcastLocked("CHANNEL_UPDATE", s.channelJSON(c))
}
