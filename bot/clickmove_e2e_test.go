package bot_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// menu finds a message's one select menu.
func menu(t testing.TB, m fakediscord.Message) discordgo.SelectMenu {
	t.Helper()
	ms := m.Menus()
	if len(ms) != 1 {
		t.Fatalf("message %q has %d menus", m.Content, len(ms))
	}
	return ms[0]
}

// option finds a menu's option by its label.
func option(t testing.TB, sm discordgo.SelectMenu, label string) discordgo.SelectMenuOption {
	t.Helper()
	var labels []string
	for _, o := range sm.Options {
		if o.Label == label {
			return o
		}
		labels = append(labels, o.Label)
	}
	t.Fatalf("menu %s has no option %q: %q", sm.CustomID, label, labels)
	return discordgo.SelectMenuOption{}
}

// clickMove plays a move in two clicks from a board: the man in the
// board's menu (its label as the board shows it), then the move by its
// SAN in the private answer. It returns the board the move posted.
func (w *world) clickMove(by fakediscord.User, board fakediscord.Message, man, san string) fakediscord.Message {
	w.t.Helper()
	moves := w.pickMan(by, board, man)
	if !moves.Ephemeral() {
		w.t.Fatalf("the moves of %s are public: %q", man, moves.Content)
	}
	mm := menu(w.t, moves)
	played := w.answer(w.srv.Select(by.ID, moves.ID, mm.CustomID, option(w.t, mm, san).Value))
	if played.Ephemeral() || len(played.Files) == 0 {
		w.t.Fatalf("%s by %s answered %q (ephemeral %v)", san, by.Username, played.Content, played.Ephemeral())
	}
	return played
}

// pickMan chooses a man in the menu of a board, or of a menu of men.
func (w *world) pickMan(by fakediscord.User, board fakediscord.Message, man string) fakediscord.Message {
	w.t.Helper()
	sm := menu(w.t, board)
	return w.answer(w.srv.Select(by.ID, board.ID, sm.CustomID, option(w.t, sm, man).Value))
}

