package activity_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// openLobby opens the Activity of instance in a new tab as u, where no
// game goes on: it shows the lobby. before is done in the tab first.
func (x *live) openLobby(t *testing.T, browser context.Context, in fakediscord.Instance, u fakediscord.User, before ...chromedp.Action[chromedp.Void]) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	q := url.Values{"code": {x.srv.Authorize(u.ID)}, "instance": {in.ID}, "guild": {in.GuildID}, "channel": {in.ChannelID}}
	actions := append(before, watchCSP(t, tab), chromedp.Navigate(x.site.URL+"/test/parent?"+q.Encode()))
	if err := chromedp.Do(tab, actions...); err != nil {
		t.Fatal(err)
	}
	x.wait(t, tab, `!act().getElementById("lobby").hidden && act().getElementById("game").hidden`)
	return tab
}

// press clicks the Activity's element that selector names.
func press(t *testing.T, tab context.Context, selector string) {
	t.Helper()
	if ok := eval[bool](t, tab, `(() => { const b = act().querySelector(`+jsString(selector)+`); if (!b || b.disabled) return false; b.click(); return true; })()`); !ok {
		t.Fatalf("no %s to press; the Activity reads %q", selector, eval[string](t, tab, `act().body.innerText`))
	}
}

func jsString(s string) string { return fmt.Sprintf("%q", s) }

// legalIn is a legal move of c's in game id, not a promotion, in UCI.
func (x *live) legalIn(t *testing.T, id uint64, c game.Color) string {
	t.Helper()
	saved := x.game
	x.game.ID = id
	defer func() { x.game = saved }()
	return x.legal(t, c)
}

// shoot saves the window of tab at a width, when ICEAGE_SCREENSHOTS
// names a folder.
func shoot(t *testing.T, tab context.Context, name string, w, h int64) {
	t.Helper()
	dir := os.Getenv("ICEAGE_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(w, h), chromedp.Sleep(400*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1000, 900)); err != nil {
		t.Fatal(err)
	}
}

