package bot_test

import (
	"context"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/tui"
)

// The terminal and the bot say the same events in the same words: each
// writes the players its own way (a mention, a name), and the rest is
// one sentence from i18n.
func TestTheTerminalSaysWhatTheBotSays(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	names := strings.NewReplacer("<@"+w.alice.ID+">", "Alice (White)", "<@"+w.bob.ID+">", "Bob (Black)", "**", "")
	said := func(m fakediscord.Message) string {
		first, _, _ := strings.Cut(m.Content, "\n")
		return names.Replace(first)
	}
	var bot []string
	offer := w.command(w.alice, thread, "draw")
	bot = append(bot, said(offer), said(w.click(w.bob, offer, "dno")))
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	ask := w.command(w.bob, thread, "takeback")
	bot = append(bot, said(ask), said(w.click(w.alice, ask, "tyes")))
	// Bob offers a draw again and plays on: his offer lapses. The
	// terminal asks for an answer first, so only the bot says this.
	w.command(w.bob, thread, "draw")
	board := w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	if !strings.Contains(board.Content, "<@"+w.bob.ID+">'s draw offer lapsed with the move.") {
		t.Errorf("the board after a move that made an offer lapse says %q", board.Content)
	}

	s, err := tui.NewSession(context.Background(), play.New(memstore.New(), play.Options{}),
		tui.Options{White: "Alice", Black: "Bob", Now: w.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	var terminal []string
	for _, line := range []string{"draw", "no", "hxg3", "Nxf6", "takeback", "takeback"} {
		for _, n := range s.Do(line).Notes {
			if n.Kind == tui.Asked || n.Kind == tui.Info {
				terminal = append(terminal, n.Text)
			}
		}
	}
	if len(terminal) != 4 {
		t.Fatalf("the terminal said %q; want an offer, its refusal, a request and its grant", terminal)
	}
	if strings.Join(terminal, "\n") != strings.Join(bot, "\n") {
		t.Fatalf("the terminal says\n\t%s\nthe bot\n\t%s", strings.Join(terminal, "\n\t"), strings.Join(bot, "\n\t"))
	}
}
