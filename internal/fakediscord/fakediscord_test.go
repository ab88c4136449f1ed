package fakediscord_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

var loopbackDialer = fakediscord.Dialer

func TestMain(m *testing.M) { os.Exit(fakediscord.Main(m)) }

// world is a fake with a guild, two channels (threads forbidden in one),
// two users and a bot connected with a real discordgo session.
type world struct {
	srv          *fakediscord.Server
	dg           *discordgo.Session
	guild        fakediscord.Guild
	chess, quiet fakediscord.Channel
	alice, bob   fakediscord.User
	ready        chan *discordgo.Ready
	guildCreate  chan *discordgo.GuildCreate
	interactions chan *discordgo.InteractionCreate
}

func newWorld(t *testing.T) *world {
	t.Parallel()
	w := &world{srv: fakediscord.New(t)}
	w.guild = w.srv.AddGuild(fakediscord.Guild{Name: "Ice Age Club", Locale: "fr"})
	w.chess = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "chess"})
	w.quiet = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "quiet", NoThreads: true})
	w.alice = w.srv.AddUser(fakediscord.User{Username: "alice", GlobalName: "Alice", Locale: "ru"})
	w.bob = w.srv.AddUser(fakediscord.User{Username: "bob"})
	w.ready = make(chan *discordgo.Ready, 8)
	w.guildCreate = make(chan *discordgo.GuildCreate, 8)
	w.interactions = make(chan *discordgo.InteractionCreate, 64)

	dg, err := discordgo.New("Bot " + w.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	dg.Dialer = loopbackDialer
	dg.SyncEvents = true // handlers in order, so the channels below are too
	dg.Identify.Intents = discordgo.IntentsGuilds
	dg.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) { w.ready <- r })
	dg.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) { w.guildCreate <- g })
	dg.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { w.interactions <- i })
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dg.Close() })
	w.dg = dg
	return w
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		var zero T
		t.Fatalf("no %T came", zero)
		return zero
	}
}

// interaction receives the next interaction and checks it is id.
func (w *world) interaction(t *testing.T, id string) *discordgo.InteractionCreate {
	t.Helper()
	if id == "" {
		t.Fatal("no interaction was dispatched")
	}
	i := receive(t, w.interactions)
	if i.ID != id {
		t.Fatalf("interaction %s came, want %s", i.ID, id)
	}
	return i
}

func board(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 16, 8))
	img.Set(3, 3, color.RGBA{200, 230, 255, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func restError(t *testing.T, err error, status, code int) {
	t.Helper()
	var rest *discordgo.RESTError
	if !errors.As(err, &rest) {
		t.Fatalf("error %v, want a *discordgo.RESTError", err)
	}
	if rest.Response.StatusCode != status || rest.Message == nil || rest.Message.Code != code {
		t.Fatalf("error %v, want status %d and code %d", err, status, code)
	}
}

func ptr[T any](v T) *T { return &v }

func TestConnectReadyAndGuildCreate(t *testing.T) {
	w := newWorld(t)
	r := receive(t, w.ready)
	if r.Application == nil || r.Application.ID != w.srv.AppID() || r.User.ID != w.srv.Bot().ID || !r.User.Bot || r.SessionID == "" {
		t.Errorf("READY: application %+v, user %+v, session %q", r.Application, r.User, r.SessionID)
	}
	w.dg.State.RLock()
	appID := w.dg.State.Ready.Application.ID
	w.dg.State.RUnlock()
	if appID != w.srv.AppID() {
		t.Errorf("State.Ready.Application.ID = %q, want %q", appID, w.srv.AppID())
	}
	g := receive(t, w.guildCreate)
	if g.ID != w.guild.ID || g.Name != "Ice Age Club" || g.PreferredLocale != "fr" || len(g.Channels) != 2 || g.JoinedAt.IsZero() {
		t.Errorf("GUILD_CREATE: %+v", g.Guild)
	}
	c, err := w.dg.State.Channel(w.chess.ID)
	if err != nil || c.Name != "chess" || c.GuildID != w.guild.ID {
		t.Errorf("state channel: %+v, %v", c, err)
	}
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindIdentify })
	if err != nil || call.Identify.Intents != discordgo.IntentsGuilds || call.SessionID != r.SessionID {
		t.Errorf("identify: %+v, %v", call, err)
	}

	deadline := time.Now().Add(10 * time.Second)
	for w.srv.Heartbeats() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if w.srv.Heartbeats() == 0 {
		t.Error("no heartbeat was acknowledged")
	}

	// Reads.
	if c, err := w.dg.Channel(w.quiet.ID); err != nil || c.Name != "quiet" || c.Type != discordgo.ChannelTypeGuildText {
		t.Errorf("GET channel: %+v, %v", c, err)
	}
	if m, err := w.dg.GuildMember(w.guild.ID, w.alice.ID); err != nil || m.User.ID != w.alice.ID || m.GuildID != w.guild.ID || m.JoinedAt.IsZero() {
		t.Errorf("GET member: %+v, %v", m, err)
	}
	_, err = w.dg.GuildMember(w.guild.ID, "1")
	restError(t, err, 404, discordgo.ErrCodeUnknownMember)
	if me, err := w.dg.User("@me"); err != nil || me.ID != w.srv.Bot().ID || !me.Bot {
		t.Errorf("GET @me: %+v, %v", me, err)
	}
	if u, err := w.dg.User(w.alice.ID); err != nil || u.Username != "alice" || u.GlobalName != "Alice" {
		t.Errorf("GET user: %+v, %v", u, err)
	}

	// A guild added later comes as a GUILD_CREATE.
	late := w.srv.AddGuild(fakediscord.Guild{})
	if g := receive(t, w.guildCreate); g.ID != late.ID || g.PreferredLocale != "en-US" {
		t.Errorf("late GUILD_CREATE: %+v", g.Guild)
	}
}