// TestTheLobbyInABrowser: in a channel where no game goes on, Alice and
// Bob open the Activity and see its lobby. A bad time control is
// refused. Alice challenges Bob to 1+0: the challenge is posted in the
// channel through the fake Discord, with its buttons, and Bob, whose
// Activity speaks French, accepts it in his window: both windows show
// the board with both clocks, and a move appears in both. When the game
// ends, Rematch swaps the colours.
func TestTheLobbyInABrowser(t *testing.T) {
	browser := browsertest.New(t, 1000, 900)
	x := newLive(t)
	// A channel where no game goes on: #chess has Alice and Bob's in
	// a thread, which the Activity there would show them.
	room := x.srv.AddChannel(fakediscord.Channel{GuildID: x.guild.ID, Name: "lobby"})
	ctx := context.Background()
	if _, err := x.svc.SetPrefs(ctx, x.bob.ID, play.Prefs{Language: "fr"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	in := x.srv.LaunchActivity(room.ID, x.alice.ID, x.bob.ID)
	alice := x.openLobby(t, browser, in, x.alice)
	bob := x.openLobby(t, browser, in, x.bob)
	// Each sees the other, named as the server shows them.
	x.wait(t, alice, `act().getElementById("people").textContent.includes("Bob") && act().getElementById("opponent").value === "`+x.bob.ID+`"`)
	x.wait(t, bob, `act().getElementById("people").textContent.includes("Alice")`)
	if got := eval[string](t, bob, `act().getElementById("lobby").textContent`); !strings.Contains(got, "Nouvelle partie") || !strings.Contains(got, "Cadence") {
		t.Errorf("Bob's lobby reads %q, want it in French", got)
	}
	shoot(t, alice, "activity-lobby-desktop.png", 1000, 800)
	shoot(t, alice, "activity-lobby-phone.png", 400, 860)

	// A custom 0+5 is refused, in Alice's words, and nothing is made.
	press(t, alice, `.times button[data-time="custom"]`)
	eval[bool](t, alice, `(act().getElementById("custom-min").value = "0", act().getElementById("custom-sec").value = "5", true)`)
	press(t, alice, "#send")
	x.wait(t, alice, `!act().getElementById("lobby-refusal").hidden`)
	if got := eval[string](t, alice, `act().getElementById("lobby-refusal").textContent`); !strings.Contains(got, "1 to 180 minutes") {
		t.Errorf("a 0+5 challenge is refused as %q", got)
	}
	if cs, _ := x.svc.Challenges(ctx, x.alice.ID); len(cs) != 0 {
		t.Fatalf("a refused challenge was made: %+v", cs)
	}
	eval[bool](t, alice, `(() => { const m = act().getElementById("custom-min"); m.value = "10"; m.dispatchEvent(new Event("input")); return true; })()`)

	// Alice challenges Bob to 1+0, with White.
	press(t, alice, `.times button[data-time="1+0"]`)
	press(t, alice, `.colors button[data-color="white"]`)
	press(t, alice, "#send")
	posted, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == room.ID && len(c.Message.Buttons()) == 2 &&
			strings.Contains(c.Message.Content, "<@"+x.bob.ID+">")
	})
	if err != nil {
		t.Fatalf("the challenge was not posted in #lobby: %v", err)
	}
	if e := posted.Message.Embeds; len(e) != 1 || !strings.Contains(e[0].Description, "1+0 bullet") {
		t.Errorf("the posted challenge reads %+v", e)
	}
	x.wait(t, alice, `act().querySelector("#incoming .challenge.mine") !== null`)
	x.wait(t, bob, `act().querySelector("#incoming .challenge.incoming .accept") !== null`)
	if got := eval[string](t, bob, `act().querySelector("#incoming .challenge").textContent`); !strings.Contains(got, "Alice te défie") || !strings.Contains(got, "1+0") {
		t.Errorf("Bob reads the challenge as %q", got)
	}
	shoot(t, bob, "activity-challenge-fr-desktop.png", 1000, 800)
	shoot(t, bob, "activity-challenge-fr-phone.png", 400, 860)

	// Bob accepts: both windows switch to the board, clocks at 1:00.
	press(t, bob, "#incoming .challenge.incoming .accept")
	g, err := func() (play.Game, error) {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if g, err := x.svc.GameIn(ctx, room.ID); err == nil {
				return g, nil
			}
		}
		return x.svc.GameIn(ctx, room.ID)
	}()
	if err != nil || g.White.ID != x.alice.ID || g.TimeControl().String() != "1+0" {
		t.Fatalf("the game in #lobby: %+v, %v", g, err)
	}
	onBoard := fmt.Sprintf(`act().getElementById("activity").dataset.game === "%d" && act().querySelector("#board svg") !== null && act().getElementById("lobby").hidden && act().querySelectorAll(".clock").length === 2`, g.ID)
	x.wait(t, alice, onBoard)
	x.wait(t, bob, onBoard)
	for _, tab := range []context.Context{alice, bob} {
		if got := eval[string](t, tab, `[...act().querySelectorAll(".clock")].map(c => c.textContent).join(" ")`); got != "1:00 1:00" {
			t.Errorf("before the first move the clocks read %q", got)
		}
	}
	if eval[string](t, alice, `act().getElementById("activity").dataset.color`) != "w" || eval[string](t, bob, `act().getElementById("activity").dataset.color`) != "b" {
		t.Error("Alice does not play White in her window, or Bob Black in his")
	}
	if _, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == room.ID && len(c.Message.Files) > 0
	}); err != nil {
		t.Errorf("the game's first board was not posted in #lobby: %v", err)
	}
	// The challenge's message in #lobby says it was accepted, and keeps
	// no button.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if m, ok := x.srv.Message(posted.Message.ID); ok && len(m.Buttons()) == 0 && strings.Contains(m.Content, "accepted") {
			break
		}
		if time.Now().After(deadline) {
			m, _ := x.srv.Message(posted.Message.ID)
			t.Fatalf("the challenge's message reads %q with %d buttons, want it accepted", m.Content, len(m.Buttons()))
		}
	}

	// Alice moves: the move is in both windows, and Black's clock runs.
	rev := eval[int](t, alice, revJS)
	m := x.legalIn(t, g.ID, game.White)
	drag(t, alice, m[:2], m[2:4])
	for _, tab := range []context.Context{alice, bob} {
		x.wait(t, tab, fmt.Sprintf(`%s > %d && act().querySelector(".clock.running") !== null && act().querySelector(".clock.running").dataset.side === "b"`, revJS[1:], rev))
	}
	if g, _ := x.svc.Game(ctx, g.ID); len(g.Moves) != 1 || g.Moves[0].UCI != m[:4] {
		t.Fatalf("the game's moves %+v, want %s", g.Moves, m[:4])
	}
	shoot(t, bob, "activity-clocks-fr-phone.png", 400, 860)

	// Bob resigns in Discord's way (the round): both windows show the
	// end, and the lobby with its Rematch.
	g, _ = x.svc.Game(ctx, g.ID)
	if _, err := x.round.Do(ctx, round.Act{Act: play.Act{By: x.bob.ID, Game: g.ID, Revision: g.Revision, At: time.Now()}, Kind: round.Resign}); err != nil {
		t.Fatal(err)
	}
	x.wait(t, alice, `!act().getElementById("lobby").hidden && !act().getElementById("rematch-box").hidden`)
	x.wait(t, bob, `!act().getElementById("lobby").hidden && !act().getElementById("rematch-box").hidden`)
	if got := eval[string](t, alice, `act().getElementById("rematch-text").textContent`); got != "Against Bob: 1+0 bullet, you play Black." {
		t.Errorf("Alice's Rematch reads %q", got)
	}
	shoot(t, alice, "activity-rematch-desktop.png", 1000, 800)
	shoot(t, alice, "activity-rematch-phone.png", 400, 860)
	press(t, alice, "#rematch")
	// Bob, seeing her challenge come, presses Rematch too: his press
	// accepts hers, and his window says so, in French.
	x.wait(t, bob, `act().querySelector("#incoming .challenge.incoming .accept") !== null`)
	press(t, bob, "#rematch")
	var second play.Game
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if second, err = x.svc.GameIn(ctx, room.ID); err == nil && second.ID != g.ID && !second.Over() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no rematch in #lobby: %+v %v", second, err)
		}
	}
	if second.White.ID != x.bob.ID || second.Black.ID != x.alice.ID || second.TimeControl().String() != "1+0" {
		t.Errorf("the rematch has %s with White at %q", second.White.ID, second.TimeControl())
	}
	onBoard = fmt.Sprintf(`act().getElementById("activity").dataset.game === "%d" && act().getElementById("lobby").hidden`, second.ID)
	x.wait(t, alice, onBoard)
	x.wait(t, bob, onBoard)
	if eval[string](t, bob, `act().getElementById("activity").dataset.color`) != "w" {
		t.Error("Bob does not play White in the rematch, in his window")
	}
	x.wait(t, bob, `!act().getElementById("crossed").hidden`)
	if got := eval[string](t, bob, `act().getElementById("crossed").textContent`); got != "Alice t'avait déjà lancé un défi aux mêmes conditions\u00a0: il est accepté, la partie commence." {
		t.Errorf("Bob's window says %q", got)
	}
	if !eval[bool](t, alice, `act().getElementById("crossed").hidden`) {
		t.Error("Alice, whose challenge was taken, is told she took one")
	}
	// Once the game is under way, the note goes.
	m = x.legalIn(t, second.ID, game.White)
	drag(t, bob, m[:2], m[2:4])
	x.wait(t, bob, `act().getElementById("crossed").hidden`)
}

