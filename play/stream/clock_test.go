package stream_test

import (
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
)

// The events of a live game carry both clocks as each revision left
// them, the running one named, so that a page can tick them and be
// corrected at each move.
func TestLiveGameEventsCarryTheClocks(t *testing.T) {
	st := inProcess[0].open(t)
	h := newHub(t, st, stream.Options{Buffer: 16})
	svc := play.New(st, play.Options{})
	res, err := svc.Start(ctx, play.NewGame{Channel: "c1", White: ann, Black: bob,
		Time: play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	g := res.Game
	w, err := h.Subscribe(ctx, g.ID, g.Revision)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range []string{"h2g3", "g8f6", "g1f3"} {
		at := t0.Add(time.Duration(10*(i+1)) * time.Second)
		res, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: at}, mv)
		if err != nil {
			t.Fatal(err)
		}
		g = res.Game
	}
	evs := collect(t, w, g.Revision)
	first, last := evs[0], evs[len(evs)-1]
	// The first move costs nothing: Black's clock runs from it.
	if c := first.Clock; c == nil || c.Running != "black" || c.White != 180_000 || c.Black != 180_000 || c.Limit != 180 || c.Increment != 2 {
		t.Fatalf("after the first move the clocks are %+v", first.Clock)
	}
	// White moved at 10 s (free), Black at 20 s (10 s, +2), White at 30 s
	// (10 s, +2): Black's clock runs.
	if c := last.Clock; c == nil || c.Running != "black" || c.White != 172_000 || c.Black != 172_000 {
		t.Fatalf("after three moves the clocks are %+v", last.Clock)
	}
}
