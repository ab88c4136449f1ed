package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// TestPostedCustomIDsStillRoute pins every custom id the bot has ever
// posted: boards and challenges stay in channels for weeks, and their
// buttons must reach the same handler with the same values.
func TestPostedCustomIDsStillRoute(t *testing.T) {
	tests := []struct {
		id     string
		route  string
		fields map[string]string
	}{
		{"ch:accept:17", "ch:accept", map[string]string{"challenge": "17"}},
		{"ch:decline:17", "ch:decline", map[string]string{"challenge": "17"}},
		{"g:resign:12:7", "g:resign", map[string]string{"game": "12", "rev": "7"}},
		{"g:resignok:12:7", "g:resignok", map[string]string{"game": "12", "rev": "7"}},
		{"g:draw:12:7", "g:draw", nil},
		{"g:dyes:12:7", "g:dyes", nil},
		{"g:dno:12:7", "g:dno", nil},
		{"g:flip:12:7", "g:flip", nil},
		{"g:abort:12:0", "g:abort", map[string]string{"rev": "0"}},
		{"g:tyes:3:9", "g:tyes", nil},
		{"g:tno:3:9", "g:tno", nil},
		{"g:cwin:3:9", "g:cwin", nil},
		{"g:cdraw:3:9", "g:cdraw", nil},
		{"gs:open", "gs:open", nil},
		{"lb:server:2", "lb", map[string]string{"scope": "server", "page": "2"}},
		{"lb:global:1", "lb", map[string]string{"scope": "global"}},
		{"rec:pgn", "rec:pgn", nil},
		{"rec:gif", "rec:gif", nil},
		{"rec:older:42:99", "rec:older", map[string]string{"user": "42", "before": "99"}},
		{"g:mv:12:7", "g:mv", nil},
		{"g:rematch:12:40", "g:rematch", nil},
		{"mv:man:12:7", "mv:man", map[string]string{"game": "12", "rev": "7"}},
		{"mv:to:12:7", "mv:to", nil},
		{"mv:page:12:7:d1:1", "mv:page", map[string]string{"from": "d1", "page": "1"}},
	}
	for _, tt := range tests {
		_, f, ok := clicks.match(tt.id)
		if !ok {
			t.Errorf("%q routes nowhere", tt.id)
			continue
		}
		if f.p.name != tt.route {
			t.Errorf("%q routes to %q, want %q", tt.id, f.p.name, tt.route)
		}
		for k, v := range tt.fields {
			if got := f.str(k); got != v {
				t.Errorf("%q: %s = %q, want %q", tt.id, k, got, v)
			}
		}
	}
}

func TestCustomIDsTheBotNeverMadeRouteNowhere(t *testing.T) {
	for _, id := range []string{"", ":", "g", "g:resign", "g:resign:1", "g:resign:1:2:3", "g:nosuch:1:2", "ch:accept",
		"x:accept:1", "lb:server", "rec", "rec:older:1", "gs:open:1", strings.Repeat("g:", 60)} {
		if _, _, ok := clicks.match(id); ok {
			t.Errorf("%q routes somewhere", id)
		}
	}
}

func TestPatternsBuildTheIDsTheyRoute(t *testing.T) {
	for _, r := range clicks.routes {
		var values []any
		for i, s := range r.p.segs {
			if s.field != "" {
				values = append(values, i+1)
			}
		}
		id := r.p.id(values...)
		if len(id) > maxCustomID {
			t.Errorf("%s: %d characters", r.p.text, len(id))
		}
		if _, f, ok := clicks.match(id); !ok || f.p.text != r.p.text {
			t.Errorf("%s builds %q, which does not route back", r.p.text, id)
		}
	}
}

func TestOverlappingPatternsAreRefused(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("two patterns for one id were accepted")
		}
	}()
	var r clickRouter
	r.handle(pattern("g:{verb}:{game}:{rev}"), nil)
	r.handle(pattern("g:resign:{game}:{rev}"), nil)
}

// TestBadFieldsAreRefusedBeforeAnyAct: a crafted id with a field that is
// no number reaches no handler.
func TestBadFieldsAreRefusedBeforeAnyAct(t *testing.T) {
	b, _, _ := offlineBot(t, play.Options{})
	reached := false
	h := gameAct(tablesOf, func(*tables, *interaction, play.Act) error { reached = true; return nil })
	for _, id := range []string{"g:resign:x:1", "g:resign:1:-1", "g:resign:1:99999999999", "g:resign:18446744073709551616:1"} {
		_, f, ok := clicks.match(id)
		if !ok {
			t.Fatalf("%q does not match", id)
		}
		in := b.newInteraction(&discordgo.Interaction{Type: discordgo.InteractionMessageComponent, Data: discordgo.MessageComponentInteractionData{CustomID: id}})
		if err := h(b, in, f); err == nil {
			t.Errorf("%q was accepted", id)
		}
	}
	if reached {
		t.Fatal("a bad id reached the handler")
	}
}

