package main

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// These tests build the program and run it as a user would: in an empty
// folder, with flags, environment and standard input, against the fake
// Discord of this test process.

// TestMain keeps every request on 127.0.0.1 (fakediscord.Main) around a
// run that stops the PostgreSQL test cluster at its end (pgtest.Main).
func TestMain(m *testing.M) {
	os.Exit(fakediscord.Main(runner(func() int { return pgtest.Main(m) })))
}

type runner func() int

func (r runner) Run() int { return r() }

var built struct {
	once sync.Once
	path string
	err  error
}

// binary builds the program once per test run.
func binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the program; skipped with -short")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "iceage-bin")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "iceage")
		out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
		if err != nil {
			built.err = errors.New(string(out))
		}
	})
	if built.err != nil {
		t.Fatalf("building the program: %v", built.err)
	}
	return built.path
}

// run runs the program in dir with env (and nothing of this process's
// environment but PATH and HOME) and returns its output and exit status.
func run(t *testing.T, dir string, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestWithoutATokenTheProgramSaysWhatToDo(t *testing.T) {
	_, stderr, code := run(t, t.TempDir(), nil, "")
	if code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	for _, want := range []string{"DISCORD_TOKEN", "config.example.yaml", "iceage local"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the message does not name %s:\n%s", want, stderr)
		}
	}
}

func TestABadConfigurationNamesItsKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("play:\n  defualt_days: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, dir, []string{"DISCORD_TOKEN=x"}, "")
	if code != 2 || !strings.Contains(stderr, "defualt_days") {
		t.Errorf("status %d, message %q: want 2 and the key named", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("play:\n  default_days: 4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, dir, []string{"DISCORD_TOKEN=x"}, "")
	if code != 2 || !strings.Contains(stderr, "play.default_days") {
		t.Errorf("status %d, message %q: want 2 and the key named", code, stderr)
	}
}

func TestLocalPlaysThroughStandardInput(t *testing.T) {
	// Black's 20th move is due: the Ice Age comes with it and freezes the
	// lone rook on h4.
	fen := "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20"
	stdout, stderr, code := run(t, t.TempDir(), nil, "Ra5\nBd6\nKxb1\nresign\n", "local", "-fen", fen, "-white", "Alice", "-black", "Bob")
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	for _, want := range []string{"cannot go to a5", "Ice Age! 1 man froze: the black rook on h4", "Kxb1", "resigned"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, stdout)
		}
	}
}

func TestRenderWritesAPNG(t *testing.T) {
	dir := t.TempDir()
	_, stderr, code := run(t, dir, nil, "", "render", "-o", "board.png", "-last", "h2g3", "-fen", "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1")
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(dir, "board.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("board.png: %v", err)
	}
}

// botProcess is the program running as the bot against a fake Discord.
type botProcess struct {
	cmd    *exec.Cmd
	dir    string
	http   string
	stderr *lockedBuffer
	done   chan error
}

// lockedBuffer is the bot's log, read by a test while the bot writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// freeAddr returns an address on 127.0.0.1 that nothing listens on.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func startBot(t testing.TB, srv *fakediscord.Server, dir string, env ...string) *botProcess {
	t.Helper()
	addr := freeAddr(t)
	p := &botProcess{dir: dir, http: addr, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(binary(t))
	p.cmd.Dir = dir
	p.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "DISCORD_TOKEN=" + srv.Token(),
		"ICEAGE_DISCORD_URL=" + srv.URL(), "ICEAGE_HTTP_LISTEN=" + addr}, env...)
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("the bot's log:\n%s", p.stderr)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindCommands }); err != nil {
		t.Fatalf("the bot registered no commands: %v\n%s", err, p.stderr)
	}
	return p
}

// gameStarted has alice challenge bob in channel and bob accept, as
// players start a game, and returns the game's thread once its first
// board is there.
func gameStarted(ctx context.Context, t *testing.T, srv *fakediscord.Server, channel, alice, bob string) string {
	t.Helper()
	id := srv.Command(alice, channel, "challenge", fakediscord.UserOption("opponent", bob))
	c, err := srv.WaitResponse(ctx, id)
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	var accept string
	for _, b := range c.Message.Buttons() {
		if strings.HasPrefix(b.CustomID, "ch:accept:") {
			accept = b.CustomID
		}
	}
	srv.Click(bob, c.Message.ID, accept)
	th, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread })
	if err != nil {
		t.Fatal(err)
	}
	thread := th.Channel.ID
	if _, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == thread
	}); err != nil {
		t.Fatal(err)
	}
	return thread
}

func TestTheBotBacksUpWhileItRunsAndStopsCleanlyOnSIGTERM(t *testing.T) {
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	dir := t.TempDir()
	bot := startBot(t, srv, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// A game, as players start one.
	thread := gameStarted(ctx, t, srv, ch.ID, alice.ID, bob.ID)
	white, black := alice, bob // the first board calls the player to move
	if msgs := srv.Messages(thread); !strings.Contains(msgs[len(msgs)-1].Content, alice.ID) {
		white, black = bob, alice
	}
	first := srv.Command(white.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if c, err := srv.WaitResponse(ctx, first); err != nil || c.Err != nil || c.Message.Ephemeral() {
		t.Fatalf("the first move: %v %v %q", err, c.Err, c.Message.Content)
	}

	// A backup while the bot holds the database, through its listener.
	stdout, stderr, code := run(t, dir, []string{"ICEAGE_HTTP_LISTEN=" + bot.http}, "", "backup", "-o", "copy.db")
	if code != 0 {
		t.Fatalf("backup of a running bot's database: status %d: %s %s", code, stdout, stderr)
	}
	checkStored(t, filepath.Join(dir, "copy.db"), thread, 1)

	// SIGTERM right after a move is sent: it is stored and answered, or
	// neither.
	second := srv.Command(black.ID, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	if err := bot.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-bot.done:
		bot.done <- err
		if err != nil {
			t.Errorf("the bot exited with %v after SIGTERM\n%s", err, bot.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the bot did not stop after SIGTERM")
	}
	answered := false
	for _, c := range srv.Calls() {
		if c.Kind == fakediscord.KindResponse && c.InteractionID == second && c.Err == nil && !c.Message.Ephemeral() {
			answered = true
		}
	}
	want := 1
	if answered {
		want = 2
	}
	checkStored(t, filepath.Join(dir, "iceage.db"), thread, want)
}

// checkStored opens a database file and checks the game in channel has
// plies moves.
func checkStored(t *testing.T, path, channel string, plies int) {
	t.Helper()
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	defer st.Close()
	err = st.View(context.Background(), func(tx play.ReadTx) error {
		g, err := tx.GameIn(channel)
		if err == nil && g.Ply() != plies {
			t.Errorf("%s: the game has %d moves, want %d", filepath.Base(path), g.Ply(), plies)
		}
		return err
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
