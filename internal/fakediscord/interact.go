package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// Option is a slash command's option as an interaction carries it.
type Option = discordgo.ApplicationCommandInteractionDataOption

// StringOption is a string option.
func StringOption(name, value string) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}

// IntOption is an integer option.
func IntOption(name string, value int64) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: value}
}

// BoolOption is a boolean option.
func BoolOption(name string, value bool) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: value}
}

// UserOption is a user option; the interaction resolves the user, and the
// member in a guild.
func UserOption(name, userID string) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: userID}
}

// ChannelOption is a channel option; the interaction resolves the channel.
func ChannelOption(name, channelID string) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionChannel, Value: channelID}
}

// SubCommand is a subcommand with its options.
func SubCommand(name string, options ...*Option) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: options}
}

// Focused is the string option that an autocomplete is for, with what the
// user has typed so far.
func Focused(name, typed string) *Option {
	return &Option{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: typed, Focused: true}
}

// Command dispatches a slash command typed by a user in a channel, with its
// options, and returns the interaction's id. Like every method that
// dispatches an interaction, it reports a test error and returns "" when
// the user or channel is unknown or no bot is connected; a bot between a
// drop and its RESUME gets the interaction on RESUME, as on Discord.
func (s *Server) Command(userID, channelID, name string, options ...*Option) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commandLocked(discordgo.InteractionApplicationCommand, userID, channelID, name, options)
}

// Autocomplete dispatches the autocomplete of a slash command's option:
// exactly one option, at any depth, must be Focused.
func (s *Server) Autocomplete(userID, channelID, name string, options ...*Option) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := countFocused(options); n != 1 {
		s.tb.Errorf("fakediscord: Autocomplete %q: %d focused options, want 1", name, n)
		return ""
	}
	return s.commandLocked(discordgo.InteractionApplicationCommandAutocomplete, userID, channelID, name, options)
}

func countFocused(options []*Option) int {
	n := 0
	for _, o := range options {
		if o.Focused {
			n++
		}
		n += countFocused(o.Options)
	}
	return n
}

func (s *Server) commandLocked(kind discordgo.InteractionType, userID, channelID, name string, options []*Option) string {
	c := s.channels[channelID]
	if c == nil {
		s.tb.Errorf("fakediscord: /%s: no channel %q", name, channelID)
		return ""
	}
	if !s.offerLocked(c, userID, name, discordgo.ChatApplicationCommand) {
		return ""
	}
	data := map[string]any{"id": s.commandIDLocked(c.GuildID, name, discordgo.ChatApplicationCommand), "name": name, "type": discordgo.ChatApplicationCommand}
	if len(options) > 0 {
		data["options"] = options
	}
	if resolved := s.resolveLocked(c, userID, options); resolved != nil {
		data["resolved"] = resolved
	}
	if c.GuildID != "" {
		data["guild_id"] = c.GuildID
	}
	return s.dispatchLocked(kind, discordgo.MessageTypeChatInputCommand, userID, c, data, nil)
}

// UserCommand dispatches a user context-menu command, used by a user in a
// channel on a target user.
func (s *Server) UserCommand(userID, channelID, name, targetID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	switch {
	case c == nil:
		s.tb.Errorf("fakediscord: user command %q: no channel %q", name, channelID)
		return ""
	case s.users[targetID] == nil && targetID != s.bot.ID:
		s.tb.Errorf("fakediscord: user command %q: no user %q", name, targetID)
		return ""
	case !s.offerLocked(c, userID, name, discordgo.UserApplicationCommand):
		return ""
	}
	data := map[string]any{
		"id": s.commandIDLocked(c.GuildID, name, discordgo.UserApplicationCommand), "name": name,
		"type": discordgo.UserApplicationCommand, "target_id": targetID,
		"resolved": s.resolveLocked(c, userID, []*Option{UserOption("target", targetID)}),
	}
	if c.GuildID != "" {
		data["guild_id"] = c.GuildID
	}
	return s.dispatchLocked(discordgo.InteractionApplicationCommand, discordgo.MessageTypeContextMenuCommand, userID, c, data, nil)
}

// Click dispatches a user's click on a button of a message the bot sent.
// The button must be there and enabled.
func (s *Server) Click(userID, messageID, customID string) string {
	return s.component(userID, messageID, customID, nil, false)
}

