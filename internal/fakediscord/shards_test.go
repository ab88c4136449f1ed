package fakediscord_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// Two sessions, shards 0 and 1 of 2, get each guild's GUILD_CREATE and
// interactions on the guild's shard alone, and direct messages' on shard
// 0, as Discord routes them.
func TestEventsGoToTheGuildsShard(t *testing.T) {
	srv := fakediscord.New(t)
	alice := srv.AddUser(fakediscord.User{Username: "alice"})
	var guilds [2]fakediscord.Guild
	var chess [2]fakediscord.Channel
	for found := 0; found < 2; {
		g := srv.AddGuild(fakediscord.Guild{})
		if k := fakediscord.ShardOf(g.ID, 2); guilds[k].ID == "" {
			guilds[k] = g
			chess[k] = srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
			found++
		}
	}
	type shardSession struct {
		mu           *sync.Mutex
		guilds       *[]string // of its GUILD_CREATEs
		interactions chan *discordgo.InteractionCreate
	}
	var shards [2]shardSession
	for k := range shards {
		sh := shardSession{mu: &sync.Mutex{}, guilds: &[]string{}, interactions: make(chan *discordgo.InteractionCreate, 8)}
		shards[k] = sh
		dg, err := discordgo.New("Bot " + srv.Token())
		if err != nil {
			t.Fatal(err)
		}
		dg.Dialer = loopbackDialer
		dg.SyncEvents = true
		dg.ShardID, dg.ShardCount = k, 2
		dg.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
			sh.mu.Lock()
			defer sh.mu.Unlock()
			*sh.guilds = append(*sh.guilds, g.ID)
		})
		dg.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { sh.interactions <- i })
		if err := dg.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { dg.Close() })
	}
	// Each shard's GUILD_CREATEs are of its guilds alone: the shard's
	// test guild comes, and no guild of the other shard.
	for k, sh := range shards {
		deadline := time.Now().Add(10 * time.Second)
		for {
			sh.mu.Lock()
			got := slices.Clone(*sh.guilds)
			sh.mu.Unlock()
			for _, id := range got {
				if fakediscord.ShardOf(id, 2) != k {
					t.Fatalf("shard %d got the GUILD_CREATE of guild %s, shard %d's", k, id, fakediscord.ShardOf(id, 2))
				}
			}
			if slices.Contains(got, guilds[k].ID) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("shard %d got no GUILD_CREATE of its guild %s", k, guilds[k].ID)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for k := range shards {
		id := srv.Command(alice.ID, chess[k].ID, "help")
		if i := receive(t, shards[k].interactions); i.ID != id {
			t.Fatalf("shard %d got interaction %s, want %s", k, i.ID, id)
		}
	}
	dm := srv.DMChannel(alice.ID)
	id := srv.Command(alice.ID, dm.ID, "help")
	if i := receive(t, shards[0].interactions); i.ID != id {
		t.Fatalf("shard 0 got interaction %s, want the direct message's %s", i.ID, id)
	}
	for k, sh := range shards {
		select {
		case i := <-sh.interactions:
			t.Errorf("shard %d got interaction %s of another shard", k, i.ID)
		default:
		}
	}
}
