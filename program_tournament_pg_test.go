package main

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
)

// Two processes of the program share one PostgreSQL, as gateway shards
// 0 and 1 of 2, each with its web listener. A tournament played through
// Discord is committed by the club's shard alone; a page of the
// tournament open on either process gets its pairings, each result and
// its next round: the other process hears them from the first one's
// commits.
func TestTwoProcessesOnPostgreSQLStreamEachOthersTournament(t *testing.T) {
	db := pgtest.New(t)
	srv := fakediscord.New(t)
	srv.SetResponseDeadline(0) // two processes on a loaded machine may be slower than Discord allows; not the point here
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	var players []fakediscord.User
	for _, name := range []string{"alice", "bob", "carol"} {
		players = append(players, srv.AddUser(fakediscord.User{Username: name, Locale: "en-US"}))
	}
	webs := startTwoShards(t, srv, db)
	ctx, cancel := context.WithTimeout(context.Background(), fakediscord.Slowdown*90*time.Second)
	defer cancel()
	waitShards(ctx, t, srv, 2)
	d := newDiscordTournament(ctx, t, srv, g.ID, ch.ID, players...)
	page, err := url.Parse(d.Link)
	if err != nil {
		t.Fatal(err)
	}

	// A page on each process: each first gets the tournament as it is,
	// then each state as committed.
	var frames []chan string
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
			t.Fatalf("the tournament's events on %s: %s, %q", addr, resp.Status, resp.Header.Get("Content-Type"))
		}
		got := make(chan string, 64)
		frames = append(frames, got)
		go func() {
			defer close(got)
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 64<<10), 4<<20)
			for sc.Scan() {
				if line := sc.Text(); strings.HasPrefix(line, "data: ") {
					got <- line[len("data: "):]
				}
			}
		}()
	}
	// until waits for process i's page to show a state with every one of
	// want.
	until := func(i int, what string, want ...string) {
		t.Helper()
		for {
			select {
			case data, ok := <-frames[i]:
				if !ok {
					t.Fatalf("the stream of process %d ended before %s", i+1, what)
				}
				all := true
				for _, w := range want {
					all = all && strings.Contains(data, w)
				}
				if all {
					return
				}
			case <-ctx.Done():
				t.Fatalf("process %d's page never showed %s", i+1, what)
			}
		}
	}
	for i := range webs {
		until(i, "the players signed up", "alice", "bob", "carol")
	}
	d.start()
	for i := range webs {
		until(i, "round 1's pairings", "Games of round 1", "playing")
	}
	d.resignRound(1)
	t.Logf("the club is on shard %d; the page of shard %d hears the tournament from the other process", fakediscord.ShardOf(g.ID, 2), 1-fakediscord.ShardOf(g.ID, 2))
	for i := range webs {
		until(i, "round 1's result", "Games of round 1", "0–1")
		until(i, "round 2's pairings", "Games of round 2")
	}
}
