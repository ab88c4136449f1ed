package bot_test

import (
	"context"
	"github.com/iceagechess/iceage/bot"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// playAlternately plays sans in thread, White (first) and Black taking
// turns, and returns the last answer.
func (w *world) playAlternately(thread string, white, black fakediscord.User, sans []string) fakediscord.Message {
	w.t.Helper()
	var last fakediscord.Message
	for i, san := range sans {
		by := white
		if i%2 == 1 {
			by = black
		}
		last = w.command(by, thread, "move", fakediscord.StringOption("move", san))
		if last.Ephemeral() {
			w.t.Fatalf("move %d %s by %s refused: %s", i+1, san, by.Username, last.Content)
		}
	}
	return last
}

func TestAWholeGameFromChallengeToMate(t *testing.T) {
	w := newWorld(t, nil, "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	if !strings.Contains(board.Content, "<@"+w.alice.ID+">") {
		t.Errorf("the first board does not call White (Alice) to move: %q", board.Content)
	}
	for _, verb := range []string{"resign", "draw", "flip", "abort"} {
		button(t, board, verb)
	}
	isPNG(t, board.Files[0])
	sans := referenceGame(t, "checkmate", 37)
	last := w.playAlternately(thread, w.alice, w.bob, sans)
	if !strings.Contains(last.Content, "White wins by checkmate") {
		t.Errorf("the mating move's answer says %q", last.Content)
	}
	if !onlyRematch(last) {
		t.Errorf("a finished game has buttons: %v", last.Buttons())
	}
	isPNG(t, last.Files[0])
	g := finishedGame(t, w.st, thread)
	if g.Ply() != 37 || g.Outcome.Reason.String() != "checkmate" {
		t.Errorf("stored game: %d plies, %v", g.Ply(), g.Outcome)
	}
}

// finishedGame returns the newest finished game played in channel.
func finishedGame(t *testing.T, st play.Storage, channel string) play.Game {
	t.Helper()
	var found play.Game
	err := st.View(context.Background(), func(tx play.ReadTx) error {
		gs, err := tx.Finished("", "", 0, 100)
		for _, g := range gs {
			if g.Channel == channel {
				found = g
				break
			}
		}
		return err
	})
	if err != nil || found.ID == 0 {
		t.Fatalf("no finished game in %s: %v", channel, err)
	}
	return found
}

func TestAnIceAgeShowsBeforeAndAfterAndNamesTheFrozen(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	sans := referenceGame(t, "white_king_frozen", 40)
	last := w.playAlternately(thread, w.alice, w.bob, sans)
	if len(last.Files) != 2 || last.Files[1].Name != "iceage.png" {
		t.Fatalf("the Ice Age move's answer has files %v, want the board and the Ice Age", last.Files)
	}
	isPNG(t, last.Files[1])
	if len(last.Embeds) != 2 || !strings.Contains(last.Embeds[1].Description, "the white king on") {
		t.Errorf("the Ice Age embed does not name the frozen king: %+v", last.Embeds)
	}
	if !strings.Contains(last.Content, "Black wins: White's king froze in the Ice Age") {
		t.Errorf("the frozen king's loss is announced as %q", last.Content)
	}
	if g := finishedGame(t, w.st, thread); g.Outcome.Reason.String() != "king frozen" {
		t.Errorf("stored outcome %v", g.Outcome)
	}
}

func TestIllegalMovesAreExplainedPrivatelyAndChangeNothing(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	got := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Rh5"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "The rook on h1 cannot reach h5") {
		t.Errorf("an illegal rook move is answered %q (ephemeral %v)", got.Content, got.Ephemeral())
	}
	got = w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nf4"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "`Nx") {
		t.Errorf("a knight move that is not legal is answered %q, without suggestions", got.Content)
	}
	got = w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hello"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "not a move") {
		t.Errorf("text that is no move is answered %q", got.Content)
	}
	// Bob reads French: the refusal is his.
	got = w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "Ce n'est pas à toi de jouer") {
		t.Errorf("a move out of turn, in French, is answered %q", got.Content)
	}
	public := 0
	for _, m := range w.srv.Messages(thread) {
		if !m.Ephemeral() {
			public++
		}
	}
	if public != 1 {
		t.Errorf("the thread shows %d messages to everyone, want only the first board", public)
	}
}

func TestStrangersClicksAreRefusedInTheirLanguage(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	got := w.click(w.carol, ch, "accept")
	if !got.Ephemeral() || !strings.Contains(got.Content, "Этот вызов адресован не вам") {
		t.Errorf("Carol (Russian) accepting Bob's challenge is answered %q", got.Content)
	}
	w.click(w.bob, ch, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread })
	if err != nil {
		t.Fatal(err)
	}
	board := w.waitMessage(c.Channel.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	got = w.click(w.carol, board, "resign")
	if !got.Ephemeral() || !strings.Contains(got.Content, "Вы не играете в этой партии") {
		t.Errorf("Carol pressing Resign is answered %q", got.Content)
	}
	got = w.click(w.dan, board, "draw")
	if !got.Ephemeral() || !strings.Contains(got.Content, "You do not play in this game") {
		t.Errorf("Dan pressing Offer draw is answered %q", got.Content)
	}
}

func TestTwoMovesAtOnceApplyOne(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	ids := make([]string, 4)
	var wg sync.WaitGroup
	for i, san := range []string{"Nxf3", "Nxh3", "hxg3", "Nxa3"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i] = w.srv.Command(w.alice.ID, thread, "move", fakediscord.StringOption("move", san))
		}()
	}
	wg.Wait()
	public := 0
	for _, id := range ids {
		if m := w.answer(id); !m.Ephemeral() {
			public++
		}
	}
	if public != 1 {
		t.Errorf("%d of four simultaneous moves were played, want one", public)
	}
	err := w.st.View(context.Background(), func(tx play.ReadTx) error {
		g, err := tx.GameIn(thread)
		if err == nil && g.Ply() != 1 {
			t.Errorf("the game has %d moves", g.Ply())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAStaleButtonAfterTheGameEndedChangesNothing(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	// The final board takes the buttons off this one soon after it is
	// posted, racing the clicks below; a stale button is one that
	// outlived it: here Discord refuses the edit, as for a permission
	// lost.
	w.srv.Refuse(fakediscord.RouteMessageEdit, fakediscord.Refusal{
		Err:   &fakediscord.Error{Status: http.StatusForbidden, Code: discordgo.ErrCodeMissingAccess, Message: "Missing Access"},
		Where: map[string]string{"channel": thread, "message": board.ID}, Times: -1,
	})
	confirm := w.click(w.bob, board, "resign")
	if !confirm.Ephemeral() {
		t.Fatalf("Resign asks no confirmation: %+v", confirm)
	}
	w.click(w.bob, confirm, "resignok")
	end := w.waitMessage(thread, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "White wins: Black resigned") })
	if !onlyRematch(end) {
		t.Errorf("the final board has buttons %v", end.Buttons())
	}
	got := w.click(w.alice, board, "draw")
	if !got.Ephemeral() || !strings.Contains(got.Content, "This game is over") {
		t.Errorf("a draw offer from the old board is answered %q", got.Content)
	}
	// A new game in the same channel is not touched by the old board.
	got = w.click(w.bob, board, "abort")
	if !got.Ephemeral() {
		t.Errorf("an abort from the old board is answered publicly: %q", got.Content)
	}
}

func TestWithoutThreadsTheGameIsPlayedInTheChannel(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	where, board := w.challengeAccepted(w.nothreads, w.alice, w.bob)
	if where != w.nothreads.ID {
		t.Fatalf("the game went to %s", where)
	}
	m := w.srv.Messages(w.nothreads.ID)
	if !strings.Contains(m[0].Content, "I may not open threads here") {
		t.Errorf("the challenge message does not say why the game is here: %q", m[0].Content)
	}
	got := w.command(w.alice, w.nothreads.ID, "move", fakediscord.StringOption("move", "Nxf3"))
	if got.Ephemeral() {
		t.Errorf("a move in the channel is refused: %q", got.Content)
	}
	_ = board
	// A second game cannot start here while this one goes on.
	ch := w.command(w.carol, w.nothreads.ID, "challenge", fakediscord.UserOption("opponent", w.dan.ID))
	w.click(w.dan, ch, "accept")
	refusal, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindFollowup && c.Message.Ephemeral()
	})
	if err != nil || !strings.Contains(refusal.Message.Content, "already going on in this channel") {
		t.Errorf("a second game in the channel: %q, %v", refusal.Message.Content, err)
	}
}

func TestAPublicPostInTheServersLanguage(t *testing.T) {
	w := newWorld(t, memstore.New(), "fr")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	if !strings.Contains(board.Content, "La partie commence") {
		t.Errorf("a French server's first board says %q", board.Content)
	}
	got := w.command(w.carol, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if !strings.Contains(got.Content, "Вы не играете в этой партии") {
		t.Errorf("Carol's private answer is %q, want Russian", got.Content)
	}
}

func TestMoveAutocompleteOffersTheMoversLegalMoves(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	id := w.srv.Autocomplete(w.alice.ID, thread, "move", fakediscord.Focused("move", "Nx"))
	c, err := w.srv.WaitResponse(w.ctx(), id)
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	var names []string
	for _, ch := range c.Choices {
		names = append(names, ch.Name)
	}
	if len(names) != 4 || !strings.Contains(strings.Join(names, " "), "Nxf3") {
		t.Errorf("Nx completes to %v", names)
	}
	id = w.srv.Autocomplete(w.bob.ID, thread, "move", fakediscord.Focused("move", ""))
	if c, _ := w.srv.WaitResponse(w.ctx(), id); len(c.Choices) != 0 || c.Err != nil {
		t.Errorf("the player not to move is offered %d moves (%v)", len(c.Choices), c.Err)
	}
}

// An autocomplete with nothing to suggest answers an empty list, which
// Discord takes; without the list it answers 400 and the user sees "This
// interaction failed".
func TestAnEmptyAutocompleteIsAccepted(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	for _, tc := range []struct {
		name, channel, typed string
		user                 fakediscord.User
	}{
		{"/move outside a game", w.chess.ID, "e4", w.alice},
		{"a prefix no move has", thread, "zzz", w.alice},
		{"the player not to move", thread, "N", w.bob},
		{"one who does not play", thread, "", w.carol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := w.srv.Autocomplete(tc.user.ID, tc.channel, "move", fakediscord.Focused("move", tc.typed))
			c, err := w.srv.WaitResponse(w.ctx(), id)
			if err != nil || c.Err != nil || len(c.Choices) != 0 {
				t.Fatalf("answered %d choices: %v, %v; want an empty list that Discord takes", len(c.Choices), err, c.Err)
			}
			if !strings.Contains(string(c.JSON), `"choices":[]`) {
				t.Errorf("the answer %s has no empty list of choices", c.JSON)
			}
		})
	}
}

// TestMoveAutocompleteReadsEveryNotation: what the player types in any
// notation the parser reads is completed, castling as 0-0 included.
func TestMoveAutocompleteReadsEveryNotation(t *testing.T) {
	mem := memstore.New()
	w := newWorld(t, mem, "en-US")
	svc := play.New(mem, play.Options{})
	_, err := svc.Start(w.ctx(), play.NewGame{Guild: w.guild.ID, Channel: w.chess.ID, White: play.Seat{ID: w.alice.ID}, Black: play.Seat{ID: w.bob.ID},
		StartFEN: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", At: w.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typed string
		want  []string // the first choices
	}{
		{"0-0", []string{"O-O", "O-O-O"}},
		{"o-o-o", []string{"O-O-O"}},
		{"O-O", []string{"O-O", "O-O-O"}},
		{"e1g1", []string{"O-O"}},
		{"rxa8", []string{"Rxa8+"}},
		{"a1-a", []string{"Rxa8+", "Ra2", "Ra3"}},
		{"", []string{"Rxa8+", "Rxh8+", "Kd1", "Kd2"}}, // checks, then by SAN
	} {
		id := w.srv.Autocomplete(w.alice.ID, w.chess.ID, "move", fakediscord.Focused("move", tc.typed))
		c, err := w.srv.WaitResponse(w.ctx(), id)
		if err != nil || c.Err != nil {
			t.Fatal(err, c.Err)
		}
		var names []string
		for _, ch := range c.Choices {
			if ch.Name != ch.Value {
				t.Errorf("%q: the choice %q sends %q", tc.typed, ch.Name, ch.Value)
			}
			names = append(names, ch.Name)
		}
		if len(names) < len(tc.want) || !slices.Equal(names[:len(tc.want)], tc.want) {
			t.Errorf("%q completes to %q, want %q first", tc.typed, names, tc.want)
		}
	}
	got := w.command(w.alice, w.chess.ID, "move", fakediscord.StringOption("move", "O-O"))
	if got.Ephemeral() {
		t.Errorf("the completed O-O is refused: %q", got.Content)
	}
}

func TestARestartResumesTheGameFromBboltAndItsButtons(t *testing.T) {
	w := newWorld(t, nil, "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	after := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	w.restart()
	offer := w.click(w.bob, after, "draw")
	if offer.Ephemeral() || !strings.Contains(offer.Content, "offers a draw") {
		t.Fatalf("after a restart, Offer draw on the last board gives %q", offer.Content)
	}
	got := w.click(w.alice, offer, "dno")
	if !strings.Contains(got.Content, "declined the draw") {
		t.Errorf("declining: %q", got.Content)
	}
	got = w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	if got.Ephemeral() {
		t.Errorf("a move after the restart is refused: %q", got.Content)
	}
}

func TestAPanickingHandlerIsAnsweredPolitely(t *testing.T) {
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	u := srv.AddUser(fakediscord.User{Username: "eve", Locale: "es-ES"})
	// A bot without its play core panics on the first command that needs it.
	b, err := bot.New(bot.Config{Token: srv.Token(), Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Session().Dialer = fakediscord.Dialer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() { cancel(); <-done }()
	<-b.Ready()
	id := srv.Command(u.ID, ch.ID, "board")
	c, err := srv.WaitResponse(ctx, id)
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	if !c.Message.Ephemeral() || !strings.Contains(c.Message.Content, "Lo siento") {
		t.Errorf("a panic is answered %q", c.Message.Content)
	}
	// The dispatcher counts the failure once it has answered.
	for deadline := time.Now().Add(patience(5 * time.Second)); b.Metrics.Failures.Load() != 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := b.Metrics.Failures.Load(); n != 1 {
		t.Errorf("%d failures counted, want 1", n)
	}
}
