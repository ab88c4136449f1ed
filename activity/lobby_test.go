package activity_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

func challengeBody(in, to, tc, color string) string {
	return fmt.Sprintf(`{"instance":%q,"to":%q,"time":%q,"color":%q,"rated":false,"tz":"Europe/Oslo"}`, in, to, tc, color)
}

func engineBody(in string, level int, tc, color string) string {
	return fmt.Sprintf(`{"instance":%q,"to":"","engine":true,"level":%d,"time":%q,"color":%q}`, in, level, tc, color)
}

func answerBody(in string, id uint64, accept bool) string {
	return fmt.Sprintf(`{"instance":%q,"challenge":%d,"accept":%v}`, in, id, accept)
}

// lobbyOf is the lobby a user's page reads in an instance.
func (w *world) lobbyOf(t *testing.T, in, token string) map[string]any {
	t.Helper()
	status, got := w.call(t, "GET", "/api/game?instance="+in, token, "")
	l, ok := got["lobby"].(map[string]any)
	if status != 200 || !ok {
		t.Fatalf("the lobby: %d %v", status, got)
	}
	return l
}

// challengesIn are the texts of a lobby's challenges, by id.
func challengesIn(l map[string]any) map[uint64]string {
	out := map[uint64]string{}
	for _, c := range l["challenges"].([]any) {
		m := c.(map[string]any)
		out[uint64(m["id"].(float64))] = m["text"].(string)
	}
	return out
}

