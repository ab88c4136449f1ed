package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// boardScan is what telling a game's boards among a channel's messages
// needs of each (isBoardOf): its id, author, attachments and buttons.
// Reading only these is a fraction of the work of discordgo's whole
// messages, whose embeds and components it decodes twice: after every
// move, retireBoards reads the channel's newest messages.
type boardScan struct {
	ID     string `json:"id"`
	Author *struct {
		ID string `json:"id"`
	} `json:"author"`
	Attachments []struct{} `json:"attachments"`
	Components  []struct {
		Type       discordgo.ComponentType `json:"type"`
		Components []struct {
			Type     discordgo.ComponentType `json:"type"`
			CustomID string                  `json:"custom_id"`
		} `json:"components"`
	} `json:"components"`
}

// message is the part of a discordgo message that the scan read: no
// button but its custom id.
func (s *boardScan) message() *discordgo.Message {
	m := &discordgo.Message{ID: s.ID, Attachments: make([]*discordgo.MessageAttachment, len(s.Attachments))}
	if s.Author != nil {
		m.Author = &discordgo.User{ID: s.Author.ID}
	}
	for _, row := range s.Components {
		if row.Type != discordgo.ActionsRowComponent {
			continue
		}
		r := &discordgo.ActionsRow{}
		for _, c := range row.Components {
			if c.Type == discordgo.ButtonComponent {
				r.Components = append(r.Components, &discordgo.Button{CustomID: c.CustomID})
			}
		}
		m.Components = append(m.Components, r)
	}
	return m
}

// scanBoards reads a channel's limit newest messages, newest first, as
// far as isBoardOf needs them, in discordgo's bucket of the channel's
// messages.
func (sh *shared) scanBoards(ctx context.Context, channel string, limit int) ([]*discordgo.Message, error) {
	url := discordgo.EndpointChannelMessages(channel) + "?limit=" + strconv.Itoa(limit)
	body, err := sh.s.RequestWithBucketID(http.MethodGet, url, nil, discordgo.EndpointChannelMessages(channel), discordgo.WithContext(ctx))
	if err != nil {
		return nil, redact(err)
	}
	var scans []boardScan
	if err := json.Unmarshal(body, &scans); err != nil {
		return nil, fmt.Errorf("bot: reading the messages of channel %s: %w", channel, err)
	}
	msgs := make([]*discordgo.Message, len(scans))
	for i := range scans {
		msgs[i] = scans[i].message()
	}
	return msgs, nil
}
