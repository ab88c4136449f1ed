package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/play"
)

// iceCount is how many squares of the drawn board hold ice.
const iceCount = `document.querySelectorAll("#board g[data-ice]").length`

// TestTheBoardShowsIceAndReplays: the page draws the ice, goes back to
// the start and forward again, and takes a move made meanwhile without a
// reload.
func TestTheBoardShowsIceAndReplays(t *testing.T) {
	ctx := browsertest.New(t, 1200, 900)
	x := newSite(t, "g1", Options{})
	x.move("e2d3")
	if err := chromedp.Do(ctx, onNewDocument(`window.violations = []; document.addEventListener("securitypolicyviolation", function (e) { window.violations.push(e.violatedDirective + " " + e.blockedURI); });`),
		chromedp.Navigate(x.srv.URL+x.path()),
		chromedp.WaitVisible(chromedp.CSS("#board svg")),
		chromedp.Evaluate[chromedp.Void](`window.noReload = true`),
	); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return n
	}
	if n := eval(iceCount); n != 31 {
		t.Fatalf("the board shows %d squares of ice after exd3, want 31", n)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#live.on") !== null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the page never said it was live: %v", err)
	}
	x.move("g7f6")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#moves button.move").length === 2`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("Black's move did not appear: %v", err)
	}
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.noReload === true`)); err != nil || !ok {
		t.Fatal("the page was reloaded to show the move")
	}
	if n := eval(iceCount); n != 30 {
		t.Errorf("after gxf6 the board shows %d squares of ice, want 30", n)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first"))); err != nil {
		t.Fatal(err)
	}
	if n := eval(iceCount); n != 32 {
		t.Errorf("at the start the board shows %d squares of ice, want 32", n)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#next"))); err != nil {
		t.Fatal(err)
	}
	if n := eval(iceCount); n != 31 {
		t.Errorf("after the first move the board shows %d squares of ice, want 31", n)
	}
	if got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#moves button.at").textContent`)); got != "exd3" {
		t.Errorf("the move marked in the list is %q, want exd3", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#last"))); err != nil {
		t.Fatal(err)
	}
	if n := eval(iceCount); n != 30 {
		t.Errorf("back at the last move the board shows %d squares of ice, want 30", n)
	}
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.violations`)); err != nil || len(v) > 0 {
		t.Errorf("the page broke its Content-Security-Policy: %v %v", v, err)
	}
}

// onNewDocument runs a script in every page before its own.
func onNewDocument(script string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})
}

// TestAPageWithoutAStreamPolls: where no event stream gets through (here
// a browser without EventSource), the page polls, and a move still
// appears without a reload.
func TestAPageWithoutAStreamPolls(t *testing.T) {
	ctx := browsertest.New(t, 1000, 800)
	x := newSite(t, "g1", Options{})
	if err := chromedp.Do(ctx, onNewDocument("delete window.EventSource"),
		chromedp.Navigate(x.srv.URL+x.path()),
		chromedp.WaitVisible(chromedp.CSS("#board svg")),
		chromedp.Evaluate[chromedp.Void](`window.noReload = true`),
	); err != nil {
		t.Fatal(err)
	}
	x.move("e2d3")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll("#moves button.move").length === 1 && window.noReload === true && !window.EventSource`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the move did not appear by polling: %v", err)
	}
}