func TestSlashCommandRespondWithFileEditFollowUp(t *testing.T) {
	w := newWorld(t)
	id := w.srv.Command(w.alice.ID, w.chess.ID, "challenge",
		fakediscord.UserOption("opponent", w.bob.ID), fakediscord.IntOption("days", 3),
		fakediscord.BoolOption("rated", false), fakediscord.StringOption("color", "white"))
	i := w.interaction(t, id)
	data := i.ApplicationCommandData()
	switch {
	case i.Type != discordgo.InteractionApplicationCommand || i.AppID != w.srv.AppID() || i.Token == "":
		t.Errorf("interaction %+v", i.Interaction)
	case i.GuildID != w.guild.ID || i.ChannelID != w.chess.ID || i.Locale != "ru" || i.GuildLocale == nil || *i.GuildLocale != "fr":
		t.Errorf("where and locales: %+v", i.Interaction)
	case i.Member == nil || i.Member.User == nil || i.Member.User.ID != w.alice.ID || i.Member.User.GlobalName != "Alice" || i.User != nil:
		t.Errorf("member %+v, user %+v", i.Member, i.User)
	case data.Name != "challenge" || data.GetOption("opponent").UserValue(nil).ID != w.bob.ID ||
		data.GetOption("days").IntValue() != 3 || data.GetOption("rated").BoolValue() || data.GetOption("color").StringValue() != "white":
		t.Errorf("data %+v", data)
	case data.Resolved == nil || data.Resolved.Users[w.bob.ID].Username != "bob" || data.Resolved.Members[w.bob.ID] == nil:
		t.Errorf("resolved %+v", data.Resolved)
	case i.AppPermissions&discordgo.PermissionCreatePublicThreads == 0:
		t.Errorf("app_permissions %b lack thread creation", i.AppPermissions)
	}

	png := board(t)
	err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: "Alice challenges Bob",
			Embeds:  []*discordgo.MessageEmbed{{Title: "Challenge"}},
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Accept", CustomID: "accept"},
				discordgo.Button{Label: "Decline", CustomID: "decline", Style: discordgo.DangerButton},
			}}},
			Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := w.srv.WaitResponse(ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	m := resp.Message
	switch {
	case resp.ResponseType != discordgo.InteractionResponseChannelMessageWithSource || resp.Err != nil:
		t.Errorf("response %v", resp)
	case m.Content != "Alice challenges Bob" || len(m.Embeds) != 1 || m.Embeds[0].Title != "Challenge" || m.InteractionID != id || m.ChannelID != w.chess.ID:
		t.Errorf("message %+v", m)
	case len(m.Buttons()) != 2 || m.Buttons()[0].CustomID != "accept" || m.Buttons()[1].Label != "Decline":
		t.Errorf("buttons %+v", m.Buttons())
	case len(m.Files) != 1 || m.Files[0].Name != "board.png" || m.Files[0].ContentType != "image/png" || !bytes.Equal(m.Files[0].Data, png):
		t.Errorf("files %+v", m.Files)
	}
	// discordgo v0.29.0's MessageAttachment has no description: none comes.
	if d := m.Files[0].Description; d != "" {
		t.Errorf("description %q, want none", d)
	}

	// A second callback is refused, as Discord does.
	err = w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "again"}})
	restError(t, err, 400, 40060)

	// Edit: the content changes, the embed and the file stay.
	edited, err := w.dg.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: ptr("Bob to answer")})
	if err != nil {
		t.Fatal(err)
	}
	if edited.ID != m.ID || edited.Content != "Bob to answer" || len(edited.Attachments) != 1 || edited.Attachments[0].Width != 16 || edited.EditedTimestamp == nil {
		t.Errorf("edited message %+v", edited)
	}
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindResponseEdit })
	if err != nil || call.InteractionID != id || call.Message.Content != "Bob to answer" || len(call.Message.Embeds) != 1 || len(call.Message.Files) != 1 {
		t.Errorf("edit call %v, %v", call, err)
	}
	if got, _ := w.srv.Message(m.ID); got.Content != "Bob to answer" {
		t.Errorf("message now %+v", got)
	}
	original, err := w.dg.InteractionResponse(i.Interaction)
	if err != nil || original.ID != m.ID || original.Author.ID != w.srv.Bot().ID {
		t.Errorf("GET @original: %+v, %v", original, err)
	}

	// Follow-up, ephemeral, and its edit.
	f, err := w.dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "only you", Flags: discordgo.MessageFlagsEphemeral})
	if err != nil {
		t.Fatal(err)
	}
	if f.Content != "only you" || f.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("follow-up %+v", f)
	}
	if _, err := w.dg.FollowupMessageEdit(i.Interaction, f.ID, &discordgo.WebhookEdit{Content: ptr("only you, edited")}); err != nil {
		t.Fatal(err)
	}
	call, err = w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindFollowupEdit })
	if err != nil || call.Message.ID != f.ID || call.Message.Content != "only you, edited" || !call.Message.Ephemeral() {
		t.Errorf("follow-up edit %v, %v", call, err)
	}

	// A button of the response, clicked; the update takes the buttons away.
	click := w.srv.Click(w.bob.ID, m.ID, "accept")
	ci := w.interaction(t, click)
	cd := ci.MessageComponentData()
	if cd.CustomID != "accept" || cd.ComponentType != discordgo.ButtonComponent || ci.Message == nil || ci.Message.ID != m.ID ||
		len(ci.Message.Components) != 1 || ci.Member.User.ID != w.bob.ID || ci.Locale != "en-US" {
		t.Errorf("click %+v", ci.Interaction)
	}
	err = w.dg.InteractionRespond(ci.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "Accepted", Embeds: m.Embeds, Components: []discordgo.MessageComponent{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := w.srv.Message(m.ID); got.Content != "Accepted" || len(got.Components) != 0 || len(got.Embeds) != 1 || len(got.Files) != 1 {
		t.Errorf("message after the update %+v", got)
	}
}

func TestAttachmentDescription(t *testing.T) {
	w := newWorld(t)
	i := w.interaction(t, w.srv.Command(w.bob.ID, w.chess.ID, "board"))
	// What a bot must send for alt text, discordgo v0.29.0 having no field
	// for it.
	type attachment struct {
		ID          string `json:"id"`
		Filename    string `json:"filename"`
		Description string `json:"description"`
	}
	payload := map[string]any{"type": discordgo.InteractionResponseChannelMessageWithSource, "data": map[string]any{
		"content":     "the board",
		"attachments": []attachment{{ID: "0", Filename: "board.png", Description: "White to move; d3 is frozen"}},
	}}
	png := board(t)
	ct, body, err := discordgo.MultipartBodyWithJSON(payload, []*discordgo.File{{Name: "board.png", Reader: bytes.NewReader(png)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.dg.RequestRaw("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), ct, body, "", 0); err != nil {
		t.Fatal(err)
	}
	resp, err := w.srv.WaitResponse(ctx(t), i.ID)
	if err != nil {
		t.Fatal(err)
	}
	f := resp.Message.Files
	if len(f) != 1 || f[0].Description != "White to move; d3 is frozen" || !bytes.Equal(f[0].Data, png) || f[0].ContentType != "image/png" {
		t.Errorf("files %+v", f)
	}
	// The attachment's url serves its bytes.
	got, err := w.dg.InteractionResponse(i.Interaction)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(got.Attachments[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	var served bytes.Buffer
	served.ReadFrom(res.Body)
	res.Body.Close()
	if !bytes.Equal(served.Bytes(), png) {
		t.Errorf("the attachment's url served %d bytes, want the PNG", served.Len())
	}
}

func TestDeferThenEdit(t *testing.T) {
	w := newWorld(t)
	i := w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "move", fakediscord.StringOption("move", "e4")))
	err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := w.srv.WaitResponse(ctx(t), i.ID)
	if !resp.Message.Ephemeral() || resp.Message.Flags&discordgo.MessageFlagsLoading == 0 {
		t.Errorf("deferred message %+v", resp.Message)
	}
	png := board(t)
	m, err := w.dg.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{
		Content: ptr("e4"),
		Files:   []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Flags&discordgo.MessageFlagsLoading != 0 || m.Flags&discordgo.MessageFlagsEphemeral == 0 || len(m.Attachments) != 1 {
		t.Errorf("edited deferred message %+v", m)
	}
	// A deferral with no data at all is a public "thinking" message.
	j := w.interaction(t, w.srv.Command(w.bob.ID, w.chess.ID, "board"))
	if err := w.dg.InteractionRespond(j.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
		t.Fatal(err)
	}
	if resp, _ := w.srv.WaitResponse(ctx(t), j.ID); resp.Message.Ephemeral() || resp.Message.Flags&discordgo.MessageFlagsLoading == 0 {
		t.Errorf("deferred message without data %+v", resp.Message)
	}

	// Ephemeral messages are in no channel.
	if _, err := w.dg.ChannelMessageEdit(w.chess.ID, m.ID, "x"); err == nil {
		t.Error("an ephemeral message was edited through its channel")
	} else {
		restError(t, err, 404, 10008)
	}
}

func TestThreadsAndChannelMessages(t *testing.T) {
	w := newWorld(t)
	png := board(t)
	post, err := w.dg.ChannelMessageSendComplex(w.chess.ID, &discordgo.MessageSend{
		Content: "a game begins",
		Files:   []*discordgo.File{{Name: "start.png", ContentType: "image/png", Reader: bytes.NewReader(png)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	th, err := w.dg.MessageThreadStartComplex(w.chess.ID, post.ID, &discordgo.ThreadStart{Name: "alice vs bob", AutoArchiveDuration: 1440})
	if err != nil {
		t.Fatal(err)
	}
	if th.ID != post.ID || th.Type != discordgo.ChannelTypeGuildPublicThread || th.ParentID != w.chess.ID || th.Name != "alice vs bob" || th.ThreadMetadata == nil {
		t.Errorf("thread %+v", th)
	}
	_, err = w.dg.MessageThreadStartComplex(w.chess.ID, post.ID, &discordgo.ThreadStart{Name: "again"})
	restError(t, err, 400, 160004)

	in, err := w.dg.ChannelMessageSend(th.ID, "1. e4")
	if err != nil || in.ChannelID != th.ID {
		t.Fatalf("message in the thread: %+v, %v", in, err)
	}
	if _, err := w.dg.ChannelMessageEdit(th.ID, in.ID, "1. e4 e5"); err != nil {
		t.Fatal(err)
	}
	if ms := w.srv.Messages(th.ID); len(ms) != 1 || ms[0].Content != "1. e4 e5" {
		t.Errorf("messages in the thread %+v", ms)
	}
	if got, _ := w.srv.Message(post.ID); got.ThreadID != th.ID || len(got.Files) != 1 || !bytes.Equal(got.Files[0].Data, png) {
		t.Errorf("the thread's message %+v", got)
	}

	alone, err := w.dg.ThreadStartComplex(w.chess.ID, &discordgo.ThreadStart{Name: "open game", Type: discordgo.ChannelTypeGuildPublicThread})
	if err != nil || alone.Type != discordgo.ChannelTypeGuildPublicThread || alone.ParentID != w.chess.ID {
		t.Errorf("thread without a message: %+v, %v", alone, err)
	}
	if c, ok := w.srv.Channel(alone.ID); !ok || c.Name != "open game" {
		t.Errorf("the thread as the fake has it: %+v", c)
	}

	// Where the bot may not create threads: 403 Missing Permissions.
	_, err = w.dg.ThreadStartComplex(w.quiet.ID, &discordgo.ThreadStart{Name: "no", Type: discordgo.ChannelTypeGuildPublicThread})
	restError(t, err, 403, discordgo.ErrCodeMissingPermissions)
	quietPost, err := w.dg.ChannelMessageSend(w.quiet.ID, "playing here")
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.dg.MessageThreadStartComplex(w.quiet.ID, quietPost.ID, &discordgo.ThreadStart{Name: "no"})
	restError(t, err, 403, 50013)
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Err != nil && c.Err.Status == 403
	})
	if err != nil || call.Err.Code != 50013 {
		t.Errorf("refused thread call %v, %v", call, err)
	}
	i := w.interaction(t, w.srv.Command(w.alice.ID, w.quiet.ID, "challenge"))
	if i.AppPermissions&discordgo.PermissionCreatePublicThreads != 0 {
		t.Errorf("app_permissions %b allow threads in a channel without them", i.AppPermissions)
	}
}

func TestDMChannels(t *testing.T) {
	w := newWorld(t)
	dm, err := w.dg.UserChannelCreate(w.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if dm.Type != discordgo.ChannelTypeDM || len(dm.Recipients) != 1 || dm.Recipients[0].ID != w.alice.ID {
		t.Errorf("DM channel %+v", dm)
	}
	if again, _ := w.dg.UserChannelCreate(w.alice.ID); again.ID != dm.ID {
		t.Errorf("a second DM channel %s, want %s", again.ID, dm.ID)
	}
	if _, err := w.dg.ChannelMessageSend(dm.ID, "your move"); err != nil {
		t.Fatal(err)
	}
	w.srv.SetDMsClosed(w.bob.ID, true)
	bobDM, err := w.dg.UserChannelCreate(w.bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.dg.ChannelMessageSend(bobDM.ID, "your move")
	restError(t, err, 403, discordgo.ErrCodeCannotSendMessagesToThisUser)

	// A slash command in a DM has a user, no member and no guild.
	i := w.interaction(t, w.srv.Command(w.alice.ID, w.srv.DMChannel(w.alice.ID).ID, "help"))
	if i.User == nil || i.User.ID != w.alice.ID || i.Member != nil || i.GuildID != "" || i.GuildLocale != nil {
		t.Errorf("DM interaction %+v", i.Interaction)
	}
}

func TestCommandsOverwrite(t *testing.T) {
	w := newWorld(t)
	commands := []*discordgo.ApplicationCommand{
		{Name: "move", Description: "Make a move", NameLocalizations: &map[discordgo.Locale]string{discordgo.French: "coup", discordgo.Russian: "ход"},
			Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "The move in SAN", Required: true, Autocomplete: true}}},
		{Type: discordgo.UserApplicationCommand, Name: "Challenge to Ice Age Chess"},
	}
	got, err := w.dg.ApplicationCommandBulkOverwrite(w.srv.AppID(), "", commands)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID == "" || got[0].ApplicationID != w.srv.AppID() || got[1].Type != discordgo.UserApplicationCommand {
		t.Errorf("overwrite answered %+v", got)
	}
	if _, err := w.dg.ApplicationCommandBulkOverwrite(w.srv.AppID(), w.guild.ID, commands[:1]); err != nil {
		t.Fatal(err)
	}
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindCommands && c.GuildID == w.guild.ID })
	if err != nil || len(call.Commands) != 1 || call.Commands[0].Name != "move" || len(call.JSON) == 0 {
		t.Errorf("guild overwrite %v, %v", call, err)
	}
	global, err := w.dg.ApplicationCommands(w.srv.AppID(), "")
	if err != nil || len(global) != 2 || global[0].ID != got[0].ID {
		t.Errorf("global commands %+v, %v", global, err)
	}

	// Interactions carry the id of the command registered.
	i := w.interaction(t, w.srv.Autocomplete(w.alice.ID, w.chess.ID, "move", fakediscord.Focused("move", "e")))
	if i.Type != discordgo.InteractionApplicationCommandAutocomplete || i.ApplicationCommandData().ID != call.Commands[0].ID ||
		!i.ApplicationCommandData().Options[0].Focused || i.ApplicationCommandData().Options[0].StringValue() != "e" {
		t.Errorf("autocomplete %+v", i.Interaction)
	}
	err = w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "e4", Value: "e4"}, {Name: "e3", Value: "e3"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := w.srv.WaitResponse(ctx(t), i.ID); len(resp.Choices) != 2 || resp.Choices[0].Name != "e4" {
		t.Errorf("choices %+v", resp.Choices)
	}

	u := w.interaction(t, w.srv.UserCommand(w.alice.ID, w.chess.ID, "Challenge to Ice Age Chess", w.bob.ID))
	ud := u.ApplicationCommandData()
	if ud.CommandType != discordgo.UserApplicationCommand || ud.TargetID != w.bob.ID || ud.ID != got[1].ID ||
		ud.Resolved.Users[w.bob.ID].Username != "bob" || ud.Resolved.Members[w.bob.ID] == nil {
		t.Errorf("user command %+v", ud)
	}

	// What Discord refuses.
	for name, bad := range map[string]*discordgo.ApplicationCommand{
		"upper case":        {Name: "Move", Description: "x"},
		"no description":    {Name: "move"},
		"unknown locale":    {Name: "move", Description: "x", NameLocalizations: &map[discordgo.Locale]string{"xx": "move"}},
		"localized upper":   {Name: "move", Description: "x", NameLocalizations: &map[discordgo.Locale]string{discordgo.Russian: "Ход"}},
		"long description":  {Name: "move", Description: string(make([]byte, 101))},
		"optional first":    {Name: "move", Description: "x", Options: []*discordgo.ApplicationCommandOption{{Type: 3, Name: "a", Description: "a"}, {Type: 3, Name: "b", Description: "b", Required: true}}},
		"user with options": {Type: discordgo.UserApplicationCommand, Name: "Challenge", Description: "x"},
	} {
		_, err := w.dg.ApplicationCommandBulkOverwrite(w.srv.AppID(), "", []*discordgo.ApplicationCommand{bad})
		var rest *discordgo.RESTError
		if !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("%s: error %v, want Invalid Form Body", name, err)
		}
	}
}

func TestSelectMenu(t *testing.T) {
	w := newWorld(t)
	m, err := w.dg.ChannelMessageSendComplex(w.chess.ID, &discordgo.MessageSend{
		Content: "pick a time control",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "days", Options: []discordgo.SelectMenuOption{{Label: "1 day", Value: "1"}, {Label: "3 days", Value: "3"}}},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	i := w.interaction(t, w.srv.Select(w.bob.ID, m.ID, "days", "3"))
	d := i.MessageComponentData()
	if d.ComponentType != discordgo.SelectMenuComponent || len(d.Values) != 1 || d.Values[0] != "3" || i.Message.ID != m.ID {
		t.Errorf("select %+v", d)
	}
	if err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		t.Fatal(err)
	}
	// After a deferred update, @original is the message the menu is on.
	if _, err := w.dg.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: ptr("3 days")}); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.srv.Message(m.ID); got.Content != "3 days" {
		t.Errorf("message after the edit %+v", got)
	}
}

func TestRefusals(t *testing.T) {
	w := newWorld(t)
	i := w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	// A follow-up before the response.
	_, err := w.dg.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "early"})
	restError(t, err, 404, 10015)
	// An empty message.
	err = w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{}})
	restError(t, err, 400, 50006)
	// Two buttons with one custom id.
	row := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "a", CustomID: "x"}, discordgo.Button{Label: "b", CustomID: "x"}}}
	err = w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row}}})
	restError(t, err, 400, 50035)
	// Refused callbacks leave the interaction unanswered: this one counts.
	if err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "ok"}}); err != nil {
		t.Fatal(err)
	}
	// Too late: past the deadline, the interaction is unknown.
	w.srv.SetResponseDeadline(20 * time.Millisecond)
	late := w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	time.Sleep(50 * time.Millisecond)
	err = w.dg.InteractionRespond(late.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "late"}})
	restError(t, err, 404, 10062)
	// Unknown channel.
	_, err = w.dg.ChannelMessageSend("1", "hello")
	restError(t, err, 404, 10003)
}

