package activity_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
)

// TestTheGamesOfTheChannelsThreads: an Activity opened in #lobby reaches
// the games of #lobby's threads: Bob finds his own there (and plays it
// from the Activity), Carol finds the lobby listing it to watch, and
// watches it; a game of another channel's thread is neither listed nor
// shown, nor played from there.
func TestTheGamesOfTheChannelsThreads(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	thread := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Type: discordgo.ChannelTypeGuildPublicThread, ParentID: w.lobby.ID, Name: "Bob vs Dan"})
	other := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Type: discordgo.ChannelTypeGuildPublicThread, ParentID: w.chess.ID, Name: "Dan vs Carol"})
	start := func(channel string, white, black play.Seat) play.Game {
		t.Helper()
		out, err := w.round.Start(ctx, play.NewGame{Guild: w.guild.ID, Channel: channel, White: white, Black: black, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		return out.Game
	}
	bobs := start(thread.ID, play.Seat{ID: w.bob.ID, Name: "Bob"}, play.Seat{ID: w.dan.ID, Name: "dan"})
	elsewhere := start(other.ID, play.Seat{ID: w.dan.ID, Name: "dan"}, play.Seat{ID: w.carol.ID, Name: "Carol"})
	in := w.srv.LaunchActivity(w.lobby.ID, w.bob.ID, w.carol.ID).ID
	bob, carol := w.signIn(t, w.bob), w.signIn(t, w.carol)

	status, got := w.call(t, "GET", "/api/game?instance="+in, bob, "")
	if status != 200 || got["game"] != float64(bobs.ID) || got["color"] != "w" {
		t.Fatalf("Bob's Activity in #lobby answers %d %v, want his game %d of the thread, White", status, got, bobs.ID)
	}
	if status, got := w.call(t, "POST", "/api/move", bob, fmt.Sprintf(`{"instance":%q,"game":%d,"rev":%d,"move":"h2g3"}`, in, bobs.ID, bobs.Revision)); status != 200 {
		t.Errorf("Bob's move in the thread's game, from #lobby's Activity: %d %v", status, got)
	}

	l := w.lobbyOf(t, in, carol)
	games := l["games"].([]any)
	if len(games) != 1 || games[0].(map[string]any)["id"] != float64(bobs.ID) || games[0].(map[string]any)["mine"] != false {
		t.Fatalf("Carol's lobby lists %v, want Bob's game alone, to watch", games)
	}
	if text := games[0].(map[string]any)["text"]; text != "Bob — dan · Без ограничения времени" && text != "Bob — dan · 3 дня на ход" {
		t.Errorf("the game reads %q to Carol", text)
	}
	status, got = w.call(t, "GET", fmt.Sprintf("/api/game?instance=%s&game=%d", in, bobs.ID), carol, "")
	if status != 200 || got["game"] != float64(bobs.ID) || got["color"] != "" || got["path"] == "" {
		t.Errorf("Carol watching Bob's game: %d %v", status, got)
	}
	// Another channel's thread: out of reach, even to its player.
	for _, id := range []uint64{elsewhere.ID, w.game.ID} {
		if status, got := w.call(t, "GET", fmt.Sprintf("/api/game?instance=%s&game=%d", in, id), carol, ""); status != 404 {
			t.Errorf("game %d, out of #lobby's reach: %d %v", id, status, got)
		}
	}
	e, _ := w.round.Service().Game(ctx, elsewhere.ID)
	if status, got := w.call(t, "POST", "/api/move", carol, fmt.Sprintf(`{"instance":%q,"game":%d,"rev":%d,"move":"h7g6"}`, in, e.ID, e.Revision)); status != 404 {
		t.Errorf("Carol's move in a game of #chess's thread, from #lobby's Activity: %d %v", status, got)
	}
	for _, q := range []string{"abc", "0", "-1", "99999999999999999999"} {
		if status, _ := w.call(t, "GET", "/api/game?instance="+in+"&game="+q, carol, ""); status != 400 {
			t.Errorf("game=%s: %d, want 400", q, status)
		}
	}
}