// ClickTogether dispatches a click of each user on the same button at
// the same moment, as when two people click before Discord has shown
// either the bot's answer: every click is sent before the bot can change
// the message. It returns the interactions' ids, in the users' order.
func (s *Server) ClickTogether(messageID, customID string, userIDs ...string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, len(userIDs))
	for i, u := range userIDs {
		ids[i] = s.componentLocked(u, messageID, customID, nil, false)
	}
	return ids
}

// Select dispatches a user's choice in a select menu of a message the bot
// sent.
func (s *Server) Select(userID, messageID, customID string, values ...string) string {
	return s.component(userID, messageID, customID, values, true)
}

// ForgedClick dispatches a click on a message the bot sent, with a
// custom id that none of its buttons has: what a client that breaks
// Discord's rules, or anyone replaying a signed request with another
// body, may send. The bot must not trust what a custom id names.
func (s *Server) ForgedClick(userID, messageID, customID string) string {
	return s.forged(userID, messageID, map[string]any{"custom_id": customID, "component_type": discordgo.ButtonComponent})
}

// ForgedSelect dispatches a choice in a menu of a message the bot sent,
// with a custom id that none of its menus has, as ForgedClick does a
// click.
func (s *Server) ForgedSelect(userID, messageID, customID string, values ...string) string {
	return s.forged(userID, messageID, map[string]any{"custom_id": customID, "component_type": discordgo.SelectMenuComponent,
		"values": append([]string{}, values...)})
}

// forged dispatches a component interaction of data on a message the
// bot sent, whatever its components are.
func (s *Server) forged(userID, messageID string, data map[string]any) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[messageID]
	if m == nil {
		s.tb.Errorf("fakediscord: forged %v on %q: no message %q", data["component_type"], data["custom_id"], messageID)
		return ""
	}
	return s.dispatchLocked(discordgo.InteractionMessageComponent, discordgo.MessageTypeReply, userID, s.channels[m.ChannelID], data, m)
}

func (s *Server) component(userID, messageID, customID string, values []string, selecting bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.componentLocked(userID, messageID, customID, values, selecting)
}

func (s *Server) componentLocked(userID, messageID, customID string, values []string, selecting bool) string {
	m := s.messages[messageID]
	if m == nil {
		s.tb.Errorf("fakediscord: click on %q: no message %q", customID, messageID)
		return ""
	}
	var typ discordgo.ComponentType
	disabled := false
	for _, row := range m.Components {
		if row, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range row.Components {
				switch c := c.(type) {
				case *discordgo.Button:
					if !selecting && c.CustomID == customID {
						typ, disabled = discordgo.ButtonComponent, c.Disabled
					}
				case *discordgo.SelectMenu:
					if selecting && c.CustomID == customID {
						typ, disabled = discordgo.ComponentType(c.MenuType), c.Disabled
					}
				}
			}
		}
	}
	switch {
	case typ == 0:
		s.tb.Errorf("fakediscord: message %s has no component %q to use", messageID, customID)
		return ""
	case disabled:
		s.tb.Errorf("fakediscord: component %q of message %s is disabled", customID, messageID)
		return ""
	}
	data := map[string]any{"custom_id": customID, "component_type": typ}
	if selecting {
		data["values"] = append([]string{}, values...)
	}
	return s.dispatchLocked(discordgo.InteractionMessageComponent, discordgo.MessageTypeReply, userID, s.channels[m.ChannelID], data, m)
}

// offerLocked reports whether Discord would offer the command to the user
// in c, and reports a test error when it would not: a command's contexts
// and integration types decide where it appears.
func (s *Server) offerLocked(c *Channel, userID, name string, typ discordgo.ApplicationCommandType) bool {
	u := s.users[userID]
	if u == nil {
		return true // dispatchLocked reports it
	}
	cmd := s.registeredLocked(c.GuildID, name, typ)
	why := s.offeredLocked(cmd, c, u)
	if why == "" {
		why = s.lacksPermissionsLocked(cmd, c.GuildID, userID)
	}
	if why != "" {
		s.tb.Errorf("fakediscord: Discord would not offer %q to %s in channel %s: %s", name, userID, c.ID, why)
		return false
	}
	return true
}

