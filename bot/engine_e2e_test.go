package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// fastEngine searches a few thousand nodes a move: the same moves on
// every run, in milliseconds.
var fastEngine = bot.EngineConfig{Nodes: 3000, Workers: 2}

// engineGame challenges the bot from user with the given options and
// returns the game's thread and the answer.
func (w *world) engineGame(user fakediscord.User, opts ...*fakediscord.Option) (string, fakediscord.Message) {
	w.t.Helper()
	opts = append([]*fakediscord.Option{fakediscord.UserOption("opponent", w.srv.Bot().ID)}, opts...)
	got := w.command(user, w.chess.ID, "challenge", opts...)
	if got.Ephemeral() || !strings.Contains(got.Content, "Ice Age Engine") {
		w.t.Fatalf("challenging the bot is answered %q", got.Content)
	}
	_, rest, ok := strings.Cut(got.Content, "<#")
	thread, _, ok2 := strings.Cut(rest, ">")
	if !ok || !ok2 {
		w.t.Fatalf("the answer names no thread: %q", got.Content)
	}
	if c, ok := w.srv.Channel(thread); !ok || c.ParentID != w.chess.ID {
		w.t.Fatalf("the game is played in %q, not a thread of #chess", thread)
	}
	return thread, got
}

// gameOf reads the active game of channel.
func (w *world) gameOf(channel string) play.Game {
	w.t.Helper()
	var g play.Game
	err := w.st.View(context.Background(), func(tx play.ReadTx) (err error) {
		g, err = tx.GameIn(channel)
		return err
	})
	if err != nil {
		w.t.Fatalf("no game in %s: %v", channel, err)
	}
	return g
}

// engineReply waits for the engine's board in thread: posted, or the
// thinking board edited into it.
func (w *world) engineReply(thread string) fakediscord.Message {
	w.t.Helper()
	bot := "<@" + w.srv.Bot().ID + "> played"
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return (c.Kind == fakediscord.KindMessage || c.Kind == fakediscord.KindMessageEdit) && c.Err == nil &&
			c.Message.ChannelID == thread && strings.Contains(c.Message.Content, bot) && len(c.Message.Files) > 0
	})
	if err != nil {
		w.t.Fatalf("no board of the engine's in %s: %v", thread, err)
	}
	return c.Message
}

func TestChallengingTheBotStartsAGameTheEngineAnswers(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	thread, got := w.engineGame(w.alice, fakediscord.StringOption("color", "white"), fakediscord.IntOption("level", 3))
	if !strings.Contains(got.Content, "level 3") {
		t.Errorf("the answer does not name the level: %q", got.Content)
	}
	first := w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	if !strings.Contains(first.Content, "<@"+w.alice.ID+">, your move") {
		t.Errorf("the first board does not call Alice to move: %q", first.Content)
	}
	g := w.gameOf(thread)
	if g.Engine != [2]int{0, 3} || g.Black.ID != w.srv.Bot().ID || g.Rated {
		t.Fatalf("the game is %+v", g)
	}
	before := len(w.srv.Messages(thread))
	// Nothing replays the game, from Alice's move to the engine's board
	// edited into the thinking one: each is told from what its act
	// computed and the SANs the moves carry (play.Replays counts every
	// replay).
	replays := play.Replays()
	got = w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if got.Ephemeral() || !strings.Contains(got.Content, "The engine is thinking") {
		t.Errorf("the board after Alice's move says %q", got.Content)
	}
	// No deadline for the engine's turn.
	if d := got.Embeds[0].Description; strings.Contains(d, "⏳") {
		t.Errorf("the engine's turn shows a deadline: %q", d)
	}
	// One message per engine reply: the thinking board becomes the
	// engine's, naming both moves.
	reply := w.engineReply(thread)
	isPNG(t, reply.Files[0])
	if reply.ID != got.ID || !strings.Contains(reply.Content, "<@"+w.alice.ID+"> played **Nxf3**") {
		t.Errorf("the engine's board is message %s (the thinking board was %s): %q", reply.ID, got.ID, reply.Content)
	}
	if !strings.Contains(reply.Content, "<@"+w.alice.ID+">, your move") {
		t.Errorf("the engine's board does not call Alice: %q", reply.Content)
	}
	if d := reply.Embeds[0].Description; !strings.Contains(d, "⏳") {
		t.Errorf("Alice's turn shows no deadline: %q", d)
	}
	if n := play.Replays() - replays; n != 0 {
		t.Errorf("Alice's move and the engine's answer replayed the game %d times, want none", n)
	}
	if n := len(w.srv.Messages(thread)); n != before+1 {
		t.Errorf("Alice's move and the engine's answer left %d messages, want 1", n-before)
	}
	g = w.gameOf(thread)
	if g.Ply() != 2 || g.Turn() != game.White {
		t.Fatalf("after the engine's answer the game has %d plies", g.Ply())
	}
	if _, err := game.ReplayUCI(g.StartFEN, []string{g.Moves[0].UCI, g.Moves[1].UCI}); err != nil {
		t.Errorf("the engine's move is not legal: %v", err)
	}
	// A takeback in a casual game is granted, and the engine moves again.
	got = w.command(w.alice, thread, "takeback")
	if !strings.Contains(got.Content, "2 moves were taken back") {
		t.Errorf("a takeback asked of the engine is answered %q", got.Content)
	}
	if g := w.gameOf(thread); g.Ply() != 0 {
		t.Errorf("after the takeback the game has %d plies", g.Ply())
	}
	// A draw offer is answered at once: in the start position, which the
	// engine finds dead equal, it agrees.
	got = w.command(w.alice, thread, "draw")
	if !strings.Contains(got.Content, "agreed to a draw") || !onlyRematch(got) {
		t.Errorf("a draw offer to the engine is answered %q", got.Content)
	}
}