func TestFirstMovesPlayedOnlyByClicking(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)

	// The board offers the men that can move, and keeps its buttons.
	sm := menu(t, board)
	if len(sm.Options) == 0 || sm.Options[0].Label != "♘ Knight b1" || !strings.HasPrefix(sm.CustomID, "mv:man:") {
		t.Errorf("the board's men start with %+v (menu %s)", sm.Options[:1], sm.CustomID)
	}
	for _, verb := range []string{"resign", "draw", "flip"} {
		button(t, board, verb)
	}
	// The first board of a first game says how to move.
	if !strings.Contains(board.Content, "menu under the board") {
		t.Errorf("the first board does not say how to move: %q", board.Content)
	}

	// A stranger's click is refused, privately, and changes nothing.
	got := w.pickMan(w.carol, board, "♘ Knight g1")
	if !got.Ephemeral() || len(got.Menus()) != 0 || len(got.Files) != 0 {
		t.Fatalf("Carol's choice of a man was answered %q with menus %v", got.Content, got.Menus())
	}
	// So is the opponent's, who is not to move.
	got = w.pickMan(w.bob, board, "♘ Knight g1")
	if !got.Ephemeral() || !strings.Contains(got.Content, "<@"+w.alice.ID+">") {
		t.Fatalf("Bob's choice out of turn was answered %q", got.Content)
	}

	// One click: the knight's moves, privately.
	knight := option(t, sm, "♘ Knight g1")
	moves := w.pickMan(w.alice, board, "♘ Knight g1")
	if !moves.Ephemeral() {
		t.Fatalf("the knight's moves are public: %q", moves.Content)
	}
	mm := menu(t, moves)
	var labels []string
	for _, o := range mm.Options {
		labels = append(labels, o.Label)
	}
	if strings.Join(labels, " ") != "Nxf3 Nxh3" {
		t.Errorf("the knight's moves are %q, want its two captures of ice", labels)
	}
	// Two moves: the board with the knight's targets, and a preview of
	// each move, each described.
	if len(moves.Files) != 3 || len(moves.Embeds) != 3 || moves.Embeds[1].Title != "Nxf3" {
		t.Errorf("the moves come with files %d and embeds %+v", len(moves.Files), moves.Embeds)
	}
	for _, f := range moves.Files {
		if f.Description == "" {
			t.Errorf("%s has no description", f.Name)
		}
	}
	writeShot(t, "clickmove-menu.png", moves.Files[0].Data)
	writeShot(t, "clickmove-preview.png", moves.Files[1].Data)

	// "Another man" turns the answer to the men, without the board.
	back := w.click(w.alice, moves, "mv")
	if len(back.Files) != 0 || len(back.Embeds) != 0 || menu(t, back).CustomID != sm.CustomID || back.ID != moves.ID {
		t.Errorf("Another man shows files %d, embeds %d, menu %s (message %s, was %s)", len(back.Files), len(back.Embeds), menu(t, back).CustomID, back.ID, moves.ID)
	}
	moves = w.answer(w.srv.Select(w.alice.ID, back.ID, sm.CustomID, knight.Value))
	mm = menu(t, moves)
	// Carol cannot use Alice's menu either.
	id := w.srv.Select(w.carol.ID, moves.ID, mm.CustomID, option(t, mm, "Nxf3").Value)
	if refusal := w.answer(id); !refusal.Ephemeral() {
		t.Fatalf("Carol's choice in Alice's menu was answered in public: %q", refusal.Content)
	}

	// The second click plays the move, as /move does. Its board takes the
	// menu off the first soon after it is posted, racing the clicks on
	// the first below; a stale menu is one that outlived it: here Discord
	// refuses the edit, as for a permission lost.
	w.srv.Refuse(fakediscord.RouteMessageEdit, fakediscord.Refusal{
		Err:   &fakediscord.Error{Status: http.StatusForbidden, Code: discordgo.ErrCodeMissingAccess, Message: "Missing Access"},
		Where: map[string]string{"channel": thread, "message": board.ID}, Times: -1,
	})
	played := w.answer(w.srv.Select(w.alice.ID, moves.ID, mm.CustomID, option(t, mm, "Nxf3").Value))
	if !strings.Contains(played.Content, "**Nxf3**") || played.Ephemeral() {
		t.Fatalf("the move's board says %q", played.Content)
	}
	if strings.Contains(played.Content, "menu under the board") {
		t.Errorf("the second board still says how to move: %q", played.Content)
	}
	// The menu of an older board is stale now.
	stale := w.answer(w.srv.Select(w.alice.ID, moves.ID, mm.CustomID, option(t, mm, "Nxh3").Value))
	if !stale.Ephemeral() {
		t.Fatalf("a choice in a stale menu was answered in public: %q", stale.Content)
	}
	stale = w.pickMan(w.alice, board, "♘ Knight b1")
	if !stale.Ephemeral() || len(stale.Menus()) != 0 {
		t.Fatalf("a choice on an older board was answered %q with menus %v", stale.Content, stale.Menus())
	}
	// Bob, in French, answers by clicking: the board is the server's,
	// his answer his own.
	moves = w.pickMan(w.bob, played, "♞ Knight g8")
	if !strings.Contains(moves.Content, "Coups de la pièce") {
		t.Errorf("Bob's moves are not in French: %q", moves.Content)
	}
	played = w.clickMove(w.bob, played, "♞ Knight g8", "Nxf6")
	played = w.clickMove(w.alice, played, "♙ Pawn h2", "hxg3")
	writeShot(t, "clickmove-board.png", played.Files[0].Data)
	g, err := play.New(w.st, play.Options{}).GameIn(context.Background(), thread)
	if err != nil {
		t.Fatal(err)
	}
	var ucis []string
	for _, m := range g.Moves {
		ucis = append(ucis, m.UCI)
	}
	if strings.Join(ucis, " ") != "g1f3 g8f6 h2g3" {
		t.Errorf("the game holds %v", ucis)
	}
}

