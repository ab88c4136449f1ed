package bot_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
)

// Two bot processes on one PostgreSQL database, behind a load balancer
// that sends Discord's interactions to one or the other: a game's moves
// alternate between them, and each sees what the other played.
func TestTwoBotsShareOneGameOnPostgreSQL(t *testing.T) {
	url := pgtest.New(t)
	ctx := context.Background()
	open := func() *pgstore.Store {
		st, err := pgstore.Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		return st
	}
	stA, stB := open(), open()
	w := newWorld(t, stA, "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)

	pub, priv, _ := ed25519.GenerateKey(nil)
	other, err := bot.New(bot.Config{Token: w.srv.Token(), Now: w.clock.Now,
		Logger: slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))},
		play.New(stB, play.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	front := []*httptest.Server{httptest.NewServer(w.bot.InteractionsHandler(pub)), httptest.NewServer(other.InteractionsHandler(pub))}
	for _, s := range front {
		defer s.Close()
	}
	sans := referenceGame(t, "checkmate", 37)[:12]
	for i, san := range sans {
		user := w.alice
		if i%2 == 1 {
			user = w.bob
		}
		body := fmt.Sprintf(`{"id":"%d","application_id":%q,"type":2,"token":"tok%d","guild_id":%q,"guild_locale":"en-US","channel_id":%q,`+
			`"member":{"user":{"id":%q,"username":%q}},"locale":"en-US",`+
			`"data":{"id":"9","name":"move","type":1,"options":[{"name":"move","type":3,"value":%q}]}}`,
			800000+i, w.srv.AppID(), i, w.guild.ID, thread, user.ID, user.Username, san)
		resp, err := http.DefaultClient.Do(signed(t, front[i%2].URL, priv, body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "played **"+san+"**") {
			t.Fatalf("move %d %s through process %d: %d %.300s", i+1, san, i%2+1, resp.StatusCode, b)
		}
	}
	for name, st := range map[string]play.Storage{"first": stA, "second": stB} {
		err := st.View(ctx, func(tx play.ReadTx) error {
			g, err := tx.GameIn(thread)
			if err == nil && g.Ply() != len(sans) {
				t.Errorf("the %s process sees %d moves, want %d", name, g.Ply(), len(sans))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A bot configured as shard 1 of 2 identifies itself as such.
func TestAShardIdentifiesAsItsShard(t *testing.T) {
	srv := fakediscord.New(t)
	b, err := bot.New(bot.Config{Token: srv.Token(), ShardID: 1, ShardCount: 2,
		Logger: slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))}, play.New(memstore.New(), play.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	b.Session().Dialer = fakediscord.Dialer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() { cancel(); <-done }()
	wait, stop := context.WithTimeout(ctx, patience(10*time.Second))
	defer stop()
	c, err := srv.WaitFor(wait, func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindIdentify })
	if err != nil {
		t.Fatal(err)
	}
	if c.Identify.Shard == nil || *c.Identify.Shard != [2]int{1, 2} {
		t.Errorf("identified as shard %v, want [1 2]", c.Identify.Shard)
	}
}
