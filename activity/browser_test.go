package activity_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/iceagechess/iceage/activity"
	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/web"
)

// parentFrame plays Discord's client around the Activity: it answers the
// Embedded App SDK's handshake with READY, its AUTHORIZE with the code
// the test got from the fake Discord for the user, and its AUTHENTICATE
// by asking the fake Discord whose the access token is, as Discord's
// client does. The Activity fills the window, so that the page's
// coordinates are the Activity's.
const parentFrame = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Discord</title></head>
<body style="margin:0;overflow:hidden">
<iframe id="f" style="border:0;width:100vw;height:100vh;display:block"></iframe>
<script>
const q = new URLSearchParams(location.search);
const f = document.getElementById("f");
window.tokens = [];
window.addEventListener("message", async (e) => {
  if (e.source !== f.contentWindow || !Array.isArray(e.data)) return;
  const [op, data] = e.data;
  const reply = (d) => f.contentWindow.postMessage(d, "*");
  if (op === 0) {
    reply([1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}}}]);
    return;
  }
  if (op !== 1) return;
  let out = null;
  if (data.cmd === "AUTHORIZE") out = {code: q.get("code")};
  if (data.cmd === "AUTHENTICATE") {
    window.tokens.push(data.args.access_token);
    const r = await fetch("/test/authenticate?token=" + encodeURIComponent(data.args.access_token));
    if (!r.ok) {
      reply([1, {cmd: data.cmd, evt: "ERROR", nonce: data.nonce, data: {code: 4009, message: "Invalid token"}}]);
      return;
    }
    out = await r.json();
  }
  reply([1, {cmd: data.cmd, evt: null, nonce: data.nonce, data: out}]);
});
f.src = "/activity/?" + new URLSearchParams({frame_id: "frame", instance_id: q.get("instance"), platform: "desktop",
  guild_id: q.get("guild"), channel_id: q.get("channel")});
