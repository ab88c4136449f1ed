package bot

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/lesson"
	"github.com/iceagechess/iceage/play"
)

func TestASealHoldsForItsStateAndUserOnly(t *testing.T) {
	s := newSeals([]byte("a secret of the test's, 32 bytes"))
	good := s.seal("lesson", "ann", "ice-blocks", "0", "1")
	if len(good) != sealLen || !s.check(good, "lesson", "ann", "ice-blocks", "0", "1") {
		t.Fatalf("the seal %q does not hold", good)
	}
	for _, c := range []struct {
		seal, purpose, user string
		state               []string
	}{
		{good, "lesson", "bob", []string{"ice-blocks", "0", "1"}},
		{good, "lesson", "ann", []string{"ice-blocks", "0", "0"}},
		{good, "lesson", "ann", []string{"ice-blocks", "1", "1"}},
		{good, "puzzle", "ann", []string{"ice-blocks", "0", "1"}},
		{good, "lesson", "ann", []string{"ice-blocks", "01"}},  // fields run together
		{good, "lesson", "ann0ice-blocks", []string{"0", "1"}}, // the user runs into the state
		{good[:sealLen-1], "lesson", "ann", []string{"ice-blocks", "0", "1"}},
		{"", "lesson", "ann", []string{"ice-blocks", "0", "1"}},
		{newSeals(nil).seal("lesson", "ann", "ice-blocks", "0", "1"), "lesson", "ann", []string{"ice-blocks", "0", "1"}},
	} {
		if s.check(c.seal, c.purpose, c.user, c.state...) {
			t.Errorf("%q holds for %s, %s, %q", c.seal, c.purpose, c.user, c.state)
		}
	}
}

// Every step's longest state fits a custom id with its seal: the most
// wrong tries, and every move of the solver's and the replies, each a
// promotion.
func TestEveryLessonsLongestSealedIDFitsDiscord(t *testing.T) {
	b := &Bot{seals: newSeals(nil)}
	for _, l := range lesson.All() {
		for k, st := range l.Steps {
			most := max(st.Exercise.Limit, st.Exercise.Par, 1)
			state := "99" + strings.Repeat(".a7a8q", 2*most)
			for _, p := range []idPattern{idLearnMan, idLearnTo, idLearnBack, idLearnHint} {
				step := strconv.Itoa(k)
				id := p.id(l.ID, step, state, b.seals.seal(learnSeal, "123456789012345678", l.ID, step, state))
				if len(id) > maxCustomID {
					t.Errorf("step %d of %s: %q is %d long", k+1, l.ID, id, len(id))
				}
			}
		}
	}
}

// FuzzLessonClicks forges clicks on a lesson's buttons and menus, any
// custom id and menu value: each is answered or refused, never a panic,
// and no star is earned without a seal of the bot's.
func FuzzLessonClicks(f *testing.F) {
	for _, s := range [][2]string{{"ln:to:ice-blocks:0:0:AAAAAAAAAAAA", "f3e5"}, {"ln:man:ice-blocks:0:0:", "f3"}, {"ln:to:ice-blocks:0::", "f3e5"}, {"ln:to:ice-blocks:0::AAAAAAAAAAAA", "f3e5"}, {"ln:go:ice-blocks:1", ""},
		{"ln:hint:nope:0:0:x", ""}, {"ln:back:ice-blocks:9:0.f3e5:AAAAAAAAAAAA", ""}, {"ln:pick", "take-ice"}, {"ln:list", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, id, value string) {
		if !strings.HasPrefix(id, "ln:") {
			return
		}
		fx := newRecordsFixture(t)
		i := fx.click("ann", "en-US", id, value)
		i.ID, i.AppID, i.Token, i.GuildID, i.ChannelID = "i", "app", "token", "g1", "c1"
		_ = fx.b.route(fx.b.newInteraction(i))
		var p play.LessonProgress
		if err := fx.st.View(context.Background(), func(tx play.ReadTx) (err error) { p, err = tx.LessonProgress("ann"); return err }); err != nil {
			t.Fatal(err)
		}
		for _, l := range lesson.All() {
			if p.Total(l.ID) != 0 {
				t.Fatalf("%q with %q earned stars in %s", id, value, l.ID)
			}
		}
	})
}

// A click the bot did not make, a forged lesson's state among them, is
// answered privately and logged as its interaction's line at Info, with
// no error line and no failure counted: strangers may send them by the
// thousand.
func TestAClickTheBotDidNotMakeIsNoErrorInTheLog(t *testing.T) {
	var log bytes.Buffer
	fx := newRecordsFixture(t)
	fx.b.log = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ids := []string{"ln:hint:nope:0:0:AAAAAAAAAAAA", "ln:to:ice-blocks:0:0:AAAAAAAAAAAA", "zz:nothing", "g:resign:x:1"}
	for k, id := range ids {
		i := fx.click("ann", "en-US", id, "f3e5")
		i.ID, i.AppID, i.Token, i.GuildID, i.ChannelID = strconv.Itoa(k+1), "app", "token", "g1", "c1"
		fx.b.onInteraction(fx.b.s, &discordgo.InteractionCreate{Interaction: i})
	}
	if got := log.String(); strings.Contains(got, "level=ERROR") || strings.Count(got, "outcome=bad_click") != len(ids) {
		t.Errorf("the log of forged clicks:\n%s", got)
	}
	if n := fx.b.Metrics.Failures.Load(); n != 0 {
		t.Errorf("%d failures counted", n)
	}
	answers := 0
	for _, r := range fx.api.reqs {
		if d, ok := r.body["data"].(map[string]any); ok && strings.HasPrefix(fmt.Sprint(d["content"]), "This button is out of date") && fmt.Sprint(d["flags"]) == "64" {
			answers++
		}
	}
	if answers != len(ids) {
		t.Errorf("%d of %d forged clicks were answered: %+v", answers, len(ids), fx.api.reqs)
	}
}
