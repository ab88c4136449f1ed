package fakediscord

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/gif" // attachments' sizes
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord's errors, as the fake answers them.
var (
	errUnauthorized       = &Error{Status: 401, Code: 0, Message: "401: Unauthorized"}
	errNotFound           = &Error{Status: 404, Code: 0, Message: "404: Not Found"}
	errMissingAccess      = &Error{Status: 403, Code: 50001, Message: "Missing Access"}
	errMissingPermissions = &Error{Status: 403, Code: 50013, Message: "Missing Permissions"}
	errCannotDM           = &Error{Status: 403, Code: 50007, Message: "Cannot send messages to this user"}
	errUnknownChannel     = &Error{Status: 404, Code: 10003, Message: "Unknown Channel"}
	errUnknownGuild       = &Error{Status: 404, Code: 10004, Message: "Unknown Guild"}
	errUnknownMember      = &Error{Status: 404, Code: 10007, Message: "Unknown Member"}
	errUnknownMessage     = &Error{Status: 404, Code: 10008, Message: "Unknown Message"}
	errUnknownUser        = &Error{Status: 404, Code: 10013, Message: "Unknown User"}
	errUnknownWebhook     = &Error{Status: 404, Code: 10015, Message: "Unknown Webhook"}
	errUnknownApplication = &Error{Status: 404, Code: 10002, Message: "Unknown Application"}
	errUnknownInteraction = &Error{Status: 404, Code: 10062, Message: "Unknown interaction"}
	errAcknowledged       = &Error{Status: 400, Code: 40060, Message: "Interaction has already been acknowledged."}
	errEmptyMessage       = &Error{Status: 400, Code: 50006, Message: "Cannot send an empty message"}
	errChannelType        = &Error{Status: 400, Code: 50024, Message: "Cannot execute action on this channel type"}
	errArchivedThread     = &Error{Status: 400, Code: 50083, Message: "Thread is archived"}
	errNoMutualGuilds     = &Error{Status: 403, Code: 50278, Message: "Cannot send messages to this user due to having no mutual guilds"}
	errThreadExists       = &Error{Status: 400, Code: 160004, Message: "A thread has already been created for this message"}
	errThreadLocked       = &Error{Status: 403, Code: 160005, Message: "Thread is locked"}
	errActiveThreads      = &Error{Status: 400, Code: 160006, Message: "Maximum number of active threads reached"}
	errTooLarge           = &Error{Status: 413, Code: 40005, Message: "Request entity too large"}
)

// invalid is Discord's 400 Invalid Form Body (50035), with the reason under
// the field's path in errors, as Discord nests it.
func invalid(reason string, path ...string) *Error {
	var errs any = map[string]any{"_errors": []map[string]string{{"code": "BASE_TYPE_INVALID", "message": reason}}}
	for i := len(path) - 1; i >= 0; i-- {
		errs = map[string]any{path[i]: errs}
	}
	return &Error{Status: 400, Code: 50035, Message: "Invalid Form Body", Errors: errs}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, e *Error) { writeJSON(w, e.Status, e) }

// timestamp formats a time as Discord does.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000+00:00") }

// nullable is JSON null for "".
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func userJSON(u User, bot bool) map[string]any {
	m := map[string]any{
		"id": u.ID, "username": u.Username, "global_name": nullable(u.GlobalName),
		"discriminator": "0", "avatar": nil, "public_flags": 0,
	}
	if bot {
		m["bot"] = true
	}
	return m
}

// memberJSON is a guild member; with user false it is the partial member of
// resolved data.
func memberJSON(u User, bot bool, joined time.Time, withUser bool) map[string]any {
	m := map[string]any{
		"nick": nil, "avatar": nil, "roles": []string{}, "joined_at": timestamp(joined),
		"premium_since": nil, "deaf": false, "mute": false, "flags": 0, "pending": false,
		"communication_disabled_until": nil,
	}
	if len(u.Roles) > 0 {
		m["roles"] = u.Roles
	}
	if withUser {
		m["user"] = userJSON(u, bot)
	}
	return m
}

func (s *Server) channelJSON(c *Channel) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type, "last_message_id": nil, "flags": 0}
	switch c.Type {
	case discordgo.ChannelTypeDM, discordgo.ChannelTypeGroupDM:
		ids := c.Recipients
		if !c.private() {
			ids = []string{c.RecipientID}
		}
		recipients := []any{}
		for _, id := range ids {
			recipients = append(recipients, userJSON(*s.users[id], false))
		}
		m["recipients"] = recipients
		if c.Type == discordgo.ChannelTypeGroupDM {
			m["name"] = c.Name
		}
		return m
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		archivedAt := c.archivedAt
		if archivedAt.IsZero() {
			archivedAt = c.created
		}
		m["owner_id"] = s.bot.ID
		m["message_count"] = 0
		m["member_count"] = len(c.members)
		m["total_message_sent"] = 0
		m["thread_metadata"] = map[string]any{
			"archived": c.archived, "auto_archive_duration": c.archiveMinutes, "archive_timestamp": timestamp(archivedAt),
			"locked": c.locked, "invitable": c.Type == discordgo.ChannelTypeGuildPrivateThread, "create_timestamp": timestamp(c.created),
		}
	default:
		m["position"] = 0
		m["permission_overwrites"] = s.overwritesJSON(c)
		m["nsfw"] = false
		m["topic"] = nil
	}
	m["guild_id"] = c.GuildID
	m["name"] = c.Name
	m["parent_id"] = nullable(c.ParentID)
	m["rate_limit_per_user"] = 0
	return m
}