</script>
</body></html>`

// live is the Activity with a bot, the web listener and a game between
// Alice and Bob in its thread, all on a fake Discord.
type live struct {
	srv               *fakediscord.Server
	site              *httptest.Server
	guild             fakediscord.Guild
	chess             fakediscord.Channel
	alice, bob, carol fakediscord.User
	thread            string
	board             fakediscord.Message
	game              play.Game
	svc               *play.Service
	round             *round.Round
}

// newLive's game is challenged with the options given (a time control).
func newLive(t *testing.T, challenge ...*fakediscord.Option) *live {
	t.Helper()
	x := &live{srv: fakediscord.New(t)}
	x.srv.EnableActivities()
	x.guild = x.srv.AddGuild(fakediscord.Guild{Name: "Club"})
	x.chess = x.srv.AddChannel(fakediscord.Channel{GuildID: x.guild.ID, Name: "chess"})
	x.alice = x.srv.AddUser(fakediscord.User{Username: "alice", GlobalName: "Alice"})
	x.bob = x.srv.AddUser(fakediscord.User{Username: "bob", GlobalName: "Bob"})
	x.carol = x.srv.AddUser(fakediscord.User{Username: "carol", GlobalName: "Carol", Locale: "ru"})

	st := memstore.New()
	hub, err := stream.New(st, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	x.svc = play.New(st, play.Options{Rand: func(int) int { return 0 }})
	mux := http.NewServeMux()
	x.site = httptest.NewServer(mux)
	t.Cleanup(func() {
		x.site.CloseClientConnections() // the pages' event streams stay open
		x.site.Close()
	})
	w, err := web.New(web.Options{Play: x.svc, Hub: hub, Secret: []byte("0123456789abcdef0123456789abcdef"), PublicURL: x.site.URL + "/",
		ClientID: x.srv.AppID(), ClientSecret: x.srv.ClientSecret(), DiscordURL: x.srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	var act *activity.Server
	b, err := bot.New(bot.Config{Token: x.srv.Token(), DefaultDays: 3, Web: w,
		Activity: bot.ActivityConfig{Enabled: true, Launched: func(u, c string, g uint64) { act.Launched(u, c, g) },
			ChallengeEnded: func(c play.Challenge, how round.Answer) { act.ChallengeEnded(c, how) }},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, x.svc)
	if err != nil {
		t.Fatal(err)
	}
	act, err = activity.New(activity.Options{ClientID: x.srv.AppID(), ClientSecret: x.srv.ClientSecret(), BotToken: x.srv.Token(),
		DiscordURL: x.srv.URL(), Round: b.Round(), Web: w, DefaultDays: 3, Engine: b.EngineSeat})
	if err != nil {
		t.Fatal(err)
	}
	act.Mount()
	x.round = b.Round()
	mux.Handle("/", w)
	mux.HandleFunc("GET /test/parent", func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(rw, parentFrame)
	})
	mux.HandleFunc("GET /test/authenticate", x.authenticate)

	b.Session().Dialer = fakediscord.Dialer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-b.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the bot did not get ready")
	}

	// Alice challenges Bob, who accepts: the game's thread and board.
	id := x.srv.Command(x.alice.ID, x.chess.ID, "challenge", append([]*fakediscord.Option{fakediscord.UserOption("opponent", x.bob.ID)}, challenge...)...)
	c, err := x.srv.WaitResponse(x.ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	x.srv.Click(x.bob.ID, c.Message.ID, buttonOf(t, c.Message, "accept"))
	th, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread && c.Err == nil })
	if err != nil {
		t.Fatal(err)
	}
	x.thread = th.Channel.ID
	bc, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == x.thread && len(c.Message.Files) > 0
	})
	if err != nil {
		t.Fatal(err)
	}
	x.board = bc.Message
	if x.game, err = x.svc.GameIn(context.Background(), x.thread); err != nil {
		t.Fatal(err)
	}
	return x
}

func (x *live) ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	t.Cleanup(cancel)
	return c
}

func buttonOf(t *testing.T, m fakediscord.Message, verb string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if strings.Contains(b.CustomID, ":"+verb+":") {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button on %q", verb, m.Content)
	return ""
}

// authenticate is Discord's client answering the SDK's AUTHENTICATE: it
// asks Discord whose the token is.
func (x *live) authenticate(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, x.srv.URL()+"api/v10/users/@me", nil)
	req.Header.Set("Authorization", "Bearer "+r.URL.Query().Get("token"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		http.Error(w, "invalid token", http.StatusUnauthorized)
		return
	}
	defer resp.Body.Close()
	var u map[string]any
	json.NewDecoder(resp.Body).Decode(&u)
	u["public_flags"] = 0
	json.NewEncoder(w).Encode(map[string]any{"access_token": r.URL.Query().Get("token"), "user": u, "scopes": []string{"identify"},
		"expires": time.Now().Add(time.Hour).Format(time.RFC3339), "application": map[string]any{"id": x.srv.AppID(), "name": "Ice Age Chess", "description": ""}})
}

// open opens the Activity of instance in a new tab, signed in as u.
func (x *live) open(t *testing.T, browser context.Context, in fakediscord.Instance, u fakediscord.User) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	q := url.Values{"code": {x.srv.Authorize(u.ID)}, "instance": {in.ID}, "guild": {in.GuildID}, "channel": {in.ChannelID}}
	if err := chromedp.Do(tab, watchCSP(t, tab), chromedp.Navigate(x.site.URL+"/test/parent?"+q.Encode())); err != nil {
		t.Fatal(err)
	}
	x.wait(t, tab, `act().querySelector("#board svg") !== null && act().getElementById("activity").dataset.rev !== undefined`)
	return tab
}

// watchCSP notes, in every document tab opens, whatever its Content-
// Security-Policy blocks; the test fails at its end if the Activity's
// frame blocked anything.
func watchCSP(t *testing.T, tab context.Context) chromedp.Action[chromedp.Void] {
	t.Helper()
	t.Cleanup(func() {
		v, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`(()=>{`+actJS+`; const d = act(); return d ? d.defaultView.violations || ["no watch"] : ["no frame"]; })()`))
		if err != nil || len(v) > 0 {
			t.Errorf("the Activity broke its Content-Security-Policy: %v %v", v, err)
		}
	})
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.violations = []; document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective + " " + e.blockedURI));`})
		return err
	})
}

