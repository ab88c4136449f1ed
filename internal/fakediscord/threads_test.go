package fakediscord_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// threadEvents collects the bot's thread events.
type threadEvents struct {
	updates chan *discordgo.ThreadUpdate
	deletes chan *discordgo.ThreadDelete
	members chan *discordgo.ThreadMembersUpdate
}

func watchThreads(w *world) threadEvents {
	e := threadEvents{make(chan *discordgo.ThreadUpdate, 16), make(chan *discordgo.ThreadDelete, 16), make(chan *discordgo.ThreadMembersUpdate, 16)}
	w.dg.AddHandler(func(_ *discordgo.Session, u *discordgo.ThreadUpdate) { e.updates <- u })
	w.dg.AddHandler(func(_ *discordgo.Session, d *discordgo.ThreadDelete) { e.deletes <- d })
	w.dg.AddHandler(func(_ *discordgo.Session, m *discordgo.ThreadMembersUpdate) { e.members <- m })
	return e
}

func (w *world) thread(t *testing.T, channelID string, minutes int) *discordgo.Channel {
	t.Helper()
	th, err := w.dg.ThreadStartComplex(channelID, &discordgo.ThreadStart{Name: "alice vs bob", Type: discordgo.ChannelTypeGuildPublicThread, AutoArchiveDuration: minutes})
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func TestNoThreadInAThread(t *testing.T) {
	w := newWorld(t)
	game := w.thread(t, w.chess.ID, 10080)
	forum := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "openings", Type: discordgo.ChannelTypeGuildForum})
	post := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "the ice gambit", Type: discordgo.ChannelTypeGuildPublicThread, ParentID: forum.ID})
	voice := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "lounge", Type: discordgo.ChannelTypeGuildVoice})
	for _, c := range []string{game.ID, post.ID, voice.ID} {
		_, err := w.dg.ThreadStartComplex(c, &discordgo.ThreadStart{Name: "new game", Type: discordgo.ChannelTypeGuildPublicThread})
		restError(t, err, 400, 50024)
		m, err := w.dg.ChannelMessageSend(c, "Alice challenges Bob")
		if err != nil {
			t.Fatalf("a message in %s: %v", c, err)
		}
		_, err = w.dg.MessageThreadStartComplex(c, m.ID, &discordgo.ThreadStart{Name: "new game"})
		restError(t, err, 400, 50024)
		// Commands work there all the same.
		w.interaction(t, w.srv.Command(w.alice.ID, c, "challenge"))
	}
}

func TestActiveThreadLimit(t *testing.T) {
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{ActiveThreadLimit: 2})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID})
	w := connect(t, srv)
	first := w.thread(t, ch.ID, 0)
	w.thread(t, ch.ID, 0)
	_, err := w.dg.ThreadStartComplex(ch.ID, &discordgo.ThreadStart{Name: "third", Type: discordgo.ChannelTypeGuildPublicThread})
	restError(t, err, 400, 160006)
	m, _ := w.dg.ChannelMessageSend(ch.ID, "challenge")
	_, err = w.dg.MessageThreadStartComplex(ch.ID, m.ID, &discordgo.ThreadStart{Name: "third"})
	restError(t, err, 400, 160006)
	srv.Archive(first.ID)
	w.thread(t, ch.ID, 0)
	_, err = w.dg.ChannelEditComplex(first.ID, &discordgo.ChannelEdit{Archived: ptr(false)})
	restError(t, err, 400, 160006)
	_, err = w.dg.ChannelMessageSend(first.ID, "your move")
	restError(t, err, 400, 160006)
}

// connect connects a discordgo session to a fake of the test's own.
func connect(t *testing.T, srv *fakediscord.Server) *world {
	t.Helper()
	dg, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	dg.Dialer = loopbackDialer
	dg.Identify.Intents = discordgo.IntentsGuilds
	if err := dg.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dg.Close() })
	return &world{srv: srv, dg: dg}
}