// Sixteen men that can move fit one menu, each with its count of moves.
func TestSixteenMenThatCanMoveFitTheBoardsMenu(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.gameFrom("4k3/8/8/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1")
	board := w.command(w.alice, w.chess.ID, "board")
	sm := menu(t, board)
	if len(sm.Options) != 16 || sm.Options[0].Label != "♔ King e1" || sm.Options[15].Label != "♙ Pawn h3" {
		var labels []string
		for _, o := range sm.Options {
			labels = append(labels, o.Label)
		}
		t.Fatalf("the board offers %d men: %q", len(sm.Options), labels)
	}
	if d := option(t, sm, "♕ Queen d1").Description; d != "3 moves" {
		t.Errorf("the queen's option says %q", d)
	}
	played := w.clickMove(w.alice, board, "♖ Rook a1", "Ra2")
	if len(played.Components) > 5 || len(menu(t, played).Options) == 0 {
		t.Errorf("the board after Ra2 has %d rows", len(played.Components))
	}
}

// writeShot keeps a picture the bot sent for a person to look at, when
// ICEAGE_SHOTS names a folder.
func writeShot(t *testing.T, name string, data []byte) {
	dir := os.Getenv("ICEAGE_SHOTS")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Error(err)
	}
}

// gameFrom starts a game in #chess from fen, Alice White and Bob Black,
// three days a move, as a test sets up the position it is about.
func (w *world) gameFrom(fen string) {
	w.t.Helper()
	_, err := play.New(w.st, play.Options{}).Start(context.Background(), play.NewGame{Guild: w.guild.ID, Channel: w.chess.ID,
		White: play.Seat{ID: w.alice.ID, Name: "Alice"}, Black: play.Seat{ID: w.bob.ID, Name: "Bob"},
		StartFEN: fen, DaysPerMove: 3, At: w.clock.Now()})
	if err != nil {
		w.t.Fatal(err)
	}
}

// onlyRematch reports whether a finished game's board has the Rematch
// button and no other.
func onlyRematch(m fakediscord.Message) bool {
	bs := m.Buttons()
	return len(bs) == 1 && strings.HasPrefix(bs[0].CustomID, "g:rematch:")
}

// A queen in the open has 26 moves: more than a menu takes, so they come
// in two pages.
func TestAManWithManyMovesPagesThem(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	w.gameFrom("1k6/8/8/3Q4/8/8/8/7K w - - 0 40")
	board := w.command(w.alice, w.chess.ID, "board")
	first := w.pickMan(w.alice, board, "♕ Queen d5")
	if n := len(menu(t, first).Options); n != 25 {
		t.Fatalf("the first page has %d moves", n)
	}
	if got := menu(t, first).Options[0].Label; !strings.HasSuffix(got, "+") {
		t.Errorf("the first move offered is %s, not a check", got)
	}
	var nextID string
	for _, b := range first.Buttons() {
		if strings.HasPrefix(b.CustomID, "mv:page:") && !b.Disabled {
			nextID = b.CustomID
		}
	}
	if nextID == "" {
		t.Fatalf("no page to turn to: %v", first.Buttons())
	}
	second := w.answer(w.srv.Click(w.alice.ID, first.ID, nextID))
	// 26 moves: the own king on h1 stops the long diagonal at g2.
	if n := len(menu(t, second).Options); n != 1 {
		t.Fatalf("the second page has %d moves, want the last of 26", n)
	}
	played := w.answer(w.srv.Select(w.alice.ID, second.ID, menu(t, second).CustomID, menu(t, second).Options[0].Value))
	if played.Ephemeral() || len(played.Files) == 0 {
		t.Fatalf("a move from the second page was answered %q", played.Content)
	}
}