func TestDisconnectResumeAndReidentify(t *testing.T) {
	w := newWorld(t)
	w.srv.SetResponseDeadline(0)
	first := receive(t, w.ready)

	// A resumable drop: what is dispatched meanwhile comes on RESUME.
	w.srv.Disconnect(true)
	id := w.srv.Command(w.alice.ID, w.chess.ID, "board")
	resume, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindResume })
	if err != nil || resume.Err != nil || resume.SessionID != first.SessionID {
		t.Fatalf("resume %v, %v", resume, err)
	}
	i := w.interaction(t, id)
	if err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "still here"}}); err != nil {
		t.Fatal(err)
	}

	// A drop that ends the session: RESUME is refused, a new READY comes.
	w.srv.Disconnect(false)
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindIdentify && c.SessionID != first.SessionID
	})
	if err != nil {
		t.Fatal(err)
	}
	second := receive(t, w.ready)
	if second.SessionID != call.SessionID {
		t.Errorf("new READY for session %s, want %s", second.SessionID, call.SessionID)
	}
	refused, _ := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindResume && c.Err != nil })
	if refused.SessionID != first.SessionID {
		t.Errorf("refused resume %v", refused)
	}
	w.interaction(t, w.srv.Command(w.bob.ID, w.chess.ID, "board"))

	// A clean close by the bot.
	if err := w.dg.Close(); err != nil {
		t.Fatal(err)
	}
	closed, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindClose })
	if err != nil || closed.CloseCode != websocket.CloseNormalClosure || closed.SessionID != second.SessionID {
		t.Errorf("close %v, %v", closed, err)
	}
	if t.Failed() {
		for _, c := range w.srv.Calls() {
			t.Log(c)
		}
	}
}