func TestIdleThreadsAreArchived(t *testing.T) {
	w := newWorld(t)
	events := watchThreads(w)
	th := w.thread(t, w.chess.ID, 60)
	board, err := w.dg.ChannelMessageSend(th.ID, "1. e4")
	if err != nil {
		t.Fatal(err)
	}
	if got := w.srv.Pass(59 * time.Minute); len(got) != 0 {
		t.Fatalf("archived %v before the hour", got)
	}
	if _, err := w.dg.ChannelMessageSend(th.ID, "1... e5"); err != nil {
		t.Fatal(err)
	}
	if got := w.srv.Pass(59 * time.Minute); len(got) != 0 {
		t.Fatalf("archived %v within an hour of a message", got)
	}
	if got := w.srv.Pass(time.Minute); len(got) != 1 || got[0] != th.ID {
		t.Fatalf("archived %v, want the idle thread", got)
	}
	if u := receive(t, events.updates); u.ID != th.ID || !u.ThreadMetadata.Archived {
		t.Errorf("THREAD_UPDATE %+v", u.Channel)
	}
	if c, err := w.dg.Channel(th.ID); err != nil || !c.ThreadMetadata.Archived {
		t.Errorf("the archived thread reads %+v, %v", c, err)
	}

	// No one can use a command or a button there.
	if id := w.srv.Command(w.alice.ID, th.ID, "move", fakediscord.StringOption("move", "Nf3")); id != "" {
		t.Errorf("a command was dispatched in an archived thread")
	}
	row := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Resign", CustomID: "resign"}}}
	_, err = w.dg.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: board.ID, Channel: th.ID, Components: &[]discordgo.MessageComponent{row}})
	restError(t, err, 400, 50083)
	restError(t, w.dg.ChannelMessageDelete(th.ID, board.ID), 400, 50083)
	restError(t, w.dg.ThreadMemberAdd(th.ID, w.bob.ID), 400, 50083)

	// The bot unarchives it, by PATCH or by posting.
	if c, err := w.dg.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: ptr(false)}); err != nil || c.ThreadMetadata.Archived {
		t.Fatalf("unarchived: %+v, %v", c, err)
	}
	if u := receive(t, events.updates); u.ThreadMetadata.Archived {
		t.Errorf("THREAD_UPDATE after unarchiving %+v", u.ThreadMetadata)
	}
	w.interaction(t, w.srv.Command(w.alice.ID, th.ID, "move", fakediscord.StringOption("move", "Nf3")))
	w.srv.Archive(th.ID)
	receive(t, events.updates)
	if _, err := w.dg.ChannelMessageSend(th.ID, "2. Nf3"); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.srv.Channel(th.ID); c.Archived() {
		t.Errorf("a message left the thread archived")
	}

	// A member's message unarchives it too, and restarts its timer.
	receive(t, events.updates) // the bot's message unarchived it
	w.srv.Archive(th.ID)
	receive(t, events.updates)
	if err := w.srv.Say(w.alice.ID, th.ID); err != nil {
		t.Fatal(err)
	}
	if u := receive(t, events.updates); u.ID != th.ID || u.ThreadMetadata.Archived {
		t.Errorf("THREAD_UPDATE after a member's message %+v", u.ThreadMetadata)
	}
	if got := w.srv.Pass(59 * time.Minute); len(got) != 0 {
		t.Fatalf("archived %v within an hour of a member's message", got)
	}

	// Members, and the archive times Discord takes.
	if err := w.dg.ThreadMemberAdd(th.ID, w.bob.ID); err != nil {
		t.Fatal(err)
	}
	if m := receive(t, events.members); m.ID != th.ID || len(m.AddedMembers) != 1 || m.AddedMembers[0].UserID != w.bob.ID {
		t.Errorf("THREAD_MEMBERS_UPDATE %+v", m)
	}
	if got := w.srv.ThreadMembers(th.ID); len(got) != 2 || got[0] != w.srv.Bot().ID || got[1] != w.bob.ID {
		t.Errorf("members %v, want the bot and bob", got)
	}
	_, err = w.dg.ThreadStartComplex(w.chess.ID, &discordgo.ThreadStart{Name: "x", Type: discordgo.ChannelTypeGuildPublicThread, AutoArchiveDuration: 20160})
	restError(t, err, 400, 50035)
	week := w.thread(t, w.chess.ID, 10080)
	if week.ThreadMetadata.AutoArchiveDuration != 10080 {
		t.Errorf("auto_archive_duration %d", week.ThreadMetadata.AutoArchiveDuration)
	}
}

