package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
)

// These tests attack the running program over loopback as a stranger on
// the internet would: its HTTP listeners are all a stranger can reach.

// interactionsBot runs the bot with HTTP interactions on a listener of
// their own, verified with a key whose private half the test holds.
type interactionsBot struct {
	*botProcess
	interactions string // host:port of the interactions listener
	key          ed25519.PrivateKey
	guild, chess string
	user         string
}

func startInteractionsBot(t *testing.T, env ...string) *interactionsBot {
	t.Helper()
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	p := startBot(t, srv, t.TempDir(), append([]string{"ICEAGE_DISCORD_PUBLIC_KEY=" + hex.EncodeToString(pub),
		"ICEAGE_INTERACTIONS_LISTEN=" + addr}, env...)...)
	return &interactionsBot{botProcess: p, interactions: addr, key: priv, guild: g.ID, chess: ch.ID, user: alice.ID}
}

// post sends body to /interactions signed at the time at and returns the
// status.
func (b *interactionsBot) post(t *testing.T, body string, at time.Time) int {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, "http://"+b.interactions+"/interactions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(at.Unix(), 10)
	r.Header.Set("X-Signature-Timestamp", ts)
	r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(b.key, []byte(ts+body))))
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// help is a /help interaction with the id given.
func (b *interactionsBot) help(id string) string {
	return fmt.Sprintf(`{"id":%q,"application_id":"1","type":2,"token":"tok%s","guild_id":%q,"channel_id":%q,`+
		`"member":{"user":{"id":%q,"username":"alice"}},"locale":"en-US","data":{"id":"9","name":"help","type":1}}`,
		id, id, b.guild, b.chess, b.user)
}

func status(t *testing.T, url, token string) int {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

func TestTheInteractionsListenerServesNoOperations(t *testing.T) {
	b := startInteractionsBot(t)
	for _, path := range []string{"/backup", "/metrics", "/healthz", "/interactions/../backup", "/Backup"} {
		if code := status(t, "http://"+b.interactions+path, ""); code == http.StatusOK {
			t.Errorf("GET %s on the interactions listener: %d", path, code)
		}
	}
	if code := status(t, "http://"+b.http+"/backup", opsToken(t, b.dir)); code != http.StatusOK {
		t.Errorf("GET /backup on the operators' listener: %d, want 200", code)
	}
}

// opsToken reads the operators' token the program made beside its
// database in dir.
func opsToken(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "iceage-http.token"))
	if err != nil {
		t.Fatalf("the operators' token file: %v", err)
	}
	return strings.TrimSpace(string(b))
}

// TestABackupAlwaysNeedsTheToken: with no http.token, the program makes
// one at its first start in a file only its user may read, beside the
// database, says where, and keeps it at the next start; /backup needs
// it.
func TestABackupAlwaysNeedsTheToken(t *testing.T) {
	srv := fakediscord.New(t)
	dir := t.TempDir()
	b := startBot(t, srv, dir)
	path := filepath.Join(dir, "iceage-http.token")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the token file: %v, %v; want one of mode 0600", fi, err)
	}
	if log := b.stderr.String(); !strings.Contains(log, "was made at this first start") || !strings.Contains(log, path) {
		t.Errorf("the log does not say where the new token is kept:\n%s", log)
	}
	token := opsToken(t, dir)
	if code := status(t, "http://"+b.http+"/backup", ""); code != http.StatusUnauthorized {
		t.Errorf("/backup on loopback without the token: %d, want 401", code)
	}
	if code := status(t, "http://"+b.http+"/backup", token); code != http.StatusOK {
		t.Errorf("/backup with the token file's token: %d, want 200", code)
	}
	if code := status(t, "http://"+b.http+"/metrics", ""); code != http.StatusOK {
		t.Errorf("/metrics on loopback without http.token: %d, want 200 as before", code)
	}
	b.cmd.Process.Kill()
	<-b.done
	b.done <- nil
	again := startBot(t, srv, dir)
	if opsToken(t, dir) != token {
		t.Error("the token changed at the second start")
	}
	// The fake Discord saw the first start's commands: wait for the log.
	for start := time.Now(); !strings.Contains(again.stderr.String(), "is kept in its file"); time.Sleep(50 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the second start does not say where the token is kept:\n%s", again.stderr)
		}
	}
	if !strings.Contains(again.stderr.String(), path) {
		t.Errorf("the second start does not name the token file:\n%s", again.stderr)
	}
}

