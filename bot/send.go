package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// image is a file to attach, with its alt text: a PNG unless mime says
// otherwise.
type image struct {
	name string
	data []byte
	alt  string
	mime string
}

// message is the content of a message the bot posts or edits.
type message struct {
	Content         string                            `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds"`
	Components      []discordgo.MessageComponent      `json:"components"`
	Flags           discordgo.MessageFlags            `json:"flags,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
	Attachments     []attachment                      `json:"attachments"`
	// Nonce and EnforceNonce make a post idempotent: Discord answers a
	// second post with the same nonce with the message of the first.
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`

	images []image
}

// attachment describes an uploaded file: Discord reads the alt text from
// here, a field discordgo's MessageAttachment lacks.
type attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

func (m *message) attach(img image) {
	m.Attachments = append(m.Attachments, attachment{ID: strconv.Itoa(len(m.images)), Filename: img.name, Description: truncate(img.alt, 1024)})
	m.images = append(m.images, img)
}

// setNonce makes a post of m idempotent under nonce ("": not).
func (m *message) setNonce(nonce string) {
	m.Nonce, m.EnforceNonce = nonce, nonce != ""
}

// mentionOnly lets the message ping only the given users.
func (m *message) mentionOnly(users ...string) {
	m.AllowedMentions = &discordgo.MessageAllowedMentions{Users: users}
}

// request sends payload (with m's images, if any) with discordgo's
// request machinery: its rate limiter, retries and error type. Its rate
// limit bucket is the route's (bucketOf), and an error's text never shows
// an interaction's token.
func (sh *shared) request(ctx context.Context, method, url string, payload any, m *message) ([]byte, error) {
	bucket := bucketOf(url)
	var body []byte
	var err error
	if m == nil || len(m.images) == 0 {
		body, err = sh.s.RequestWithBucketID(method, url, payload, bucket, discordgo.WithContext(ctx))
	} else {
		ct, multipart, merr := discordgo.MultipartBodyWithJSON(payload, m.files())
		if merr != nil {
			return nil, fmt.Errorf("bot: encoding a message with %d files: %w", len(m.images), merr)
		}
		body, err = sh.s.RequestRaw(method, url, ct, multipart, bucket, 0, discordgo.WithContext(ctx))
	}
	return body, redact(err)
}

// files are m's attachments, each with its content type: a board's PNG,
// a replay's GIF, a game's PGN.
func (m *message) files() []*discordgo.File {
	files := make([]*discordgo.File, len(m.images))
	for i, img := range m.images {
		mime := img.mime
		if mime == "" {
			mime = "image/png"
		}
		files[i] = &discordgo.File{Name: img.name, ContentType: mime, Reader: bytes.NewReader(img.data)}
	}
	return files
}

// interactionPath matches the token in the paths of an interaction's
// callback and its webhook: /interactions/{id}/{token}/...,
// /webhooks/{application}/{token}/....
var interactionPath = regexp.MustCompile(`/(interactions|webhooks)/([0-9]+)/[^/?"\s]+`)

// messagePath matches a message's id in a URL.
var messagePath = regexp.MustCompile(`/messages/[0-9]+`)

// bucketStripes is how many rate limit buckets the requests on one
// interaction route share, by their token. discordgo holds a bucket's
// lock for the whole of a request, so an answer waits for any other
// request in flight on its stripe (a round trip to Discord): the stripes
// must be many beside the answers in flight. With 64, a mutex profile of
// BenchmarkMoveInteraction steady showed the moves' answers waiting 0.4
// to 3.3 s a run on each other's stripes; 1,024 buckets of a few hundred
// bytes each per route still bound discordgo's memory.
const bucketStripes = 1024

