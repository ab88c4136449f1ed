package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
)

// launches records the Play here clicks the bot reports.
type launches struct {
	mu   sync.Mutex
	seen []string
}

func (l *launches) note(user, channel string, game uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, fmt.Sprint(user, " ", channel, " ", game))
}

func (l *launches) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen)
}

// entryPoints are the Entry Point commands of the bot's last global
// overwrite.
func entryPoints(w *world) []string {
	var names []string
	for _, c := range w.srv.Calls() {
		if c.Kind != fakediscord.KindCommands || c.GuildID != "" || c.Err != nil {
			continue
		}
		names = names[:0]
		for _, cmd := range c.Commands {
			if cmd.Type == fakediscord.EntryPointCommand {
				names = append(names, cmd.Name)
			}
		}
	}
	return names
}

func TestPlayHereLaunchesTheActivity(t *testing.T) {
	w := newWorld(t, nil, "en-US")
	w.srv.EnableActivities()
	var l launches
	w.activity = bot.ActivityConfig{Enabled: true, Launched: l.note}
	w.restart()

	// The Entry Point command replaced Discord's default one, and Discord
	// launches the Activity from it without asking the bot.
	if got := entryPoints(w); !slices.Equal(got, []string{"play"}) || w.srv.EntryPointHandler() != fakediscord.HandlerDiscordLaunchActivity {
		t.Errorf("entry points %v, handler %d; want [play], 2", got, w.srv.EntryPointHandler())
	}

	where, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	here := button(t, board, "here")
	if !strings.Contains(here.Label, "Play here") {
		t.Errorf("the button reads %q", here.Label)
	}
	// A spectator launches it too: they watch there.
	id := w.srv.Click(w.carol.ID, board.ID, here.CustomID)
	c, err := w.srv.WaitResponse(w.ctx(), id)
	if err != nil || c.Err != nil || c.ResponseType != fakediscord.ResponseLaunchActivity {
		t.Fatalf("Play here answered %+v, %v; want LAUNCH_ACTIVITY", c, err)
	}
	in, ok := w.srv.ActivityIn(where)
	if !ok || c.Instance != in.ID || !slices.Equal(in.Users, []string{w.carol.ID}) {
		t.Errorf("instance %+v (%v), call's %q", in, ok, c.Instance)
	}
	g, err := w.bot.Round().Service().GameIn(w.ctx(), where)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.all(); !slices.Equal(got, []string{fmt.Sprint(w.carol.ID, " ", where, " ", g.ID)}) {
		t.Errorf("launches heard %v", got)
	}
	// The board after a move has the button too.
	button(t, w.command(w.alice, where, "move", fakediscord.StringOption("move", "hxg3")), "here")
}

func TestWithoutTheActivityDiscordsEntryPointIsKept(t *testing.T) {
	w := newWorld(t, nil, "en-US")
	w.srv.EnableActivities() // Discord's default Entry Point appears
	// Commands in a development server empty the global set, all but the
	// Entry Point, which a bulk overwrite may not drop.
	w.guildIDs = []string{w.guild.ID}
	w.restart()
	if got := entryPoints(w); !slices.Equal(got, []string{"launch"}) {
		t.Errorf("entry points %v, want Discord's [launch] kept", got)
	}
	_, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	for _, b := range board.Buttons() {
		if strings.Contains(b.CustomID, ":here:") {
			t.Errorf("a Play here button without an Activity: %+v", b)
		}
	}
}
