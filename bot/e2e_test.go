package bot_test

import (
	"bufio"
	"bytes"
	"context"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
	"github.com/iceagechess/iceage/tournament"
)

// TestMain keeps every request on 127.0.0.1 (fakediscord.Main) around a
// run that stops the PostgreSQL test cluster at its end (pgtest.Main).
func TestMain(m *testing.M) {
	os.Exit(fakediscord.Main(runner(func() int { return pgtest.Main(m) })))
}

type runner func() int

func (r runner) Run() int { return r() }

// clock is the time the bot sees; tests move it.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// world is a fake Discord with a guild, a channel where the bot may open
// threads and one where it may not, four users, and the bot connected to
// it through discordgo.
type world struct {
	t                      testing.TB
	srv                    *fakediscord.Server
	st                     play.Storage
	clock                  *clock
	guild                  fakediscord.Guild
	chess, nothreads       fakediscord.Channel
	alice, bob, carol, dan fakediscord.User
	bot                    *bot.Bot
	stop                   func()
	// path, when set, is a bbolt file the bot opens at each start and
	// closes at each stop, as the program does.
	path string
	// engine configures the computer opponent of the bots started.
	engine bot.EngineConfig
	// limits are the per-user limits of the bots started: none unless a
	// test sets them and restarts.
	limits bot.Limits
	// guildIDs are the bots' development guilds: their commands go there.
	guildIDs []string
	// threadWait is the bots' Config.ThreadWait: 0 for the default.
	threadWait time.Duration
	// lot is the bots' Config.Lot: nil gives the top seed White, as the
	// tests of tournaments expect unless they draw otherwise.
	lot func() bool
	// activity is the bots' Config.Activity.
	activity bot.ActivityConfig
}

// newWorld starts a bot on st; a nil st means a bbolt file of the test's.
func newWorld(t testing.TB, st play.Storage, guildLocale string) *world {
	t.Helper()
	return newEngineWorld(t, st, guildLocale, bot.EngineConfig{})
}

// newEngineWorld is newWorld with the engine configured as ec.
func newEngineWorld(t testing.TB, st play.Storage, guildLocale string, ec bot.EngineConfig) *world {
	t.Helper()
	w := &world{t: t, srv: fakediscord.New(t), st: st, clock: &clock{now: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}, engine: ec}
	w.guild = w.srv.AddGuild(fakediscord.Guild{Name: "Ice Age Club", Locale: guildLocale})
	w.chess = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "chess"})
	w.nothreads = w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "lobby", NoThreads: true})
	w.alice = w.srv.AddUser(fakediscord.User{Username: "alice", GlobalName: "Alice", Locale: "en-US"})
	w.bob = w.srv.AddUser(fakediscord.User{Username: "bob", GlobalName: "Bob", Locale: "fr"})
	w.carol = w.srv.AddUser(fakediscord.User{Username: "carol", GlobalName: "Carol", Locale: "ru"})
	w.dan = w.srv.AddUser(fakediscord.User{Username: "dan", Locale: "en-GB"})
	if st == nil {
		w.path = filepath.Join(t.TempDir(), "iceage.db")
	}
	w.start()
	return w
}

// start connects a bot; stop disconnects it, as a restart does.
func (w *world) start() {
	w.t.Helper()
	var db *store.Store
	if w.path != "" {
		var err error
		if db, err = store.Open(w.path, nil); err != nil {
			w.t.Fatal(err)
		}
		w.st = db
	}
	svc := play.New(w.st, play.Options{Rand: func(int) int { return 0 }, OnEnd: []func(play.Tx, *play.Game) error{tournament.OnEnd}})
	b, err := bot.New(bot.Config{Token: w.srv.Token(), Now: w.clock.Now, DefaultDays: 3, Engine: w.engine, Limits: w.limits, Guilds: w.guildIDs, ThreadWait: w.threadWait, Lot: w.lotOrWhite(), Activity: w.activity,
		Logger: slog.New(slog.NewTextHandler(testWriter{w.t}, &slog.HandlerOptions{Level: slog.LevelWarn}))}, svc)
	if err != nil {
		w.t.Fatal(err)
	}
	b.Session().Dialer = fakediscord.Dialer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	select {
	case <-b.Ready():
	case err := <-done:
		w.t.Fatalf("the bot stopped before it was ready: %v", err)
	case <-time.After(patience(10 * time.Second)):
		w.t.Fatal("the bot did not get ready")
	}
	w.bot = b
	w.stop = func() {
		cancel()
		if err := <-done; err != nil {
			w.t.Errorf("stopping the bot: %v", err)
		}
		if db != nil {
			if err := db.Close(); err != nil {
				w.t.Errorf("closing the database: %v", err)
			}
		}
	}
	w.t.Cleanup(func() {
		if w.stop != nil {
			w.stop()
			w.stop = nil
		}
	})
}

