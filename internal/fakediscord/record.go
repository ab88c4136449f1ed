package fakediscord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Kind says what a Call was.
type Kind string

// The kinds of calls the fake records. Reads (GET) are not recorded.
const (
	KindMessage      Kind = "message"       // POST /channels/{c}/messages
	KindMessageEdit  Kind = "message edit"  // PATCH /channels/{c}/messages/{m}
	KindDelete       Kind = "delete"        // DELETE of a message, @original or a follow-up
	KindThread       Kind = "thread"        // POST /channels/{c}/threads or /channels/{c}/messages/{m}/threads
	KindDMChannel    Kind = "dm channel"    // POST /users/@me/channels
	KindResponse     Kind = "response"      // POST /interactions/{id}/{token}/callback
	KindResponseEdit Kind = "response edit" // PATCH /webhooks/{app}/{token}/messages/@original
	KindFollowup     Kind = "followup"      // POST /webhooks/{app}/{token}
	KindFollowupEdit Kind = "followup edit" // PATCH /webhooks/{app}/{token}/messages/{m}
	KindChannelEdit  Kind = "channel edit"  // PATCH /channels/{c}
	KindThreadMember Kind = "thread member" // PUT /channels/{c}/thread-members/{u}
	KindCommands     Kind = "commands"      // PUT /applications/{app}[/guilds/{g}]/commands
	KindIdentify     Kind = "identify"      // gateway IDENTIFY
	KindResume       Kind = "resume"        // gateway RESUME
	KindClose        Kind = "close"         // the bot closed its gateway connection
)

// A Call is one thing the bot did, as the fake understood it. Which fields
// are set depends on the Kind.
type Call struct {
	Seq  int // 1 for the first call to the Server, and so on
	At   time.Time
	Kind Kind

	// InteractionID is set on responses, their edits, follow-ups and their
	// edits, and on message edits and deletes of an interaction's message.
	InteractionID string
	// ResponseType is the callback type of a response.
	ResponseType discordgo.InteractionResponseType
	// Instance is the Activity instance a LAUNCH_ACTIVITY response
	// launched or joined.
	Instance string
	// Choices are an autocomplete response's choices.
	Choices []*discordgo.ApplicationCommandOptionChoice

	// Message is the message a call created, changed or deleted, as it
	// stood right after the call: an edit is merged into the message. For
	// a response it is the message the response made (callback types 4 and
	// 5) or the message the component is on (6 and 7); for a thread, the
	// message it was started from.
	Message Message

	// Channel is the thread created, changed or joined, or the DM channel.
	Channel Channel
	// UserID is the member a thread member call added.
	UserID string

	// GuildID and Commands are a command overwrite's guild ("" for global
	// commands) and its commands as the fake answered them, ids filled in.
	GuildID  string
	Commands []*discordgo.ApplicationCommand

	// Gateway calls: the session, the IDENTIFY as sent, and the close code.
	SessionID string
	Identify  *discordgo.Identify
	CloseCode int

	// JSON is the request's JSON as the bot sent it (payload_json of a
	// multipart request).
	JSON json.RawMessage

	// Err is the error the fake answered with, nil when the call
	// succeeded. A refused RESUME has Err "Invalid Session".
	Err *Error

	// Refused is the answer of a Refusal or a rate limit the call met.
	// Err is Refused too, unless the refusal came after serving: then the
	// call was done (Err nil) but the bot was answered Refused.
	Refused *Error

	// Repeated marks a message post whose enforced nonce repeated a recent
	// one: Message is the first message, and nothing new was posted.
	Repeated bool
}

func (c Call) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s", c.Seq, c.Kind)
	if c.InteractionID != "" {
		fmt.Fprintf(&b, " interaction=%s", c.InteractionID)
	}
	if c.ResponseType != 0 {
		fmt.Fprintf(&b, " type=%d", c.ResponseType)
	}
	if c.Message.ID != "" {
		fmt.Fprintf(&b, " message=%s content=%q files=%d", c.Message.ID, c.Message.Content, len(c.Message.Files))
	}
	if c.Channel.ID != "" {
		fmt.Fprintf(&b, " channel=%s %q", c.Channel.ID, c.Channel.Name)
	}
	if c.SessionID != "" {
		fmt.Fprintf(&b, " session=%s", c.SessionID)
	}
	if c.CloseCode != 0 {
		fmt.Fprintf(&b, " code=%d", c.CloseCode)
	}
	if c.Err != nil {
		fmt.Fprintf(&b, " error=%v", c.Err)
	}
	if c.Refused != nil && c.Refused != c.Err {
		fmt.Fprintf(&b, " refused=%v", c.Refused)
	}
	if c.Repeated {
		b.WriteString(" repeated")
	}
	return b.String()
}

// Message is a message as the fake keeps it.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string // empty in DMs

	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []File // the attachments, with their bytes
	Flags      discordgo.MessageFlags

	// InteractionID is set on an interaction's response and follow-ups.
	InteractionID string
	// ThreadID is the thread started from the message, if any.
	ThreadID string
	// Nonce is the nonce the message was posted with, if any.
	Nonce string

	typ     discordgo.MessageType
	created time.Time
	edited  time.Time
}

