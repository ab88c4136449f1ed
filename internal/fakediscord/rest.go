package fakediscord

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// routes serves the REST API under /api/v{n}/, whatever n is: discordgo
// v0.29.0 speaks v9. Each route's calls are recorded as kind; reads are not
// recorded.
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	const api = "/api/{version}"
	handle := func(pattern string, kind Kind, h func(*http.Request, *reply)) {
		s.knownRoutes[pattern] = true
		method, path, _ := strings.Cut(pattern, " ")
		m.HandleFunc(method+" "+api+path, func(w http.ResponseWriter, r *http.Request) {
			s.serveRoute(w, r, pattern, kind, h)
		})
	}
	handle("GET /gateway", "", s.getGateway)
	handle("GET /gateway/bot", "", s.getGateway)
	handle("GET /users/{user}", "", s.getUser)
	handle(RouteDMChannel, KindDMChannel, s.createDM)
	handle("GET /guilds/{guild}", "", s.getGuild)
	handle("GET /guilds/{guild}/channels", "", s.getGuildChannels)
	handle("GET /guilds/{guild}/members/{user}", "", s.getMember)
	handle("GET /guilds/{guild}/threads/active", "", s.listActiveThreads)
	handle(RouteChannel, "", s.getChannel)
	handle(RouteChannelEdit, KindChannelEdit, s.modifyChannel)
	handle(RouteThreadMember, KindThreadMember, s.addThreadMember)
	handle(RouteMessages, KindMessage, s.postMessage)
	handle("GET /channels/{channel}/messages", "", s.listMessages)
	handle("GET /channels/{channel}/messages/{message}", "", s.channelMessage)
	handle(RouteMessageEdit, KindMessageEdit, s.channelMessage)
	handle("DELETE /channels/{channel}/messages/{message}", KindDelete, s.channelMessage)
	handle(RouteThreads, KindThread, s.startThread)
	handle(RouteThreadFromMessage, KindThread, s.startThread)
	handle(RouteCallback, KindResponse, s.callback)
	handle(RouteFollowup, KindFollowup, s.followup)
	handle("GET /webhooks/{app}/{token}/messages/{message}", "", s.webhookMessage)
	handle(RouteOriginalEdit, KindResponseEdit, s.webhookMessage)
	handle("DELETE /webhooks/{app}/{token}/messages/{message}", KindDelete, s.webhookMessage)
	handle("GET /applications/{app}/activity-instances/{instance}", "", s.getInstance)
	handle("GET /applications/{app}/commands", "", s.commandsHandler)
	handle("PUT /applications/{app}/commands", KindCommands, s.commandsHandler)
	handle("GET /applications/{app}/guilds/{guild}/commands", "", s.commandsHandler)
	handle("PUT /applications/{app}/guilds/{guild}/commands", KindCommands, s.commandsHandler)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.logf("no fake for %s %s; answering 404", r.Method, r.URL.Path)
		writeError(w, errNotFound)
	})
	return m
}