// TestAForeignHostGetsNothingFromTheOperatorsListener: a web page that
// rebinds its name to 127.0.0.1 sends its own name as Host; the
// listener answers 421 and nothing else, token or not.
func TestAForeignHostGetsNothingFromTheOperatorsListener(t *testing.T) {
	srv := fakediscord.New(t)
	dir := t.TempDir()
	b := startBot(t, srv, dir)
	token := opsToken(t, dir)
	_, port, _ := net.SplitHostPort(b.http)
	for _, host := range []string{"attacker.example", "attacker.example:" + port, "127.0.0.1.nip.example:" + port} {
		for _, path := range []string{"/backup", "/metrics", "/healthz"} {
			r, err := http.NewRequest(http.MethodGet, "http://"+b.http+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			r.Host = host
			r.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusMisdirectedRequest || len(body) > 100 || strings.Contains(string(body), "go_") || strings.Contains(string(body), "gateway") {
				t.Errorf("GET %s with Host %s: %d, %d bytes %.60q; want 421 and nothing", path, host, resp.StatusCode, len(body), body)
			}
		}
	}
	for _, host := range []string{b.http, "localhost:" + port} {
		r, _ := http.NewRequest(http.MethodGet, "http://"+b.http+"/healthz", nil)
		r.Host = host
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusMisdirectedRequest {
			t.Errorf("GET /healthz with Host %s: 421", host)
		}
	}
}

// rss returns the resident memory of process pid, now and at its peak
// since the peak was last reset, in bytes (Linux).
func rss(t *testing.T, pid int) (now, peak int64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			now = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return now, peak
}

// heldBodies is how many connections hold a body of 1 MiB − 1 bytes.
const heldBodies = 100

// TestHeldBodiesCostLittleMemory: a hundred connections, each sending
// 1 MiB − 1 bytes of body with a bogus signature and holding the last
// byte, half with a Content-Length and half chunked, raise the program's
// resident memory by less than 50 MiB.
func TestHeldBodiesCostLittleMemory(t *testing.T) {
	b := startInteractionsBot(t)
	pid := b.cmd.Process.Pid
	// The peak so far (the start's) is forgotten, where the system lets
	// us; else the peak compared is the start's or above.
	_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0o600)
	before, _ := rss(t, pid)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	bogus := strings.Repeat("ab", ed25519.SignatureSize)
	const size = 1 << 20
	chunk := strings.Repeat("x", 64<<10)
	var wg sync.WaitGroup
	var conns []net.Conn
	for i := range heldBodies {
		conn, err := net.Dial("tcp", b.interactions)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
		wg.Add(1)
		go func(chunked bool) {
			defer wg.Done()
			length := "Content-Length: " + strconv.Itoa(size)
			if chunked {
				length = "Transfer-Encoding: chunked"
			}
			fmt.Fprintf(conn, "POST /interactions HTTP/1.1\r\nHost: bot\r\n%s\r\nX-Signature-Timestamp: %s\r\nX-Signature-Ed25519: %s\r\n\r\n", length, ts, bogus)
			if chunked {
				fmt.Fprintf(conn, "%x\r\n", size-1)
			}
			// 1 MiB − 1 bytes, the last held back; a write the server
			// refused (it hung up) ends the sending.
			for sent := 0; sent < size-1; {
				n := min(len(chunk), size-1-sent)
				conn.SetWriteDeadline(time.Now().Add(15 * time.Second))
				if _, err := io.WriteString(conn, chunk[:n]); err != nil {
					return
				}
				sent += n
			}
		}(i%2 == 1)
	}
	wg.Wait()
	time.Sleep(500 * time.Millisecond) // what the server took in, it holds now
	now, peak := rss(t, pid)
	for _, c := range conns {
		c.Close()
	}
	grew := max(now, peak) - before
	t.Logf("resident memory %d MiB before, %d MiB with %d bodies held (peak %d MiB)", before>>20, now>>20, heldBodies, peak>>20)
	if grew > 50<<20 {
		t.Errorf("%d bodies of 1 MiB − 1 held raised the resident memory by %d MiB, want under 50", heldBodies, grew>>20)
	}
	if code := b.post(t, `{"id":"1","application_id":"1","type":1,"token":"t"}`, time.Now()); code != http.StatusOK {
		t.Errorf("a signed PING after the held bodies: %d", code)
	}
}