// outboxChallenges takes the challenge items of the outbox.
func (w *world) outboxChallenges(t *testing.T) []play.Challenge {
	t.Helper()
	ob := w.round.Service().Storage().(play.Outbox)
	its, err := ob.ClaimOutbox(context.Background(), "test", time.Now().Add(time.Hour), time.Nanosecond, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []play.Challenge
	for _, it := range its {
		if it.Kind == round.KindChallenge {
			c, err := round.DecodeChallenge(it)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		ob.DoneOutbox(context.Background(), it.Key)
	}
	return out
}

// TestTheLobby: in a channel where no game goes on, Alice sees who is
// in the Activity, challenges Bob at 1+0 through the round (the item
// that posts it in the channel is written), Bob reads it in French and
// accepts, and the game is played in the channel; bad challenges are
// refused in the asker's language and change nothing; after the game,
// a Rematch swaps the colours.
func TestTheLobby(t *testing.T) {
	w := newWorld(t)
	w.outboxChallenges(t) // the game of #chess's items
	in := w.srv.LaunchActivity(w.lobby.ID, w.alice.ID, w.bob.ID, w.carol.ID).ID
	alice, bob, carol, dan := w.signIn(t, w.alice), w.signIn(t, w.bob), w.signIn(t, w.carol), w.signIn(t, w.dan)
	w.lobbyOf(t, in, bob)
	w.lobbyOf(t, in, carol)
	l := w.lobbyOf(t, in, alice)
	if got := fmt.Sprint(l["people"]); !strings.Contains(got, "Bob") || !strings.Contains(got, "Carol") || strings.Contains(got, "Alice") {
		t.Errorf("Alice's lobby has people %s, want Bob and Carol", got)
	}
	if got := fmt.Sprint(l["times"]); !strings.Contains(got, "1+0 bullet") || !strings.Contains(got, "15+10 rapid") {
		t.Errorf("the lobby offers %s", got)
	}
	if l["days"] != "3 days per move" && l["days"] != "No time limit" {
		t.Errorf("correspondence reads %q", l["days"])
	}

	// Refused, each with its reason in the asker's language, changing
	// nothing.
	for name, c := range map[string]struct {
		token, body string
		status      int
		says        string
	}{
		"no minutes":          {alice, challengeBody(in, w.bob.ID, "0+5", "white"), 400, "1 to 180 minutes"},
		"too long":            {alice, challengeBody(in, w.bob.ID, "181+0", "white"), 400, "1 to 180 minutes"},
		"too much increment":  {alice, challengeBody(in, w.bob.ID, "5+181", "white"), 400, "0 to 180"},
		"words":               {alice, challengeBody(in, w.bob.ID, "blitz", "white"), 400, "1+0, 3+2, 5+3"},
		"in French":           {bob, challengeBody(in, w.alice.ID, "1+", "white"), 400, "1+0"},
		"oneself":             {alice, challengeBody(in, w.alice.ID, "1+0", "white"), 409, "yourself"},
		"someone not here":    {alice, challengeBody(in, w.dan.ID, "1+0", "white"), 409, "in this Activity"},
		"someone unknown":     {alice, challengeBody(in, "12345", "1+0", "white"), 409, "in this Activity"},
		"from outside":        {dan, challengeBody(in, w.alice.ID, "1+0", "white"), 403, "Activity"},
		"a green side":        {alice, challengeBody(in, w.bob.ID, "1+0", "green"), 400, "wrong"},
		"a time of 20 bytes":  {alice, challengeBody(in, w.bob.ID, strings.Repeat("1", 20), "white"), 400, "wrong"},
		"a made-up time zone": {alice, strings.Replace(challengeBody(in, w.bob.ID, "1+0", "white"), "Europe/Oslo", "../etc/passwd", 1), 400, "wrong"},
		"the engine, off":     {alice, engineBody(in, 2, "3+2", "black"), 409, "cannot play here"},
		"the engine and Bob":  {alice, strings.Replace(engineBody(in, 2, "3+2", "black"), `"to":""`, `"to":"`+w.bob.ID+`"`, 1), 400, "wrong"},
		"level 9":             {alice, engineBody(in, 9, "3+2", "black"), 400, "wrong"},
	} {
		status, got := w.call(t, "POST", "/api/challenge", c.token, c.body)
		if status != c.status || !strings.Contains(fmt.Sprint(got["error"]), c.says) {
			t.Errorf("%s: %d %v, want %d saying %q", name, status, got, c.status, c.says)
		}
	}
	if _, got := w.call(t, "POST", "/api/challenge", bob, challengeBody(in, w.alice.ID, "1+", "white")); !strings.Contains(fmt.Sprint(got["error"]), "n'est pas une cadence") {
		t.Errorf("Bob's bad time control is refused as %v, want in French", got)
	}
	if cs := w.outboxChallenges(t); len(cs) != 0 {
		t.Fatalf("refused challenges were written: %+v", cs)
	}
	// A channel whose game goes on takes no challenge.
	chess := w.srv.LaunchActivity(w.chess.ID, w.alice.ID, w.bob.ID).ID
	if status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(chess, w.bob.ID, "1+0", "white")); status != 409 || !strings.Contains(fmt.Sprint(got["error"]), "already being played") {
		t.Errorf("a challenge beside a game: %d %v", status, got)
	}

	// Alice challenges Bob at 1+0, with White.
	status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.bob.ID, "1+0", "white"))
	if status != 200 {
		t.Fatalf("Alice's challenge: %d %v", status, got)
	}
	id := uint64(got["challenge"].(float64))
	if cs := w.outboxChallenges(t); len(cs) != 1 || cs[0].ID != id || !cs[0].InChannel || cs[0].Channel != w.lobby.ID || cs[0].Time.String() != "1+0" {
		t.Fatalf("the outbox shows %+v, want challenge %d in #lobby at 1+0", cs, id)
	}
	if text := challengesIn(w.lobbyOf(t, in, alice))[id]; text != "You challenged Bob: 1+0 bullet, you play White." {
		t.Errorf("Alice reads her challenge as %q", text)
	}
	if text := challengesIn(w.lobbyOf(t, in, bob))[id]; text != "Alice te défie\u00a0: 1+0 bullet, tu joues les Noirs." {
		t.Errorf("Bob reads it as %q", text)
	}
	if cs := challengesIn(w.lobbyOf(t, in, carol)); len(cs) != 0 {
		t.Errorf("Carol sees %v, want nothing: it is not hers", cs)
	}
	// Again: play refuses it, as /challenge's.
	if status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.bob.ID, "3+2", "white")); status != 409 || got["error"] == nil {
		t.Errorf("the same challenge again: %d %v", status, got)
	}
	// Carol may not accept it: in Russian.
	if status, got := w.call(t, "POST", "/api/answer", carol, answerBody(in, id, true)); status != 409 || !strings.ContainsAny(fmt.Sprint(got["error"]), "абвгдеж") {
		t.Errorf("Carol's accept: %d %v", status, got)
	}
	// Nor may it be answered from another channel's Activity.
	if status, _ := w.call(t, "POST", "/api/answer", alice, answerBody(chess, id, false)); status != 409 {
		t.Errorf("a withdrawal from #chess's Activity: %d, want 409", status)
	}
	status, got = w.call(t, "POST", "/api/answer", bob, answerBody(in, id, true))
	if status != 200 || got["game"] == nil {
		t.Fatalf("Bob's accept: %d %v", status, got)
	}
	g, err := w.round.Service().GameIn(context.Background(), w.lobby.ID)
	if err != nil || g.White.ID != w.alice.ID || g.Black.ID != w.bob.ID || g.TimeControl().String() != "1+0" || g.Black.Name != "Bob" {
		t.Fatalf("the game in #lobby: %+v, %v", g, err)
	}
	status, got = w.call(t, "GET", "/api/game?instance="+in, alice, "")
	if status != 200 || got["game"] != float64(g.ID) || got["color"] != "w" || got["lobby"] != nil {
		t.Errorf("Alice's page after the accept: %d %v, want the game and no lobby", status, got)
	}
	if status, got := w.call(t, "POST", "/api/challenge", carol, challengeBody(in, "", "1+0", "random")); status != 409 || !strings.Contains(fmt.Sprint(got["error"]), "партия") {
		t.Errorf("Carol's challenge beside the game: %d %v", status, got)
	}

	// Bob resigns: Alice's lobby offers the rematch, colours swapped.
	if _, err := w.round.Do(context.Background(), round.Act{Act: play.Act{By: w.bob.ID, Game: g.ID, Revision: g.Revision, At: t0}, Kind: round.Resign}); err != nil {
		t.Fatal(err)
	}
	l = w.lobbyOf(t, in, alice)
	re, ok := l["rematch"].(map[string]any)
	if !ok || re["to"] != w.bob.ID || re["time"] != "1+0" || re["color"] != "black" || re["text"] != "Against Bob: 1+0 bullet, you play Black." {
		t.Fatalf("Alice's rematch: %v", l["rematch"])
	}
	if l := w.lobbyOf(t, in, carol); l["rematch"] != nil {
		t.Errorf("Carol, who watched, is offered a rematch: %v", l["rematch"])
	}
	status, got = w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.bob.ID, "1+0", "black"))
	if status != 200 {
		t.Fatalf("the rematch: %d %v", status, got)
	}
	id = uint64(got["challenge"].(float64))
	// Bob declines it; Alice's open challenge is Carol's to read, and
	// Alice withdraws it.
	if status, got := w.call(t, "POST", "/api/answer", bob, answerBody(in, id, false)); status != 200 {
		t.Errorf("Bob's decline: %d %v", status, got)
	}
	if _, err := w.round.Service().GetChallenge(context.Background(), id); err == nil {
		t.Error("the declined challenge waits still")
	}
	status, got = w.call(t, "POST", "/api/challenge", alice, challengeBody(in, "", "", "random"))
	if status != 200 {
		t.Fatalf("Alice's open challenge: %d %v", status, got)
	}
	id = uint64(got["challenge"].(float64))
	if text := challengesIn(w.lobbyOf(t, in, carol))[id]; !strings.Contains(text, "Alice") || !strings.Contains(text, "жребий") {
		t.Errorf("Carol reads Alice's open challenge as %q", text)
	}
	if status, _ := w.call(t, "POST", "/api/answer", alice, answerBody(in, id, false)); status != 200 {
		t.Errorf("Alice's withdrawal: %d", status)
	}
	if cs := challengesIn(w.lobbyOf(t, in, carol)); len(cs) != 0 {
		t.Errorf("after the withdrawal Carol sees %v", cs)
	}
}