// serveRoute serves one request on a route: after the latency, a rate
// limit or a Refusal may answer instead of the route's handler, or after
// it.
func (s *Server) serveRoute(w http.ResponseWriter, r *http.Request, route string, kind Kind, h func(*http.Request, *reply)) {
	rep := &reply{status: http.StatusOK}
	raw, files, err := readBody(w, r)
	rep.raw, rep.files, rep.err = raw, files, err
	s.mu.Lock()
	latency := s.latency
	s.mu.Unlock()
	if latency > 0 {
		select {
		case <-time.After(latency):
		case <-r.Context().Done():
			return
		}
	}
	var refused *Error
	var slow time.Duration
	if err == nil {
		s.mu.Lock()
		refused = s.limitLocked(route, r, w.Header(), time.Now())
		after := false
		if refused == nil {
			if ref := s.refusalLocked(route, r); ref != nil {
				refused, after = ref.answer(), ref.AfterServing
			}
		}
		switch {
		case refused != nil && !after:
			if kind != "" {
				s.recordLocked(Call{Kind: kind, JSON: raw, InteractionID: s.interactionOfLocked(r), Err: refused, Refused: refused})
			}
		case refused != nil:
			n := len(s.calls)
			h(r, rep)
			for i := n; i < len(s.calls); i++ {
				s.calls[i].Refused = refused
			}
		default:
			h(r, rep)
			slow = s.slowLocked(route, r)
		}
		s.mu.Unlock()
	}
	if slow > 0 {
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return // the client gave up: what it asked is done all the same
		}
	}
	if refused != nil {
		s.logf("%s %s: refused: %v", r.Method, r.URL.Path, refused)
		retryHeaders(w.Header(), refused)
		writeError(w, refused)
		return
	}
	if rep.err != nil {
		s.logf("%s %s: %v", r.Method, r.URL.Path, rep.err)
		writeError(w, rep.err)
		return
	}
	if rep.body == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, rep.status, rep.body)
}

// interactionOfLocked is the interaction a request's path names, by its id
// or its webhook token, or "".
func (s *Server) interactionOfLocked(r *http.Request) string {
	if id := r.PathValue("interaction"); id != "" {
		return id
	}
	if it := s.webhookLocked(r); it != nil {
		return it.id
	}
	return ""
}

// reply is a request's body and files, and what to answer: err, or body
// with status, or 204 when both are nil.
type reply struct {
	raw    json.RawMessage
	files  []File
	status int
	body   any
	err    *Error
}

func (s *Server) getGateway(r *http.Request, rep *reply) {
	rep.body = map[string]any{
		"url": s.wsURL, "shards": 1,
		"session_start_limit": map[string]int{"total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1},
	}
}

func (s *Server) getUser(r *http.Request, rep *reply) {
	id := r.PathValue("user")
	switch u := s.users[id]; {
	case id == "@me" || id == s.bot.ID:
		rep.body = userJSON(s.bot, true)
	case u != nil:
		rep.body = userJSON(*u, false)
	default:
		rep.err = errUnknownUser
	}
}

func (s *Server) createDM(r *http.Request, rep *reply) {
	var p struct {
		RecipientID string `json:"recipient_id"`
	}
	if json.Unmarshal(rep.raw, &p) != nil {
		rep.err = invalid("recipient_id must be a snowflake", "recipient_id")
		return
	}
	c, err := s.dmLocked(p.RecipientID)
	call := Call{Kind: KindDMChannel, JSON: rep.raw, Err: err}
	if c != nil {
		call.Channel = *c
		rep.body = s.channelJSON(c)
	}
	rep.err = err
	s.recordLocked(call)
}

func (s *Server) getGuild(r *http.Request, rep *reply) {
	g, err := s.guildSeenLocked(r.PathValue("guild"))
	if err != nil {
		rep.err = err
		return
	}
	rep.body = s.guildJSON(g)
}

func (s *Server) getGuildChannels(r *http.Request, rep *reply) {
	g, err := s.guildSeenLocked(r.PathValue("guild"))
	if err != nil {
		rep.err = err
		return
	}
	channels := []any{}
	for _, id := range s.channelOrder {
		if c := s.channels[id]; c.GuildID == g.ID && c.ParentID == "" {
			channels = append(channels, s.channelJSON(c))
		}
	}
	rep.body = channels
}

func (s *Server) getMember(r *http.Request, rep *reply) {
	g, gerr := s.guildSeenLocked(r.PathValue("guild"))
	id := r.PathValue("user")
	switch u := s.users[id]; {
	case gerr != nil:
		rep.err = gerr
	case id == s.bot.ID || id == "@me":
		rep.body = memberJSON(s.bot, true, g.joined, true)
	case u != nil:
		rep.body = memberJSON(*u, false, g.joined, true)
	default:
		rep.err = errUnknownMember
	}
}

func (s *Server) getChannel(r *http.Request, rep *reply) {
	c := s.channels[r.PathValue("channel")]
	if rep.err = s.canSeeLocked(c); rep.err == nil {
		rep.body = s.channelJSON(c)
	}
}

// newMessageLocked makes a message from a payload, in a channel, and keeps
// it if Discord would take it.
func (s *Server) newMessageLocked(c *Channel, typ discordgo.MessageType, interactionID string, rep *reply) (*Message, *Error) {
	m := &Message{ID: newID(), ChannelID: c.ID, GuildID: c.GuildID, InteractionID: interactionID, typ: typ, created: time.Now()}
	f, err := fields(rep.raw)
	if err == nil {
		err = applyMessage(m, f, rep.files, true)
	}
	if err == nil {
		err = checkMessage(m)
	}
	if err != nil {
		return nil, err
	}
	s.messages[m.ID] = m
	s.messageOrder = append(s.messageOrder, m.ID)
	return m, nil
}

// listMessages lists a channel's messages, newest first: limit (1 to
// 100, 50 by default) of those before the message named by before, if
// any. Without Read Message History the list is empty, as on Discord.
func (s *Server) listMessages(r *http.Request, rep *reply) {
	c := s.channels[r.PathValue("channel")]
	if rep.err = s.canSeeLocked(c); rep.err != nil {
		return
	}
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			rep.err = invalid("limit is 1 to 100", "limit")
			return
		}
		limit = n
	}
	before := r.URL.Query().Get("before")
	list := []any{}
	if c.GuildID != "" && s.botPermissionsLocked(c)&discordgo.PermissionReadMessageHistory == 0 {
		rep.body = list
		return
	}
	for i := len(s.messageOrder) - 1; i >= 0 && len(list) < limit; i-- {
		m := s.messages[s.messageOrder[i]]
		if m == nil || m.ChannelID != c.ID || m.Ephemeral() || before != "" && !snowflakeBefore(m.ID, before) {
			continue
		}
		list = append(list, s.messageJSON(m))
	}
	rep.body = list
}