// TestATimedOutBodyReadClosesItsConnection: a body that stops coming is
// answered 408 within the body's wait, and the connection is closed:
// what the client sends after is never read as a next request.
func TestATimedOutBodyReadClosesItsConnection(t *testing.T) {
	b := startInteractionsBot(t)
	conn, err := net.Dial("tcp", b.interactions)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	start := time.Now()
	fmt.Fprintf(conn, "POST /interactions HTTP/1.1\r\nHost: bot\r\nContent-Length: 100\r\nX-Signature-Timestamp: %s\r\nX-Signature-Ed25519: %s\r\n\r\n{\"id\":", ts, strings.Repeat("ab", ed25519.SignatureSize))
	r := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(readWait + 5*time.Second))
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("no answer to a body that stopped coming: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	t.Logf("answered %d after %v", resp.StatusCode, time.Since(start).Round(100*time.Millisecond))
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("a body that stopped coming: %d, want 408", resp.StatusCode)
	}
	// The rest of the trickle: as much as the body said, then a whole
	// request of its own.
	fmt.Fprintf(conn, "%s", strings.Repeat(" ", 90))
	fmt.Fprintf(conn, "GET /interactions HTTP/1.1\r\nHost: bot\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	rest, err := io.ReadAll(r)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection stays open after the 408")
	}
	if len(rest) > 0 {
		t.Errorf("the server read on after the 408 and answered %.80q", rest)
	}
}

