package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/store"
)

// BenchmarkMoveWhileABackupStalls plays /move after /move, one at a
// time, through the running program and the fake Discord, and reports
// the 50th and 99th percentiles of a move's latency: with no backup
// asked for, and while a client that asked for /backup reads nothing. The
// database is padded to 24 MB, more than loopback's socket buffers hold,
// so that the stalled download really is stalled.
func BenchmarkMoveWhileABackupStalls(b *testing.B) {
	for _, stalled := range []bool{false, true} {
		name := "backup=none"
		if stalled {
			name = "backup=stalled"
		}
		b.Run(name, func(b *testing.B) { benchmarkMovesBeside(b, stalled) })
	}
}

func benchmarkMovesBeside(b *testing.B, stalled bool) {
	dir := b.TempDir()
	padDatabase(b, filepath.Join(dir, "iceage.db"), 24<<20)
	srv := fakediscord.New(b)
	srv.SetResponseDeadline(0) // the machine may be slower than Discord allows; the figures tell
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	p := startBot(b, srv, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	sans := referenceMoves(b, 300)
	type seat struct {
		thread       string
		white, black fakediscord.User
	}
	var seats []seat
	for len(seats)*len(sans) < b.N {
		alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
		bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
		c, err := srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "challenge", fakediscord.UserOption("opponent", bob.ID)))
		if err != nil || c.Err != nil {
			b.Fatal(err, c.Err)
		}
		for _, bt := range c.Message.Buttons() {
			if strings.HasPrefix(bt.CustomID, "ch:accept:") {
				srv.Click(bob.ID, c.Message.ID, bt.CustomID)
			}
		}
		th, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
			return c.Kind == fakediscord.KindThread && !slices.ContainsFunc(seats, func(s seat) bool { return s.thread == c.Channel.ID })
		})
		if err != nil {
			b.Fatal(err)
		}
		first, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
			return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == th.Channel.ID
		})
		if err != nil {
			b.Fatal(err)
		}
		white, black := alice, bob // the first board calls the player to move
		if !strings.Contains(first.Message.Content, alice.ID) {
			white, black = bob, alice
		}
		seats = append(seats, seat{th.Channel.ID, white, black})
	}
	if stalled {
		conn, err := net.Dial("tcp", p.http)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		conn.(*net.TCPConn).SetReadBuffer(4 << 10)
		fmt.Fprintf(conn, "GET /backup HTTP/1.1\r\nHost: bench\r\n\r\n")
		time.Sleep(time.Second) // the bot copies the database and starts sending it
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		s := seats[i/len(sans)]
		ply := i % len(sans)
		user := s.white
		if ply%2 == 1 {
			user = s.black
		}
		start := time.Now()
		c, err := srv.WaitResponse(ctx, srv.Command(user.ID, s.thread, "move", fakediscord.StringOption("move", sans[ply])))
		lat = append(lat, time.Since(start))
		if err != nil || c.Err != nil || c.Message.Ephemeral() {
			b.Fatalf("move %d (%s): %v %v %q", ply+1, sans[ply], err, c.Err, c.Message.Content)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// padDatabase makes the bot's database at path and fills it with size
// bytes of a bucket the bot does not read, as years of games would.
func padDatabase(tb testing.TB, path string, size int) {
	tb.Helper()
	st, err := store.Open(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	value := make([]byte, 1<<20)
	err = db.Update(func(tx *bolt.Tx) error {
		pad, err := tx.CreateBucket([]byte("padding"))
		if err != nil {
			return err
		}
		for k := 0; k < size>>20; k++ {
			rand.Read(value)
			if err := pad.Put([]byte{byte(k)}, slices.Clone(value)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// referenceMoves returns the SAN moves of the first game of
// game/testdata/games.txt that lasts n plies.
func referenceMoves(tb testing.TB, n int) []string {
	tb.Helper()
	f, err := os.Open("game/testdata/games.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), " ; ")
		if strings.HasPrefix(sc.Text(), "#") || len(parts) < 5 {
			continue
		}
		if sans := strings.Fields(parts[1]); len(sans) == n {
			return sans
		}
	}
	tb.Fatalf("no game of %d plies in games.txt", n)
	return nil
}