// lotOrWhite is the world's lot, or one that gives the top seed White.
func (w *world) lotOrWhite() func() bool {
	if w.lot != nil {
		return w.lot
	}
	return func() bool { return false }
}

func (w *world) restart() {
	w.stop()
	w.stop = nil
	w.start()
}

type testWriter struct{ t testing.TB }

func (tw testWriter) Write(p []byte) (int, error) {
	tw.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// ctx bounds one wait of a test for what the bot does: ten seconds of
// patience.
func (w *world) ctx() context.Context {
	c, cancel := context.WithTimeout(context.Background(), patience(10*time.Second))
	w.t.Cleanup(cancel)
	return c
}

// answer waits for the response to an interaction and fails on a
// response the fake refused.
func (w *world) answer(id string) fakediscord.Message {
	w.t.Helper()
	c, err := w.srv.WaitResponse(w.ctx(), id)
	if err != nil {
		w.t.Fatalf("no response to interaction %s: %v", id, err)
	}
	if c.Err != nil {
		w.t.Fatalf("the response to %s was refused: %v", id, c.Err)
	}
	if c.ResponseType != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return c.Message
	}
	// A deferral: the answer is its edit, or a follow-up that replaces it.
	c, err = w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.InteractionID == id && (c.Kind == fakediscord.KindResponseEdit || c.Kind == fakediscord.KindFollowup)
	})
	if err != nil || c.Err != nil {
		w.t.Fatalf("no answer after the deferral of %s: %v, %v", id, err, c.Err)
	}
	return c.Message
}

func (w *world) command(user fakediscord.User, channel, name string, opts ...*fakediscord.Option) fakediscord.Message {
	w.t.Helper()
	return w.answer(w.srv.Command(user.ID, channel, name, opts...))
}

func (w *world) click(user fakediscord.User, msg fakediscord.Message, verb string) fakediscord.Message {
	w.t.Helper()
	return w.answer(w.srv.Click(user.ID, msg.ID, button(w.t, msg, verb).CustomID))
}

// button finds a message's button whose custom id has the verb.
func button(t testing.TB, m fakediscord.Message, verb string) discordgo.Button {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.Contains(b.CustomID, ":"+verb+":") {
			return b
		}
	}
	t.Fatalf("no %q button on message %q (buttons %v)", verb, m.Content, m.Buttons())
	return discordgo.Button{}
}

// lastMessage waits for the newest message in a channel that matches.
func (w *world) waitMessage(channel string, match func(fakediscord.Message) bool) fakediscord.Message {
	w.t.Helper()
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == channel && match(c.Message)
	})
	if err != nil {
		w.t.Fatalf("no such message in channel %s: %v", channel, err)
	}
	return c.Message
}

// challengeAccepted has from challenge to in channel and to accept; it
// returns the channel the game is played in (a new thread, or channel
// where threads are not allowed) and the first board posted there.
func (w *world) challengeAccepted(channel fakediscord.Channel, from, to fakediscord.User) (string, fakediscord.Message) {
	w.t.Helper()
	ch := w.command(from, channel.ID, "challenge", fakediscord.UserOption("opponent", to.ID))
	if ch.Ephemeral() || !strings.Contains(ch.Content, "<@"+to.ID+">") {
		w.t.Fatalf("challenge message %+v", ch)
	}
	w.click(to, ch, "accept")
	where := channel.ID
	if !channel.NoThreads {
		c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
			return c.Kind == fakediscord.KindThread && c.Message.ID == ch.ID && c.Err == nil
		})
		if err != nil {
			w.t.Fatalf("no thread for the game: %v", err)
		}
		where = c.Channel.ID
	}
	board := w.waitMessage(where, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	return where, board
}

func isPNG(t *testing.T, f fakediscord.File) {
	t.Helper()
	if _, err := png.Decode(bytes.NewReader(f.Data)); err != nil {
		t.Errorf("attachment %s is no PNG: %v", f.Name, err)
	}
	if f.Description == "" {
		t.Errorf("attachment %s has no alt text", f.Name)
	}
}

// referenceGame returns the SAN moves of the first game of
// game/testdata/games.txt that ends with termination after n plies.
func referenceGame(t testing.TB, termination string, n int) []string {
	t.Helper()
	f, err := os.Open("../game/testdata/games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		parts := strings.Split(sc.Text(), " ; ")
		if len(parts) < 5 || strings.TrimSpace(parts[4]) != termination {
			continue
		}
		if sans := strings.Fields(parts[1]); len(sans) == n {
			return sans
		}
	}
	t.Fatalf("no %s game of %d plies in games.txt", termination, n)
	return nil
}