func FuzzCustomID(f *testing.F) {
	for _, s := range []string{"g:resign:12:7", "ch:accept:1", "lb:server:2", "rec:older:42:99", "gs:open", "::", "g:::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		_, fs, ok := clicks.match(id)
		if !ok {
			return
		}
		var values []any
		for _, v := range fs.values {
			values = append(values, v)
		}
		if back := fs.p.id(values...); back != id {
			t.Fatalf("%q routes as %s, which builds %q", id, fs.p.text, back)
		}
		for _, s := range fs.p.segs {
			if s.field != "" {
				_, _ = fs.num(s.field)
			}
		}
	})
}

func TestEveryCommandIsDeclaredOnceAndHelped(t *testing.T) {
	cfg := Config{AllowedDays: []int{1, 3}, VacationDays: 14}
	decl := declarations(&cfg)
	if len(decl) != len(commandTable) {
		t.Fatalf("%d declarations for %d commands", len(decl), len(commandTable))
	}
	helped := map[string]bool{}
	for _, c := range helpOrder() {
		helped[c.name] = true
	}
	for _, d := range decl {
		c := commandTable[d.Name]
		if c == nil {
			t.Errorf("%q is declared under another name than it is routed by", d.Name)
			continue
		}
		if d.Type != discordgo.UserApplicationCommand && !helped[d.Name] {
			t.Errorf("/%s is not in /help", d.Name)
		}
	}
}

// TestAQueenInTheOpenNeedsTwoPages: 27 moves, checks and captures
// first, more than one menu takes.
func TestAQueenInTheOpenNeedsTwoPages(t *testing.T) {
	pos, err := game.ParseFEN("1k6/8/8/3Q4/8/8/8/7K w - - 0 40")
	if err != nil {
		t.Fatal(err)
	}
	moves := movesFrom(&pos, game.SquareAt(3, 4))
	if len(moves) <= movesPerPage {
		t.Fatalf("%d moves", len(moves))
	}
	first := moves[0].SAN
	if first[len(first)-1] != '+' {
		t.Errorf("the first move %s is no check", first)
	}
}

// FuzzGameClicks forges clicks on a game's buttons and move menus, any
// custom id and menu value by a player or a stranger, on a game that goes
// on and one that ended: each is answered or refused, never a panic, and
// the game moves only by a legal move of the player to move.
func FuzzGameClicks(f *testing.F) {
	for _, s := range [][3]string{{"g:mv:1:3", "", "ann"}, {"mv:man:1:3", "g1", "ann"}, {"mv:man:1:3", "z9", "ann"}, {"mv:to:1:3", "g1f3", "ann"},
		{"mv:to:1:3", "e2e4", "bob"}, {"mv:to:1:3", "x", "ann"}, {"mv:page:1:3:d1:9", "", "ann"}, {"mv:page:1:3:zz:1", "", "ann"},
		{"g:rematch:2:5", "", "eve"}, {"g:rematch:2:5", "", "bob"}, {"g:rematch:1:3", "", "ann"}, {"mv:to:1:2", "g1f3", "ann"}, {"mv:to:1:2", "g8f6", "bob"}} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, id, value, user string) {
		if !strings.HasPrefix(id, "g:") && !strings.HasPrefix(id, "mv:") {
			return
		}
		fx := newRecordsFixture(t)
		going := fx.play("g1", "t1", "ann", "bob", false, "", "hxg3")
		fx.play("g1", "t2", "bob", "ann", false, "black", "hxg3")
		i := fx.click(user, "en-US", id, value)
		i.ID, i.AppID, i.Token, i.GuildID, i.ChannelID = "i", "app", "token", "g1", "t1"
		_ = fx.b.route(fx.b.newInteraction(i))
		after, err := fx.svc.Game(context.Background(), going.ID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Ply() > going.Ply() && (user != "bob" || !strings.HasPrefix(id, "mv:to:")) {
			t.Fatalf("%q by %q with %q moved the game", id, user, value)
		}
	})
}
