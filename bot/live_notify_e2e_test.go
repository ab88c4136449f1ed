package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// TestALiveGamePingsNobodyPerMove: in a blitz game the players are
// watching, so its moves ping nobody and DM nobody, whatever they chose;
// its start and its flag are told as ever, and a correspondence game
// still DMs who asked for it on every move.
func TestALiveGamePingsNobodyPerMove(t *testing.T) {
	w := newCorrWorld(t, memstore.New(), play.Options{})
	if m := w.command(w.bob, w.chess.ID, "settings", fakediscord.StringOption("notifications", "dm")); !m.Ephemeral() {
		t.Fatalf("/settings answered in public: %q", m.Content)
	}
	dms := func() []fakediscord.Message {
		var out []fakediscord.Message
		dm := w.srv.DMChannel(w.bob.ID)
		for _, c := range w.srv.Calls() {
			if c.Kind == fakediscord.KindMessage && c.Message.ChannelID == dm.ID && c.Err == nil {
				out = append(out, c.Message)
			}
		}
		return out
	}
	boards := func(channel string) []fakediscord.Call {
		var out []fakediscord.Call
		for _, c := range w.srv.Calls() {
			if (c.Kind == fakediscord.KindMessage || c.Kind == fakediscord.KindResponse) && c.Err == nil && c.Message.ChannelID == channel && len(c.Message.Files) > 0 {
				out = append(out, c)
			}
		}
		return out
	}

	// The start pings Alice, who moves first.
	live, _ := w.liveChallengeAccepted(w.alice, w.bob, "3+2")
	if b := boards(live); len(b) != 1 || !slices.Contains(pinged(t, b[0]), w.alice.ID) {
		t.Fatalf("the live game's first board %v does not ping Alice", b)
	}
	for i, mv := range []struct {
		by  fakediscord.User
		san string
	}{{w.alice, "hxg3"}, {w.bob, "Nxf6"}, {w.alice, "Nxf3"}} {
		if m := w.command(mv.by, live, "move", fakediscord.StringOption("move", mv.san)); m.Ephemeral() {
			t.Fatalf("move %d, %s: %q", i+1, mv.san, m.Content)
		}
	}
	for _, b := range boards(live)[1:] {
		if p := pinged(t, b); len(p) > 0 {
			t.Errorf("a move's board in the live game pings %v", p)
		}
	}

	// A correspondence game DMs Bob his move, as he asked; by then the
	// live game's moves, delivered before, sent him nothing.
	corr, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.command(w.alice, corr, "move", fakediscord.StringOption("move", "hxg3"))
	dm := w.waitMessage(w.srv.DMChannel(w.bob.ID).ID, func(fakediscord.Message) bool { return true })
	if !strings.Contains(dm.Content, corr) {
		t.Fatalf("Bob's DM is not of the correspondence game: %q", dm.Content)
	}
	for _, m := range dms() {
		if strings.Contains(m.Content, live) {
			t.Errorf("Bob was sent a DM of the live game: %q", m.Content)
		}
	}
	if got := len(dms()); got != 1 {
		t.Errorf("Bob got %d DMs, want the correspondence game's move alone", got)
	}

	// Alice's flag falls: the announcement pings both.
	g := w.gameIn(live)
	w.clk.Set(g.Deadline)
	post := w.posted(live, "ran out of time")
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindMessage && c.Message.ID == post.Message.ID {
			if p := pinged(t, c); !slices.Contains(p, w.alice.ID) || !slices.Contains(p, w.bob.ID) {
				t.Errorf("the flag's announcement pings %v, want both players", p)
			}
			return
		}
	}
	t.Fatal(fmt.Sprint("the flag's announcement was not found: ", post.Message.ID))
}
