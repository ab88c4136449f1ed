package activity_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/play"
)

// TestTheActivityFindsTheGameOfItsChannelsThread: Alice challenged Bob
// with /challenge in #chess, and Bob accepted: their game is played in a
// thread of #chess. Alice opens the Activity in #chess, where she
// challenged, and finds her game there, White, and plays her move from
// it; Carol, who plays no game, finds the lobby, which lists the game of
// the thread in her language, and watches it, live.
func TestTheActivityFindsTheGameOfItsChannelsThread(t *testing.T) {
	browser := browsertest.New(t, 1000, 900)
	x := newLive(t)
	if _, err := x.svc.SetPrefs(context.Background(), x.carol.ID, play.Prefs{Language: "ru"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	in := x.srv.LaunchActivity(x.chess.ID, x.alice.ID, x.carol.ID)
	alice := x.open(t, browser, in, x.alice)
	if got := eval[string](t, alice, `act().getElementById("activity").dataset.game`); got != fmt.Sprint(x.game.ID) {
		t.Fatalf("Alice's Activity in #chess shows game %s, want hers, %d, of the thread", got, x.game.ID)
	}
	if got := eval[string](t, alice, `act().getElementById("activity").dataset.color`); got != "w" {
		t.Errorf("Alice plays %q in her window, want White", got)
	}

	carol := x.openLobby(t, browser, in, x.carol)
	x.wait(t, carol, `!act().getElementById("games-box").hidden`)
	if got := eval[string](t, carol, `act().getElementById("games").textContent`); !strings.Contains(got, "Alice — Bob") || !strings.Contains(got, "Смотреть") {
		t.Errorf("Carol's lobby lists %q, want Alice — Bob to watch, in Russian", got)
	}
	// The time controls' speeds read without the comma Russian puts
	// before them in a sentence ("5+3, блиц").
	if got := eval[string](t, carol, `[...act().querySelectorAll(".times small")].map(s => s.textContent).join("|")`); !strings.HasPrefix(got, "пуля|блиц|блиц|рапид|рапид|") {
		t.Errorf("Carol's time controls read %q", got)
	}
	shoot(t, carol, "activity-thread-games-phone.png", 400, 860)
	press(t, carol, "#games .game button")
	x.wait(t, carol, fmt.Sprintf(`act().getElementById("activity").dataset.game === "%d" && act().querySelector("#board svg") !== null && act().getElementById("lobby").hidden`, x.game.ID))
	if got := eval[string](t, carol, `act().getElementById("activity").dataset.color`); got != "" {
		t.Errorf("Carol watches as %q, want as a spectator", got)
	}

	// Alice moves in her window: the game of the thread has it, and
	// Carol's window shows it.
	rev := eval[int](t, alice, revJS)
	m := x.legal(t, game.White)
	drag(t, alice, m[:2], m[2:4])
	for _, tab := range []context.Context{alice, carol} {
		x.wait(t, tab, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	}
	if g, _ := x.svc.Game(context.Background(), x.game.ID); len(g.Moves) != 1 || g.Moves[0].UCI != m[:4] {
		t.Fatalf("the game's moves %+v, want %s", g.Moves, m[:4])
	}
}
