package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	stdimage "image"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/render"
)

// discordStub stands in for Discord's REST API under discordgo: it
// records every request, multipart files included, and answers each with
// an empty success, and GET /guilds/{id} with the guild "Ice Club".
type discordStub struct {
	mu   sync.Mutex
	reqs []stubRequest
}

type stubRequest struct {
	method, path string
	body         map[string]any // the JSON payload
	files        []stubFile
}

type stubFile struct {
	name, contentType string
	data              []byte
}

func (d *discordStub) RoundTrip(r *http.Request) (*http.Response, error) {
	req := stubRequest{method: r.Method, path: r.URL.Path}
	raw, _ := io.ReadAll(r.Body)
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			data, _ := io.ReadAll(p)
			if p.FormName() == "payload_json" {
				_ = json.Unmarshal(data, &req.body)
				continue
			}
			req.files = append(req.files, stubFile{name: p.FileName(), contentType: p.Header.Get("Content-Type"), data: data})
		}
	} else if len(raw) > 0 {
		_ = json.Unmarshal(raw, &req.body)
	}
	d.mu.Lock()
	d.reqs = append(d.reqs, req)
	d.mu.Unlock()
	answer := "{}"
	if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/guilds/") {
		// @everyone sees every channel: what the visibility rule reads.
		answer = `{"id":"g1","name":"Ice Club","owner_id":"owner","roles":[{"id":"g1","permissions":"1024"}]}`
	}
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(answer)), Request: r}, nil
}

// take returns the requests recorded since the last take.
func (d *discordStub) take() []stubRequest {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.reqs
	d.reqs = nil
	return out
}

// recordsFixture is a bot on an in-memory storage whose REST calls go to
// a stub, with a clock the test sets.
type recordsFixture struct {
	t    *testing.T
	b    *Bot
	svc  *play.Service
	st   *memstore.Memory
	api  *discordStub
	now  time.Time
	next int
}

func newRecordsFixture(t *testing.T) *recordsFixture {
	f := &recordsFixture{t: t, st: memstore.New(), api: &discordStub{}, now: time.Date(2026, 3, 2, 20, 0, 0, 0, time.UTC)}
	f.svc = play.New(f.st, play.Options{Rand: func(int) int { return 0 }})
	b, err := New(Config{Token: "token", Now: func() time.Time { return f.now },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, f.svc)
	if err != nil {
		t.Fatal(err)
	}
	b.s.Client = &http.Client{Transport: f.api}
	b.self.noteApp("app")
	f.b = b
	return f
}

// play plays a game through play to its end: the moves, then the loser's
// resignation when resigns is "white" or "black".
func (f *recordsFixture) play(guild, channel, white, black string, rated bool, resigns string, moves ...string) play.Game {
	f.t.Helper()
	ctx := context.Background()
	tick := func() time.Time { f.now = f.now.Add(time.Minute); return f.now }
	r, err := f.svc.Start(ctx, play.NewGame{Guild: guild, Channel: channel, White: play.Seat{ID: white, Name: strings.ToUpper(white)},
		Black: play.Seat{ID: black, Name: strings.ToUpper(black)}, Rated: rated, DaysPerMove: 3, At: tick()})
	if err != nil {
		f.t.Fatal(err)
	}
	g := r.Game
	for _, mv := range moves {
		if r, err = f.svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: tick()}, mv); err != nil {
			f.t.Fatal(err)
		}
		g = r.Game
	}
	if resigns != "" {
		by := g.White.ID
		if resigns == "black" {
			by = g.Black.ID
		}
		if r, err = f.svc.Resign(ctx, play.Act{By: by, Game: g.ID, Revision: g.Revision, At: tick()}); err != nil {
			f.t.Fatal(err)
		}
		g = r.Game
	}
	return g
}

// interaction sends an interaction through the bot's one door and returns
// the REST requests it made.
func (f *recordsFixture) interaction(i *discordgo.Interaction) []stubRequest {
	f.t.Helper()
	f.next++
	i.ID, i.AppID, i.Token = fmt.Sprint("i", f.next), "app", fmt.Sprint("token", f.next)
	if i.GuildID == "" {
		i.GuildID = "g1"
	}
	if i.ChannelID == "" {
		i.ChannelID = "lobby"
	}
	f.b.onInteraction(f.b.s, &discordgo.InteractionCreate{Interaction: i})
	return f.api.take()
}