func TestLockedThread(t *testing.T) {
	w := newWorld(t)
	th := w.thread(t, w.chess.ID, 10080)
	w.srv.Lock(th.ID, false)
	_, err := w.dg.ChannelMessageSend(th.ID, "your move")
	restError(t, err, 403, 160005)
	i := w.interaction(t, w.srv.Command(w.alice.ID, th.ID, "board"))
	respond := func(i *discordgo.InteractionCreate, flags discordgo.MessageFlags) error {
		return w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "the board", Flags: flags},
		})
	}
	restError(t, respond(i, 0), 403, 160005)
	if err := respond(i, discordgo.MessageFlagsEphemeral); err != nil {
		t.Errorf("a private answer in a locked thread: %v", err)
	}
	_, err = w.dg.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Locked: ptr(false)})
	restError(t, err, 403, 50013)

	// Locked and archived: interactions may still come, and fail.
	w.srv.Lock(th.ID, true)
	i = w.interaction(t, w.srv.Command(w.alice.ID, th.ID, "board"))
	restError(t, respond(i, discordgo.MessageFlagsEphemeral), 400, 50083)
	_, err = w.dg.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: ptr(false)})
	restError(t, err, 403, 50013)
}

func TestDeletedThread(t *testing.T) {
	w := newWorld(t)
	events := watchThreads(w)
	th := w.thread(t, w.chess.ID, 10080)
	board, _ := w.dg.ChannelMessageSend(th.ID, "1. e4")
	i := w.interaction(t, w.srv.Command(w.alice.ID, th.ID, "board"))
	w.srv.DeleteChannel(th.ID)
	if d := receive(t, events.deletes); d.ID != th.ID || d.ParentID != w.chess.ID {
		t.Errorf("THREAD_DELETE %+v", d.Channel)
	}
	_, err := w.dg.ChannelMessageSend(th.ID, "your move")
	restError(t, err, 404, 10003)
	_, err = w.dg.Channel(th.ID)
	restError(t, err, 404, 10003)
	_, err = w.dg.ChannelMessageEdit(th.ID, board.ID, "1. e4 e5")
	restError(t, err, 404, 10003)
	err = w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	restError(t, err, 404, 10003)
	if _, ok := w.srv.Message(board.ID); ok {
		t.Errorf("a message of the deleted thread is still there")
	}
}

func TestPermissionsPerChannel(t *testing.T) {
	w := newWorld(t)
	png := board(t)
	file := func() []*discordgo.File {
		return []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}
	}
	cases := []struct {
		deny     int64
		text     int // the code a plain message gets, 0 for none
		withFile int
		thread   int
	}{
		{0, 0, 0, 0},
		{discordgo.PermissionViewChannel, 50001, 50001, 50001},
		{discordgo.PermissionSendMessages, 50013, 50013, 0},
		{discordgo.PermissionAttachFiles, 0, 50013, 0},
		{discordgo.PermissionCreatePublicThreads, 0, 0, 50013},
	}
	for _, c := range cases {
		ch := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Deny: c.deny})
		i := w.interaction(t, w.srv.Command(w.alice.ID, ch.ID, "challenge"))
		if want := int64(0); c.deny != discordgo.PermissionViewChannel && i.AppPermissions&c.deny != want {
			t.Errorf("deny %b: app_permissions %b", c.deny, i.AppPermissions)
		}
		if c.deny == discordgo.PermissionViewChannel && i.AppPermissions != 0 {
			t.Errorf("app_permissions %b in a channel the bot cannot see", i.AppPermissions)
		}
		// An interaction's answer needs none of them.
		if err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "ok"}}); err != nil {
			t.Errorf("deny %b: the answer: %v", c.deny, err)
		}
		check := func(what string, err error, code int) {
			t.Helper()
			if code == 0 && err != nil {
				t.Errorf("deny %b: %s: %v", c.deny, what, err)
			}
			if code != 0 {
				restError(t, err, 403, code)
			}
		}
		_, err := w.dg.ChannelMessageSend(ch.ID, "hello")
		check("text", err, c.text)
		_, err = w.dg.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{Content: "board", Files: file()})
		check("file", err, c.withFile)
		_, err = w.dg.ThreadStartComplex(ch.ID, &discordgo.ThreadStart{Name: "game", Type: discordgo.ChannelTypeGuildPublicThread})
		check("thread", err, c.thread)
	}

	// Without Embed Links, embeds are dropped; a thread lacks its parent's
	// permissions, and changes follow.
	ch := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Deny: discordgo.PermissionEmbedLinks})
	m, err := w.dg.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{Content: "board", Embeds: []*discordgo.MessageEmbed{{Description: "1. e4"}}})
	if err != nil || len(m.Embeds) != 0 {
		t.Errorf("embeds without Embed Links: %+v, %v", m, err)
	}
	th := w.thread(t, ch.ID, 0)
	w.srv.SetPermissions(ch.ID, discordgo.PermissionSendMessagesInThreads)
	_, err = w.dg.ChannelMessageSend(th.ID, "your move")
	restError(t, err, 403, 50013)
	if _, err := w.dg.ChannelMessageSend(ch.ID, "in the channel"); err != nil {
		t.Errorf("the channel itself: %v", err)
	}
	i := w.interaction(t, w.srv.Command(w.alice.ID, th.ID, "board"))
	if i.AppPermissions&discordgo.PermissionSendMessagesInThreads != 0 || i.AppPermissions&discordgo.PermissionEmbedLinks == 0 {
		t.Errorf("app_permissions %b in the thread", i.AppPermissions)
	}
}