// snowflakeBefore reports whether snowflake a is older than b.
func snowflakeBefore(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x < y
}

// forgetLocked takes back a message newMessageLocked kept.
func (s *Server) forgetLocked(m *Message) {
	if m == nil {
		return
	}
	delete(s.messages, m.ID)
	s.messageOrder = slices.DeleteFunc(s.messageOrder, func(id string) bool { return id == m.ID })
}

// editMessageLocked applies an edit to a message if Discord would take it.
func editMessageLocked(m *Message, rep *reply) *Error {
	edited := *m
	f, err := fields(rep.raw)
	if err == nil {
		err = applyMessage(&edited, f, rep.files, false)
	}
	if err == nil {
		edited.Flags &^= discordgo.MessageFlagsLoading
		err = checkMessage(&edited)
	}
	if err != nil {
		return err
	}
	edited.edited = time.Now()
	*m = edited
	return nil
}

func (s *Server) postMessage(r *http.Request, rep *reply) {
	call := Call{Kind: KindMessage, JSON: rep.raw}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	c := s.channels[r.PathValue("channel")]
	// A DM between users, or a server without the bot: an interaction's
	// answer may go there, the bot's own post not (50001).
	if rep.err = s.canSeeLocked(c); rep.err != nil {
		return
	}
	switch u := s.users[c.RecipientID]; {
	case u != nil && u.NoMutualGuild:
		rep.err = errNoMutualGuilds
	case u != nil && u.DMsClosed:
		rep.err = errCannotDM
	case c.GuildID == "":
	case isThread(c) && c.locked:
		rep.err = errThreadLocked
	case isThread(c):
		rep.err = s.mayLocked(c, discordgo.PermissionSendMessagesInThreads)
	default:
		rep.err = s.mayLocked(c, discordgo.PermissionSendMessages)
	}
	if rep.err == nil && len(rep.files) > 0 && c.GuildID != "" {
		rep.err = s.mayLocked(c, discordgo.PermissionAttachFiles)
	}
	if rep.err != nil {
		return
	}
	f, _ := fields(rep.raw)
	nonce, enforce, err := readNonce(f)
	if err != nil {
		rep.err = err
		return
	}
	key := c.ID + " " + nonce
	if n, ok := s.nonces[key]; ok && enforce && s.nowLocked().Sub(n.at) < nonceWindow {
		if first := s.messages[n.messageID]; first != nil {
			call.Message, call.Repeated = *first, true
			rep.body = s.messageJSON(first)
			return
		}
	}
	typ := discordgo.MessageTypeDefault
	if f["message_reference"] != nil {
		typ = discordgo.MessageTypeReply
	}
	m, err := s.newMessageLocked(c, typ, "", rep)
	if err == nil {
		err = s.postableLocked(c)
	}
	if err != nil {
		s.forgetLocked(m)
		rep.err = err
		return
	}
	if c.GuildID != "" && s.botPermissionsLocked(c)&discordgo.PermissionEmbedLinks == 0 {
		m.Embeds = nil
	}
	if nonce != "" {
		m.Nonce = nonce
		s.nonces[key] = sentNonce{m.ID, m.created}
	}
	call.Message = *m
	rep.body = s.messageJSON(m)
}

