package fakediscord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// maxFileSize is the largest attachment Discord takes from a bot.
const maxFileSize = 10 << 20

// readBody reads a request's JSON, and its files when it is multipart:
// payload_json and files[n], as discordgo's MultipartBodyWithJSON writes
// them.
func readBody(w http.ResponseWriter, r *http.Request) (json.RawMessage, []File, *Error) {
	body := http.MaxBytesReader(w, r.Body, 11*maxFileSize)
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "multipart/form-data" {
		raw, err := io.ReadAll(body)
		if err != nil {
			return nil, nil, errTooLarge
		}
		return raw, nil, nil
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, invalid(err.Error())
	}
	var raw json.RawMessage
	byIndex := map[int]File{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, invalid(err.Error())
		}
		data, err := io.ReadAll(io.LimitReader(part, maxFileSize+1))
		if err != nil {
			return nil, nil, errTooLarge
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			raw = data
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 || n >= 10 {
				return nil, nil, invalid("bad file field "+name, name)
			}
			if len(data) > maxFileSize {
				return nil, nil, errTooLarge
			}
			ct := part.Header.Get("Content-Type")
			if ct == "" || ct == "application/octet-stream" {
				if byExt := mime.TypeByExtension(path.Ext(part.FileName())); byExt != "" {
					ct = byExt
				}
			}
			byIndex[n] = File{Name: part.FileName(), ContentType: ct, Data: data}
		}
	}
	files := make([]File, len(byIndex))
	for n, f := range byIndex {
		if n >= len(files) {
			return nil, nil, invalid("files must be numbered from 0", "files")
		}
		files[n] = f
	}
	return raw, files, nil
}

// fields splits a JSON object into its fields; null or nothing is no field.
func fields(raw json.RawMessage) (map[string]json.RawMessage, *Error) {
	m := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return m, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, invalid("not a JSON object: " + err.Error())
	}
	return m, nil
}

// isNull tells whether a field is JSON null.
func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// attachmentParam is an entry of a payload's attachments: id is a file's
// index in this request, or the id of an attachment the message keeps.
type attachmentParam struct {
	ID          json.RawMessage `json:"id"`
	Filename    string          `json:"filename"`
	Description string          `json:"description"`
}

func (a attachmentParam) id() string { return strings.Trim(string(a.ID), `" `) }

// applyMessage applies a message payload to m, as a create when create is
// true and otherwise as an edit: a field that is absent is kept, one that
// is null is cleared, and files are added to the attachments unless the
// payload's attachments list those to keep. Only the flags Discord lets a
// bot set are taken. m's slices are replaced, never changed in place.
func applyMessage(m *Message, f map[string]json.RawMessage, files []File, create bool) *Error {
	if raw, ok := f["content"]; ok {
		m.Content = ""
		if !isNull(raw) && json.Unmarshal(raw, &m.Content) != nil {
			return invalid("content must be a string", "content")
		}
	}
	if raw, ok := f["embeds"]; ok {
		m.Embeds = nil
		if !isNull(raw) && json.Unmarshal(raw, &m.Embeds) != nil {
			return invalid("embeds must be a list of embeds", "embeds")
		}
	}
	if raw, ok := f["components"]; ok {
		var raws []json.RawMessage
		if !isNull(raw) && json.Unmarshal(raw, &raws) != nil {
			return invalid("components must be a list", "components")
		}
		m.Components = nil
		for i, r := range raws {
			c, err := discordgo.MessageComponentFromJSON(r)
			if err != nil {
				return invalid(err.Error(), "components", strconv.Itoa(i))
			}
			m.Components = append(m.Components, c)
		}
	}
	if raw, ok := f["flags"]; ok && !isNull(raw) {
		var flags discordgo.MessageFlags
		if json.Unmarshal(raw, &flags) != nil {
			return invalid("flags must be an integer", "flags")
		}
		settable := discordgo.MessageFlagsSuppressEmbeds
		if create {
			settable |= discordgo.MessageFlagsEphemeral | discordgo.MessageFlagsSuppressNotifications | discordgo.MessageFlagsIsComponentsV2
		}
		m.Flags = m.Flags&^settable | flags&settable
	}

	var params []attachmentParam
	raw, listed := f["attachments"]
	if listed && !isNull(raw) && json.Unmarshal(raw, &params) != nil {
		return invalid("attachments must be a list", "attachments")
	}
	kept := slices.Clip(m.Files)
	if listed || create {
		kept = nil
	}
	for i, p := range params {
		if j := slices.IndexFunc(m.Files, func(f File) bool { return f.ID == p.id() }); j >= 0 {
			kept = append(kept, m.Files[j])
			continue
		}
		n, err := strconv.Atoi(p.id())
		if err != nil || n < 0 || n >= len(files) {
			return invalid("no file or attachment with id "+p.id(), "attachments", strconv.Itoa(i), "id")
		}
		if p.Filename != "" {
			files[n].Name = p.Filename
		}
		files[n].Description = p.Description
	}
	for n := range files {
		files[n].ID = newID()
		kept = append(kept, files[n])
	}
	m.Files = kept
	return nil
}

