package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/fakediscord"
)

// The program with its web listener on: a tournament's sign-up post
// links to its page, which a browser opens and leaves open while the
// tournament is played in Discord. Its pairings, each result (a game
// resigned in its thread), a withdrawal, the standings, the next round
// and the final standings appear without a reload.
func TestTheTournamentPageFollowsATournamentPlayedInDiscord(t *testing.T) {
	tab := browsertest.New(t, 1200, 900)
	c := startClub(t, clubOptions{web: true, within: 120 * time.Second})
	srv, ctx := c.srv, c.ctx
	carol := srv.AddUser(fakediscord.User{Username: "carol", Locale: "en-US"})
	dan := srv.AddUser(fakediscord.User{Username: "dan", Locale: "en-US"})
	d := newDiscordTournament(ctx, t, srv, c.guild.ID, c.chess.ID, c.alice, c.bob, carol, dan)

	if err := chromedp.Do(tab,
		onNewDocument(`window.violations = []; document.addEventListener("securitypolicyviolation", function (e) { window.violations.push(e.violatedDirective + " " + e.blockedURI); });`),
		chromedp.Navigate(d.Link),
		chromedp.WaitVisible(chromedp.CSS("#standings table")),
		chromedp.Evaluate[chromedp.Void](`window.noReload = true`),
	); err != nil {
		t.Fatal(err)
	}
	waitFor := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](expr+` && window.noReload === true`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			body, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("main").innerText`))
			t.Fatalf("%s: %v\n%s", what, err, body)
		}
	}
	waitFor("the page never said it was live", `document.querySelector("#live.on") !== null`)
	heads := `Array.from(document.querySelectorAll("#standings h2")).map(function (e) { return e.textContent; }).join(",")`
	results := `Array.from(document.querySelectorAll("#standings .games .result")).map(function (e) { return e.textContent; }).join(",")`

	// The organiser starts it: round 1's pairings appear.
	d.start()
	points := func(u fakediscord.User) string {
		return `Array.from(document.querySelectorAll("#standings tbody tr")).filter(function (r) { return r.cells[1].textContent.split(" ")[0] === "` + u.Username + `"; }).map(function (r) { return r.cells[2].textContent; }).join()`
	}
	waitFor("round 1's pairings did not appear", heads+` === "Games of round 1" && `+results+` === "playing,playing"`)

	// Dan withdraws during round 1 (his game counts): the standings say
	// so.
	d.withdraw(dan)
	waitFor("the withdrawal did not appear", `document.querySelector("#standings tbody").textContent.includes("dan (withdrawn)")`)

	// White resigns each game of round 1 in its thread: the results and
	// the standings follow, then round 2's pairings, of the three left.
	won := d.resignRound(1)
	if len(won) != 2 {
		t.Fatalf("round 1 of four has %d games", len(won))
	}
	waitFor("round 1's results and the standings did not appear", `(`+results+` === "0–1,0–1" || `+heads+`.startsWith("Games of round 2")) && `+points(won[0])+` === "1" && `+points(won[1])+` === "1"`)
	waitFor("round 2's pairings did not appear", heads+` === "Games of round 2,Games of round 1" && `+results+` === "playing,0–1,0–1" && !document.querySelector("#standings .games").textContent.includes("dan")`)

	d.resignRound(2)
	// Three games won and round 2's bye of a point: four points in all.
	total := `Array.from(document.querySelectorAll("#standings tbody tr")).reduce(function (n, r) { return n + Number(r.cells[2].textContent); }, 0)`
	waitFor("the final standings did not appear", `document.getElementById("title").textContent.includes("Final standings") && document.getElementById("live") === null && `+
		results+` === "0–1,0–1,0–1" && `+total+` === 4`)
	// All of it came by the event stream: the page never polled.
	if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`performance.getEntriesByType("resource").filter(function (e) { return e.name.endsWith("/view"); }).length`)); err != nil || n != 0 {
		t.Errorf("the page polled its view %d times (%v), where its event stream gets through", n, err)
	}
	if v, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`window.violations`)); err != nil || len(v) > 0 {
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
