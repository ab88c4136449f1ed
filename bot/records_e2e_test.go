package bot_test

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// A rated game played to its end through Discord shows on the server's
// leaderboard, in the players' statistics with a rating chart, in the
// variant's statistics, and exports as PGN.
func TestResultsOfARatedGameThroughDiscord(t *testing.T) {
	w := newWorld(t, nil, "en-US")
	ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID), fakediscord.BoolOption("rated", true))
	w.click(w.bob, ch, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread })
	if err != nil {
		t.Fatal(err)
	}
	thread := c.Channel.ID
	w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	last := w.playAlternately(thread, w.alice, w.bob, referenceGame(t, "checkmate", 37))
	if !strings.Contains(last.Content, "White wins by checkmate") {
		t.Fatalf("the game ended %q", last.Content)
	}

	board := w.command(w.dan, w.chess.ID, "leaderboard")
	text := board.Content
	for _, e := range board.Embeds {
		text += e.Title + e.Description
		for _, f := range e.Fields {
			text += f.Name + f.Value
		}
	}
	if !strings.Contains(text, "Alice") || !strings.Contains(text, "Bob") || strings.Index(text, "Alice") > strings.Index(text, "Bob") {
		t.Errorf("the leaderboard does not rank the winner first:\n%s", text)
	}

	stats := w.command(w.alice, w.chess.ID, "stats")
	if len(stats.Files) == 0 || stats.Files[0].Description == "" {
		t.Errorf("/stats has no rating chart with alt text: %+v", stats.Files)
	} else {
		isPNG(t, stats.Files[0])
	}

	variant := w.command(w.bob, w.chess.ID, "variantstats")
	if variant.Ephemeral() || len(variant.Embeds) == 0 {
		t.Errorf("/variantstats: %+v", variant)
	}

	pgn := w.command(w.bob, thread, "pgn")
	if len(pgn.Files) == 0 || !strings.HasSuffix(pgn.Files[0].Name, ".pgn") ||
		!strings.Contains(string(pgn.Files[0].Data), `[Variant "Ice Age"]`) || !strings.Contains(string(pgn.Files[0].Data), `[Result "1-0"]`) {
		t.Errorf("/pgn in the game's thread: %+v", pgn.Files)
	}
}