// TestTheInteractionsListenerHoldsAtMostItsConnections: with
// http.interactions_connections at 4, a fifth connection waits while
// four are open, and is answered as soon as they close.
func TestTheInteractionsListenerHoldsAtMostItsConnections(t *testing.T) {
	b := startInteractionsBot(t, "ICEAGE_INTERACTIONS_CONNECTIONS=4")
	var held []net.Conn
	for range 4 {
		c, err := net.Dial("tcp", b.interactions)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /interactions HTTP/1.1\r\n") // headers still to come
		held = append(held, c)
	}
	answered := make(chan int, 1)
	go func() { answered <- b.post(t, `{"id":"1","application_id":"1","type":1,"token":"t"}`, time.Now()) }()
	select {
	case code := <-answered:
		t.Fatalf("a fifth connection was answered (%d) while four were open", code)
	case <-time.After(time.Second):
	}
	for _, c := range held {
		c.Close()
	}
	select {
	case code := <-answered:
		if code != http.StatusOK {
			t.Errorf("the fifth connection's PING: %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the fifth connection was not answered after the four closed")
	}
}

func TestOperationsOffLoopbackWithoutATokenAreRefusedAtStart(t *testing.T) {
	port := strings.TrimPrefix(freeAddr(t), "127.0.0.1")
	for _, listen := range []string{"0.0.0.0" + port, port, "[::]" + port} {
		t.Run(listen, func(t *testing.T) {
			_, stderr, code := run(t, t.TempDir(), []string{"DISCORD_TOKEN=x", "ICEAGE_HTTP_LISTEN=" + listen}, "")
			if code != 2 || !strings.Contains(stderr, "http.token") {
				t.Fatalf("status %d: %s; want 2 and http.token named", code, stderr)
			}
		})
	}
}

func TestAnOperatorsTokenGuardsBackups(t *testing.T) {
	const token = "a-long-random-secret-0123456789"
	srv := fakediscord.New(t)
	dir := t.TempDir()
	b := startBot(t, srv, dir, "ICEAGE_HTTP_TOKEN="+token)
	if code := status(t, "http://"+b.http+"/backup", ""); code != http.StatusUnauthorized {
		t.Errorf("/backup without the token: %d, want 401", code)
	}
	if code := status(t, "http://"+b.http+"/backup", "wrong-"+token); code != http.StatusUnauthorized {
		t.Errorf("/backup with a wrong token: %d, want 401", code)
	}
	// The backup command finds the token where the bot does.
	_, stderr, code := run(t, dir, []string{"ICEAGE_HTTP_LISTEN=" + b.http, "ICEAGE_HTTP_TOKEN=" + token}, "", "backup", "-o", filepath.Join(dir, "copy.db"))
	if code != 0 {
		t.Errorf("iceage backup with the token: status %d: %s", code, stderr)
	}
}

func TestReplayedInteractionsAreRefused(t *testing.T) {
	b := startInteractionsBot(t)
	if code := b.post(t, `{"id":"1","application_id":"1","type":1,"token":"t"}`, time.Now().Add(-time.Hour)); code != http.StatusUnauthorized {
		t.Errorf("a PING signed an hour ago: %d, want 401", code)
	}
	if code := b.post(t, b.help("700001"), time.Now().Add(-time.Hour)); code != http.StatusUnauthorized {
		t.Errorf("/help signed an hour ago: %d, want 401", code)
	}
	if code := b.post(t, b.help("700002"), time.Now()); code != http.StatusOK {
		t.Fatalf("/help: %d, want 200", code)
	}
	if code := b.post(t, b.help("700002"), time.Now()); code != http.StatusConflict {
		t.Errorf("/help again with the same id: %d, want 409", code)
	}
	log := b.stderr.String()
	if n := strings.Count(log, "msg=interaction id=700002 "); n != 1 {
		t.Errorf("interaction 700002 was acted on %d times, want once:\n%s", n, log)
	}
	if strings.Contains(log, "msg=interaction id=700001 ") {
		t.Errorf("the hour-old interaction was acted on:\n%s", log)
	}
}

// slowBodies is how many clients send a body a byte at a time.
const slowBodies = 100

func TestSlowBodiesAreDroppedWithinTheTimeout(t *testing.T) {
	b := startInteractionsBot(t)
	for _, l := range []struct{ name, addr, path string }{{"interactions", b.interactions, "/interactions"}, {"operators", b.http, "/healthz"}} {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var wg sync.WaitGroup
			closed := make(chan time.Duration, slowBodies)
			start := time.Now()
			for range slowBodies {
				conn, err := net.Dial("tcp", l.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				// Headers that pass every check made before the body is
				// read: the listener's own Host, a length within the
				// limit, a signature of the right shape, signed now.
				fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 60000\r\nX-Signature-Timestamp: %d\r\nX-Signature-Ed25519: %s\r\n\r\n",
					l.path, l.addr, time.Now().Unix(), strings.Repeat("ab", ed25519.SignatureSize))
				wg.Add(2)
				go func() { // a byte a second, until the server hangs up
					defer wg.Done()
					tick := time.NewTicker(time.Second)
					defer tick.Stop()
					for {
						select {
						case <-ctx.Done():
							return
						case <-tick.C:
							if _, err := conn.Write([]byte("x")); err != nil {
								return
							}
						}
					}
				}()
				go func() {
					defer wg.Done()
					io.Copy(io.Discard, bufio.NewReader(conn))
					closed <- time.Since(start)
				}()
			}
			// The server's read timeout is 10 s; give it twice that.
			limit := time.After(readWait + 10*time.Second)
			var last time.Duration
			for n := 0; n < slowBodies; n++ {
				select {
				case d := <-closed:
					last = max(last, d)
				case <-limit:
					t.Fatalf("%d of %d slow bodies still held after %v", slowBodies-n, slowBodies, readWait+10*time.Second)
				}
			}
			cancel()
			wg.Wait()
			t.Logf("the last of %d slow bodies was dropped after %v", slowBodies, last.Round(100*time.Millisecond))
			if code := status(t, "http://"+b.http+"/healthz", ""); code != http.StatusOK && code != http.StatusServiceUnavailable {
				t.Errorf("/healthz after the slow bodies: %d", code)
			}
		})
	}
}

