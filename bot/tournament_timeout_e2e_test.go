package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/tournament"
)

// A tournament's game has no Abort: a player who never moves loses on
// time, as in any game. The scheduler says so publicly in the game's
// thread, the tournament counts it (the absent player scores nothing,
// the other the point) and, its round over, posts the final standings.
func TestATournamentPlayerWhoNeverMovesLosesOnTime(t *testing.T) {
	cw := newCorrWorld(t, memstore.New(), play.Options{OnEnd: []func(play.Tx, *play.Game) error{tournament.OnEnd}})
	org := cw.srv.AddUser(fakediscord.User{Username: "olga", GlobalName: "Olga"})
	cw.srv.SetMemberPermissions(cw.guild.ID, org.ID, discordgo.PermissionManageGuild)
	w := &tournamentWorld{world: cw.world, org: org}
	players := []fakediscord.User{w.alice, w.bob, w.carol, w.dan}
	post := w.create(fakediscord.StringOption("system", "swiss"), fakediscord.IntOption("rounds", 1), fakediscord.IntOption("days", 1),
		fakediscord.StringOption("title", "Quick Swiss"))
	for _, p := range players {
		w.click(p, post, "join")
	}
	w.command(w.org, w.chess.ID, "tournament", fakediscord.SubCommand("start"))
	r1 := w.roundPost(1)
	var threads []string
	for _, th := range threadRef.FindAllStringSubmatch(r1.Content, -1) {
		threads = append(threads, th[1])
	}
	if len(threads) != 2 {
		t.Fatalf("round 1 of four has %d games:\n%s", len(threads), r1.Content)
	}
	// On board 1 White moves, then Black never does; on board 2 White
	// never moves.
	w.waitMessage(threads[0], func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	first := cw.gameIn(threads[0])
	if m := w.command(userByID(players, first.White.ID), threads[0], "move", fakediscord.StringOption("move", "hxg3")); m.Ephemeral() {
		t.Fatalf("White's move in board 1 was refused: %q", m.Content)
	}
	a, b := cw.gameIn(threads[0]), cw.gameIn(threads[1])
	loser := map[string]string{threads[0]: a.Black.ID, threads[1]: b.White.ID}
	late := a.Deadline
	if b.Deadline.After(late) {
		late = b.Deadline
	}
	cw.advance(late.Add(time.Minute))
	for _, thread := range threads {
		post := w.posted(thread, "ran out of time")
		if !strings.Contains(post.Message.Content, fmt.Sprintf("<@%s> ran out of time", loser[thread])) || post.Message.Ephemeral() {
			t.Errorf("the timeout in %s says %q, want %s out of time", thread, post.Message.Content, loser[thread])
		}
		if g := finishedGame(t, cw.st, thread); g.Outcome.Reason != game.Timeout {
			t.Errorf("the game in %s ended %+v, want on time", thread, g.Outcome)
		}
	}
	// The round is over: the final standings, where the two who ran out
	// of time have no point and the two others one each.
	final := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "is over") })
	checkFinalPost(t, final)
	table := embedAll(final)
	for thread, id := range loser {
		if !strings.Contains(table, "<@"+id+"> — **0**") {
			t.Errorf("the player out of time in %s does not have 0 points:\n%s", thread, table)
		}
	}
	if strings.Count(table, "— **1**") != 2 {
		t.Errorf("the final table does not give the two others a point each:\n%s", table)
	}
}