func (f *recordsFixture) command(user, locale, name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	return &discordgo.Interaction{Type: discordgo.InteractionApplicationCommand, Locale: discordgo.Locale(locale),
		Member: &discordgo.Member{User: &discordgo.User{ID: user, Username: user}},
		Data:   discordgo.ApplicationCommandInteractionData{Name: name, Options: opts}}
}

func (f *recordsFixture) click(user, locale, customID string, values ...string) *discordgo.Interaction {
	return &discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Locale: discordgo.Locale(locale),
		Member: &discordgo.Member{User: &discordgo.User{ID: user, Username: user}},
		Data:   discordgo.MessageComponentInteractionData{CustomID: customID, Values: values}}
}

func intOpt(name string, v int) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: float64(v)}
}

func stringOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

func userOpt(name, id string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: id}
}

// answer returns the one interaction callback among reqs: its type and
// message, with the files sent along.
func answer(t *testing.T, reqs []stubRequest) (typ int, msg map[string]any, files []stubFile) {
	t.Helper()
	for _, r := range reqs {
		if strings.HasSuffix(r.path, "/callback") {
			typ = int(r.body["type"].(float64))
			msg, _ = r.body["data"].(map[string]any)
			return typ, msg, r.files
		}
	}
	t.Fatalf("no interaction callback among %d requests: %+v", len(reqs), reqs)
	return
}

// edited returns the edit of a deferred answer among reqs.
func edited(t *testing.T, reqs []stubRequest) (msg map[string]any, files []stubFile) {
	t.Helper()
	for _, r := range reqs {
		if r.method == http.MethodPatch && strings.HasSuffix(r.path, "/messages/@original") {
			return r.body, r.files
		}
	}
	t.Fatalf("no edit of the deferred answer among %+v", reqs)
	return
}