// commandIDLocked is the id of a command the bot registered, or a fresh one.
func (s *Server) commandIDLocked(guildID, name string, typ discordgo.ApplicationCommandType) string {
	for _, scope := range []string{guildID, ""} {
		for _, c := range s.commands[scope] {
			if c.Name == name && c.Type == typ {
				return c.ID
			}
		}
	}
	return newID()
}

// resolveLocked is the resolved data for the users and channels named in
// options of a user's interaction in c, or nil when there are none: each
// member with their permissions in c, each channel with the user's.
func (s *Server) resolveLocked(c *Channel, userID string, options []*Option) map[string]any {
	users, members, channels := map[string]any{}, map[string]any{}, map[string]any{}
	var walk func([]*Option)
	walk = func(options []*Option) {
		for _, o := range options {
			id, _ := o.Value.(string)
			switch o.Type {
			case discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionMentionable:
				u, bot := s.users[id], false
				if id == s.bot.ID {
					u, bot = &s.bot, true
				}
				if u == nil {
					break
				}
				users[id] = userJSON(*u, bot)
				if g := s.guilds[c.GuildID]; g != nil {
					m := memberJSON(*u, bot, g.joined, false)
					m["permissions"] = s.userPermissionsJSON(c, id)
					members[id] = m
				}
			case discordgo.ApplicationCommandOptionChannel:
				if ch := s.channels[id]; ch != nil {
					channels[id] = map[string]any{"id": id, "name": ch.Name, "type": ch.Type, "permissions": s.userPermissionsJSON(ch, userID)}
				}
			}
			walk(o.Options)
		}
	}
	walk(options)
	resolved := map[string]any{}
	for k, v := range map[string]map[string]any{"users": users, "members": members, "channels": channels} {
		if len(v) > 0 {
			resolved[k] = v
		}
	}
	if len(resolved) == 0 {
		return nil
	}
	return resolved
}

// dispatchLocked sends an INTERACTION_CREATE by a user in a channel, on a
// message for components, and returns the interaction's id.
func (s *Server) dispatchLocked(kind discordgo.InteractionType, answer discordgo.MessageType, userID string, c *Channel, data any, on *Message) string {
	u := s.users[userID]
	if u == nil {
		s.tb.Errorf("fakediscord: interaction by unknown user %q", userID)
		return ""
	}
	if s.userPermissionsLocked(c, userID)&discordgo.PermissionViewChannel == 0 {
		s.tb.Errorf("fakediscord: Discord shows %s no channel %s: they may not view it, so they use nothing there", userID, c.ID)
		return ""
	}
	if isThread(c) && c.archived && !c.locked {
		// Discord's client offers no commands in an archived thread, and
		// greys out its buttons.
		s.tb.Logf("fakediscord: %s is archived: Discord lets no one use an interaction there", c.ID)
		return ""
	}
	it := &interaction{
		id: newID(), token: newToken() + newToken(), kind: kind, answer: answer,
		channelID: c.ID, guildID: c.GuildID, userID: userID, followups: map[string]bool{},
	}
	obj := map[string]any{
		"id": it.id, "application_id": s.appID, "type": kind, "data": data, "token": it.token, "version": 1,
		"channel_id": c.ID, "channel": s.channelJSON(c), "locale": u.Locale,
		"app_permissions": s.permissionsLocked(c), "entitlements": []any{}, "attachment_size_limit": maxFileSize,
	}
	context, owners, _ := s.installContextLocked(c, u)
	if on != nil && on.InteractionID != "" {
		if first := s.interactions[on.InteractionID]; first != nil && first.owners != nil {
			owners = first.owners // a component is authorized as the message it is on
		}
	}
	obj["context"], obj["authorizing_integration_owners"] = context, owners
	it.owners = owners
	if g := s.guilds[c.GuildID]; g != nil {
		member := memberJSON(*u, false, g.joined, true)
		member["permissions"] = s.userPermissionsJSON(c, u.ID)
		obj["guild_id"], obj["guild_locale"], obj["member"] = g.ID, g.Locale, member
		obj["guild"] = map[string]any{"id": g.ID, "locale": g.Locale, "features": []string{}}
	} else {
		obj["user"] = userJSON(*u, false)
	}
	if on != nil {
		obj["message"] = s.messageJSON(on)
		it.onMessage = on.ID
	}
	if s.viaHTTP {
		s.httpBody, _ = json.Marshal(obj)
	} else if s.broadcastGuildLocked(c.GuildID, "INTERACTION_CREATE", obj) == 0 {
		s.tb.Errorf("fakediscord: no bot is connected to get the interaction")
		return ""
	}
	it.at = time.Now()
	s.interactions[it.id] = it
	s.byToken[it.token] = it
	return it.id
}