// A group DM's Activity has no lobby: the bot could not post there.
func TestADMHasNoLobby(t *testing.T) {
	w := newWorld(t)
	dm := w.srv.AddPrivateChannel(w.alice.ID, w.bob.ID)
	in := w.srv.LaunchActivity(dm.ID, w.alice.ID, w.bob.ID).ID
	alice := w.signIn(t, w.alice)
	if status, got := w.call(t, "GET", "/api/game?instance="+in, alice, ""); status != 404 || got["lobby"] != nil {
		t.Errorf("a DM's Activity: %d %v, want 404 and no lobby", status, got)
	}
	if status, got := w.call(t, "POST", "/api/challenge", alice, challengeBody(in, w.bob.ID, "1+0", "white")); status != 404 || got["error"] == nil {
		t.Errorf("a challenge in a DM's Activity: %d %v, want 404", status, got)
	}
}

// TestTheEngineInTheLobby: the lobby offers the engine when it can play;
// a game against it starts at once in the channel, at the level and
// time control chosen, and its Rematch plays it again, colours swapped.
func TestTheEngineInTheLobby(t *testing.T) {
	w := newWorld(t)
	w.engineOn.Store(true)
	in := w.srv.LaunchActivity(w.lobby.ID, w.alice.ID).ID
	alice := w.signIn(t, w.alice)
	l := w.lobbyOf(t, in, alice)
	if e, ok := l["engine"].(map[string]any); !ok || e["levels"] != float64(8) || e["level"] != float64(4) {
		t.Fatalf("the lobby offers the engine as %v", l["engine"])
	}
	status, got := w.call(t, "POST", "/api/challenge", alice, engineBody(in, 2, "3+2", "black"))
	if status != 200 || got["game"] == nil {
		t.Fatalf("Alice against the engine: %d %v", status, got)
	}
	g, err := w.round.Service().GameIn(context.Background(), w.lobby.ID)
	if err != nil || g.White.ID != engineID || g.Black.ID != w.alice.ID || g.Engine != [2]int{2, 0} || g.TimeControl().String() != "3+2" || g.Rated {
		t.Fatalf("the game against the engine: %+v, %v", g, err)
	}
	if status, got := w.call(t, "GET", "/api/game?instance="+in, alice, ""); status != 200 || got["game"] != float64(g.ID) || got["color"] != "b" {
		t.Errorf("Alice's page: %d %v", status, got)
	}
	if _, err := w.round.Do(context.Background(), round.Act{Act: play.Act{By: w.alice.ID, Game: g.ID, Revision: g.Revision, At: t0}, Kind: round.Resign}); err != nil {
		t.Fatal(err)
	}
	re, ok := w.lobbyOf(t, in, alice)["rematch"].(map[string]any)
	if !ok || re["engine"] != true || re["level"] != float64(2) || re["color"] != "white" || re["time"] != "3+2" || !strings.Contains(re["text"].(string), "Ice Age Engine (level 2)") {
		t.Fatalf("the rematch against the engine: %v", re)
	}
	w.engineOn.Store(false)
	if l := w.lobbyOf(t, in, alice); l["engine"] != nil || l["rematch"] != nil {
		t.Errorf("with the engine off the lobby offers %v and %v", l["engine"], l["rematch"])
	}
}
