package main

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
)

// Two processes of the program share one PostgreSQL, as gateway shards
// 0 and 1 of 2, each with its web listener behind one address. Discord
// sends the club's interactions to its shard alone, so one process
// plays the game; a watcher of the game's live page on either process
// gets the move made through Discord: the other shard's hears it from
// the first one's commit.
func TestTwoProcessesOnPostgreSQLStreamEachOthersMoves(t *testing.T) {
	db := pgtest.New(t)
	srv := fakediscord.New(t)
	srv.SetResponseDeadline(0) // two processes on a loaded machine may be slower than Discord allows; not the point here
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	webs := startTwoShards(t, srv, db)
	ctx, cancel := context.WithTimeout(context.Background(), fakediscord.Slowdown*60*time.Second)
	defer cancel()
	// Both shards are connected before anyone plays.
	waitShards(ctx, t, srv, 2)
	thread := gameStarted(ctx, t, srv, ch.ID, alice.ID, bob.ID)

	// The game's page, from the Watch live link of its first board.
	var page *url.URL
	if _, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
		if c.Kind != fakediscord.KindMessage || c.Message.ChannelID != thread {
			return false
		}
		for _, b := range c.Message.Buttons() {
			if b.Style == discordgo.LinkButton && b.Label == "Watch live" {
				page, _ = url.Parse(b.URL)
			}
		}
		return page != nil
	}); err != nil {
		t.Fatalf("no board links to the game's page: %v", err)
	}

	// A watcher on each process: each first gets the game as it is.
	type frame struct {
		rev  int
		data string
	}
	var frames []chan frame
	for _, addr := range webs {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+page.Path+"/events", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("the game's events on %s: %s, %q", addr, resp.Status, resp.Header.Get("Content-Type"))
		}
		got := make(chan frame, 16)
		frames = append(frames, got)
		go func() {
			defer close(got)
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 64<<10), 4<<20)
			var f frame
			for sc.Scan() {
				line := sc.Text()
				switch {
				case strings.HasPrefix(line, "id: "):
					f.rev, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
				case strings.HasPrefix(line, "data: "):
					f.data = strings.TrimPrefix(line, "data: ")
				case line == "" && f.data != "":
					got <- f
					f = frame{}
				}
			}
		}()
	}
	next := func(i int) frame {
		t.Helper()
		select {
		case f, ok := <-frames[i]:
			if !ok {
				t.Fatalf("the stream of process %d ended", i+1)
			}
			return f
		case <-ctx.Done():
			t.Fatalf("process %d's watcher got nothing", i+1)
		}
		return frame{}
	}
	first := []frame{next(0), next(1)}
	if first[0].rev == 0 || first[0].rev != first[1].rev {
		t.Fatalf("the processes show the game at revisions %d and %d", first[0].rev, first[1].rev)
	}

	// White moves through Discord, on the club's shard: both watchers
	// get the move, at the next revision. The colours are drawn; the
	// other player is refused, privately.
	moved := false
	for _, u := range []fakediscord.User{alice, bob} {
		c, err := srv.WaitResponse(ctx, srv.Command(u.ID, thread, "move", fakediscord.StringOption("move", "Nxf3")))
		if err != nil || c.Err != nil {
			t.Fatal(err, c.Err)
		}
		if !c.Message.Ephemeral() {
			moved = true
			break
		}
	}
	if !moved {
		t.Fatal("neither player could play Nxf3")
	}
	t.Logf("the club is on shard %d; the watcher of shard %d hears the move from the other process", fakediscord.ShardOf(g.ID, 2), 1-fakediscord.ShardOf(g.ID, 2))
	for i := range webs {
		f := next(i)
		if f.rev != first[i].rev+1 || !strings.Contains(f.data, "Nxf3") {
			t.Errorf("process %d's watcher got revision %d (want %d): %.200s", i+1, f.rev, first[i].rev+1, f.data)
		}
	}
}

// startTwoShards starts the program twice on PostgreSQL db, as gateway
// shards 0 and 1 of 2, each with a web listener, and returns the
// listeners' addresses once both serve. They share one secret, so a link
// to a page works on either.
func startTwoShards(t *testing.T, srv *fakediscord.Server, db string) []string {
	t.Helper()
	secret := filepath.Join(t.TempDir(), "web.secret")
	var webs []string
	for shard := range 2 {
		addr := freeAddr(t)
		p := startBot(t, srv, t.TempDir(), "ICEAGE_DATABASE_URL="+db, "ICEAGE_SHARD_ID="+strconv.Itoa(shard), "ICEAGE_SHARD_COUNT=2",
			"ICEAGE_WEB_LISTEN="+addr, "ICEAGE_PUBLIC_URL=http://"+addr+"/", "ICEAGE_WEB_SECRET_FILE="+secret)
		// The first process's commands are registered already: wait for
		// this one's web listener.
		for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
			resp, err := http.Get("http://" + addr + "/")
			if err == nil {
				resp.Body.Close()
				break
			}
			if time.Since(start) > fakediscord.Slowdown*20*time.Second {
				t.Fatalf("the process does not serve its web listener: %v\n%s", err, p.stderr)
			}
		}
		webs = append(webs, addr)
	}
	return webs
}

// waitShards waits until each of the count shards has identified.
func waitShards(ctx context.Context, t *testing.T, srv *fakediscord.Server, count int) {
	t.Helper()
	for shard := range count {
		if _, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
			return c.Kind == fakediscord.KindIdentify && c.Identify.Shard != nil && *c.Identify.Shard == [2]int{shard, count}
		}); err != nil {
			t.Fatalf("shard %d did not connect: %v", shard, err)
		}
	}
}