func (s *Server) guildJSON(g *Guild) map[string]any {
	everyone := map[string]any{
		"id": g.ID, "name": "@everyone", "permissions": strconv.FormatInt(basePermissions, 10), "position": 0,
		"color": 0, "hoist": false, "managed": false, "mentionable": false, "icon": nil, "unicode_emoji": nil, "flags": 0,
	}
	roles := []any{everyone}
	for i, r := range g.roles {
		roles = append(roles, roleJSON(r, i+1))
	}
	return map[string]any{
		"id": g.ID, "name": g.Name, "icon": nil, "splash": nil, "banner": nil, "description": nil,
		"owner_id": g.ownerID, "preferred_locale": g.Locale, "roles": roles, "emojis": []any{},
		"stickers": []any{}, "features": []string{}, "afk_channel_id": nil, "afk_timeout": 300,
		"system_channel_id": nil, "rules_channel_id": nil, "verification_level": 0,
		"default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
		"premium_tier": 0, "premium_subscription_count": 0, "max_members": 500000,
	}
}

// guildCreateJSON is a guild as GUILD_CREATE sends it: with its channels,
// threads and the bot's member.
func (s *Server) guildCreateJSON(g *Guild) map[string]any {
	m := s.guildJSON(g)
	channels, threads := []any{}, []any{}
	for _, id := range s.channelOrder {
		if c := s.channels[id]; c.GuildID == g.ID {
			if isThread(c) {
				if !c.archived {
					threads = append(threads, s.channelJSON(c))
				}
			} else {
				channels = append(channels, s.channelJSON(c))
			}
		}
	}
	m["joined_at"] = timestamp(g.joined)
	m["large"] = false
	m["unavailable"] = false
	m["member_count"] = len(s.users) + 1
	m["members"] = []any{memberJSON(s.bot, true, g.joined, true)}
	m["channels"] = channels
	m["threads"] = threads
	for _, k := range []string{"voice_states", "presences", "stage_instances", "guild_scheduled_events"} {
		m[k] = []any{}
	}
	return m
}

func (s *Server) messageJSON(m *Message) map[string]any {
	files := []any{}
	for _, f := range m.Files {
		a := map[string]any{
			"id": f.ID, "filename": f.Name, "size": len(f.Data), "content_type": f.ContentType,
			"url": s.attachmentURL(m, f), "proxy_url": s.attachmentURL(m, f),
		}
		if f.Description != "" {
			a["description"] = f.Description
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data)); err == nil {
			a["width"], a["height"] = cfg.Width, cfg.Height
		}
		if m.Ephemeral() {
			a["ephemeral"] = true
		}
		files = append(files, a)
	}
	embeds := m.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	components := m.Components
	if components == nil {
		components = []discordgo.MessageComponent{}
	}
	o := map[string]any{
		"id": m.ID, "type": m.typ, "channel_id": m.ChannelID, "content": m.Content,
		"author": userJSON(s.bot, true), "attachments": files, "embeds": embeds, "components": components,
		"mentions": []any{}, "mention_roles": []string{}, "mention_everyone": false, "pinned": false, "tts": false,
		"timestamp": timestamp(m.created), "edited_timestamp": nil, "flags": m.Flags,
	}
	if !m.edited.IsZero() {
		o["edited_timestamp"] = timestamp(m.edited)
	}
	if m.GuildID != "" {
		o["guild_id"] = m.GuildID
	}
	if m.Nonce != "" {
		o["nonce"] = m.Nonce
	}
	if it := s.interactions[m.InteractionID]; it != nil {
		o["webhook_id"] = s.appID
		o["application_id"] = s.appID
		o["interaction_metadata"] = map[string]any{
			"id": it.id, "type": it.kind, "user": userJSON(*s.users[it.userID], false),
			"authorizing_integration_owners": map[string]string{},
		}
	}
	if t := s.channels[m.ThreadID]; t != nil {
		o["thread"] = s.channelJSON(t)
	}
	return o
}

func (s *Server) attachmentURL(m *Message, f File) string {
	return s.http.URL + "/attachments/" + m.ChannelID + "/" + f.ID + "/" + url.PathEscape(f.Name)
}

// serveAttachment serves an attachment's bytes at its url, with no token,
// as Discord's CDN does.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	var found *File
	s.mu.Lock()
	for _, m := range s.messages {
		for _, f := range m.Files {
			if r.URL.Path == "/attachments/"+m.ChannelID+"/"+f.ID+"/"+f.Name {
				found = &f
			}
		}
	}
	s.mu.Unlock()
	if found == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", found.ContentType)
	w.Write(found.Data)
}

// roleJSON is a guild's role at a position.
func roleJSON(r Role, position int) map[string]any {
	return map[string]any{
		"id": r.ID, "name": r.Name, "permissions": strconv.FormatInt(r.Permissions, 10), "position": position,
		"color": 0, "hoist": false, "managed": false, "mentionable": false, "icon": nil, "unicode_emoji": nil, "flags": 0,
	}
}

// overwritesJSON is a channel's permission_overwrites: its overwrites,
// and the bot's Deny as the bot's member overwrite.
func (s *Server) overwritesJSON(c *Channel) []any {
	out := []any{}
	for _, o := range c.Overwrites {
		typ := discordgo.PermissionOverwriteTypeRole
		if o.Member {
			typ = discordgo.PermissionOverwriteTypeMember
		}
		out = append(out, map[string]any{"id": o.ID, "type": typ,
			"allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10)})
	}
	if c.Deny != 0 {
		out = append(out, map[string]any{"id": s.bot.ID, "type": discordgo.PermissionOverwriteTypeMember,
			"allow": "0", "deny": strconv.FormatInt(c.Deny, 10)})
	}
	return out
}