// recordRequests keeps, in each document of the tab, the bodies of the
// requests it sends (window.sent).
const recordRequests = `(function () {
  window.sent = [];
  const real = window.fetch;
  window.fetch = function (url, opts) {
    if (opts && opts.body) window.sent.push(String(opts.body));
    return real.apply(this, arguments);
  };
})();`

// TestTheEngineFromTheLobby: alone in the Activity, Alice picks the
// engine at level 1 and 1+0 with White: the board opens at once, and
// the engine answers her move in her window. Her device is in Tokyo:
// the page names its zone with every act, so that a refusal's times
// read as her clock does (TestARefusalsTimesAreTheViewers).
func TestTheEngineFromTheLobby(t *testing.T) {
	browser := browsertest.New(t, 1000, 900)
	x := newLive(t)
	// A channel where no game goes on: #chess has Alice and Bob's in
	// a thread, which the Activity there would show them.
	room := x.srv.AddChannel(fakediscord.Channel{GuildID: x.guild.ID, Name: "lobby"})
	in := x.srv.LaunchActivity(room.ID, x.alice.ID)
	alice := x.openLobby(t, browser, in, x.alice, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordRequests})
		return err
	}))
	if got := eval[string](t, alice, `act().getElementById("people").textContent`); !strings.Contains(got, "Nobody else is here yet") {
		t.Errorf("alone, Alice's lobby reads %q", got)
	}
	eval[bool](t, alice, `(() => { const s = act().getElementById("opponent"); s.value = "engine"; s.dispatchEvent(new Event("change")); return true; })()`)
	x.wait(t, alice, `!act().getElementById("level-box").hidden`)
	eval[bool](t, alice, `(() => { const s = act().getElementById("level"); s.value = "1"; s.dispatchEvent(new Event("change")); return true; })()`)
	press(t, alice, `.times button[data-time="1+0"]`)
	press(t, alice, `.colors button[data-color="white"]`)
	press(t, alice, "#send")
	x.wait(t, alice, `act().getElementById("lobby").hidden && act().querySelector("#board svg") !== null && act().querySelectorAll(".clock").length === 2`)
	g, err := x.svc.GameIn(context.Background(), room.ID)
	if err != nil || g.White.ID != x.alice.ID || g.Engine[game.Black] != 1 || g.TimeControl().String() != "1+0" {
		t.Fatalf("the game against the engine: %+v, %v", g, err)
	}
	rev := eval[int](t, alice, revJS)
	m := x.legalIn(t, g.ID, game.White)
	drag(t, alice, m[:2], m[2:4])
	x.wait(t, alice, fmt.Sprintf(`%s >= %d`, revJS[1:], rev+2))
	if g, _ := x.svc.Game(context.Background(), g.ID); len(g.Moves) != 2 {
		t.Errorf("the game's moves %+v, want Alice's and the engine's", g.Moves)
	}
	sent := eval[[]string](t, alice, `document.getElementById("f").contentWindow.sent`)
	acts := 0
	for _, body := range sent {
		if strings.Contains(body, `"code"`) {
			continue // the sign-in's
		}
		acts++
		if !strings.Contains(body, `"tz":"Asia/Tokyo"`) {
			t.Errorf("the page sent %s, without its zone", body)
		}
	}
	if acts < 2 {
		t.Errorf("the page sent %q, want the challenge and the move", sent)
	}
}
