package bot

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/render"
)

var corrT0 = time.Date(2027, 6, 1, 10, 0, 0, 0, time.UTC)

// offlineBot is a Bot that never connects: enough to build messages and
// to read settings.
func offlineBot(t *testing.T, opts play.Options) (*Bot, *play.Service, *time.Time) {
	t.Helper()
	now := corrT0
	if opts.Rand == nil {
		opts.Rand = func(int) int { return 0 }
	}
	svc := play.New(memstore.New(), opts)
	b, err := New(Config{Token: "offline", Now: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, svc)
	if err != nil {
		t.Fatal(err)
	}
	return b, svc, &now
}

func TestCorrespondenceCommandsAreValidForDiscord(t *testing.T) {
	cfg := Config{VacationDays: 14}
	var cmds []*discordgo.ApplicationCommand
	for _, name := range []string{"games", "vacation", "premove", "settings"} {
		cmds = append(cmds, commandTable[name].declare(&cfg))
	}
	for _, c := range cmds {
		checkName(t, c.Name, c.NameLocalizations)
		for loc, d := range *c.DescriptionLocalizations {
			if n := utf8.RuneCountInString(d); n < 1 || n > 100 {
				t.Errorf("/%s in %s: description of %d characters", c.Name, loc, n)
			}
		}
		if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
			t.Errorf("/%s: description of %d characters", c.Name, n)
		}
		for _, o := range c.Options {
			ol := o.NameLocalizations
			checkName(t, o.Name, &ol)
			for loc, d := range o.DescriptionLocalizations {
				if n := utf8.RuneCountInString(d); n < 1 || n > 100 {
					t.Errorf("/%s %s in %s: description of %d characters", c.Name, o.Name, loc, n)
				}
			}
			for _, ch := range o.Choices {
				if n := utf8.RuneCountInString(ch.Name); n < 1 || n > 100 || len(ch.NameLocalizations) != len(localized("choice.white")) {
					t.Errorf("/%s %s: choice %q (%d localizations)", c.Name, o.Name, ch.Name, len(ch.NameLocalizations))
				}
			}
		}
	}
	if days := cmds[1].Options[0]; !days.Required || *days.MinValue != 0 || days.MaxValue != 14 {
		t.Errorf("/vacation days: required %v, %v to %v", days.Required, *days.MinValue, days.MaxValue)
	}
}