// bucketOf is the rate limit bucket of a request of the bot's. discordgo
// keeps a bucket for every key it is given, for good: keyed by the URL,
// as discordgo keys its own calls, each interaction's token would leave
// one behind (discordgo's issue #1333). Interaction routes share
// bucketStripes buckets, picked by the token so that requests of
// different interactions rarely wait for each other; a message's URL
// goes in its channel's bucket.
func bucketOf(url string) string {
	loc := interactionPath.FindStringSubmatchIndex(url)
	if loc == nil {
		// A channel's messages share its bucket, as Discord counts them.
		return messagePath.ReplaceAllString(url, "/messages/:id")
	}
	token := url[loc[5]+1 : loc[1]]
	h := fnv.New32a()
	_, _ = h.Write([]byte(token)) // a hash's Write never fails
	route, _, _ := strings.Cut(url[:loc[4]]+":id/:token"+url[loc[1]:], "?")
	return route + "#" + strconv.Itoa(int(h.Sum32()%bucketStripes))
}

// redact hides interaction tokens in err's text, since a failed request's
// error shows its URL and the logs should not hold what could answer an
// interaction for fifteen minutes. errors.As still finds what err wraps.
func redact(err error) error {
	if err == nil {
		return nil
	}
	text := redactText(err.Error())
	if text == err.Error() {
		return err
	}
	return redactedError{err, text}
}

func redactText(s string) string { return interactionPath.ReplaceAllString(s, "/$1/$2/:token") }

type redactedError struct {
	err  error
	text string
}

func (e redactedError) Error() string { return e.text }
func (e redactedError) Unwrap() error { return e.err }

// answers sends the answers of interactions: in the response to the
// HTTP request that brought one, while it waits (http.go), else to
// Discord's endpoints. Every handler answers through its interaction's
// (interaction.respond), and reaches nothing else of the bot through it.
type answers struct {
	*shared
	self *identity    // the application's id, when an interaction has none
	http *httpWaiters // the HTTP requests waiting for their first answer
}

// answerOverHTTP hands the first response to an interaction to the HTTP
// request that brought it, if one waits: ok is true. When that request
// was answered with a deferral meanwhile, deferred says which, and the
// caller turns its answer into an edit or a follow-up (afterDeferral);
// otherwise the caller sends it to Discord's callback endpoint.
func (a *answers) answerOverHTTP(i *discordgo.Interaction, payload any, m *message) (ok bool, deferred discordgo.InteractionResponseType, err error) {
	w, found := a.http.waiting(i.ID)
	if !found {
		return false, 0, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.answered {
		return false, w.deferred, nil
	}
	var first httpAnswer
	if m != nil && len(m.images) > 0 {
		first.contentType, first.body, err = discordgo.MultipartBodyWithJSON(payload, m.files())
	} else {
		first.contentType = "application/json"
		first.body, err = json.Marshal(payload)
	}
	if err != nil {
		return true, 0, fmt.Errorf("bot: encoding an answer: %w", err)
	}
	w.answered = true
	w.ch <- first
	return true, 0, nil
}

// afterDeferral sends an answer of typ to an interaction whose HTTP
// request was answered with a deferral: the deferred message is edited,
// or, for what it cannot become (a private answer after a public
// deferral, a new message after a click's), replaced by a follow-up.
func (a *answers) afterDeferral(ctx context.Context, i *discordgo.Interaction, deferred, typ discordgo.InteractionResponseType, m *message) error {
	switch {
	case typ == discordgo.InteractionResponseUpdateMessage:
		return a.editResponse(ctx, i, m)
	case typ != discordgo.InteractionResponseChannelMessageWithSource:
		return fmt.Errorf("bot: an answer of type %d after a deferral over HTTP", typ)
	case deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource && m.Flags&discordgo.MessageFlagsEphemeral == 0:
		return a.editResponse(ctx, i, m)
	case deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		if err := a.followUp(ctx, i, m); err != nil {
			return err
		}
		return a.deleteResponse(ctx, i)
	default:
		return a.followUp(ctx, i, m)
	}
}

// respond answers an interaction with a message (typ 4, or 7 to update
// the message a component is on).
func (a *answers) respond(ctx context.Context, i *discordgo.Interaction, typ discordgo.InteractionResponseType, m *message) error {
	payload := struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data *message                          `json:"data,omitempty"`
	}{typ, m}
	ok, deferred, err := a.answerOverHTTP(i, payload, m)
	switch {
	case ok:
		return err
	case deferred != 0:
		return a.afterDeferral(ctx, i, deferred, typ, m)
	}
	_, err = a.request(ctx, http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), payload, m)
	return err
}

