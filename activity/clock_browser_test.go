package activity_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/fakediscord"
)

// skewDate makes a frame's wall clock (Date.now and new Date()) five
// hours behind, as a device whose clock is wrong; its monotonic clock
// (performance.now) runs true.
const skewDate = `(function () {
  var off = -5 * 3600 * 1000 + 1234;
  var RealDate = Date, realNow = Date.now;
  Date.now = function () { return realNow() + off; };
  window.Date = new Proxy(RealDate, { construct: function (D, args) { return args.length ? new D(...args) : new D(realNow() + off); } });
})();`

// TestTheActivityShowsTickingClocks: in a 5+0 game the Activity shows
// both clocks, counts the running one down, and takes the server's
// correction with each move; on a device whose clock is five hours off.
func TestTheActivityShowsTickingClocks(t *testing.T) {
	browser := browsertest.New(t, 900, 900)
	x := newLive(t, fakediscord.StringOption("time", "5+0"))
	x.srv.Click(x.alice.ID, x.board.ID, buttonOf(t, x.board, "here"))
	if _, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponse && c.ResponseType == fakediscord.ResponseLaunchActivity && c.Err == nil
	}); err != nil {
		t.Fatal(err)
	}
	in, ok := x.srv.ActivityIn(x.thread)
	if !ok {
		t.Fatal("Play here launched no Activity in the thread")
	}
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	q := url.Values{"code": {x.srv.Authorize(x.alice.ID)}, "instance": {in.ID}, "guild": {in.GuildID}, "channel": {in.ChannelID}}
	if err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: skewDate})
		return err
	}), watchCSP(t, tab), chromedp.Navigate(x.site.URL+"/test/parent?"+q.Encode())); err != nil {
		t.Fatal(err)
	}
	x.wait(t, tab, `act().querySelector("#board svg") !== null && act().getElementById("activity").dataset.rev !== undefined`)
	if skew := eval[float64](t, tab, `(() => { const w = document.getElementById("f").contentWindow; return w.Date.now() - (w.performance.timeOrigin + w.performance.now()); })()`); skew > -4*3600e3 {
		t.Fatalf("the Activity's clock is off by %v ms, want five hours behind", skew)
	}
	clock := func(side string) string {
		return eval[string](t, tab, `act().querySelector('.clock[data-side="`+side+`"]').textContent`)
	}
	// Before the first move no clock runs.
	x.wait(t, tab, `act().querySelectorAll(".clock").length === 2 && act().querySelector(".clock.running") === null`)
	if w, b := clock("w"), clock("b"); w != "5:00" || b != "5:00" {
		t.Fatalf("before the first move the clocks read %s and %s, want 5:00 each", w, b)
	}

	// Alice moves in Discord, then Bob: White's clock runs, counted from
	// the server's time.
	rev := eval[int](t, tab, revJS)
	m := x.legal(t, game.White)
	if c, err := x.srv.WaitResponse(x.ctx(t), x.srv.Command(x.alice.ID, x.thread, "move", fakediscord.StringOption("move", m))); err != nil || len(c.Message.Files) == 0 {
		t.Fatalf("Alice's /move %s: %q, %v", m, c.Message.Content, err)
	}
	x.wait(t, tab, fmt.Sprintf(`%s > %d && act().querySelector(".clock.running").dataset.side === "b"`, revJS[1:], rev))
	rev = eval[int](t, tab, revJS)
	x.reply(t)
	x.wait(t, tab, fmt.Sprintf(`%s > %d && act().querySelector(".clock.running").dataset.side === "w"`, revJS[1:], rev))
	near := func(s string) bool { return s == "5:00" || strings.HasPrefix(s, "4:5") }
	if w, b := clock("w"), clock("b"); !near(w) || !near(b) {
		t.Fatalf("a few seconds into a 5+0 game the clocks read %s and %s, want 5:00 or a little less", w, b)
	}
	before := clock("w")
	x.wait(t, tab, `act().querySelector('.clock[data-side="w"]').textContent !== "`+before+`"`)
	if w := clock("w"); !near(w) || w > before {
		t.Errorf("White's clock went from %s to %s, want it counting down", before, w)
	}
	b := clock("b")
	time.Sleep(1100 * time.Millisecond)
	if now := clock("b"); now != b {
		t.Errorf("Black's clock, which does not run, went from %s to %s", b, now)
	}
}