// Ephemeral tells whether only the interaction's user sees the message.
func (m Message) Ephemeral() bool { return m.Flags&discordgo.MessageFlagsEphemeral != 0 }

// Buttons returns the message's buttons, row by row.
func (m Message) Buttons() []discordgo.Button {
	var buttons []discordgo.Button
	for _, c := range m.Components {
		if row, ok := c.(*discordgo.ActionsRow); ok {
			for _, c := range row.Components {
				if b, ok := c.(*discordgo.Button); ok {
					buttons = append(buttons, *b)
				}
			}
		}
	}
	return buttons
}

// Menus returns the message's select menus, row by row.
func (m Message) Menus() []discordgo.SelectMenu {
	var menus []discordgo.SelectMenu
	for _, c := range m.Components {
		if row, ok := c.(*discordgo.ActionsRow); ok {
			for _, c := range row.Components {
				if sm, ok := c.(*discordgo.SelectMenu); ok {
					menus = append(menus, *sm)
				}
			}
		}
	}
	return menus
}

// File is an attachment.
type File struct {
	ID          string
	Name        string
	ContentType string
	Description string // the alt text
	Data        []byte
}

// Error is an error as Discord answers it.
type Error struct {
	Status  int    `json:"-"`
	Code    int    `json:"code"`
	Message string `json:"message"`
	Errors  any    `json:"errors,omitempty"`

	// A 429's seconds to wait, and whether the limit is the global one.
	RetryAfter float64 `json:"retry_after,omitempty"`
	Global     *bool   `json:"global,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s (code %d)", e.Status, e.Message, e.Code) }

// recordLocked appends a call and wakes the waiters.
func (s *Server) recordLocked(c Call) Call {
	if s.closed {
		return c
	}
	c.Seq = len(s.calls) + 1
	c.At = time.Now()
	s.calls = append(s.calls, c)
	if _, seen := s.responses[c.InteractionID]; c.Kind == KindResponse && !seen {
		s.responses[c.InteractionID] = len(s.calls) - 1
		if w := s.responseWaits[c.InteractionID]; w != nil {
			close(w)
			delete(s.responseWaits, c.InteractionID)
		}
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return c
}

// Calls returns every call so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// WaitFor returns the first call, made before or after WaitFor was called,
// for which match is true; to wait only for calls after some point, match
// on Seq. It gives up when ctx ends, with an error that lists the calls so
// far.
func (s *Server) WaitFor(ctx context.Context, match func(Call) bool) (Call, error) {
	next := 0
	for {
		s.mu.Lock()
		for ; next < len(s.calls); next++ {
			if c := s.calls[next]; match(c) {
				s.mu.Unlock()
				return c, nil
			}
		}
		changed, calls := s.changed, s.calls
		s.mu.Unlock()
		if changed == nil {
			return Call{}, errors.New("fakediscord: the server is closed")
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return Call{}, noCall(ctx, calls)
		}
	}
}

// noCall is the error of a wait that ctx ended: the calls so far.
func noCall(ctx context.Context, calls []Call) error {
	var b strings.Builder
	fmt.Fprintf(&b, "fakediscord: no matching call: %v; the calls so far:", ctx.Err())
	for _, c := range calls {
		b.WriteString("\n\t" + c.String())
	}
	return errors.New(b.String())
}

// gaveUp is noCall with the calls so far.
func (s *Server) gaveUp(ctx context.Context) error {
	s.mu.Lock()
	calls := s.calls
	s.mu.Unlock()
	return noCall(ctx, calls)
}

// WaitResponse returns the first callback for an interaction, accepted or
// refused: check its Err. It gives up as WaitFor does.
func (s *Server) WaitResponse(ctx context.Context, interactionID string) (Call, error) {
	s.mu.Lock()
	for {
		if i, ok := s.responses[interactionID]; ok {
			c := s.calls[i]
			s.mu.Unlock()
			return c, nil
		}
		if s.changed == nil {
			s.mu.Unlock()
			return Call{}, errors.New("fakediscord: the server is closed")
		}
		w := s.responseWaits[interactionID]
		if w == nil {
			w = make(chan struct{})
			s.responseWaits[interactionID] = w
		}
		s.mu.Unlock()
		select {
		case <-w:
		case <-ctx.Done():
			return Call{}, s.gaveUp(ctx)
		}
		s.mu.Lock()
	}
}

// Message returns a message as it stands now.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return *m, true
}

// Messages returns the messages in a channel, oldest first, as they stand
// now.
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ms []Message
	for _, id := range s.messageOrder {
		if m, ok := s.messages[id]; ok && m.ChannelID == channelID {
			ms = append(ms, *m)
		}
	}
	return ms
}

// Channel returns a channel, thread or DM channel.
func (s *Server) Channel(id string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[id]
	if !ok {
		return Channel{}, false
	}
	return *c, true
}

// Heartbeats is the number of gateway heartbeats the fake has acknowledged.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heartbeats
}