// TestScreenshots saves the page on a desktop and on a phone, in English
// and Russian, when ICEAGE_SCREENSHOTS names a folder (docs/images).
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("ICEAGE_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ICEAGE_SCREENSHOTS to a folder to save the screenshots")
	}
	for _, shot := range []struct {
		name          string
		width, height int
		lang          string
	}{{"web-desktop-en.png", 1280, 800, "en"}, {"web-desktop-ru.png", 1280, 800, "ru"}, {"web-phone-en.png", 400, 860, "en"}, {"web-phone-ru.png", 400, 860, "ru"}} {
		t.Run(shot.name, func(t *testing.T) {
			ctx := browsertest.New(t, 1280, 900, chromedp.Flag("accept-lang", shot.lang))
			x := showcase(t)
			if err := chromedp.Do(ctx,
				chromedp.EmulateViewport(int64(shot.width), int64(shot.height)),
				chromedp.Navigate(x.srv.URL+x.path()),
				chromedp.WaitVisible(chromedp.CSS("#board svg")),
				chromedp.Sleep(500*time.Millisecond), // the men's pictures
			); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, shot.name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// showcase is a game at Black's 20th move, which brings the Ice Age,
// with men that would freeze: the page marks them.
func showcase(t *testing.T) *site {
	for seed := uint64(1); seed < 200; seed++ {
		x := newSite(t, "g1", Options{})
		if !x.randomMoves(39, seed) {
			continue
		}
		pos, _ := x.g.Position()
		if len(pos.WouldFreeze().Squares()) >= 2 {
			return x
		}
	}
	t.Fatal("no game of 39 random moves has two men that would freeze")
	return nil
}

// skewDate makes the page's wall clock (Date.now and new Date()) off by
// hours, as a browser whose clock is wrong; its monotonic clock
// (performance.now) runs true.
const skewDate = `(function () {
  var off = -5 * 3600 * 1000 + 1234;
  var RealDate = Date, realNow = Date.now;
  Date.now = function () { return realNow() + off; };
  window.Date = new Proxy(RealDate, { construct: function (D, args) { return args.length ? new D(...args) : new D(realNow() + off); } });
})();`

// TestTheClocksTickFromTheServersTimeNotTheBrowsers: a live game's page,
// in a browser whose clock is five hours off, shows the clock of the
// side to move as the server measured it, and counts it down.
func TestTheClocksTickFromTheServersTimeNotTheBrowsers(t *testing.T) {
	since := t0.Add(2 * time.Second) // Black's move: White's clock runs
	x := newSite(t, "777", Options{Now: func() time.Time { return since.Add(20 * time.Second) }})
	res, err := x.svc.Start(context.Background(), play.NewGame{Guild: "777", Channel: "c3", White: ann, Black: bob, At: t0,
		Time: play.TimeControl{Limit: 5 * time.Minute, Increment: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	x.g, x.step = res.Game, time.Second
	x.move("b1a3")
	x.move("b8a6")
	ctx := browsertest.New(t, 1000, 800)
	if err := chromedp.Do(ctx, onNewDocument(skewDate),
		chromedp.Navigate(x.srv.URL+x.path()),
		chromedp.WaitVisible(chromedp.CSS(".clock.running")),
	); err != nil {
		t.Fatal(err)
	}
	clock := func(side string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.clock[data-side="`+side+`"]').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if skew, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`Date.now() - (performance.timeOrigin + performance.now())`)); err != nil || skew > -4*3600e3 {
		t.Fatalf("the page's clock is off by %v ms (%v), want five hours behind", skew, err)
	}
	// White had 5:00 when the turn began and has used 20 s of it; Black
	// used 1 s and gained the increment.
	if w, b := clock("w"), clock("b"); (w != "4:40" && w != "4:39") || b != "5:02" {
		t.Fatalf("the clocks read %s and %s, want 4:40 (counting down) and 5:02", w, b)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('.clock[data-side="w"]').textContent === "4:38"`, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Fatalf("White's clock did not count down to 4:38: it reads %s", clock("w"))
	}
	if b := clock("b"); b != "5:02" {
		t.Errorf("Black's clock, which does not run, reads %s", b)
	}
	// Black moves at once, by the server: the event corrects the clocks.
	x.move("a3b1")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('.clock.running').dataset.side === "b"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("after White's move Black's clock does not run: %v", err)
	}
	// White moved at t0+3s, having used 1 s and gained 3; Black's clock
	// has run 19 s by the server's clock, which stays at t0+22s.
	if w, b := clock("w"), clock("b"); w != "5:02" || (b != "4:43" && b != "4:42") {
		t.Errorf("after the move the clocks read %s and %s, want 5:02 and 4:43", w, b)
	}
}