// respondPlain answers an interaction with a response that carries no
// files (an autocomplete's choices, a deferral).
func (a *answers) respondPlain(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	return a.respondPayload(ctx, i, r.Type, r)
}

// respondPayload is respondPlain with a response of any shape, of type typ.
func (a *answers) respondPayload(ctx context.Context, i *discordgo.Interaction, typ discordgo.InteractionResponseType, payload any) error {
	ok, deferred, err := a.answerOverHTTP(i, payload, nil)
	switch {
	case ok:
		return err
	case deferred != 0 && (typ == discordgo.InteractionResponseDeferredChannelMessageWithSource || typ == discordgo.InteractionResponseDeferredMessageUpdate):
		return nil // deferred already
	case deferred != 0:
		return fmt.Errorf("bot: a response of type %d after a deferral over HTTP", typ)
	}
	_, err = a.request(ctx, http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), payload, nil)
	return err
}

// editResponse replaces the deferred or sent response of an interaction.
func (a *answers) editResponse(ctx context.Context, i *discordgo.Interaction, m *message) error {
	_, err := a.request(ctx, http.MethodPatch, discordgo.EndpointInteractionResponseActions(a.appID(i), i.Token), m, m)
	return err
}

// deleteResponse deletes an interaction's response.
func (a *answers) deleteResponse(ctx context.Context, i *discordgo.Interaction) error {
	_, err := a.request(ctx, http.MethodDelete, discordgo.EndpointInteractionResponseActions(a.appID(i), i.Token), nil, nil)
	return err
}

// followUp posts one more message for an interaction.
func (a *answers) followUp(ctx context.Context, i *discordgo.Interaction, m *message) error {
	_, err := a.request(ctx, http.MethodPost, discordgo.EndpointFollowupMessage(a.appID(i), i.Token), m, m)
	return err
}

// post sends a message to a channel and returns its id.
func (sh *shared) post(ctx context.Context, channel string, m *message) (string, error) {
	body, err := sh.request(ctx, http.MethodPost, discordgo.EndpointChannelMessages(channel), m, m)
	if err != nil {
		return "", err
	}
	var got struct {
		ID string `json:"id"`
	}
	if err := unmarshal(body, &got); err != nil {
		return "", fmt.Errorf("bot: reading the posted message: %w", err)
	}
	return got.ID, nil
}

func (a *answers) appID(i *discordgo.Interaction) string {
	if i.AppID != "" {
		return i.AppID
	}
	return a.self.appID()
}

// truncate cuts s to at most n runes, with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// fit joins head and parts with sep, as many whole parts as fit in max
// characters, and then more(n) for the n parts left out and the left
// given: a text is never cut inside a mention, a timestamp or bold.
func fit(head string, parts []string, sep string, max int, left int, more func(n int) string) string {
	var b strings.Builder
	b.WriteString(head)
	size := utf8.RuneCountInString(head)
	for i, p := range parts {
		add := utf8.RuneCountInString(p)
		if b.Len() > 0 {
			add += utf8.RuneCountInString(sep)
		}
		rest := left + len(parts) - i - 1
		tail := 0
		if rest > 0 {
			tail = utf8.RuneCountInString(sep + more(rest))
		}
		if size+add+tail > max {
			left += len(parts) - i
			break
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(p)
		size += add
	}
	if left > 0 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(more(left))
	}
	return truncate(b.String(), max)
}