// callback takes an interaction's response (its first callback).
func (s *Server) callback(r *http.Request, rep *reply) {
	call := Call{Kind: KindResponse, JSON: rep.raw, InteractionID: r.PathValue("interaction")}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	var p struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if json.Unmarshal(rep.raw, &p) != nil {
		rep.err = invalid("not an interaction response")
		return
	}
	call.ResponseType = p.Type
	it := s.interactions[call.InteractionID]
	switch {
	case it == nil || it.token != r.PathValue("token"):
		rep.err = errUnknownInteraction
	case it.responded:
		rep.err = errAcknowledged
	case s.deadline > 0 && time.Since(it.at) > s.deadline:
		rep.err = errUnknownInteraction
	}
	if rep.err != nil {
		return
	}
	if rep.err = s.answerableLocked(it, p.Type, p.Data); rep.err != nil {
		return
	}
	data := &reply{raw: p.Data, files: rep.files}
	component := it.kind == discordgo.InteractionMessageComponent || it.kind == discordgo.InteractionModalSubmit
	autocomplete := it.kind == discordgo.InteractionApplicationCommandAutocomplete
	wrongType := invalid(fmt.Sprintf("callback type %d does not answer a %v interaction", p.Type, it.kind), "type")
	switch p.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		if autocomplete {
			rep.err = wrongType
			return
		}
		m, err := s.newMessageLocked(s.channels[it.channelID], it.answer, it.id, data)
		if err != nil {
			rep.err = err
			return
		}
		it.original, call.Message = m.ID, *m
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		if autocomplete {
			rep.err = wrongType
			return
		}
		f, err := fields(p.Data)
		if err != nil {
			rep.err = err
			return
		}
		c := s.channels[it.channelID]
		m := &Message{ID: newID(), ChannelID: c.ID, GuildID: c.GuildID, InteractionID: it.id, typ: it.answer, created: time.Now()}
		flags := map[string]json.RawMessage{}
		if raw, ok := f["flags"]; ok {
			flags["flags"] = raw
		}
		if err := applyMessage(m, flags, nil, true); err != nil {
			rep.err = err
			return
		}
		m.Flags |= discordgo.MessageFlagsLoading
		s.messages[m.ID] = m
		s.messageOrder = append(s.messageOrder, m.ID)
		it.original, call.Message = m.ID, *m
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		m := s.messages[it.onMessage]
		switch {
		case !component:
			rep.err = wrongType
		case m == nil:
			rep.err = errUnknownMessage
		case p.Type == discordgo.InteractionResponseUpdateMessage:
			rep.err = editMessageLocked(m, data)
		}
		if rep.err != nil {
			return
		}
		it.original, call.Message = m.ID, *m
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		var d struct {
			Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
		}
		var present map[string]json.RawMessage
		json.Unmarshal(p.Data, &present)
		switch {
		case !autocomplete:
			rep.err = wrongType
		case json.Unmarshal(p.Data, &d) != nil:
			rep.err = invalid("choices must be a list of choices", "data", "choices")
		case present["choices"] == nil || string(present["choices"]) == "null":
			// discordgo leaves an empty list out (omitempty): Discord
			// wants the list, empty or not.
			rep.err = invalid("choices is required", "data", "choices")
		case len(d.Choices) > 25:
			rep.err = invalid(fmt.Sprintf("%d choices, more than 25", len(d.Choices)), "data", "choices")
		}
		for i, c := range d.Choices {
			if n := utf8.RuneCountInString(c.Name); rep.err == nil && (n == 0 || n > 100) {
				rep.err = invalid(fmt.Sprintf("choice name %q must have 1 to 100 characters", c.Name), "data", "choices", strconv.Itoa(i), "name")
			}
		}
		if rep.err != nil {
			return
		}
		call.Choices = d.Choices
	case ResponseLaunchActivity:
		if rep.err = s.launchActivityLocked(it, p.Data, &call); rep.err != nil {
			return
		}
	case discordgo.InteractionResponseModal:
		if autocomplete || it.kind == discordgo.InteractionModalSubmit {
			rep.err = wrongType
			return
		}
	default:
		rep.err = wrongType
		return
	}
	it.responded = true
	if c := s.channels[it.channelID]; isThread(c) && call.Message.ChannelID == c.ID && !call.Message.Ephemeral() {
		c.lastActive = s.nowLocked()
	}
}

