package round_test

import (
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// Who is told, and how, is decided in one place, from each player's
// settings: a mention by default, a direct message for who asked for
// one (their move only), nothing for who asked for nothing, and a
// mention again for a week after Discord refused a DM.
func TestDecideFollowsTheSettings(t *testing.T) {
	public, private := &play.Game{}, &play.Game{Private: true}
	blitz := &play.Clock{TimeControl: play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}}
	moved := []play.Move{{UCI: "e2e3"}}
	liveStart, live := &play.Game{Clock: blitz}, &play.Game{Clock: blitz, Moves: moved}
	privateLive, corrMoved := &play.Game{Clock: blitz, Moves: moved, Private: true}, &play.Game{Moves: moved}
	week := round.DMRetry
	for _, c := range []struct {
		name string
		p    play.Prefs
		g    *play.Game
		why  round.Why
		want round.How
	}{
		{"default", play.Prefs{}, public, round.YourMove, round.Mention},
		{"mention", play.Prefs{Notifications: play.NotifyMention}, public, round.YourMove, round.Mention},
		{"dm, their move", play.Prefs{Notifications: play.NotifyDM}, public, round.YourMove, round.DirectMessage},
		{"dm, a tournament's pairing", play.Prefs{Notifications: play.NotifyDM}, public, round.Paired, round.DirectMessage},
		{"dm, a reminder", play.Prefs{Notifications: play.NotifyDM}, public, round.Remind, round.DirectMessage},
		{"dm, a bye", play.Prefs{Notifications: play.NotifyDM}, public, round.Bye, round.DirectMessage},
		{"a bye", play.Prefs{}, public, round.Bye, round.Mention},
		{"none, a bye", play.Prefs{Notifications: play.NotifyNone}, public, round.Bye, round.Silently},
		{"an opponent away, in public", play.Prefs{Notifications: play.NotifyDM}, public, round.OpponentAway, round.Silently},
		{"an opponent away, in private", play.Prefs{}, private, round.OpponentAway, round.DirectMessage},
		{"a private challenge expired", play.Prefs{}, private, round.ChallengeExpired, round.DirectMessage},
		{"a private challenge expired, none", play.Prefs{Notifications: play.NotifyNone}, private, round.ChallengeExpired, round.Silently},
		{"dm, the end", play.Prefs{Notifications: play.NotifyDM}, public, round.GameOver, round.Mention},
		{"dm refused lately", play.Prefs{Notifications: play.NotifyDM, DMRefused: t0.Add(-week + time.Minute)}, public, round.YourMove, round.Mention},
		{"dm refused a week ago", play.Prefs{Notifications: play.NotifyDM, DMRefused: t0.Add(-week)}, public, round.YourMove, round.DirectMessage},
		{"none", play.Prefs{Notifications: play.NotifyNone}, public, round.YourMove, round.Silently},
		{"none, the end", play.Prefs{Notifications: play.NotifyNone}, public, round.GameOver, round.Silently},
		{"a dropped queue is private", play.Prefs{}, public, round.QueueDropped, round.DirectMessage},
		{"a dropped queue, DMs refused", play.Prefs{DMRefused: t0}, public, round.QueueDropped, round.Silently},
		{"a private game", play.Prefs{}, private, round.GameOver, round.DirectMessage},
		{"a private game, DMs refused", play.Prefs{DMRefused: t0}, private, round.YourMove, round.Silently},
		{"a live game's start", play.Prefs{Notifications: play.NotifyDM}, liveStart, round.YourMove, round.DirectMessage},
		{"a live game's start, mention", play.Prefs{}, liveStart, round.YourMove, round.Mention},
		{"a live game's move, dm", play.Prefs{Notifications: play.NotifyDM}, live, round.YourMove, round.Silently},
		{"a live game's move, mention", play.Prefs{}, live, round.YourMove, round.Silently},
		{"a live game's offer", play.Prefs{}, live, round.OfferMade, round.Mention},
		{"a live game's end, dm", play.Prefs{Notifications: play.NotifyDM}, live, round.GameOver, round.Mention},
		{"a live game's flag: choose", play.Prefs{}, live, round.Choose, round.Mention},
		{"a live game's pairing, dm", play.Prefs{Notifications: play.NotifyDM}, liveStart, round.Paired, round.DirectMessage},
		{"a private live game's move", play.Prefs{}, privateLive, round.YourMove, round.DirectMessage},
		{"a correspondence move, after the first", play.Prefs{Notifications: play.NotifyDM}, corrMoved, round.YourMove, round.DirectMessage},
	} {
		if got := round.Decide(&c.p, c.g, c.why, t0); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// told returns the Tell of user in es.
func told(es round.Events, user string) (round.Tell, bool) {
	for _, e := range es {
		if t, ok := e.(round.Tell); ok && t.User == user {
			return t, true
		}
	}
	return round.Tell{}, false
}

// items returns the outbox's pending items by kind.
func items(t *testing.T, st *memstore.Memory, at time.Time) map[string][]play.OutboxItem {
	t.Helper()
	its, err := st.ClaimOutbox(ctx, "test", at, time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]play.OutboxItem{}
	for _, it := range its {
		out[it.Kind] = append(out[it.Kind], it)
		if err := st.DoneOutbox(ctx, it.Key); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Accepting a challenge is an act of the round: the first board and the
// players to tell are in the outbox with the game, each told as their
// settings say, in their language.
func TestAcceptWritesTheFirstBoard(t *testing.T) {
	r, st := newRound(t, nil)
	svc := r.Service()
	if _, err := svc.SetPrefs(ctx, "bob", play.Prefs{Notifications: play.NotifyDM, Language: "fr"}, t0); err != nil {
		t.Fatal(err)
	}
	c, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: bob, Color: play.BlackSide, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Accept(ctx, c.ID, bob, "thread", t0.Add(time.Minute), false)
	if err != nil {
		t.Fatal(err)
	}
	if out.Game.White.ID != "bob" || out.Game.Channel != "thread" || len(out.Boards) != 1 {
		t.Fatalf("game %+v, boards %d", out.Game, len(out.Boards))
	}
	if tl, ok := told(out.Events, "bob"); !ok || tl.Why != round.YourMove || tl.How != round.DirectMessage || tl.Lang != "fr" {
		t.Fatalf("tells Bob %+v, %v: %+v", tl, ok, out.Events)
	}
	got := items(t, st, t0.Add(time.Minute))
	if len(got[round.KindBoard]) != 1 || len(got[round.KindTell]) != 1 {
		t.Fatalf("outbox %+v", got)
	}
	if _, err := r.Accept(ctx, c.ID, bob, "thread2", t0.Add(2*time.Minute), false); err == nil {
		t.Fatal("a challenge accepted twice")
	}
}

// A deadline that passes is an act of the round: its board says when it
// fell due and how late it was found, and tells both players.
func TestTimeOutWritesItsBoard(t *testing.T) {
	r, st := newRound(t, nil)
	out, err := r.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, DaysPerMove: 1, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	items(t, st, t0)
	due := out.Game.Deadline
	late := due.Add(3 * time.Hour)
	if _, err := r.TimeOut(ctx, out.Game.ID, due.Add(-time.Second)); err == nil {
		t.Fatal("timed out before the deadline")
	}
	out, err = r.TimeOut(ctx, out.Game.ID, late)
	if err != nil {
		t.Fatal(err)
	}
	var to round.TimedOut
	for _, e := range out.Events {
		if e, ok := e.(round.TimedOut); ok {
			to = e
		}
	}
	if !to.Due.Equal(due) || to.Late != 3*time.Hour || to.Chooser != "" || !out.Game.Over() {
		t.Fatalf("timed out %+v, game over %v", to, out.Game.Over())
	}
	for _, u := range []string{"ann", "bob"} {
		if tl, ok := told(out.Events, u); !ok || tl.Why != round.GameOver || tl.How != round.Mention {
			t.Errorf("tells %s %+v, %v", u, tl, ok)
		}
	}
	got := items(t, st, late)
	if len(got[round.KindBoard]) != 1 {
		t.Fatalf("outbox %+v", got)
	}
	d, err := round.DecodeDelivery(got[round.KindBoard][0])
	if err != nil || d.Act != round.TimeOut {
		t.Fatalf("board %+v, %v", d, err)
	}
}

// Where the opponent chooses, a timeout offers the choice, and the
// choice is an act of the round.
func TestTheChoiceAfterATimeoutIsAnAct(t *testing.T) {
	st := memstore.New()
	r, err := round.New(play.New(st, play.Options{OpponentChooses: true}), round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, DaysPerMove: 1, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	now := out.Game.Deadline
	if out, err = r.TimeOut(ctx, out.Game.ID, now); err != nil {
		t.Fatal(err)
	}
	if tl, ok := told(out.Events, "bob"); !ok || tl.Why != round.Choose || out.Game.Flag == nil {
		t.Fatalf("tells Bob %+v, %v; flag %+v", tl, ok, out.Game.Flag)
	}
	g := out.Game
	out, err = r.Do(ctx, round.Act{Act: play.Act{By: "bob", Game: g.ID, Revision: g.Revision, At: now.Add(time.Hour)}, Kind: round.ClaimWin})
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := out.Game.Outcome.Winner(); !ok || out.Game.Seat(w).ID != "bob" {
		t.Fatalf("outcome %+v", out.Game.Outcome)
	}
	if tl, ok := told(out.Events, "ann"); !ok || tl.Why != round.GameOver || len(out.Boards) != 1 {
		t.Fatalf("tells Ann %+v, %v; boards %d", tl, ok, len(out.Boards))
	}
}

// A game moved to a new channel has its board there, written with the
// move under a key of its own, telling both players.
func TestRehomeWritesTheBoardOfTheNewPlace(t *testing.T) {
	r, st := newRound(t, nil)
	out, err := r.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	first := out.Boards[0].Key
	items(t, st, t0)
	out, err = r.Rehome(ctx, out.Game.ID, "c1", "c2", round.ThreadGone, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if out.Game.Channel != "c2" || out.Boards[0].Key == first {
		t.Fatalf("channel %q, key %q (the first %q)", out.Game.Channel, out.Boards[0].Key, first)
	}
	var moved round.Rehomed
	for _, e := range out.Events {
		if e, ok := e.(round.Rehomed); ok {
			moved = e
		}
	}
	if moved != (round.Rehomed{From: "c1", To: "c2"}) {
		t.Fatalf("events %+v", out.Events)
	}
	for _, u := range []string{"ann", "bob"} {
		if tl, ok := told(out.Events, u); !ok || tl.Why != round.MovedAway {
			t.Errorf("tells %s %+v, %v", u, tl, ok)
		}
	}
	if got := items(t, st, t0.Add(time.Minute)); len(got[round.KindBoard]) != 1 {
		t.Fatalf("outbox %+v", got)
	}
	if _, err := r.Rehome(ctx, out.Game.ID, "c1", "c3", round.OwnThread, t0.Add(time.Minute)); err == nil {
		t.Fatal("moved from a channel it had left")
	}
}
