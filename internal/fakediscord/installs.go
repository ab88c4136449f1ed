package fakediscord

import (
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// appPermissionsUserInstall is what an interaction's app_permissions are
// where the bot is not a member — a DM or group DM between users, a server
// that did not add it: only what an interaction's answer may carry.
const appPermissionsUserInstall = discordgo.PermissionAttachFiles | discordgo.PermissionEmbedLinks | discordgo.PermissionMentionEveryone

// maxUserInstallFollowups is how many follow-ups Discord takes per
// interaction from an app that only a user's install authorizes there.
// Discord's changelog of June 2024 sets the limit without naming the
// refusal's code; the fake answers 400 Invalid Form Body.
const maxUserInstallFollowups = 5

// AddPrivateChannel adds a DM between two users, or a group DM of three or
// more, without the bot: a place where only users who installed the app
// to their account (User.Installed) use its commands, as interactions of
// context 2, and where the bot's own posts are refused with 403 Missing
// Access (50001), as Discord refuses them.
func (s *Server) AddPrivateChannel(userIDs ...string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range userIDs {
		if s.users[id] == nil {
			s.tb.Errorf("fakediscord: AddPrivateChannel: no user %q", id)
			return Channel{}
		}
	}
	if len(userIDs) < 2 {
		s.tb.Errorf("fakediscord: AddPrivateChannel: %d users, want 2 or more", len(userIDs))
		return Channel{}
	}
	c := &Channel{ID: newID(), Type: discordgo.ChannelTypeDM, Recipients: slices.Clone(userIDs), created: time.Now()}
	if len(userIDs) > 2 {
		c.Type, c.Name = discordgo.ChannelTypeGroupDM, "group"
	}
	s.addChannelLocked(c)
	return *c
}

// InstallApp makes the user one who installed the app to their account
// (integration type 1), or uninstalled it.
func (s *Server) InstallApp(userID string, installed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.users[userID]; u != nil {
		u.Installed = installed
	} else {
		s.tb.Errorf("fakediscord: InstallApp: no user %q", userID)
	}
}

// private reports whether c is a DM or group DM between users, not the
// bot's.
func (c *Channel) private() bool { return len(c.Recipients) > 0 }

// botCanSeeLocked reports whether the bot is a member where c is: a
// server that added it, or its own DM with a user.
func (s *Server) botCanSeeLocked(c *Channel) bool {
	if c.GuildID != "" {
		g := s.guilds[c.GuildID]
		return g != nil && !g.WithoutBot
	}
	return !c.private()
}

// guildSeenLocked is the guild of id if the bot is in it, or the error
// Discord answers the bot for it.
func (s *Server) guildSeenLocked(id string) (*Guild, *Error) {
	g := s.guilds[id]
	switch {
	case g == nil:
		return nil, errUnknownGuild
	case g.WithoutBot:
		return nil, errMissingAccess
	}
	return g, nil
}

// installContextLocked is how an interaction by user in c is authorized:
// its context, its authorizing_integration_owners, and whether the
// command comes from the user's own install (integration type 1) because
// the bot is not a member there.
func (s *Server) installContextLocked(c *Channel, u *User) (discordgo.InteractionContextType, map[string]string, bool) {
	switch {
	case c.private():
		return discordgo.InteractionContextPrivateChannel, map[string]string{"1": u.ID}, true
	case c.GuildID == "":
		owners := map[string]string{"0": "0"}
		if u.Installed {
			owners["1"] = u.ID
		}
		return discordgo.InteractionContextBotDM, owners, false
	}
	g := s.guilds[c.GuildID]
	if g.WithoutBot {
		return discordgo.InteractionContextGuild, map[string]string{"1": u.ID}, true
	}
	owners := map[string]string{"0": g.ID}
	if u.Installed {
		owners["1"] = u.ID
	}
	return discordgo.InteractionContextGuild, owners, false
}

// offeredLocked reports why Discord would not offer the registered
// command cmd to user u in c ("" when it would): the command's contexts
// must include the interaction's, and where the bot is not a member the
// user must have installed the app and the command must be installable
// to users.
func (s *Server) offeredLocked(cmd *discordgo.ApplicationCommand, c *Channel, u *User) string {
	ctx, _, userInstall := s.installContextLocked(c, u)
	if userInstall && !u.Installed {
		return "the user has not installed the app, and the bot is not a member here"
	}
	if cmd == nil {
		return ""
	}
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	if cmd.Contexts != nil {
		contexts = *cmd.Contexts
	}
	types := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	if cmd.IntegrationTypes != nil {
		types = *cmd.IntegrationTypes
	}
	switch {
	case !slices.Contains(contexts, ctx):
		return "its contexts " + strconv.Quote(joinContexts(contexts)) + " leave out context " + strconv.Itoa(int(ctx))
	case userInstall && !slices.Contains(types, discordgo.ApplicationIntegrationUserInstall):
		return "it cannot be installed to users (integration_types lacks 1)"
	case !userInstall && !slices.Contains(types, discordgo.ApplicationIntegrationGuildInstall):
		return "it cannot be installed to servers (integration_types lacks 0)"
	}
	return ""
}

func joinContexts(cs []discordgo.InteractionContextType) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += ","
		}
		s += strconv.Itoa(int(c))
	}
	return s
}

// registeredLocked is the command the bot registered under name and type
// for c's guild or globally, or nil.
func (s *Server) registeredLocked(guildID, name string, typ discordgo.ApplicationCommandType) *discordgo.ApplicationCommand {
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.commands[scope] {
			if c.Name == name && c.Type == typ {
				return c
			}
		}
	}
	return nil
}
