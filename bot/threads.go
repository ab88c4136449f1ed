package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// A game lives for weeks in its thread, and Discord acts on threads:
// it archives them after a week without messages, moderators lock or
// delete them, a challenge may come from inside a thread, where no thread
// can be started. This file opens a game's thread, keeps it open, and
// moves the game to a new thread when its own is gone.

// Discord's codes that discordgo v0.29.0 has names for, and one it has
// not.
const (
	codeChannelType    = discordgo.ErrCodeCannotExecuteActionOnThisChannelType // 50024
	codeThreadExists   = discordgo.ErrCodeThreadAlreadyCreatedForThisMessage   // 160004
	codeThreadLocked   = discordgo.ErrCodeThreadIsLocked                       // 160005
	codeActiveThreads  = discordgo.ErrCodeMaximumNumberOfActiveThreadsReached  // 160006
	codeArchived       = discordgo.ErrCodePerformedOperationOnArchivedThread   // 50083
	codeUnknownChannel = discordgo.ErrCodeUnknownChannel                       // 10003
)

// errCode is the code of Discord's JSON error in err, or 0.
func errCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

func isThreadType(t discordgo.ChannelType) bool {
	switch t {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread, discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

// threadPlace is where a new game of an interaction goes: its channel,
// the thread the bot opened for it (which it may delete if the game does
// not start), and why it plays in the channel when it does.
type threadPlace struct {
	channel, thread, note string
	// later, when above zero, is how long Discord's rate limit on threads
	// lasts: then the game moves to a thread of its own (moveLater).
	later time.Duration
}

// threads keep each game in a thread of its own (doc.go, "Caveats"):
// they open it, add the players, move a game whose thread was locked or
// deleted, and retire the boards a newer one replaced. They hold what
// every feature shares, the bot's identity, its life (for the work they
// do in the background), the languages, the threads' parents and the
// outbox they wake.
type threads struct {
	*shared
	self    *identity
	life    *lifetime
	locales *locales
	parents *parents
	outbox  *deliveries
}

// waitThread opens a thread with open, waiting out Discord's rate limits
// on threads while they add up to no more than Config.ThreadWait. A
// longer one is returned, as *discordgo.RateLimitError.
func (th *threads) waitThread(ctx context.Context, open func() (*discordgo.Channel, error)) (*discordgo.Channel, error) {
	left := th.cfg.ThreadWait
	for {
		ch, err := open()
		var limited *discordgo.RateLimitError
		if !errors.As(err, &limited) || limited.RetryAfter > left {
			return ch, err
		}
		wait := max(limited.RetryAfter, 50*time.Millisecond)
		left -= wait
		th.log.Info("waiting out Discord's rate limit on threads", "wait", wait)
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(wait):
		}
	}
}

// kindThread is the kind of the outbox items that move a game started
// in its channel, for a rate limit on threads, to a thread of its own
// once Discord allows: the outbox keeps the move through a restart, and
// any process may make it.
const kindThread = "thread"

// threadItem is the body of a kindThread item.
type threadItem struct {
	Channel string `json:"channel"`
}

// moveLater has the outbox move game, just started in channel for a rate
// limit on threads that lasts after, to a thread of its own when the
// limit ends (deliverThread).
func (th *threads) moveLater(ctx context.Context, game uint64, channel string, after time.Duration) {
	body, _ := json.Marshal(threadItem{Channel: channel}) // a string: cannot fail
	now := th.cfg.Now()
	it := play.OutboxItem{Key: fmt.Sprintf("g%d.thread", game), Game: game, Kind: kindThread, Body: body, Due: now.Add(after), Created: now}
	if err := th.play.Storage().Update(ctx, func(tx play.Tx) error { return tx.PutOutbox(it) }); err != nil {
		th.log.Error("a game started in its channel for a rate limit will stay there", "game", game, "channel", channel, "err", err)
	}
}

// rateLimited is an outbox item's delivery that Discord's rate limit
// holds back until at.
type rateLimited struct {
	at  time.Time
	err error
}

func (e *rateLimited) Error() string { return e.err.Error() }
func (e *rateLimited) Unwrap() error { return e.err }

// deliverThread is the delivery of a kindThread item: the game moves to
// its own thread, or, while Discord's rate limit lasts, the item waits for
// its end.
func (th *threads) deliverThread(ctx context.Context, it play.OutboxItem) error {
	var body threadItem
	if err := json.Unmarshal(it.Body, &body); err != nil || body.Channel == "" {
		return fmt.Errorf("bot: outbox item %q names no channel: %v", it.Key, err)
	}
	err := th.moveToThread(ctx, it.Key, it.Game, body.Channel)
	var limited *discordgo.RateLimitError
	if errors.As(err, &limited) {
		return &rateLimited{at: th.cfg.Now().Add(max(limited.RetryAfter, time.Second)), err: err}
	}
	return err
}

// moveToThread opens a thread in channel for the game going on there,
// moves the game to it, posts the board there and a link in the channel,
// under nonces of key: tried again after a failure half-way, it finds the
// game in a thread of channel already and posts what is missing, once.
// A game over, or moved elsewhere meanwhile, is left as it is.
func (th *threads) moveToThread(ctx context.Context, key string, id uint64, channel string) error {
	g, err := th.play.Game(ctx, id)
	if err != nil || g.Over() {
		return err
	}
	if g.Channel != channel {
		// Moved by an earlier try, or elsewhere by something else.
		c, err := th.s.Channel(g.Channel, discordgo.WithContext(ctx))
		if err != nil || !isThreadType(c.Type) || c.ParentID != channel {
			return nil
		}
		return th.linkMoved(ctx, key, &g, channel)
	}
	lang := th.locales.guildLang(ctx, g.Guild)
	name := truncate(tr(lang, "thread.name", map[string]any{"White": g.White.Name, "Black": g.Black.Name}), 100)
	ch, err := th.s.ThreadStartComplex(channel, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: threadArchiveMinutes,
		Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
	if err != nil {
		return err
	}
	th.parents.note(ch.ID, channel)
	out, err := th.round.Rehome(ctx, g.ID, channel, ch.ID, round.OwnThread, th.cfg.Now())
	if err != nil {
		// Over or moved meanwhile: the thread is not needed.
		if _, derr := th.s.ChannelDelete(ch.ID, discordgo.WithContext(ctx)); derr != nil {
			th.log.Warn("could not delete the thread of a game not moved", "thread", ch.ID, "err", redact(derr))
		}
		var x *play.Refusal
		if errors.As(err, &x) {
			return nil
		}
		return err
	}
	moved := out.Game
	th.log.Info("a game started in its channel moved to its own thread", "game", g.ID, "channel", channel, "thread", ch.ID)
	th.addPlayers(ctx, ch.ID, moved.White.ID, moved.Black.ID)
	// Its board in the thread, which tells both players, is in the
	// outbox, written with the move.
	th.outbox.wakeUp()
	return th.linkMoved(ctx, key, &moved, channel)
}

// linkMoved takes the buttons off the boards of game g in channel, which
// it left for a thread of its own, and links the thread there.
func (th *threads) linkMoved(ctx context.Context, key string, g *play.Game, channel string) error {
	lang := th.locales.guildLang(ctx, g.Guild)
	th.retire(g, channel, false)
	link := &message{Content: tr(lang, "game.moved_to_thread", map[string]any{"White": g.White.Name, "Black": g.Black.Name, "Thread": "<#" + g.Channel + ">"})}
	link.mentionOnly()
	link.setNonce(nonce(key + ".link"))
	if _, err := th.post(ctx, channel, link); err != nil {
		return fmt.Errorf("bot: linking game %d's new thread: %w", g.ID, err)
	}
	return nil
}

// DefaultThreadWait is Config.ThreadWait's default: a rate limit on
// threads of a few seconds is waited out (the interaction is
// acknowledged already), a longer one is not.
const DefaultThreadWait = 10 * time.Second

// openGameThread opens the thread of a new game: from the challenge's
// message when there is one (fromMessage), else on its own, in the
// interaction's channel — or, when the interaction came from a thread (a
// Rematch under a finished game's board, a challenge made in a game's
// thread), straight in the thread's parent, since Discord starts no thread
// in a thread (50024). A thread parentOf could not tell is still caught
// by that refusal, and its parent asked then.
// Where no thread can be had (a forum post, a voice channel's chat, no
// permission), the game is played in the interaction's channel, with a
// note that says why. A rate limit on threads of up to Config.ThreadWait
// is waited out; a longer one, which may last minutes, leaves the game
// in the channel, and threadPlace.later says when to move it to its own
// thread (moveLater).
func (th *threads) openGameThread(ctx context.Context, in *interaction, name, fromMessage string) (threadPlace, error) {
	here := threadPlace{channel: in.i.ChannelID}
	start := &discordgo.ThreadStart{Name: name, AutoArchiveDuration: threadArchiveMinutes, Type: discordgo.ChannelTypeGuildPublicThread}
	var ch *discordgo.Channel
	var err error
	parent := th.parents.parentOf(ctx, in.i.ChannelID)
	switch {
	case parent != "":
		ch, err = th.waitThread(ctx, func() (*discordgo.Channel, error) {
			return th.s.ThreadStartComplex(parent, start, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
		})
	case fromMessage != "":
		ch, err = th.waitThread(ctx, func() (*discordgo.Channel, error) {
			return th.s.MessageThreadStartComplex(in.i.ChannelID, fromMessage, start, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
		})
	default:
		ch, err = th.waitThread(ctx, func() (*discordgo.Channel, error) {
			return th.s.ThreadStartComplex(in.i.ChannelID, start, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
		})
	}
	if parent == "" && errCode(err) == codeChannelType {
		// Inside a thread parentOf could not tell: a new thread of its
		// parent, if that is a channel that has threads.
		if c, cerr := th.s.Channel(in.i.ChannelID, discordgo.WithContext(ctx)); cerr == nil && isThreadType(c.Type) && c.ParentID != "" {
			ch, err = th.waitThread(ctx, func() (*discordgo.Channel, error) {
				return th.s.ThreadStartComplex(c.ParentID, start, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
			})
		}
	}
	var limited *discordgo.RateLimitError
	switch code := errCode(err); {
	case err == nil:
		th.parents.note(ch.ID, ch.ParentID)
		return threadPlace{channel: ch.ID, thread: ch.ID}, nil
	case code == codeThreadExists:
		// Another accept of the same challenge opened it: the game, if
		// any, is that accept's, and play.Accept says so.
		return threadPlace{channel: fromMessage}, nil
	case code == codeChannelType:
		// A forum post, a voice channel's chat: no thread starts here.
		here.note = tr(in.public, "challenge.no_threads", nil)
	case isForbidden(err):
		here.note = tr(in.public, "challenge.no_threads", nil)
	case errors.As(err, &limited):
		here.note = tr(in.public, "challenge.thread_later", nil)
		here.later = max(limited.RetryAfter, time.Second)
	case code == codeActiveThreads:
		here.note = tr(in.public, "challenge.no_thread_now", nil)
	default:
		return threadPlace{}, redact(err)
	}
	return here, nil
}

// addPlayers makes the players members of their game's thread, so that
// it shows in their sidebars for as long as the game lasts.
func (th *threads) addPlayers(ctx context.Context, thread string, users ...string) {
	for _, u := range users {
		if u == "" || th.self.isEngine(u) {
			continue
		}
		if err := th.s.ThreadMemberAdd(thread, u, discordgo.WithContext(ctx)); err != nil {
			th.log.Warn("could not add a player to their game's thread", "thread", thread, "user", u, "err", redact(err))
		}
	}
}

// onThreadUpdate keeps the thread of a game that goes on open: Discord
// archives a thread a week after its last message, and nobody can use a
// command in an archived thread, so the bot, which opened it, unarchives
// it. A thread a moderator locked cannot be reopened by the bot: the game
// moves to a new thread.
func (th *threads) onThreadUpdate(_ *discordgo.Session, u *discordgo.ThreadUpdate) {
	if u.Channel == nil || u.ThreadMetadata == nil || !(u.ThreadMetadata.Archived || u.ThreadMetadata.Locked) {
		return
	}
	th.background(func(ctx context.Context) {
		g, err := th.play.GameIn(ctx, u.ID)
		if err != nil {
			return // no game goes on there
		}
		if u.ThreadMetadata.Locked {
			th.rehome(ctx, &g, u.ParentID)
			return
		}
		_, err = th.s.ChannelEditComplex(u.ID, &discordgo.ChannelEdit{Archived: ptr(false)}, discordgo.WithContext(ctx))
		switch code := errCode(err); {
		case err == nil:
		case code == codeThreadLocked || code == codeUnknownChannel || isForbidden(err):
			th.rehome(ctx, &g, u.ParentID)
		default:
			th.log.Warn("could not unarchive a game's thread", "thread", u.ID, "game", g.ID, "err", redact(err))
		}
	})
}

// onThreadDelete moves the game of a deleted thread to a new one.
func (th *threads) onThreadDelete(_ *discordgo.Session, d *discordgo.ThreadDelete) {
	if d.Channel == nil {
		return
	}
	th.background(func(ctx context.Context) {
		if g, err := th.play.GameIn(ctx, d.ID); err == nil {
			th.rehome(ctx, &g, d.ParentID)
		}
	})
}

// background runs fn under the bot's life, counted among the work in
// flight that Run waits for.
func (th *threads) background(fn func(ctx context.Context)) {
	if th.play == nil || !th.life.enter() {
		return
	}
	go func() {
		defer th.life.leave()
		ctx, cancel := context.WithTimeout(th.life.ctx(), deliveryDeadline)
		defer cancel()
		fn(ctx)
	}()
}

// rehome moves a game whose thread was locked or deleted to a new thread
// of the parent channel (or the parent itself, where threads cannot be
// opened), posts the board there and mentions both players, so that the
// game can be played on and /games links to where it is.
func (th *threads) rehome(ctx context.Context, g *play.Game, parent string) {
	if parent == "" {
		th.log.Error("a game's thread is gone, and its channel is unknown", "game", g.ID, "thread", g.Channel)
		return
	}
	lang := th.locales.guildLang(ctx, g.Guild)
	name := truncate(tr(lang, "thread.name", map[string]any{"White": g.White.Name, "Black": g.Black.Name}), 100)
	channel, thread := parent, ""
	ch, err := th.s.ThreadStartComplex(parent, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: threadArchiveMinutes,
		Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
	if err == nil {
		channel, thread = ch.ID, ch.ID
		th.parents.note(ch.ID, parent)
	} else {
		th.log.Warn("no new thread for a game whose thread is gone; moving it to the channel", "game", g.ID, "channel", parent, "err", redact(err))
	}
	old := g.Channel
	out, err := th.round.Rehome(ctx, g.ID, old, channel, round.ThreadGone, th.cfg.Now())
	if err != nil {
		var x *play.Refusal
		if !errors.As(err, &x) {
			th.log.Error("moving a game to a new thread", "game", g.ID, "err", err)
		}
		if thread != "" {
			if _, derr := th.s.ChannelDelete(thread, discordgo.WithContext(ctx)); derr != nil {
				th.log.Warn("could not delete the thread of a game not moved", "thread", thread, "err", redact(derr))
			}
		}
		return
	}
	th.log.Info("a game moved to a new thread", "game", g.ID, "from", old, "to", channel)
	if thread != "" {
		th.addPlayers(ctx, thread, out.Game.White.ID, out.Game.Black.ID)
	}
	// The board in the new place, which tells both players, is in the
	// outbox, written with the move.
	th.outbox.wakeUp()
}

// gone reports a refusal of Discord's that says the game's channel can no
// longer hold it: deleted (10003), locked (160005), archived and locked
// (50083).
func gone(err error) bool {
	switch errCode(err) {
	case codeUnknownChannel, codeThreadLocked, codeArchived:
		return true
	}
	return false
}

// Permissions the bot needs where a game is played, by what they are
// called in Discord's settings (the i18n ids under permission.).
var neededPermissions = []struct {
	bit int64
	id  string
}{
	{discordgo.PermissionViewChannel, "view_channel"},
	{discordgo.PermissionSendMessages, "send_messages"},
	{discordgo.PermissionSendMessagesInThreads, "send_messages_in_threads"},
	{discordgo.PermissionEmbedLinks, "embed_links"},
	{discordgo.PermissionAttachFiles, "attach_files"},
	{discordgo.PermissionReadMessageHistory, "read_message_history"},
}

// missingPermissions names, in lang, what the bot lacks to host a game
// where the interaction came from, by its app_permissions: "" when
// nothing. Opening threads is not needed (the game is then played in the
// channel), but posting in threads is where the bot may open them.
func missingPermissions(lang i18n.Lang, i *discordgo.Interaction) string {
	have := i.AppPermissions
	var missing []string
	for _, p := range neededPermissions {
		if p.bit == discordgo.PermissionSendMessagesInThreads && have&discordgo.PermissionCreatePublicThreads == 0 {
			continue
		}
		if have&p.bit == 0 {
			missing = append(missing, "**"+tr(lang, "permission."+p.id, nil)+"**")
		}
	}
	return strings.Join(missing, ", ")
}

// finishedThreadMinutes is the archive time of a finished game's thread:
// Discord archives it an hour after its last message, so that the
// threads of finished games leave the server's active threads (at most
// 1,000; past them, new games fall back to the channel) within the hour,
// while the players may still press Rematch, which Discord greys out in
// an archived thread, or talk the game over. Anyone's message unarchives
// it, as in any thread.
const finishedThreadMinutes = 60

// windDown closes the thread of game g, which has just ended, once its
// final board is in channel: an aborted game's at once, since its board
// has no Rematch to keep and nobody wants to talk it over (the spam of a
// game started and aborted again and again leaves no active thread
// behind); another's archive time is shortened (finishedThreadMinutes).
// A channel that is no thread, or where another game goes on already, is
// left as it is.
func (th *threads) windDown(g *play.Game, channel string) {
	if !g.Over() || g.Private || channel == "" {
		return
	}
	id, aborted := g.ID, g.Outcome.Reason == game.Aborted
	th.background(func(ctx context.Context) {
		if _, err := th.play.GameIn(ctx, channel); err == nil {
			return
		}
		c, err := th.s.Channel(channel, discordgo.WithContext(ctx))
		if err != nil {
			th.log.Warn("reading the thread of a finished game", "game", id, "channel", channel, "err", redact(err))
			return
		}
		if !isThreadType(c.Type) || c.ThreadMetadata == nil || c.ThreadMetadata.Archived {
			return
		}
		edit := &discordgo.ChannelEdit{Archived: ptr(true)}
		if !aborted {
			if c.ThreadMetadata.AutoArchiveDuration == finishedThreadMinutes {
				return
			}
			edit = &discordgo.ChannelEdit{AutoArchiveDuration: finishedThreadMinutes}
		}
		if _, err := th.s.ChannelEditComplex(channel, edit, discordgo.WithContext(ctx)); err != nil {
			th.log.Warn("closing the thread of a finished game", "game", id, "thread", channel, "err", redact(err))
		}
	})
}

// liveBoardLookback is how many of a channel's newest messages are looked
// through for a game's earlier boards.
const liveBoardLookback = 25

// retireGlance is how many of a channel's newest messages are read first
// for a game's earlier boards: after a move, the board it replaces is
// among them, and reading liveBoardLookback messages, a picture and an
// embed each, after every move was a sixth of a busy bot's work.
const retireGlance = 5

// retireBoards keeps one live board in a game's channel: the newest board
// of the game keeps its buttons, the earlier ones lose them, so that a
// game of months does not leave hundreds of boards with buttons. It runs
// after a board was posted, in the background, and reads the channel
// rather than remembering boards: any process may have posted them. It
// reads the newest few messages first, and further back only when no
// earlier board was among them.
func (th *threads) retireBoards(g *play.Game, channel string) { th.retire(g, channel, true) }

// retire is retireBoards; without keepNewest, in a channel the game
// left, the newest board loses its buttons too.
func (th *threads) retire(g *play.Game, channel string, keepNewest bool) {
	if g.Private || channel == "" {
		return
	}
	id := g.ID
	th.background(func(ctx context.Context) {
		for _, n := range []int{retireGlance, liveBoardLookback} {
			msgs, err := th.scanBoards(ctx, channel, n)
			if err != nil {
				th.log.Warn("reading a game's channel for its earlier boards", "game", id, "channel", channel, "err", err)
				return
			}
			newest, retired := keepNewest, 0
			for _, m := range msgs { // newest first
				if !th.isBoardOf(m, id) {
					continue
				}
				if newest {
					newest = false
					continue
				}
				retired++
				payload := map[string]any{"components": []discordgo.MessageComponent{}}
				if _, err := th.request(ctx, http.MethodPatch, discordgo.EndpointChannelMessage(channel, m.ID), payload, nil); err != nil {
					th.log.Warn("taking the buttons off an earlier board", "game", id, "message", m.ID, "err", err)
				}
			}
			if retired > 0 || len(msgs) < n {
				return // the board replaced is retired, or the channel was read whole
			}
		}
	})
}

// isBoardOf reports whether m is a board of game id that still has its
// buttons: the bot's, with a picture and a game button of id.
func (th *threads) isBoardOf(m *discordgo.Message, id uint64) bool {
	if m.Author == nil || !th.self.isEngine(m.Author.ID) || len(m.Attachments) == 0 {
		return false
	}
	for range buttonsOfGame(m, id) {
		return true
	}
	return false
}

// catchUpThreads, at a server's GUILD_CREATE, finds the games whose
// thread Discord archived or a moderator locked while the bot was away:
// GUILD_CREATE lists the channels and the active threads, so a game whose
// channel is in neither is asked of Discord, and unarchived or moved as
// onThreadUpdate would have; so are those whose active thread is locked.
func (th *threads) catchUpThreads(_ *discordgo.Session, gc *discordgo.GuildCreate) {
	if gc.Guild == nil || gc.Unavailable {
		return
	}
	known := map[string]bool{}
	for _, c := range gc.Channels {
		known[c.ID] = true
		if !isThreadType(c.Type) {
			th.parents.note(c.ID, "") // no thread: parentOf need not ask
		}
	}
	var locked []*discordgo.Channel
	for _, t := range gc.Threads {
		if t.ThreadMetadata != nil && t.ThreadMetadata.Locked {
			locked = append(locked, t)
		}
		known[t.ID] = true
		if t.ParentID != "" {
			th.parents.note(t.ID, t.ParentID)
		}
	}
	for _, t := range locked {
		th.onThreadUpdate(nil, &discordgo.ThreadUpdate{Channel: t})
	}
	guild := gc.ID
	th.background(func(ctx context.Context) {
		var games []play.Game
		err := th.play.Storage().View(ctx, func(tx play.ReadTx) (err error) {
			games, err = tx.GuildGames(guild)
			return err
		})
		if err != nil {
			th.log.Warn("reading a server's games to check their threads", "guild", guild, "err", err)
			return
		}
		for i := range games {
			g := &games[i]
			if known[g.Channel] || g.Private || ctx.Err() != nil {
				continue
			}
			c, err := th.s.Channel(g.Channel, discordgo.WithContext(ctx))
			if err != nil || !isThreadType(c.Type) || c.ThreadMetadata == nil {
				continue
			}
			th.parents.note(c.ID, c.ParentID)
			th.onThreadUpdate(nil, &discordgo.ThreadUpdate{Channel: c})
		}
	})
}