// nonceWindow is how long Discord remembers a message's nonce: "the past
// few minutes", its documentation says. It is measured on the fake's
// clock, which Pass moves.
const nonceWindow = 5 * time.Minute

type sentNonce struct {
	messageID string
	at        time.Time
}

// readNonce reads a message's nonce, a string of up to 25 characters or an
// integer, and whether enforce_nonce asks for it to be unique.
func readNonce(f map[string]json.RawMessage) (nonce string, enforce bool, _ *Error) {
	if raw, ok := f["nonce"]; ok && !isNull(raw) {
		var n json.Number
		if json.Unmarshal(raw, &nonce) != nil {
			if json.Unmarshal(raw, &n) != nil {
				return "", false, invalid("nonce must be a string or an integer", "nonce")
			}
			if _, err := n.Int64(); err != nil {
				return "", false, invalid("nonce must be a string or an integer", "nonce")
			}
			nonce = n.String()
		}
		if utf8.RuneCountInString(nonce) > 25 {
			return "", false, invalid("nonce has more than 25 characters", "nonce")
		}
	}
	if raw, ok := f["enforce_nonce"]; ok && !isNull(raw) && json.Unmarshal(raw, &enforce) != nil {
		return "", false, invalid("enforce_nonce must be a boolean", "enforce_nonce")
	}
	return nonce, enforce && nonce != "", nil
}

// channelMessage gets, edits or deletes a message through its channel.
// Ephemeral messages are not in any channel.
func (s *Server) channelMessage(r *http.Request, rep *reply) {
	c := s.channels[r.PathValue("channel")]
	m := s.messages[r.PathValue("message")]
	switch {
	case s.canSeeLocked(c) != nil:
		rep.err = s.canSeeLocked(c)
	case m == nil || m.ChannelID != c.ID || m.Ephemeral():
		rep.err = errUnknownMessage
	case r.Method != http.MethodGet:
		rep.err = editableLocked(c)
	}
	switch {
	case r.Method == http.MethodGet:
		if rep.err == nil {
			rep.body = s.messageJSON(m)
		}
	case r.Method == http.MethodPatch:
		call := Call{Kind: KindMessageEdit, JSON: rep.raw}
		if rep.err == nil {
			rep.err = editMessageLocked(m, rep)
			call.Message, call.InteractionID = *m, m.InteractionID
			rep.body = s.messageJSON(m)
		}
		call.Err = rep.err
		s.recordLocked(call)
	default:
		s.deleteLocked(m, rep)
	}
}