func TestTheEngineMovesFirstWithWhiteAndAfterARestart(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	thread, _ := w.engineGame(w.bob, fakediscord.StringOption("color", "black"), fakediscord.IntOption("level", 8))
	opening := w.engineReply(thread)
	if !strings.Contains(opening.Content, "The game begins") || !strings.Contains(opening.Content, "<@"+w.bob.ID+">, your move") ||
		!strings.Contains(opening.Content, "menu under the board") {
		t.Errorf("the engine's opening board says %q", opening.Content)
	}
	if n := len(w.srv.Messages(thread)); n != 1 {
		t.Errorf("the game's start and the engine's opening left %d messages, want 1", n)
	}
	if g := w.gameOf(thread); g.Ply() != 1 || g.White.ID != w.srv.Bot().ID {
		t.Fatalf("the engine with White did not open: %d plies", g.Ply())
	}
	// Black moves, and the process stops right after the commit, before
	// anything is handed to the engine: the engine's turn is in the
	// outbox, and the next start plays it.
	w.stop()
	w.stop = nil
	g := w.gameOf(thread)
	r, err := round.New(play.New(w.st, play.Options{}), round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Do(context.Background(), round.Act{Act: play.Act{By: w.bob.ID, Game: g.ID, Revision: g.Revision, At: w.clock.Now()},
		Kind: round.Move, Text: "g8f6"}); err != nil {
		t.Fatal(err)
	}
	w.start()
	// The third ply is stored, then its board posted: wait for both.
	deadline := time.Now().Add(patience(10 * time.Second))
	for {
		boards := 0
		for _, m := range w.srv.Messages(thread) {
			if strings.Contains(m.Content, "<@"+w.srv.Bot().ID+"> played") {
				boards++
			}
		}
		g := w.gameOf(thread)
		if g.Ply() == 3 && boards == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the restart: %d plies and %d boards of engine moves, want 3 and 2", g.Ply(), boards)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestMoreEngineGamesThanWorkersAreAllAnswered(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", bot.EngineConfig{Nodes: 300_000, Workers: 1})
	users := []fakediscord.User{w.alice, w.bob, w.carol, w.dan}
	threads := make([]string, len(users))
	for i, u := range users {
		threads[i], _ = w.engineGame(u, fakediscord.StringOption("color", "white"), fakediscord.IntOption("level", 7))
		// Each new thread is the newest: wait until it has its board.
		w.waitMessage(threads[i], func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	}
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = w.srv.Command(u.ID, threads[i], "move", fakediscord.StringOption("move", "Nxf3"))
	}
	queued := 0
	for _, id := range ids {
		w.answer(id)
	}
	for _, th := range threads {
		w.engineReply(th)
		if g := w.gameOf(th); g.Ply() != 2 {
			t.Errorf("game in %s has %d plies", th, g.Ply())
		}
	}
	for _, c := range w.srv.Calls() {
		if strings.Contains(c.Message.Content, "ahead of yours") && c.Message.Ephemeral() {
			queued++
		}
	}
	// One worker: the moves sent together cannot all start at once.
	if queued == 0 {
		t.Errorf("no player was told that the engine was busy")
	}
}

func TestAnalyzeMarksTheMistakesOfAFinishedGame(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	got := w.command(w.alice, thread, "analyze")
	if !got.Ephemeral() || !strings.Contains(got.Content, "still going on") {
		t.Errorf("/analyze during the game is answered %q", got.Content)
	}
	// A game that ends in mate: the loser's last moves lost everything.
	w.playAlternately(thread, w.alice, w.bob, referenceGame(t, "checkmate", 37))
	id := w.srv.Command(w.carol.ID, thread, "analyze")
	w.answer(id)
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponseEdit && c.InteractionID == id
	})
	if err != nil {
		t.Fatalf("the analysis never came: %v", err)
	}
	if len(c.Message.Embeds) != 1 || len(c.Message.Embeds[0].Fields) != 1 {
		t.Fatalf("the analysis is %+v", c.Message)
	}
	// Carol reads Russian: the analysis is hers.
	e := c.Message.Embeds[0]
	if !strings.Contains(e.Title, "Анализ") || !strings.Contains(e.Description, "1. ") {
		t.Errorf("the analysis shows %q / %q", e.Title, e.Description)
	}
	if f := e.Fields[0]; !strings.Contains(e.Description, "??") || !strings.Contains(f.Value, "лучше было") {
		t.Errorf("no blunder is marked in a game lost by mate: %q\n%s: %s", e.Description, f.Name, f.Value)
	}
}
