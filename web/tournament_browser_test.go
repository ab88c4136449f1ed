package web

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/tournament"
)

// watchViolations records the page's breaches of its Content-Security-
// Policy in window.violations.
const watchViolations = `window.violations = []; document.addEventListener("securitypolicyviolation", function (e) { window.violations.push(e.violatedDirective + " " + e.blockedURI); });`

// TestATournamentsPageFollowsItWithoutAReload: a tournament's page left
// open shows a result, a withdrawal, the next round's pairings and the
// final standings as they are committed, without a reload, and breaks
// none of its Content-Security-Policy.
func TestATournamentsPageFollowsItWithoutAReload(t *testing.T) {
	ctx := browsertest.New(t, 1200, 900)
	x := newSite(t, "777", Options{})
	y := newTourney(t, x, 4, 2)
	if err := chromedp.Do(ctx, onNewDocument(watchViolations),
		chromedp.Navigate(x.srv.URL+y.path()),
		chromedp.WaitVisible(chromedp.CSS("#standings table")),
		chromedp.Evaluate[chromedp.Void](`window.noReload = true`),
	); err != nil {
		t.Fatal(err)
	}
	waitFor := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr+` && window.noReload === true`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("main").innerText`))
			t.Fatalf("%s: %v\n%s", what, err, body)
		}
	}
	waitFor("the page never said it was live", `document.querySelector("#live.on") !== null`)
	results := `Array.from(document.querySelectorAll("#standings .games .result")).map(function (e) { return e.textContent; }).join(",")`
	waitFor("round 1's two games are not shown as playing", results+` === "playing,playing"`)

	y.result(t, 0, tournament.Win)
	waitFor("board 1's result did not appear", results+` === "1–0,playing"`)
	winner := y.tr.Members[y.tr.Played[0].Boards[0].White].Name
	waitFor("the standings were not recomputed", `document.querySelector("#standings tbody tr td:nth-child(2)").textContent === `+jsString(winner))

	leaver := y.tr.Members[y.tr.Played[0].Boards[1].Black]
	if err := y.do(t, func(t *tournament.Tournament) error { return t.Withdraw(leaver.ID) }); err != nil {
		t.Fatal(err)
	}
	waitFor("the withdrawal did not appear", `document.querySelector("#standings tbody").textContent.includes(`+jsString(leaver.Name+" (withdrawn)")+`)`)

	y.result(t, 1, tournament.Win)
	y.next(t)
	waitFor("round 2's pairings did not appear", `document.querySelectorAll("#standings h2").length === 2 && document.querySelector("#standings h2").textContent === "Games of round 2"`)
	waitFor("the title did not follow", `document.getElementById("title").textContent.includes("during round 2") && document.title.includes("during round 2")`)

	for b := range y.tr.Played[1].Boards {
		y.result(t, b, tournament.Draw)
	}
	y.next(t)
	waitFor("the final standings did not appear", `document.getElementById("title").textContent.includes("Final standings") && document.getElementById("live") === null`)
	// All of it came by the event stream: the page never polled.
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`performance.getEntriesByType("resource").filter(function (e) { return e.name.endsWith("/view"); }).length`)); err != nil || n != 0 {
		t.Errorf("the page polled its view %d times (%v), where its event stream gets through", n, err)
	}
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.violations`)); err != nil || len(v) > 0 {
		t.Errorf("the page broke its Content-Security-Policy: %v %v", v, err)
	}
}

// TestATournamentsPageWithoutAStreamPolls: where no event stream gets
// through (a browser without EventSource), the page polls its view, and
// a result still appears without a reload.
func TestATournamentsPageWithoutAStreamPolls(t *testing.T) {
	ctx := browsertest.New(t, 1000, 800)
	x := newSite(t, "777", Options{})
	y := newTourney(t, x, 3, 2)
	if err := chromedp.Do(ctx, onNewDocument("delete window.EventSource; "+watchViolations),
		chromedp.Navigate(x.srv.URL+y.path()),
		chromedp.WaitVisible(chromedp.CSS("#standings table")),
		chromedp.Evaluate[chromedp.Void](`window.noReload = true`),
	); err != nil {
		t.Fatal(err)
	}
	y.result(t, 0, tournament.Draw)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#standings .games .result").textContent === "½–½" && window.noReload === true && !window.EventSource && document.querySelector("#live.on") !== null`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the result did not appear by polling: %v", err)
	}
	if v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.violations`)); err != nil || len(v) > 0 {
		t.Errorf("the page broke its Content-Security-Policy: %v %v", v, err)
	}
}

// jsString is s as a JavaScript string literal (no quote or backslash
// in the names of these tests).
func jsString(s string) string { return `"` + s + `"` }

// TestTournamentScreenshots saves a running tournament's page on a
// desktop and on a phone, in English and French, when
// ICEAGE_SCREENSHOTS names a folder; the page is shown as it followed a
// result, the pictures being taken after it.
func TestTournamentScreenshots(t *testing.T) {
	dir := os.Getenv("ICEAGE_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ICEAGE_SCREENSHOTS to a folder to save the screenshots")
	}
	for _, shot := range []struct {
		name          string
		width, height int
		lang          string
	}{{"tournament-desktop-en.png", 1280, 900, "en"}, {"tournament-desktop-fr.png", 1280, 900, "fr"},
		{"tournament-phone-en.png", 400, 900, "en"}, {"tournament-phone-fr.png", 400, 900, "fr"}} {
		t.Run(shot.name, func(t *testing.T) {
			ctx := browsertest.New(t, 1280, 900, chromedp.Flag("accept-lang", shot.lang))
			x := newSite(t, "777", Options{})
			y := newTourney(t, x, 6, 3)
			y.result(t, 0, tournament.Win)
			y.result(t, 1, tournament.Draw)
			y.result(t, 2, tournament.Loss)
			y.next(t)
			if err := chromedp.Do(ctx,
				chromedp.EmulateViewport(int64(shot.width), int64(shot.height)),
				chromedp.Navigate(x.srv.URL+y.path()),
				chromedp.WaitVisible(chromedp.CSS("#live.on")),
			); err != nil {
				t.Fatal(err)
			}
			y.result(t, 0, tournament.Draw)
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#standings .games .result").textContent === "½–½"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
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