// tbRecorder is a test whose errors are recorded instead of failing it.
type tbRecorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *tbRecorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestDispatchMistakesAreTestErrors(t *testing.T) {
	t.Parallel()
	rec := &tbRecorder{TB: t}
	srv := fakediscord.New(rec)
	g := srv.AddGuild(fakediscord.Guild{})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID})
	u := srv.AddUser(fakediscord.User{})
	if id := srv.Command(u.ID, ch.ID, "board"); id != "" {
		t.Errorf("a command with no bot connected was dispatched as %s", id)
	}
	srv.Command("1", ch.ID, "board")
	srv.Click(u.ID, "1", "accept")
	srv.Autocomplete(u.ID, ch.ID, "move", fakediscord.StringOption("move", "e"))
	srv.UserCommand(u.ID, ch.ID, "Challenge", "1")
	if len(rec.errors) != 5 {
		t.Errorf("errors %q, want 5", rec.errors)
	}
}

// An autocomplete's answer must carry its list of choices, empty or not:
// discordgo leaves an empty list out, and Discord answers that with 400.
func TestAutocompleteNeedsItsChoices(t *testing.T) {
	w := newWorld(t)
	move := &discordgo.ApplicationCommand{Name: "move", Description: "Make a move",
		Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "The move", Required: true, Autocomplete: true}}}
	if _, err := w.dg.ApplicationCommandBulkOverwrite(w.srv.AppID(), "", []*discordgo.ApplicationCommand{move}); err != nil {
		t.Fatal(err)
	}
	i := w.interaction(t, w.srv.Autocomplete(w.alice.ID, w.chess.ID, "move", fakediscord.Focused("move", "zzz")))
	err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}},
	})
	restError(t, err, 400, discordgo.ErrCodeInvalidFormBody)
	_, err = w.dg.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(i.ID, i.Token),
		map[string]any{"type": discordgo.InteractionApplicationCommandAutocompleteResult, "data": map[string]any{"choices": []any{}}},
		discordgo.EndpointInteractionResponse(i.ID, ""))
	if err != nil {
		t.Fatalf("an empty list of choices was refused: %v", err)
	}
	if resp, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponse && c.InteractionID == i.ID && c.Err == nil
	}); err != nil || len(resp.Choices) != 0 {
		t.Errorf("the empty answer: %+v, %v", resp, err)
	}
}
