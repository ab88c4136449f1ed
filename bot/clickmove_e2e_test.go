package bot_test

import (
	"context"
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

// clickMove plays a move by clicking only: Move under board, the man,
// then the move by its SAN. It returns the board the move posted.
func (w *world) clickMove(by fakediscord.User, board fakediscord.Message, man, san string) fakediscord.Message {
	w.t.Helper()
	men := w.click(by, board, "mv")
	if !men.Ephemeral() {
		w.t.Fatalf("the men's menu is public: %q", men.Content)
	}
	sm := menu(w.t, men)
	moves := w.answer(w.srv.Select(by.ID, men.ID, sm.CustomID, option(w.t, sm, man).Value))
	mm := menu(w.t, moves)
	played := w.answer(w.srv.Select(by.ID, moves.ID, mm.CustomID, option(w.t, mm, san).Value))
	if played.Ephemeral() || len(played.Files) == 0 {
		w.t.Fatalf("%s by %s answered %q (ephemeral %v)", san, by.Username, played.Content, played.Ephemeral())
	}
	return played
}

func TestFirstMovesPlayedOnlyByClicking(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)

	// A stranger's click is refused, privately, and changes nothing.
	got := w.click(w.carol, board, "mv")
	if !got.Ephemeral() || len(got.Menus()) != 0 {
		t.Fatalf("Carol's click on Move was answered %q with menus %v", got.Content, got.Menus())
	}
	// So is the opponent's, who is not to move.
	got = w.click(w.bob, board, "mv")
	if !got.Ephemeral() || !strings.Contains(got.Content, "<@"+w.alice.ID+">") {
		t.Fatalf("Bob's click out of turn was answered %q", got.Content)
	}

	men := w.click(w.alice, board, "mv")
	sm := menu(t, men)
	if len(sm.Options) == 0 || sm.Options[0].Label != "♘ Knight b1" {
		t.Errorf("the men start with %+v", sm.Options[:1])
	}
	knight := option(t, sm, "♘ Knight g1")
	moves := w.answer(w.srv.Select(w.alice.ID, men.ID, sm.CustomID, knight.Value))
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

	// "Another man" turns the menu back to the men, without the board.
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

	played := w.answer(w.srv.Select(w.alice.ID, moves.ID, mm.CustomID, option(t, mm, "Nxf3").Value))
	if !strings.Contains(played.Content, "**Nxf3**") {
		t.Fatalf("the move's board says %q", played.Content)
	}
	// The menu of an older board is stale now.
	stale := w.answer(w.srv.Select(w.alice.ID, moves.ID, mm.CustomID, option(t, mm, "Nxh3").Value))
	if !stale.Ephemeral() {
		t.Fatalf("a choice in a stale menu was answered in public: %q", stale.Content)
	}
	// Bob, in French, answers by clicking.
	men = w.click(w.bob, played, "mv")
	if !strings.Contains(men.Content, "Quelle pièce") {
		t.Errorf("Bob's menu is not in French: %q", men.Content)
	}
	played = w.clickMove(w.bob, played, "♞ Cavalier g8", "Nxf6")
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
	svc := play.New(w.st, play.Options{})
	_, err := svc.Start(context.Background(), play.NewGame{Guild: w.guild.ID, Channel: w.chess.ID,
		White: play.Seat{ID: w.alice.ID, Name: "Alice"}, Black: play.Seat{ID: w.bob.ID, Name: "Bob"},
		StartFEN: "1k6/8/8/3Q4/8/8/8/7K w - - 0 40", DaysPerMove: 3, At: w.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	board := w.command(w.alice, w.chess.ID, "board")
	men := w.click(w.alice, board, "mv")
	sm := menu(t, men)
	first := w.answer(w.srv.Select(w.alice.ID, men.ID, sm.CustomID, option(t, sm, "♕ Queen d5").Value))
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