func TestTextLimits(t *testing.T) {
	w := newWorld(t)
	embed := func(e *discordgo.MessageEmbed) error {
		_, err := w.dg.ChannelMessageSendComplex(w.chess.ID, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{e}})
		return err
	}
	long := func(n int) string { return strings.Repeat("é", n) } // characters, not bytes
	if _, err := w.dg.ChannelMessageSend(w.chess.ID, long(2000)); err != nil {
		t.Errorf("2000 characters: %v", err)
	}
	_, err := w.dg.ChannelMessageSend(w.chess.ID, long(2001))
	restError(t, err, 400, 50035)
	if err := embed(&discordgo.MessageEmbed{Description: long(4096)}); err != nil {
		t.Errorf("a description of 4096: %v", err)
	}
	restError(t, embed(&discordgo.MessageEmbed{Description: long(4097)}), 400, 50035)
	restError(t, embed(&discordgo.MessageEmbed{Fields: []*discordgo.MessageEmbedField{{Name: "moves", Value: long(1025)}}}), 400, 50035)
	restError(t, embed(&discordgo.MessageEmbed{Description: long(4096), Fields: []*discordgo.MessageEmbedField{
		{Name: "a", Value: long(1000)}, {Name: "b", Value: long(1000)},
	}}), 400, 50035)
}

func TestNoMutualGuild(t *testing.T) {
	w := newWorld(t)
	stranger := w.srv.AddUser(fakediscord.User{Username: "stranger", NoMutualGuild: true})
	dm, err := w.dg.UserChannelCreate(stranger.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.dg.ChannelMessageSend(dm.ID, "your move")
	restError(t, err, 403, 50278)
}

func TestInteractionsOverHTTP(t *testing.T) {
	w := newWorld(t)
	id, body := w.srv.HTTPCommand(w.alice.ID, w.chess.ID, "board")
	var i discordgo.Interaction
	if err := i.UnmarshalJSON(body); err != nil || i.ID != id || i.ChannelID != w.chess.ID || i.Token == "" {
		t.Fatalf("the interaction posted over HTTP: %+v, %v", i, err)
	}
	select {
	case got := <-w.interactions:
		t.Fatalf("the gateway got the HTTP interaction %s too", got.ID)
	default:
	}
	if err := w.srv.AnswerOverHTTP(id, "application/json", []byte(`{"type":4,"data":{"content":"the board"}}`)); err != nil {
		t.Fatal(err)
	}
	resp, err := w.srv.WaitResponse(ctx(t), id)
	if err != nil || resp.Message.Content != "the board" {
		t.Fatalf("the answer over HTTP: %v, %v", resp, err)
	}
	// Its webhook works as any interaction's; a second answer is refused.
	if _, err := w.dg.FollowupMessageCreate(&i, true, &discordgo.WebhookParams{Content: "more"}); err != nil {
		t.Errorf("a follow-up: %v", err)
	}
	if err := w.srv.AnswerOverHTTP(id, "application/json", []byte(`{"type":4,"data":{"content":"again"}}`)); err == nil || err.Code != 40060 {
		t.Errorf("a second answer: %v", err)
	}
}