// actJS finds the Activity's document from the parent frame (the same
// origin in the test, as inside Discord's proxy it is not: the test may
// look inside, the page itself never does).
const actJS = `function act() { const f = document.getElementById("f"); return f && f.contentDocument; }`

func (x *live) wait(t *testing.T, tab context.Context, cond string) {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(()=>{`+actJS+`; try { return !!(`+cond+`); } catch (e) { return false; } })()`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		text, _ := chromedp.Run(tab, chromedp.Evaluate[string](`(()=>{`+actJS+`; const d = act(); return d ? d.body.innerText : "no frame"; })()`))
		t.Fatalf("waiting for %s: %v; the Activity reads %q", cond, err, text)
	}
}

func eval[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](`(()=>{`+actJS+`; return `+expr+`; })()`))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// evalAwait is eval of an expression whose value is a promise.
func evalAwait[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](`(()=>{`+actJS+`; return `+expr+`; })()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// center is the middle of a square of the Activity's board, in the
// window's pixels.
func center(t *testing.T, tab context.Context, sq string) (float64, float64) {
	t.Helper()
	xy := eval[[]float64](t, tab, `(() => { const r = act().querySelector('#board g[data-square="`+sq+`"] rect').getBoundingClientRect(); return [r.left + r.width/2, r.top + r.height/2]; })()`)
	return xy[0], xy[1]
}

// drag drags the man on from to to with the mouse, in steps.
func drag(t *testing.T, tab context.Context, from, to string) {
	t.Helper()
	x0, y0 := center(t, tab, from)
	x1, y1 := center(t, tab, to)
	actions := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		actions = append(actions, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
	}
	actions = append(actions, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	if err := chromedp.Do(tab, actions...); err != nil {
		t.Fatal(err)
	}
}

// legal is a legal move of c's in the game, not a promotion, in UCI.
func (x *live) legal(t *testing.T, c game.Color) string {
	t.Helper()
	g, _ := x.svc.Game(context.Background(), x.game.ID)
	pos, err := g.Position()
	if err != nil || pos.Turn() != c {
		t.Fatalf("the game's position: %v, %v to move", err, pos.Turn())
	}
	for _, m := range pos.LegalMoves(nil) {
		if u := m.UCI(); len(u) == 4 {
			return u
		}
	}
	t.Fatal("no legal move")
	return ""
}

// reply is Bob's reply in Discord, with /move.
func (x *live) reply(t *testing.T) {
	t.Helper()
	m := x.legal(t, game.Black)
	c, err := x.srv.WaitResponse(x.ctx(t), x.srv.Command(x.bob.ID, x.thread, "move", fakediscord.StringOption("move", m)))
	if err != nil || len(c.Message.Files) == 0 {
		t.Fatalf("Bob's /move %s: %q, %v", m, c.Message.Content, err)
	}
}

// click clicks a square of the Activity's board.
func click(t *testing.T, tab context.Context, sq string) {
	t.Helper()
	x, y := center(t, tab, sq)
	if err := chromedp.Do(tab, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatal(err)
	}
}

const revJS = `+act().getElementById("activity").dataset.rev`

func TestTheActivityInABrowser(t *testing.T) {
	browser := browsertest.New(t, 900, 900)
	x := newLive(t)

	// Alice presses Play here under the board: Discord launches the
	// Activity in the thread; Carol joins it to watch.
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
	x.srv.JoinActivity(in.ID, x.carol.ID)
	tokensBefore, _ := x.srv.Exchanges()

	alice := x.open(t, browser, in, x.alice)
	carol := x.open(t, browser, in, x.carol)
	if tokens, _ := x.srv.Exchanges(); tokens != tokensBefore+2 {
		t.Errorf("%d codes traded at Discord's token endpoint for two sign-ins, want 2", tokens-tokensBefore)
	}
	if got := eval[string](t, alice, `act().getElementById("activity").dataset.color`); got != "w" {
		t.Errorf("Alice plays %q, want w", got)
	}
	if got := eval[string](t, carol, `act().getElementById("status").textContent`); !strings.Contains(got, "наблюдаете") {
		t.Errorf("Carol's Activity reads %q, want that she watches, in Russian", got)
	}
	rev := eval[int](t, alice, revJS)

	// Alice drags her h-pawn to g3, taking the ice: the move is played,
	// both windows show it, and the board follows in the thread.
	drag(t, alice, "h2", "g3")
	x.wait(t, alice, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	x.wait(t, carol, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	if _, err := x.srv.WaitFor(x.ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == x.thread && strings.Contains(c.Message.Content, "hxg3")
	}); err != nil {
		t.Fatalf("the move's board did not appear in the thread: %v", err)
	}
	if g, _ := x.svc.Game(context.Background(), x.game.ID); len(g.Moves) != 1 || g.Moves[0].UCI != "h2g3" {
		t.Fatalf("the game's moves %+v, want h2g3", g.Moves)
	}

	// Carol, who watches, cannot move: her page offers nothing to drag,
	// and a move sent with her token is refused, to her alone, in Russian.
	rev = eval[int](t, carol, revJS)
	drag(t, carol, "g7", "g6")
	time.Sleep(300 * time.Millisecond)
	if got := eval[int](t, carol, revJS); got != rev {
		t.Errorf("Carol's drag changed the game: revision %d, was %d", got, rev)
	}
	status := evalAwait[float64](t, carol, fmt.Sprintf(`(async () => { const r = await fetch("/activity/api/move", {method: "POST",
		headers: {Authorization: "Bearer " + window.tokens[0], "Content-Type": "application/json"},
		body: JSON.stringify({instance: %q, game: %d, rev: %d, move: "g7g6"})}); window.refused = (await r.json()).error; return r.status; })()`,
		in.ID, x.game.ID, rev))
	refusal := eval[string](t, carol, `window.refused`)
	if status != 409 || !strings.ContainsAny(refusal, "абвгдежзиклмнопрстуфхцчшщыэюя") {
		t.Errorf("Carol's move: %v %q, want 409 and why, in Russian", status, refusal)
	}
	if g, _ := x.svc.Game(context.Background(), x.game.ID); len(g.Moves) != 1 {
		t.Errorf("Carol's move was played: %+v", g.Moves)
	}

	// Bob answers in Discord, with /move: both windows follow.
	rev = eval[int](t, alice, revJS)
	x.reply(t)
	x.wait(t, alice, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	x.wait(t, carol, fmt.Sprintf(`%s > %d`, revJS[1:], rev))

	// Alice clicks a man and then its square; after Bob's next reply she
	// moves with the keyboard.
	rev = eval[int](t, alice, revJS)
	m := x.legal(t, game.White)
	click(t, alice, m[:2])
	x.wait(t, alice, `act().querySelector('#board g.picked[data-square="`+m[:2]+`"]') !== null`)
	click(t, alice, m[2:4])
	x.wait(t, alice, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	x.reply(t)
	rev = eval[int](t, alice, revJS)
	m = x.legal(t, game.White)
	keys := func(from, to string) string {
		var k strings.Builder
		for f := from[0]; f < to[0]; f++ {
			k.WriteString(kb.ArrowRight)
		}
		for f := from[0]; f > to[0]; f-- {
			k.WriteString(kb.ArrowLeft)
		}
		for r := from[1]; r < to[1]; r++ {
			k.WriteString(kb.ArrowUp)
		}
		for r := from[1]; r > to[1]; r-- {
			k.WriteString(kb.ArrowDown)
		}
		return k.String()
	}
	// Tab's way into the board: the frame, then the board, focused.
	eval[bool](t, alice, `(document.getElementById("f").focus(), act().getElementById("board").focus(), true)`)
	x.wait(t, alice, `document.activeElement === document.getElementById("f") && act().activeElement === act().getElementById("board")`)
	// The cursor starts on e2, White's king's pawn.
	if err := chromedp.Do(alice, chromedp.KeyEvent(keys("e2", m[:2])+kb.Enter+keys(m[:2], m[2:4])+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	x.wait(t, alice, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	if g, _ := x.svc.Game(context.Background(), x.game.ID); g.Moves[len(g.Moves)-1].UCI != m[:4] {
		t.Errorf("the keyboard played %s, want %s", g.Moves[len(g.Moves)-1].UCI, m[:4])
	}

	if dir := os.Getenv("ICEAGE_SCREENSHOTS"); dir != "" {
		for _, shot := range []struct {
			name string
			w, h int64
		}{{"activity-desktop.png", 900, 900}, {"activity-phone.png", 400, 860}} {
			if err := chromedp.Do(alice, chromedp.EmulateViewport(shot.w, shot.h), chromedp.Sleep(500*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(alice, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, shot.name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestAPawnPromotes: a pawn dragged to the last rank asks which man it
// becomes, and becomes it.
func TestAPawnPromotes(t *testing.T) {
	browser := browsertest.New(t, 600, 800)
	x := newLive(t)
	ch := x.srv.AddChannel(fakediscord.Channel{GuildID: x.guild.ID, Name: "endgame"})
	out, err := x.round.Start(context.Background(), play.NewGame{Guild: x.guild.ID, Channel: ch.ID, StartFEN: "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
		White: play.Seat{ID: x.alice.ID, Name: "Alice"}, Black: play.Seat{ID: x.bob.ID, Name: "Bob"}, At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	tab := x.open(t, browser, x.srv.LaunchActivity(ch.ID, x.alice.ID), x.alice)
	drag(t, tab, "a7", "a8")
	x.wait(t, tab, `!act().getElementById("promote").hidden`)
	if ok := eval[bool](t, tab, `(() => { const b = [...act().querySelectorAll("#promote button")].find(b => b.textContent === "knight"); if (b) b.click(); return !!b; })()`); !ok {
		t.Fatalf("no knight among the promotions: %q", eval[string](t, tab, `act().getElementById("promote").textContent`))
	}
	x.wait(t, tab, `act().getElementById("activity").dataset.rev > `+fmt.Sprint(out.Game.Revision))
	if g, _ := x.svc.Game(context.Background(), out.Game.ID); len(g.Moves) != 1 || g.Moves[0].UCI != "a7a8n" {
		t.Errorf("moves %+v, want a7a8n", g.Moves)
	}
}

// touch is a finger's event at a point of the window.
func touch(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			p.TouchPoints = []*input.TouchPoint{}
		}
		_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, p)
		return err
	})
}

// TestAFingerDragsAMan: on a phone, a man dragged with a finger moves.
func TestAFingerDragsAMan(t *testing.T) {
	browser := browsertest.New(t, 400, 860)
	x := newLive(t)
	in := x.srv.LaunchActivity(x.thread, x.alice.ID)
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(400, 860, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	q := url.Values{"code": {x.srv.Authorize(x.alice.ID)}, "instance": {in.ID}, "guild": {in.GuildID}, "channel": {in.ChannelID}}
	if err := chromedp.Do(tab, watchCSP(t, tab), chromedp.Navigate(x.site.URL+"/test/parent?"+q.Encode())); err != nil {
		t.Fatal(err)
	}
	x.wait(t, tab, `act().querySelector("#board svg") !== null && act().getElementById("activity").dataset.rev !== undefined`)
	if w := eval[float64](t, tab, `act().getElementById("board").getBoundingClientRect().width`); w < 300 || w > 400 {
		t.Errorf("on a phone 400 pixels wide the board is %v wide", w)
	}
	rev := eval[int](t, tab, revJS)
	m := x.legal(t, game.White)
	x0, y0 := center(t, tab, m[:2])
	x1, y1 := center(t, tab, m[2:4])
	steps := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, x0, y0)}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		steps = append(steps, touch(input.DispatchTouchEventTypeTouchMove, x0+(x1-x0)*f, y0+(y1-y0)*f))
	}
	steps = append(steps, touch(input.DispatchTouchEventTypeTouchEnd, x1, y1))
	if err := chromedp.Do(tab, steps...); err != nil {
		t.Fatal(err)
	}
	x.wait(t, tab, fmt.Sprintf(`%s > %d`, revJS[1:], rev))
	if g, _ := x.svc.Game(context.Background(), x.game.ID); len(g.Moves) != 1 || g.Moves[0].UCI != m[:4] {
		t.Errorf("moves %+v, want %s", g.Moves, m[:4])
	}
}