// checkMessage refuses what Discord refuses in a message a bot sends.
func checkMessage(m *Message) *Error {
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Files) == 0 && len(m.Components) == 0 {
		return errEmptyMessage
	}
	if n := utf8.RuneCountInString(m.Content); n > 2000 {
		return invalid(fmt.Sprintf("content has %d characters, more than 2000", n), "content")
	}
	if len(m.Files) > 10 {
		return invalid("more than 10 files", "files")
	}
	if err := checkEmbeds(m.Embeds); err != nil {
		return err
	}
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		return checkComponents(m.Components)
	}
	return nil
}

func checkEmbeds(embeds []*discordgo.MessageEmbed) *Error {
	if len(embeds) > 10 {
		return invalid("more than 10 embeds", "embeds")
	}
	total := 0
	for i, e := range embeds {
		at := func(field string, max int, s string) error {
			n := utf8.RuneCountInString(s)
			total += n
			if n > max {
				return fmt.Errorf("%s has %d characters, more than %d", field, n, max)
			}
			return nil
		}
		var errs []error
		errs = append(errs, at("title", 256, e.Title), at("description", 4096, e.Description))
		if e.Footer != nil {
			errs = append(errs, at("footer.text", 2048, e.Footer.Text))
		}
		if e.Author != nil {
			errs = append(errs, at("author.name", 256, e.Author.Name))
		}
		if len(e.Fields) > 25 {
			errs = append(errs, errors.New("more than 25 fields"))
		}
		for _, f := range e.Fields {
			errs = append(errs, at("fields.name", 256, f.Name), at("fields.value", 1024, f.Value))
			if f.Name == "" || f.Value == "" {
				errs = append(errs, errors.New("a field has an empty name or value"))
			}
		}
		if err := errors.Join(errs...); err != nil {
			return invalid(err.Error(), "embeds", strconv.Itoa(i))
		}
	}
	if total > 6000 {
		return invalid(fmt.Sprintf("the embeds have %d characters, more than 6000", total), "embeds")
	}
	return nil
}

func checkComponents(rows []discordgo.MessageComponent) *Error {
	if len(rows) > 5 {
		return invalid("more than 5 action rows", "components")
	}
	ids := map[string]bool{}
	customID := func(id string, where ...string) *Error {
		switch {
		case id == "" || utf8.RuneCountInString(id) > 100:
			return invalid(fmt.Sprintf("custom_id %q must have 1 to 100 characters", id), where...)
		case ids[id]:
			return invalid(fmt.Sprintf("custom_id %q is used twice", id), where...)
		}
		ids[id] = true
		return nil
	}
	for i, c := range rows {
		at := []string{"components", strconv.Itoa(i)}
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			return invalid("a message's top-level components must be action rows", at...)
		}
		buttons := 0
		for j, c := range row.Components {
			at := append(slices.Clip(at), "components", strconv.Itoa(j))
			switch c := c.(type) {
			case *discordgo.Button:
				buttons++
				if utf8.RuneCountInString(c.Label) > 80 {
					return invalid("a button label has more than 80 characters", at...)
				}
				if c.Label == "" && c.Emoji == nil {
					return invalid("a button needs a label or an emoji", at...)
				}
				if c.Style == discordgo.LinkButton {
					if c.URL == "" || c.CustomID != "" {
						return invalid("a link button has a url and no custom_id", at...)
					}
				} else if err := customID(c.CustomID, at...); err != nil {
					return err
				}
			case *discordgo.SelectMenu:
				if len(row.Components) != 1 {
					return invalid("a select menu must be alone in its row", at...)
				}
				if err := customID(c.CustomID, at...); err != nil {
					return err
				}
				if c.MenuType == discordgo.StringSelectMenu && (len(c.Options) == 0 || len(c.Options) > 25) {
					return invalid("a select menu has 1 to 25 options", at...)
				}
			default:
				return invalid(fmt.Sprintf("component type %d is not allowed in a message row", c.Type()), at...)
			}
		}
		if len(row.Components) == 0 || buttons > 5 {
			return invalid("an action row has 1 to 5 buttons or one select menu", at...)
		}
	}
	return nil
}