// text gathers every text of a message a user reads: content, embeds
// (titles, descriptions, fields, footers), button labels, menu
// placeholders and options, attachment descriptions.
func text(msg map[string]any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch k {
				case "content", "title", "description", "name", "value", "text", "label", "placeholder":
					if s, ok := x.(string); ok {
						b.WriteString(s + "\n")
						continue
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(msg)
	return b.String()
}

func embed(t *testing.T, msg map[string]any) map[string]any {
	t.Helper()
	es, _ := msg["embeds"].([]any)
	if len(es) == 0 {
		t.Fatalf("no embed in %v", msg)
	}
	return es[0].(map[string]any)
}

// customIDs lists the custom ids of a message's components, with "!" after
// a disabled one.
func customIDs(msg map[string]any) []string {
	var out []string
	rows, _ := msg["components"].([]any)
	for _, row := range rows {
		cs, _ := row.(map[string]any)["components"].([]any)
		for _, c := range cs {
			c := c.(map[string]any)
			id, _ := c["custom_id"].(string)
			if d, _ := c["disabled"].(bool); d {
				id += "!"
			}
			out = append(out, id)
		}
	}
	return out
}

func TestLeaderboardIsPagedWithButtons(t *testing.T) {
	f := newRecordsFixture(t)
	var ps []play.Player
	for i := range 13 {
		p := play.NewPlayer("g1", fmt.Sprintf("u%02d", i))
		p.Name = fmt.Sprintf("Player_%02d", i)
		p.Rating = play.Rating{Rating: 2000 - 10*float64(i), Deviation: 60, Volatility: 0.06, Updated: f.now.Add(-time.Hour)}
		p.RatedGames, p.RatedTally = 4, play.Tally{Won: 3, Lost: 1}
		if i == 12 {
			p.Rating.Deviation = 300
			p.RatedGames, p.RatedTally = 1, play.Tally{Won: 1}
		}
		ps = append(ps, p)
	}
	err := f.st.Update(context.Background(), func(tx play.Tx) error {
		for _, p := range ps {
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	typ, msg, _ := answer(t, f.interaction(f.command("ann", "en-US", "leaderboard")))
	e := embed(t, msg)
	desc := e["description"].(string)
	if typ != 4 || strings.Count(desc, "\n") != 9 || !strings.HasPrefix(desc, "**1.** Player\\_00 — **2000** · 4 games · 75% won") {
		t.Errorf("page 1 (type %d):\n%s", typ, desc)
	}
	if footer := e["footer"].(map[string]any)["text"].(string); !strings.HasPrefix(footer, "Page 1 of 2 · 13 players") {
		t.Errorf("footer %q", footer)
	}
	if got := fmt.Sprint(customIDs(msg)); got != "[lb:server:0! lb:server:2]" {
		t.Errorf("buttons %s", got)
	}

	typ, msg, _ = answer(t, f.interaction(f.click("cat", "fr", "lb:server:2")))
	desc = embed(t, msg)["description"].(string)
	if typ != 7 || !strings.HasPrefix(desc, "**11.** Player\\_10 — **1900** · 4 parties") || !strings.HasSuffix(desc, "**13.** Player\\_12 — **1880?** · 1 partie · 100\u00a0% de victoires") {
		t.Errorf("page 2 in French (type %d):\n%s", typ, desc)
	}
	if got := fmt.Sprint(customIDs(msg)); got != "[lb:server:1 lb:server:3!]" {
		t.Errorf("buttons %s", got)
	}

	_, msg, _ = answer(t, f.interaction(f.command("ann", "en-US", "leaderboard", stringOpt("scope", "global"))))
	if desc := embed(t, msg)["description"].(string); !strings.Contains(desc, "No one is on this board yet") {
		t.Errorf("the empty global board:\n%s", desc)
	}
}

func TestStatsShowTheRatingChart(t *testing.T) {
	f := newRecordsFixture(t)
	f.play("g1", "t1", "ann", "bob", true, "black", "hxg3", "Nxf6")
	f.play("g1", "t2", "bob", "ann", true, "white", "Nxf3")
	f.play("g1", "t3", "ann", "bob", false, "white", "hxg3")

	typ, msg, files := answer(t, f.interaction(f.command("bob", "en-US", "stats", userOpt("user", "ann"))))
	e := embed(t, msg)
	all := text(msg)
	for _, want := range []string{"ANN at Ice Age Chess", "+2 =0 −1", "With White", "1. hxg3 (2 games)", "ANN against you", "Longest winning streak"} {
		if !strings.Contains(all, want) {
			t.Errorf("the stats lack %q:\n%s", want, all)
		}
	}
	if typ != 4 || len(files) != 1 || files[0].name != "rating.png" || files[0].contentType != "image/png" {
		t.Fatalf("type %d, files %+v", typ, files)
	}
	if _, err := png.Decode(bytes.NewReader(files[0].data)); err != nil {
		t.Fatalf("the chart is no PNG: %v", err)
	}
	atts := msg["attachments"].([]any)
	alt := atts[0].(map[string]any)["description"].(string)
	if !strings.HasPrefix(alt, "Rating chart of ANN: 2 rated games, from 2 Mar 2026 to 2 Mar 2026. Now ") {
		t.Errorf("alt text %q", alt)
	}
	// In Russian, the dates are Russian too.
	_, ru, _ := answer(t, f.interaction(f.command("bob", "ru", "stats", userOpt("user", "ann"))))
	if alt := ru["attachments"].([]any)[0].(map[string]any)["description"].(string); !strings.Contains(alt, "2 мар. 2026 г.") || strings.Contains(alt, "Mar") {
		t.Errorf("the Russian alt text %q", alt)
	}
	if img, _ := e["image"].(map[string]any); img["url"] != "attachment://rating.png" {
		t.Errorf("the embed shows %v", e["image"])
	}

	_, msg, files = answer(t, f.interaction(f.command("cat", "ru", "stats")))
	if all := text(msg); len(files) != 0 || !strings.Contains(all, "ещё не закончил(а) ни одной партии") {
		t.Errorf("the stats of a player without games: %d files,\n%s", len(files), all)
	}
}

func TestVariantStatsInPercentages(t *testing.T) {
	f := newRecordsFixture(t)
	f.play("g1", "t1", "ann", "bob", true, "black", "hxg3", "Nxf6")
	f.play("g1", "t2", "ann", "bob", true, "white", "hxg3")
	f.play("g2", "t3", "cat", "dan", false, "white")
	f.play("g1", "t4", "ann", "bob", false, "", "hxg3") // going on: not counted

	_, msg, _ := answer(t, f.interaction(f.command("ann", "fr", "variantstats")))
	fields := embed(t, msg)["fields"].([]any)
	server := fields[0].(map[string]any)["value"].(string)
	global := fields[1].(map[string]any)["value"].(string)
	if want := "2 parties\u00a0: victoires des Blancs 50,0\u00a0%, des Noirs 50,0\u00a0%, nulles 0,0\u00a0%\nFins de partie\u00a0: abandon 100,0\u00a0%\nÂges de Glace par partie\u00a0: 0,0"; server != want {
		t.Errorf("this server:\n%q\nwant\n%q", server, want)
	}
	if !strings.HasPrefix(global, "3 parties\u00a0: victoires des Blancs 33,3\u00a0%, des Noirs 66,7\u00a0%") {
		t.Errorf("everywhere:\n%s", global)
	}
}

func TestPGNAndGIFExportAGame(t *testing.T) {
	f := newRecordsFixture(t)
	g := f.play("g1", "thread", "ann", "bob", true, "black", "hxg3", "Nxf6", "gxh4")
	other := f.play("g2", "far", "cat", "dan", false, "white", "hxg3")

	// In the game's thread after the end: that game.
	i := f.command("bob", "en-US", "pgn")
	i.ChannelID = "thread"
	reqs := f.interaction(i)
	typ, msg, files := answer(t, reqs)
	if typ != 4 || len(files) != 1 || files[0].name != fmt.Sprintf("iceage-%d.pgn", g.ID) || files[0].contentType != pgnType {
		t.Fatalf("type %d, files %+v", typ, files)
	}
	if c := msg["content"].(string); c != fmt.Sprintf("ANN vs BOB, game #%d: White wins: Black resigned.", g.ID) {
		t.Errorf("caption %q", c)
	}
	m, tags, err := game.ParsePGN(string(files[0].data))
	if err != nil {
		t.Fatalf("%v in\n%s", err, files[0].data)
	}
	if tags.Site != "Ice Club, Discord" || tags.WhiteElo != "1500" || tags.TimeControl != "1/259200" || len(m.Moves()) != 3 || m.Outcome() != g.Outcome {
		t.Errorf("read back %+v, %d moves, %+v", tags, len(m.Moves()), m.Outcome())
	}

	// By number, and against an opponent.
	_, _, files = answer(t, f.interaction(f.command("cat", "en-US", "pgn", intOpt("game", int(g.ID)))))
	if len(files) != 1 {
		t.Errorf("a game of this server by number: %+v", files)
	}
	_, _, files = answer(t, f.interaction(f.command("ann", "en-US", "pgn", userOpt("opponent", "bob"))))
	if len(files) != 1 || !strings.Contains(string(files[0].data), `[Black "BOB"]`) {
		t.Errorf("the last game against bob: %+v", files)
	}

	// Refused: a game of another server, no game against dan, no game here.
	for _, c := range []struct {
		i    *discordgo.Interaction
		want string
	}{
		{f.command("ann", "en-US", "pgn", intOpt("game", int(other.ID))), fmt.Sprintf("There is no game #%d that you can see.", other.ID)},
		{f.command("ann", "en-US", "gif", userOpt("opponent", "dan")), "You have not finished a game against <@dan> on this server."},
		{f.command("ann", "nl", "pgn"), "In dit kanaal is nog geen partij gespeeld."},
	} {
		typ, msg, files := answer(t, f.interaction(c.i))
		if typ != 4 || len(files) != 0 || msg["flags"] != float64(discordgo.MessageFlagsEphemeral) || !strings.HasPrefix(msg["content"].(string), c.want) {
			t.Errorf("got type %d, %d files, %v; want an ephemeral %q", typ, len(files), msg, c.want)
		}
	}

	// The GIF: a deferred answer, then the replay.
	i = f.command("ann", "en-US", "gif", intOpt("game", int(g.ID)))
	reqs = f.interaction(i)
	if typ, _, _ := answer(t, reqs); typ != 5 {
		t.Errorf("the GIF's first answer has type %d, want 5 (deferred)", typ)
	}
	msg, files = edited(t, reqs)
	if len(files) != 1 || files[0].contentType != "image/gif" {
		t.Fatalf("files %+v", files)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(files[0].data))
	if err != nil || len(anim.Image) != 5 {
		t.Fatalf("the GIF: %v frames, %v; want the start, three moves and the result", len(anim.Image), err)
	}
	// The last frame is the final board under the result, not under
	// "Black to move".
	final, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	mt, err := g.Match()
	if err != nil {
		t.Fatal(err)
	}
	played := mt.Moves()
	canvas := stdimage.NewRGBA(stdimage.Rect(0, 0, anim.Config.Width, anim.Config.Height))
	for _, fr := range anim.Image {
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
	}
	want := render.Board(&final, render.Options{Size: anim.Config.Width, Orientation: render.WhiteBottom, Words: i18n.BoardWords{Lang: i18n.English},
		Title: "White wins: Black resigned", LastMove: played[len(played)-1]})
	if d := pixelsDiffering(canvas, want); d != 0 {
		t.Errorf("the GIF's last frame differs from the final board under its result in %d pixels", d)
	}
	alt := msg["attachments"].([]any)[0].(map[string]any)["description"].(string)
	if alt != "Animated replay of ANN vs BOB, 2 moves: White wins: Black resigned." {
		t.Errorf("alt text %q", alt)
	}
}

// pixelsDiffering counts the pixels whose colours differ in a and b.
func pixelsDiffering(a, b stdimage.Image) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				n++
			}
		}
	}
	return n
}

func TestHistoryOffersEachGame(t *testing.T) {
	f := newRecordsFixture(t)
	var gs []play.Game
	for i := range 12 {
		resigns := "white"
		if i%3 == 0 {
			resigns = "black"
		}
		gs = append(gs, f.play("g1", fmt.Sprint("t", i), "ann", "bob", true, resigns, "hxg3", "Nxf6"))
	}
	f.play("g2", "elsewhere", "ann", "bob", true, "white", "hxg3")

	typ, msg, _ := answer(t, f.interaction(f.command("bob", "en-US", "history", userOpt("user", "ann"))))
	desc := embed(t, msg)["description"].(string)
	lines := strings.Split(desc, "\n")
	if typ != 4 || msg["flags"] != float64(discordgo.MessageFlagsEphemeral) || len(lines) != historyShown {
		t.Fatalf("type %d, flags %v, %d lines:\n%s", typ, msg["flags"], len(lines), desc)
	}
	last := gs[len(gs)-1]
	if !regexp.MustCompile(`^⚪ \*\*Lost\*\* against BOB · resignation · \d+ \(−\d+\) · <t:\d+:d> · ` + fmt.Sprintf("`#%d`$", last.ID)).MatchString(lines[0]) {
		t.Errorf("the newest game reads %q", lines[0])
	}
	ids := customIDs(msg)
	if want := fmt.Sprint([]string{"rec:pgn", "rec:gif", fmt.Sprintf("rec:older:ann:%d", gs[2].ID)}); fmt.Sprint(ids) != want {
		t.Errorf("components %v, want %s", ids, want)
	}

	// The older games: the two left on this server.
	typ, msg, _ = answer(t, f.interaction(f.click("bob", "en-US", fmt.Sprintf("rec:older:ann:%d", gs[2].ID))))
	if desc := embed(t, msg)["description"].(string); typ != 7 || strings.Count(desc, "\n") != 1 || !strings.Contains(desc, "**Won**") {
		t.Errorf("older games (type %d):\n%s", typ, desc)
	}

	// A game chosen in a menu comes to the one who chose it.
	typ, msg, files := answer(t, f.interaction(f.click("bob", "es-ES", "rec:pgn", fmt.Sprint(gs[4].ID))))
	if typ != 4 || msg["flags"] != float64(discordgo.MessageFlagsEphemeral) || len(files) != 1 || !strings.Contains(msg["content"].(string), "partida n.º") {
		t.Errorf("the PGN chosen: type %d, %v, %d files", typ, msg, len(files))
	}
	reqs := f.interaction(f.click("bob", "en-US", "rec:gif", fmt.Sprint(gs[4].ID)))
	if typ, _, _ := answer(t, reqs); typ != 5 {
		t.Errorf("the GIF chosen: first answer of type %d", typ)
	}
	if _, files := edited(t, reqs); len(files) != 1 {
		t.Errorf("the GIF chosen: %d files", len(files))
	}
}

// TestRecordsReadInEveryLanguage runs every command of results in every
// language and checks that no message id or empty template field shows.
func TestRecordsReadInEveryLanguage(t *testing.T) {
	f := newRecordsFixture(t)
	g := f.play("g1", "t1", "ann", "bob", true, "black", "hxg3", "Nxf6")
	f.play("g1", "t2", "bob", "ann", true, "", "hxg3", "Nxf6", "gxh4", "Nxh5") // going on
	locales := map[i18n.Lang]string{i18n.English: "en-GB", i18n.French: "fr", i18n.Russian: "ru", i18n.Norwegian: "no", i18n.Spanish: "es-419", i18n.Dutch: "nl"}
	leak := regexp.MustCompile(`\b(leaderboard|stats|variantstats|history|export|pgn|gif|ending|button|choice)\.[a-z_]+|<no value>`)
	for lang, loc := range locales {
		for _, i := range []*discordgo.Interaction{
			f.command("ann", loc, "leaderboard"),
			f.command("ann", loc, "leaderboard", stringOpt("scope", "global"), intOpt("page", 3)),
			f.command("ann", loc, "stats", userOpt("user", "bob")),
			f.command("zed", loc, "stats"),
			f.command("ann", loc, "variantstats"),
			f.command("ann", loc, "pgn", intOpt("game", int(g.ID))),
			f.command("ann", loc, "pgn", intOpt("game", 999)),
			f.command("zed", loc, "gif", userOpt("opponent", "ann")),
			f.command("ann", loc, "history"),
			f.command("zed", loc, "history"),
		} {
			name := i.Data.(discordgo.ApplicationCommandInteractionData).Name
			var all []string
			for _, r := range f.interaction(i) {
				all = append(all, text(r.body))
				if d, ok := r.body["data"].(map[string]any); ok {
					all = append(all, text(d))
				}
			}
			s := strings.Join(all, "\n")
			if strings.TrimSpace(s) == "" || leak.MatchString(s) {
				t.Errorf("/%s in %s:\n%s", name, lang, s)
			}
			if lang != i18n.English && strings.Contains(s, "Sorry") {
				t.Errorf("/%s in %s failed:\n%s", name, lang, s)
			}
		}
	}
}

func TestSiteIsTheServersNameFromTheGateway(t *testing.T) {
	f := newRecordsFixture(t)
	f.b.onGuildCreate(f.b.s, &discordgo.GuildCreate{Guild: &discordgo.Guild{ID: "g1", Name: "Glacier"}})
	if got := f.b.records.siteName(context.Background(), "g1"); got != "Glacier, Discord" {
		t.Errorf("after GUILD_CREATE: %q", got)
	}
	f.b.onGuildUpdate(f.b.s, &discordgo.GuildUpdate{Guild: &discordgo.Guild{ID: "g1", Name: "Permafrost"}})
	if got := f.b.records.siteName(context.Background(), "g1"); got != "Permafrost, Discord" {
		t.Errorf("after GUILD_UPDATE: %q", got)
	}
	if reqs := f.api.take(); len(reqs) != 0 {
		t.Errorf("asked Discord: %+v", reqs)
	}
	if got := f.b.records.siteName(context.Background(), "g2"); got != "Ice Club, Discord" {
		t.Errorf("a server not seen: %q", got)
	}
	if got := f.b.records.siteName(context.Background(), ""); got != "Discord" {
		t.Errorf("no server: %q", got)
	}
}

// FuzzRecordClicks sends the buttons and menus of results any custom id
// and value, as a forged click could: each is answered or refused, never
// a panic.
func FuzzRecordClicks(f *testing.F) {
	for _, s := range [][2]string{{"lb:server:2", ""}, {"lb:global:-5", ""}, {"lb:x:1", ""}, {"rec:pgn", "1"}, {"rec:gif", "99999999999999999999"},
		{"rec:older:ann:1", ""}, {"rec:older::x", ""}, {"rec", ""}, {"lb", ""}, {"rec:pgn", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, id, value string) {
		if !strings.HasPrefix(id, "lb") && !strings.HasPrefix(id, "rec") {
			return
		}
		fx := newRecordsFixture(t)
		fx.play("g1", "t1", "ann", "bob", true, "black", "hxg3")
		i := fx.click("ann", "en-US", id, value)
		i.ID, i.AppID, i.Token, i.GuildID, i.ChannelID = "i", "app", "token", "g1", "c1"
		_ = fx.b.route(fx.b.newInteraction(i))
	})
}