func (s *Server) deleteLocked(m *Message, rep *reply) {
	call := Call{Kind: KindDelete, Err: rep.err}
	if rep.err == nil {
		call.Message, call.InteractionID = *m, m.InteractionID
		delete(s.messages, m.ID)
	}
	s.recordLocked(call)
}

// startThread starts a thread from a message, with the message's id, or on
// its own.
func (s *Server) startThread(r *http.Request, rep *reply) {
	call := Call{Kind: KindThread, JSON: rep.raw}
	defer func() { call.Err = rep.err; s.recordLocked(call) }()
	var p discordgo.ThreadStart
	if json.Unmarshal(rep.raw, &p) != nil {
		rep.err = invalid("not a thread", "name")
		return
	}
	c := s.channels[r.PathValue("channel")]
	message := r.PathValue("message")
	perm := int64(discordgo.PermissionCreatePublicThreads)
	if message == "" && p.Type != discordgo.ChannelTypeGuildPublicThread {
		perm = discordgo.PermissionCreatePrivateThreads
	}
	switch {
	case s.canSeeLocked(c) != nil:
		rep.err = s.canSeeLocked(c)
	case c.Type != discordgo.ChannelTypeGuildText && c.Type != discordgo.ChannelTypeGuildNews:
		rep.err = errChannelType // a thread, a forum post, a voice channel's chat
		if isThread(c) {
			s.threadsInThreads++
		}
	case s.mayLocked(c, perm) != nil:
		rep.err = s.mayLocked(c, perm)
	case p.Name == "" || utf8.RuneCountInString(p.Name) > 100:
		rep.err = invalid("a thread's name has 1 to 100 characters", "name")
	case p.AutoArchiveDuration != 0 && !slices.Contains(archiveDurations, p.AutoArchiveDuration):
		rep.err = invalid("auto_archive_duration is 60, 1440, 4320 or 10080", "auto_archive_duration")
	case s.activeThreadsLocked(c.GuildID) >= s.threadLimitLocked(c.GuildID):
		rep.err = errActiveThreads
	}
	if rep.err != nil {
		return
	}
	t := &Channel{GuildID: c.GuildID, Name: p.Name, ParentID: c.ID, created: time.Now(), archiveMinutes: p.AutoArchiveDuration,
		lastActive: s.nowLocked(), members: []string{s.bot.ID}}
	if t.archiveMinutes == 0 {
		t.archiveMinutes = 4320
	}
	if message != "" {
		m := s.messages[message]
		switch {
		case m == nil || m.ChannelID != c.ID || m.Ephemeral():
			rep.err = errUnknownMessage
		case m.ThreadID != "":
			rep.err = errThreadExists
		}
		if rep.err != nil {
			return
		}
		t.ID, t.Type = m.ID, discordgo.ChannelTypeGuildPublicThread
		if c.Type == discordgo.ChannelTypeGuildNews {
			t.Type = discordgo.ChannelTypeGuildNewsThread
		}
		m.ThreadID = t.ID
		m.Flags |= discordgo.MessageFlagsHasThread
		call.Message = *m
	} else {
		t.ID, t.Type = newID(), p.Type
		if t.Type == 0 {
			t.Type = discordgo.ChannelTypeGuildPrivateThread // API v9's default
		}
		if t.Type != discordgo.ChannelTypeGuildPublicThread && t.Type != discordgo.ChannelTypeGuildPrivateThread {
			rep.err = invalid("a thread is public (11) or private (12)", "type")
			return
		}
	}
	s.addChannelLocked(t)
	call.Channel = *t
	thread := s.channelJSON(t)
	rep.status, rep.body = http.StatusCreated, thread
	created := map[string]any{"newly_created": true}
	for k, v := range thread {
		created[k] = v
	}
	s.broadcastLocked("THREAD_CREATE", created)
}