func TestAUserOverAQuotaIsToldWhenToTryAgain(t *testing.T) {
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	startBot(t, srv, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	answer := func() fakediscord.Message {
		t.Helper()
		c, err := srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "challenge", fakediscord.UserOption("opponent", bob.ID)))
		if err != nil || c.Err != nil {
			t.Fatal(err, c.Err)
		}
		return c.Message
	}
	first := answer()
	var withdraw string
	for _, b := range first.Buttons() {
		if strings.HasPrefix(b.CustomID, "ch:decline:") {
			withdraw = b.CustomID
		}
	}
	if _, err := srv.WaitResponse(ctx, srv.Click(alice.ID, first.ID, withdraw)); err != nil {
		t.Fatal(err)
	}
	// The program's defaults: ten minutes before challenging Bob again.
	if again := answer(); !again.Ephemeral() || !strings.Contains(again.Content, "challenge them again <t:") {
		t.Fatalf("a second challenge to the same person: %q", again.Content)
	}
}

func TestOversizedHeadersAreRefused(t *testing.T) {
	b := startInteractionsBot(t)
	for _, addr := range []string{b.interactions, b.http} {
		r, err := http.NewRequest(http.MethodGet, "http://"+addr+"/healthz", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("X-Padding", strings.Repeat("x", 64<<10))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			continue // dropped: as good as refused
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%s: 64 KB of headers got %d, want 431", addr, resp.StatusCode)
		}
	}
}

// TestAStalledDatabaseIsReportedNotWaitedFor runs the program on a
// PostgreSQL that then stalls: /healthz says so at once, and a player
// gets an apology within Discord's three seconds (the fake Discord
// refuses a later answer).
func TestAStalledDatabaseIsReportedNotWaitedFor(t *testing.T) {
	url, proxy := pgtest.Stalling(t)
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	b := startBot(t, srv, t.TempDir(), "ICEAGE_DATABASE_URL="+url)
	health := func() (int, string) {
		resp, err := http.Get("http://" + b.http + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindCommands }); err != nil {
		t.Fatal(err)
	}
	if code, body := health(); code != http.StatusOK || !strings.Contains(body, "store: ok") {
		t.Fatalf("/healthz before the stall: %d %q", code, body)
	}
	proxy.Stall()
	if code, body := health(); code != http.StatusServiceUnavailable || !strings.Contains(body, "store: not answering") {
		t.Errorf("/healthz on a stalled database: %d %q", code, body)
	}
	c, err := srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "games"))
	if err != nil || c.Err != nil {
		t.Fatalf("/games on a stalled database: %v %v", err, c.Err)
	}
	if !c.Message.Ephemeral() || !strings.Contains(c.Message.Content, "something went wrong") {
		t.Errorf("/games on a stalled database answered %q", c.Message.Content)
	}
}

// TestAReplayToAnotherProcessIsRefused runs two processes on one
// PostgreSQL behind an imagined load balancer: a signed request that one
// of them answered is refused by the other.
func TestAReplayToAnotherProcessIsRefused(t *testing.T) {
	url := pgtest.New(t)
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	var bots []*interactionsBot
	for range 2 {
		addr := freeAddr(t)
		p := startBot(t, srv, t.TempDir(), "ICEAGE_DATABASE_URL="+url,
			"ICEAGE_DISCORD_PUBLIC_KEY="+hex.EncodeToString(pub), "ICEAGE_INTERACTIONS_LISTEN="+addr)
		bots = append(bots, &interactionsBot{botProcess: p, interactions: addr, key: priv, guild: g.ID, chess: ch.ID, user: alice.ID})
		// The first process's commands are already registered: wait for
		// this one's listener instead.
		for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
				break
			}
			if time.Since(start) > 20*time.Second {
				t.Fatalf("the second process does not listen: %v\n%s", err, p.stderr)
			}
		}
	}
	body := bots[0].help("700100")
	if code := bots[0].post(t, body, time.Now()); code != http.StatusOK {
		t.Fatalf("/help to the first process: %d", code)
	}
	if code := bots[1].post(t, body, time.Now()); code != http.StatusConflict {
		t.Errorf("the same /help to the second process: %d, want 409", code)
	}
	if log := bots[1].stderr.String(); strings.Contains(log, "msg=interaction id=700100 ") {
		t.Errorf("the second process acted on the replay:\n%s", log)
	}
}
