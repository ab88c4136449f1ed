package round_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ann = play.Seat{ID: "ann", Name: "Ann"}
	bob = play.Seat{ID: "bob", Name: "Bob"}
	// eng is the engine's seat, as the bot gives it its own user.
	eng = play.Seat{ID: "engine", Name: round.EngineName(1)}
)

// thinker records the engine turns handed to it.
type thinker struct {
	mu    sync.Mutex
	turns []string
}

func (th *thinker) think(_ uint64, key string) (int, bool) {
	th.mu.Lock()
	defer th.mu.Unlock()
	th.turns = append(th.turns, key)
	return len(th.turns) - 1, true
}

func newRound(t *testing.T, th *thinker) (*round.Round, *memstore.Memory) {
	t.Helper()
	st := memstore.New()
	opts := round.Options{Engine: round.EngineOptions{Nodes: 2000}, Now: func() time.Time { return t0.Add(time.Hour) }}
	if th != nil {
		opts.Think = th.think
	}
	r, err := round.New(play.New(st, play.Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r, st
}

func start(t *testing.T, r *round.Round, white, black play.Seat, levels [2]int) round.Outcome {
	t.Helper()
	out, err := r.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: white, Black: black, Engine: levels, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func act(g *play.Game, by play.Seat, k round.Kind, text string, at time.Time) round.Act {
	return round.Act{Act: play.Act{By: by.ID, Game: g.ID, Revision: g.Revision, At: at}, Kind: k, Text: text}
}

// pending takes every item of the outbox due at at, by kind: they are
// done then.
func pending(t *testing.T, st *memstore.Memory, at time.Time) map[string][]play.OutboxItem {
	t.Helper()
	its, err := st.ClaimOutbox(ctx, "test", at, time.Nanosecond, 1000)
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

func TestAMoveTellsTheOpponentAndWaitsForTheFrontEnd(t *testing.T) {
	r, st := newRound(t, nil)
	// Bob asked for direct messages: the tell is an item of its own.
	if _, err := r.Service().SetPrefs(ctx, "bob", play.Prefs{Notifications: play.NotifyDM}, t0); err != nil {
		t.Fatal(err)
	}
	g := start(t, r, ann, bob, [2]int{}).Game
	pending(t, st, t0) // the start's board and tell
	a := act(&g, ann, round.Move, "h2g3", t0.Add(time.Minute))
	a.Answers = true
	out, err := r.Do(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	after := "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1"
	want := round.Events{round.Moved{By: "ann", SAN: "hxg3", UCI: "h2g3", Ply: 1, FEN: after}, round.Tell{User: "bob", Why: round.YourMove, How: round.DirectMessage}}
	if !reflect.DeepEqual(out.Events, want) {
		t.Fatalf("events %#v, want %#v", out.Events, want)
	}
	now := pending(t, st, t0.Add(time.Minute))
	if len(now[round.KindTell]) != 1 || len(now[round.KindBoard]) != 0 || len(now[round.KindEngine]) != 0 {
		t.Fatalf("due at once: %v; want the tell alone, the board held for the front end", now)
	}
	if err := r.NotShown(ctx, &out); err != nil {
		t.Fatal(err)
	}
	now = pending(t, st, t0.Add(time.Hour))
	if len(now[round.KindBoard]) != 1 || now[round.KindBoard][0].Key != out.Boards[0].Key {
		t.Fatalf("after NotShown: %v; want the board", now)
	}
	d, err := round.DecodeDelivery(now[round.KindBoard][0])
	if err != nil {
		t.Fatal(err)
	}
	if d.Game.Revision != out.Game.Revision || !reflect.DeepEqual(d.Events, out.Events) || d.By != "ann" || d.Act != round.Move {
		t.Fatalf("the outbox's board %+v differs from the act's %+v", d, out.Boards[0])
	}
}

func TestABoardShownIsNotDeliveredAgain(t *testing.T) {
	r, st := newRound(t, nil)
	g := start(t, r, ann, bob, [2]int{}).Game
	a := act(&g, ann, round.Move, "h2g3", t0.Add(time.Minute))
	a.Answers = true
	out, err := r.Do(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Shown(ctx, &out); err != nil {
		t.Fatal(err)
	}
	for _, it := range pending(t, st, t0.Add(24*time.Hour))[round.KindBoard] {
		if it.Key == out.Boards[0].Key {
			t.Fatalf("the board shown is still pending: %+v", it)
		}
	}
}

func TestARefusedActWritesNothing(t *testing.T) {
	r, st := newRound(t, nil)
	g := start(t, r, ann, bob, [2]int{}).Game
	pending(t, st, t0)
	_, err := r.Do(ctx, act(&g, bob, round.Move, "h7g6", t0.Add(time.Minute)))
	var x *play.Refusal
	if !errors.As(err, &x) || x.Kind != play.NotYourTurn {
		t.Fatalf("Do returned %v, want NotYourTurn", err)
	}
	if p := pending(t, st, t0.Add(time.Hour)); len(p) != 0 {
		t.Fatalf("a refused act left %v in the outbox", p)
	}
}

func TestTheEnginesTurnIsPendingWork(t *testing.T) {
	t.Run("handed to the front end's pool, and done once taken", func(t *testing.T) {
		th := &thinker{}
		r, st := newRound(t, th)
		g := start(t, r, ann, eng, [2]int{0, 1}).Game
		out, err := r.Do(ctx, act(&g, ann, round.Move, "h2g3", t0.Add(time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		key := round.EngineKey(g.ID, out.Game.Revision)
		if last := out.Events[len(out.Events)-1]; last != (round.EngineThinking{Ahead: 0}) || !slices.Equal(th.turns, []string{key}) {
			t.Fatalf("events %v, turns %v; want the turn %s handed over", out.Events, th.turns, key)
		}
		eo, ok, err := r.EngineTurn(ctx, g.ID, key)
		if err != nil || !ok {
			t.Fatalf("EngineTurn: %v, %v", ok, err)
		}
		m, isMove := eo.Events[0].(round.Moved)
		if !isMove || m.By != eng.ID || m.Ply != 2 || eo.Game.Ply() != 2 {
			t.Fatalf("the engine's turn did %v", eo.Events)
		}
		if tell := eo.Events[len(eo.Events)-1]; tell != (round.Tell{User: "ann", Why: round.YourMove}) {
			t.Fatalf("the engine's move tells %v, want ann told it is her move", tell)
		}
		for _, it := range pending(t, st, t0.Add(24*time.Hour))[round.KindEngine] {
			t.Errorf("an engine item is left: %s", it.Key)
		}
		if _, ok, err := r.EngineTurn(ctx, g.ID, key); ok || err != nil {
			t.Fatalf("a second EngineTurn did something: %v, %v", ok, err)
		}
	})
	t.Run("without a pool it waits in the outbox for any process", func(t *testing.T) {
		r, st := newRound(t, nil)
		out := start(t, r, eng, ann, [2]int{1, 0})
		p := pending(t, st, t0)
		if len(p[round.KindEngine]) != 1 || p[round.KindEngine][0].Key != round.EngineKey(out.Game.ID, out.Game.Revision) {
			t.Fatalf("pending %v, want the engine's first move", p)
		}
		// Another process, after a crash: a Round of its own on the storage.
		other, err := round.New(play.New(st, play.Options{}), round.Options{Engine: round.EngineOptions{Nodes: 2000}})
		if err != nil {
			t.Fatal(err)
		}
		eo, ok, err := other.EngineTurn(ctx, out.Game.ID, p[round.KindEngine][0].Key)
		if err != nil || !ok || eo.Game.Ply() != 1 {
			t.Fatalf("the other process's EngineTurn: %v, %v, ply %d", ok, err, eo.Game.Ply())
		}
	})
	t.Run("its seed makes the same move every time", func(t *testing.T) {
		var moves []string
		for range 2 {
			r, _ := newRound(t, nil)
			out := start(t, r, eng, ann, [2]int{3, 0})
			eo, _, err := r.Engine(ctx, out.Game.ID)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, eo.Events[0].(round.Moved).UCI)
		}
		if moves[0] != moves[1] {
			t.Fatalf("the engine played %v", moves)
		}
	})
}

func TestTheEngineAnswersOffersAtOnce(t *testing.T) {
	t.Run("a takeback", func(t *testing.T) {
		th := &thinker{}
		r, st := newRound(t, th)
		g := start(t, r, ann, eng, [2]int{0, 1}).Game
		out, err := r.Do(ctx, act(&g, ann, round.Move, "h2g3", t0.Add(time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := r.EngineTurn(ctx, g.ID, round.EngineKey(g.ID, out.Game.Revision)); err != nil {
			t.Fatal(err)
		}
		g, _ = r.Service().Game(ctx, g.ID)
		out, err = r.Do(ctx, act(&g, ann, round.RequestTakeback, "", t0.Add(2*time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		var took *round.TookBack
		for _, e := range out.Events {
			if tb, ok := e.(round.TookBack); ok {
				took = &tb
			}
		}
		if took == nil || took.By != eng.ID || out.Game.Ply() != 0 {
			t.Fatalf("events %v, ply %d; want the engine to grant it", out.Events, out.Game.Ply())
		}
		for _, it := range pending(t, st, t0.Add(24*time.Hour))[round.KindEngine] {
			t.Errorf("an engine item is left: %s", it.Key)
		}
	})
	t.Run("a draw", func(t *testing.T) {
		r, _ := newRound(t, nil)
		g := start(t, r, ann, eng, [2]int{0, 1}).Game
		out, err := r.Do(ctx, act(&g, ann, round.OfferDraw, "", t0.Add(time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		answered := false
		for _, e := range out.Events {
			switch e := e.(type) {
			case round.Declined:
				answered = e.By == eng.ID && e.Offer == round.Draw
			case round.Ended:
				answered = e.By == eng.ID && e.Outcome.Reason == game.DrawAgreed
			}
		}
		if !answered || out.Game.DrawOffer != nil {
			t.Fatalf("events %v; want the engine's answer", out.Events)
		}
	})
}

func TestAConditionalReplyIsAMoveOfItsAuthor(t *testing.T) {
	r, _ := newRound(t, nil)
	g := start(t, r, ann, bob, [2]int{}).Game
	out, err := r.Do(ctx, act(&g, ann, round.Move, "h2g3", t0.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	g = out.Game
	if _, err := r.Service().Premove(ctx, play.Act{By: "ann", Game: g.ID, Revision: g.Revision, At: t0.Add(2 * time.Minute)}, [][]string{{"h7g6", "g1h3"}}); err != nil {
		t.Fatal(err)
	}
	g, _ = r.Service().Game(ctx, g.ID)
	out, err = r.Do(ctx, act(&g, bob, round.Move, "h7g6", t0.Add(3*time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	reply, ok := out.Events[1].(round.Moved)
	if !ok || !reply.Reply || reply.By != "ann" || reply.Ply != 3 || out.Events[2] != (round.Tell{User: "bob", Why: round.YourMove}) {
		t.Fatalf("events %#v", out.Events)
	}
}

func TestEndsTellTheOpponent(t *testing.T) {
	r, _ := newRound(t, nil)
	g := start(t, r, ann, bob, [2]int{}).Game
	out, err := r.Do(ctx, act(&g, ann, round.Resign, "", t0.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	want := round.Events{round.Ended{Outcome: out.Game.Outcome, By: "ann"}, round.Tell{User: "bob", Why: round.GameOver}}
	if !reflect.DeepEqual(out.Events, want) {
		t.Fatalf("events %#v, want %#v", out.Events, want)
	}
}

func TestPlayedDescribesTheMoveAsPlayDid(t *testing.T) {
	r, _ := newRound(t, nil)
	g := start(t, r, ann, bob, [2]int{}).Game
	var last play.Result
	for i, mv := range []string{"h2g3", "g8f6", "g3h4"} {
		out, err := r.Do(ctx, act(&g, g.ToMove(), round.Move, mv, t0.Add(time.Duration(i+1)*time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		g, last = out.Game, out.Result
	}
	got, err := round.Played(&g, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, last.Move) {
		t.Fatalf("Played: %+v, play said %+v", got, last.Move)
	}
	for _, ply := range []int{0, 4, -1} {
		if _, err := round.Played(&g, ply); !errors.Is(err, play.ErrCorrupt) {
			t.Errorf("Played(%d): %v", ply, err)
		}
	}
}

func TestEventsReadBackAsWritten(t *testing.T) {
	es := round.Events{
		round.Started{White: "a", Black: "b"},
		round.Moved{By: "a", SAN: "hxg3", UCI: "h2g3", Ply: 1, Reply: true, FEN: "8/8/8/8/8/8/8/K6k w - - 0 1"},
		round.IceAge{Ply: 40, Frozen: 2, Filled: 30, Before: "8/8/8/8/8/8/8/K6k w - - 0 1",
			Men: []game.Placement{{Square: 3, Piece: 5}, {Square: 60, Piece: 12}}, Ice: 0xf0},
		round.Ended{Outcome: game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}, By: "b"},
		round.Offered{Offer: round.Draw, By: "a", To: "b"},
		round.Declined{Offer: round.Takeback, By: "b"},
		round.TookBack{By: "b", Plies: 2},
		round.Lapsed{Offer: round.Draw, By: "a"},
		round.Dropped{By: "a"},
		round.Tell{User: "b", Why: round.OfferMade, How: round.DirectMessage, Lang: "fr"},
		round.EngineThinking{Ahead: 3},
		round.TimedOut{Due: time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC), Late: time.Hour, Chooser: "a"},
		round.Rehomed{From: "c1", To: "c2", Why: round.OwnThread},
	}
	b, err := json.Marshal(es)
	if err != nil {
		t.Fatal(err)
	}
	var got round.Events
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, es) {
		t.Fatalf("read back %#v\nwrote %#v", got, es)
	}
	if err := json.Unmarshal([]byte(`[{"t":"fromthefuture","e":{}}]`), &got); err == nil {
		t.Fatal("an unknown event was read")
	}
}
