package bot

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

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
// request machinery: its rate limiter, retries and error type.
func (b *Bot) request(ctx context.Context, method, url string, payload any, m *message) ([]byte, error) {
	if m == nil || len(m.images) == 0 {
		return b.s.RequestWithBucketID(method, url, payload, url, discordgo.WithContext(ctx))
	}
	files := make([]*discordgo.File, len(m.images))
	for i, img := range m.images {
		mime := img.mime
		if mime == "" {
			mime = "image/png"
		}
		files[i] = &discordgo.File{Name: img.name, ContentType: mime, Reader: bytes.NewReader(img.data)}
	}
	ct, body, err := discordgo.MultipartBodyWithJSON(payload, files)
	if err != nil {
		return nil, fmt.Errorf("bot: encoding a message with %d images: %w", len(files), err)
	}
	return b.s.RequestRaw(method, url, ct, body, url, 0, discordgo.WithContext(ctx))
}

// respond answers an interaction with a message (typ 4, or 7 to update
// the message a component is on).
func (b *Bot) respond(ctx context.Context, i *discordgo.Interaction, typ discordgo.InteractionResponseType, m *message) error {
	payload := struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data *message                          `json:"data,omitempty"`
	}{typ, m}
	if ok, err := b.answerOverHTTP(i, payload, m); ok {
		return err
	}
	_, err := b.request(ctx, http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), payload, m)
	return err
}

// respondPlain answers an interaction with a response that carries no
// files (an autocomplete's choices, a deferral).
func (b *Bot) respondPlain(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	if ok, err := b.answerOverHTTP(i, r, nil); ok {
		return err
	}
	return b.s.InteractionRespond(i, r, discordgo.WithContext(ctx))
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// editResponse replaces the deferred or sent response of an interaction.
func (b *Bot) editResponse(ctx context.Context, i *discordgo.Interaction, m *message) error {
	_, err := b.request(ctx, http.MethodPatch, discordgo.EndpointInteractionResponseActions(b.appID(i), i.Token), m, m)
	return err
}

// followUp posts one more message for an interaction.
func (b *Bot) followUp(ctx context.Context, i *discordgo.Interaction, m *message) error {
	_, err := b.request(ctx, http.MethodPost, discordgo.EndpointFollowupMessage(b.appID(i), i.Token), m, m)
	return err
}

// post sends a message to a channel and returns its id.
func (b *Bot) post(ctx context.Context, channel string, m *message) (string, error) {
	body, err := b.request(ctx, http.MethodPost, discordgo.EndpointChannelMessages(channel), m, m)
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

func (b *Bot) appID(i *discordgo.Interaction) string {
	if i.AppID != "" {
		return i.AppID
	}
	return b.app.Load().(string)
}

// truncate cuts s to at most n runes, with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