func TestParseLines(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"Nxf6 gxf6 Qd2 Qe7", "[[Nxf6 gxf6 Qd2 Qe7]]"},
		{"Nxf6 gxf6; Bxf6 Qxf6", "[[Nxf6 gxf6] [Bxf6 Qxf6]]"},
		{"12. Nxf6 gxf6 13.Qd2 Qe7", "[[Nxf6 gxf6 Qd2 Qe7]]"},
		{"12... Nxf6, gxf6 | e4 d5", "[[Nxf6 gxf6] [e4 d5]]"},
		{" ; ; ", "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(parseLines(tt.text)); got != tt.want && !(tt.want == "[]" && got == "[]") {
			t.Errorf("parseLines(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}

func TestParseHours(t *testing.T) {
	tests := []struct {
		text string
		want []int
		ok   bool
	}{
		{"24 1", []int{24, 1}, true},
		{"48h, 12h", []int{48, 12}, true},
		{"0", []int{}, true},
		{"72 24 6 1", []int{72, 24, 6, 1}, true},
		{"72 24 6 2 1", nil, false},
		{"soon", nil, false},
		{"400", nil, false},
		{"", nil, false},
	}
	for _, tt := range tests {
		got, ok := parseHours(tt.text)
		if ok != tt.ok || ok && !slices.Equal(got, tt.want) || ok && got == nil {
			t.Errorf("parseHours(%q) = %v, %v; want %v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

func TestGamesDashboard(t *testing.T) {
	_, svc, now := offlineBot(t, play.Options{})
	ctx := context.Background()
	start := func(channel, white, black string, days int) play.Game {
		r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: channel, White: play.Seat{ID: white, Name: strings.ToUpper(white)},
			Black: play.Seat{ID: black, Name: strings.ToUpper(black)}, DaysPerMove: days, At: *now})
		if err != nil {
			t.Fatal(err)
		}
		return r.Game
	}
	theirs := start("t1", "opp1", "me", 3) // opp1 to move
	mine := start("t2", "me", "opp2", 7)   // me to move, a later deadline
	soon := start("t3", "me", "opp3", 1)   // me to move, the soonest deadline
	casual := start("t4", "me", "opp4", 0) // me to move, no deadline
	// opp2 goes on vacation: /games says so.
	if _, err := svc.Vacation(ctx, "opp2", 3, *now); err != nil {
		t.Fatal(err)
	}
	gs, err := svc.ActiveGames(ctx, "me")
	if err != nil {
		t.Fatal(err)
	}
	sortGames(gs, "me")
	var order []uint64
	for _, g := range gs {
		order = append(order, g.ID)
	}
	if want := []uint64{soon.ID, mine.ID, casual.ID, theirs.ID}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want mine by deadline (none last), then theirs: %v", order, want)
	}
	for _, lang := range i18n.Languages() {
		m := gamesMessage(lang, "me", gs, play.Prefs{}, func() time.Time { return *now })
		d := m.Embeds[0].Description
		if strings.Contains(d, "<no value>") || regexp.MustCompile(`games\.[a-z]`).MatchString(d) {
			t.Fatalf("%s: %s", lang, d)
		}
		for _, g := range gs {
			if !strings.Contains(d, "<#"+g.Channel+">") {
				t.Errorf("%s: no link to %s", lang, g.Channel)
			}
		}
		if !strings.Contains(d, fmt.Sprintf("<t:%d:R>", soon.Deadline.Unix())) {
			t.Errorf("%s: no time left as a Discord timestamp: %s", lang, d)
		}
		if !strings.Contains(d, "🏖️") || !strings.Contains(d, "<@opp2>") {
			t.Errorf("%s: opp2's vacation is not shown: %s", lang, d)
		}
		if strings.Index(d, "<#t3>") > strings.Index(d, "<#t1>") {
			t.Errorf("%s: a game where it is my move comes after one where it is not", lang)
		}
		menu := m.Components[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
		if menu.CustomID != "gs:open" || len(menu.Options) != 4 || menu.Options[0].Value != fmt.Sprint(soon.ID) {
			t.Fatalf("%s: menu %+v", lang, menu)
		}
		for _, o := range menu.Options {
			if utf8.RuneCountInString(o.Label) > 100 || utf8.RuneCountInString(o.Description) > 100 || strings.Contains(o.Label, "<@") {
				t.Errorf("%s: option %+v", lang, o)
			}
		}
	}
	if m := gamesMessage(i18n.English, "nobody", nil, play.Prefs{}, func() time.Time { return *now }); len(m.Components) != 0 || !strings.Contains(m.Embeds[0].Description, "/challenge") {
		t.Fatalf("no games: %+v", m.Embeds[0])
	}
	// opp3 waits on me in their one game: no "0 games".
	waiting, err := svc.ActiveGames(ctx, "opp3")
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[i18n.Lang]string{i18n.English: "No game is waiting for your move.", i18n.Russian: "Ни одна партия не ждёт вашего хода."} {
		d := gamesMessage(lang, "opp3", waiting, play.Prefs{}, func() time.Time { return *now }).Embeds[0].Description
		if !strings.Contains(d, want) || strings.Contains(d, " 0 ") {
			t.Errorf("%s: /games when no game waits for me:\n%s", lang, d)
		}
	}
}

func TestBoardsSayWhoIsAwayAndWhoChooses(t *testing.T) {
	b, svc, now := offlineBot(t, play.Options{OpponentChooses: true})
	ctx := context.Background()
	r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "t1", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "k"}, DaysPerMove: 3, At: *now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Vacation(ctx, "k", 5, *now); err != nil {
		t.Fatal(err)
	}
	g, _ := svc.Game(ctx, r.Game.ID)
	pos, _ := g.Position()
	status := b.boards.status(context.Background(), i18n.English, &g, &pos)
	if !strings.Contains(status, "<@k> is on vacation until <t:") || !strings.Contains(status, "Move due") {
		t.Fatalf("status %q", status)
	}
	*now = g.Deadline
	tr, err := svc.TimeOut(ctx, g.ID, *now)
	if err != nil {
		t.Fatal(err)
	}
	g = tr.Game
	status = b.boards.status(context.Background(), i18n.English, &g, &pos)
	if strings.Contains(status, "Move due") || !strings.Contains(status, "<@w> ran out of time: <@k> chooses") {
		t.Fatalf("status after the flag %q", status)
	}
	buttons := claimButtons(i18n.French, &g)[0].(discordgo.ActionsRow).Components
	if id := buttons[0].(discordgo.Button).CustomID; id != fmt.Sprintf("g:cwin:%d:%d", g.ID, g.Revision) {
		t.Fatalf("claim button %q", id)
	}
	if _, f, ok := clicks.match(buttons[0].(discordgo.Button).CustomID); !ok || f.p.name != "g:cwin" {
		t.Fatal("the claim buttons are not routed")
	}
}

func TestPremoveTextShowsTheQueueInSAN(t *testing.T) {
	_, svc, now := offlineBot(t, play.Options{})
	ctx := context.Background()
	r, err := svc.Start(ctx, play.NewGame{Channel: "t1", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "k"}, DaysPerMove: 3, At: *now})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game
	if r, err = svc.Move(ctx, play.Act{By: "w", Game: g.ID, Revision: g.Revision, At: *now}, "hxg3"); err != nil {
		t.Fatal(err)
	}
	g = r.Game
	if r, err = svc.Premove(ctx, play.Act{By: "w", Game: g.ID, Revision: g.Revision, At: *now}, parseLines("Nxf6 Nxf3 Nxg4 Nxg5; g8h6 g1h3")); err != nil {
		t.Fatal(err)
	}
	text := premoveText(i18n.English, &r.Game, "w")
	if !strings.Contains(text, "1. Nxf6 → **Nxf3** · Nxg4 → **Nxg5**") || !strings.Contains(text, "2. Nxh6 → **Nxh3**") {
		t.Fatalf("%s", text)
	}
	if text := premoveText(i18n.English, &r.Game, "k"); strings.Contains(text, "Nxf3") {
		t.Fatalf("the opponent sees the queue: %s", text)
	}
}

func TestSettingsTextInEveryLanguage(t *testing.T) {
	noValue := regexp.MustCompile(`<no value>|(settings|choice)\.[a-z]`)
	for _, lang := range i18n.Languages() {
		for _, p := range []play.Prefs{{}, {Notifications: play.NotifyDM, Reminders: []int{48, 2}, Language: "ru"}, {Reminders: []int{}, DMRefused: corrT0, AwayUntil: corrT0.Add(time.Hour), Theme: "colorblind"}} {
			text := settingsText(lang, &p, render.Classic, func() time.Time { return corrT0 })
			if noValue.MatchString(text) {
				t.Errorf("%s: %s", lang, text)
			}
		}
	}
}

func TestCorrespondenceRefusalsCarryTheirData(t *testing.T) {
	for _, lang := range i18n.Languages() {
		x := &play.Refusal{Kind: play.IllegalMove, Line: 3, Err: &game.MoveError{Kind: game.BlockedByIce, Text: "Qd4", Msg: "ice on d3 blocks the queen"}}
		if got := refusalText(lang, x); !strings.Contains(got, "3") || !strings.Contains(got, "Qd4") && lang != i18n.English {
			t.Errorf("%s: %q", lang, got)
		}
		x = &play.Refusal{Kind: play.NoVacationLeft, Days: 5, Left: 2}
		if got := refusalText(lang, x); !strings.Contains(got, "2") {
			t.Errorf("%s: %q", lang, got)
		}
		x = &play.Refusal{Kind: play.TimeUp, Deadline: corrT0, Who: play.Seat{ID: "k"}}
		if got := refusalText(lang, x); !strings.Contains(got, "<@k>") || !strings.Contains(got, fmt.Sprint(corrT0.Unix())) {
			t.Errorf("%s: %q", lang, got)
		}
	}
}