// answerableLocked refuses a callback as Discord does for the state of the
// interaction's channel: gone (10003); a thread locked and archived since
// the interaction came (50083); a locked thread, for a response others
// would see (160005).
func (s *Server) answerableLocked(it *interaction, typ discordgo.InteractionResponseType, data json.RawMessage) *Error {
	c := s.channels[it.channelID]
	switch {
	case c == nil:
		return errUnknownChannel
	case !isThread(c) || typ == discordgo.InteractionApplicationCommandAutocompleteResult || typ == discordgo.InteractionResponseModal:
		return nil
	case c.archived:
		return errArchivedThread
	case c.locked:
		var d struct {
			Flags discordgo.MessageFlags `json:"flags"`
		}
		json.Unmarshal(data, &d)
		if d.Flags&discordgo.MessageFlagsEphemeral == 0 {
			return errThreadLocked
		}
	}
	return nil
}

// webhookLocked is the interaction whose webhook a request names.
func (s *Server) webhookLocked(r *http.Request) *interaction {
	if r.PathValue("app") != s.appID {
		return nil
	}
	return s.byToken[r.PathValue("token")]
}

// followup takes a follow-up message, which needs the response first.
func (s *Server) followup(r *http.Request, rep *reply) {
	call := Call{Kind: KindFollowup, JSON: rep.raw}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	it := s.webhookLocked(r)
	if it == nil || !it.responded {
		rep.err = errUnknownWebhook
		return
	}
	call.InteractionID = it.id
	if _, server := it.owners["0"]; it.owners != nil && !server && len(it.followups) >= maxUserInstallFollowups {
		rep.err = invalid(fmt.Sprintf("an app installed by a user sends at most %d follow-ups per interaction", maxUserInstallFollowups))
		return
	}
	c := s.channels[it.channelID]
	if c == nil {
		rep.err = errUnknownChannel
		return
	}
	m, err := s.newMessageLocked(c, it.answer, it.id, rep)
	if err == nil && !m.Ephemeral() {
		err = s.postableLocked(c)
	}
	if err != nil {
		s.forgetLocked(m)
		rep.err = err
		return
	}
	it.followups[m.ID] = true
	call.Message = *m
	if r.URL.Query().Get("wait") == "true" {
		rep.body = s.messageJSON(m)
	}
}

// webhookMessage gets, edits or deletes an interaction's response
// (@original) or one of its follow-ups.
func (s *Server) webhookMessage(r *http.Request, rep *reply) {
	it := s.webhookLocked(r)
	id := r.PathValue("message")
	kind := KindFollowupEdit
	var m *Message
	switch {
	case it == nil:
		rep.err = errUnknownWebhook
	case id == "@original":
		kind, m = KindResponseEdit, s.messages[it.original]
	case it.followups[id]:
		m = s.messages[id]
	}
	if rep.err == nil && m == nil {
		rep.err = errUnknownMessage
	}
	if rep.err == nil && r.Method != http.MethodGet && !m.Ephemeral() {
		rep.err = editableLocked(s.channels[m.ChannelID])
	}
	switch r.Method {
	case http.MethodGet:
		if rep.err == nil {
			rep.body = s.messageJSON(m)
		}
	case http.MethodPatch:
		call := Call{Kind: kind, JSON: rep.raw}
		if it != nil {
			call.InteractionID = it.id
		}
		if rep.err == nil {
			rep.err = editMessageLocked(m, rep)
			call.Message = *m
			rep.body = s.messageJSON(m)
		}
		call.Err = rep.err
		s.recordLocked(call)
	default:
		s.deleteLocked(m, rep)
	}
}
