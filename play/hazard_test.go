package play_test

import (
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// TestStaleActOnANewGameInTheChannel is the first hazard of issue 8: game 1
// in channel c1 is resigned and game 2 starts in c1 between the same
// players, in the very position and at the very revision game 1's last
// message showed. A click on that message names game 1, so it is refused
// and game 2 is left alone.
func TestStaleActOnANewGameInTheChannel(t *testing.T) {
	setup := func(t *testing.T) (*play.Service, play.Storage, play.Game, play.Act) {
		svc, st := newService(play.Options{})
		g1 := playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3")
		seen := act(bob, g1, g1.Updated.Add(time.Hour)) // bob's view: his move, after hxg3
		must(svc.Resign(ctx, act(bob, g1, g1.Updated.Add(time.Minute))))(t)
		g2 := must(svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, DaysPerMove: 3, At: t0.Add(time.Hour)}))(t).Game
		g2 = playMoves(t, svc, g2, "hxg3")
		if g2.Revision != seen.Revision || g2.FEN != g1.FEN || g2.ID == g1.ID {
			t.Fatalf("game 2 is not where game 1 was: revision %d/%d, %s / %s", g2.Revision, seen.Revision, g2.FEN, g1.FEN)
		}
		return svc, st, g2, seen
	}
	for _, tt := range []struct {
		name string
		do   func(svc *play.Service, a play.Act) (play.Result, error)
	}{
		{"a stale move from game 1's message is refused and never played in game 2", func(svc *play.Service, a play.Act) (play.Result, error) {
			return svc.Move(ctx, a, "g8f6")
		}},
		{"a stale resignation from game 1's message is refused and never ends game 2", func(svc *play.Service, a play.Act) (play.Result, error) {
			return svc.Resign(ctx, a)
		}},
		{"a stale draw offer from game 1's message is refused and never reaches game 2", func(svc *play.Service, a play.Act) (play.Result, error) {
			return svc.OfferDraw(ctx, a)
		}},
		{"a stale abort from game 1's message is refused and never aborts game 2", func(svc *play.Service, a play.Act) (play.Result, error) {
			return svc.Abort(ctx, a)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc, st, g2, seen := setup(t)
			snapshot := dump(t, st)
			_, err := tt.do(svc, seen)
			if x := wantKind(t, err, play.GameOver); x.Game != seen.Game {
				t.Errorf("the refusal names game %d, the click game %d", x.Game, seen.Game)
			}
			unchanged(t, st, snapshot)
			if now := must(svc.GameIn(ctx, "c1"))(t); now.ID != g2.ID || now.Revision != g2.Revision {
				t.Fatalf("the channel holds game %d at revision %d, want game 2 (%d) at %d", now.ID, now.Revision, g2.ID, g2.Revision)
			}
		})
	}
	t.Run("the same act naming game 2 applies to game 2", func(t *testing.T) {
		svc, _, g2, seen := setup(t)
		seen.Game = g2.ID
		r, err := svc.Move(ctx, seen, "g8f6")
		if err != nil || r.Game.ID != g2.ID || r.Move.SAN != "Nxf6" {
			t.Fatalf("move in game 2: %+v, %v", r, err)
		}
	})
}

// TestStaleAcceptOfAWithdrawnOffer is the second hazard of issue 8: a draw
// is offered and withdrawn in one position, and then an "accept" made
// while the offer stood arrives. The withdrawal changed the revision, so
// the accept is stale; at the new revision there is no offer to accept.
func TestStaleAcceptOfAWithdrawnOffer(t *testing.T) {
	for _, tt := range []struct {
		name  string
		close func(svc *play.Service, g play.Game) (play.Result, error)
		last  play.Event
	}{
		{"an accept of a withdrawn offer is refused as stale", func(svc *play.Service, g play.Game) (play.Result, error) {
			return svc.WithdrawDraw(ctx, act(bob, g, g.Updated.Add(time.Minute)))
		}, play.DrawWithdrawn},
		{"an accept of a declined offer is refused as stale", func(svc *play.Service, g play.Game) (play.Result, error) {
			return svc.DeclineDraw(ctx, act(ann, g, g.Updated.Add(time.Minute)))
		}, play.DrawDeclined},
		{"an accept of an offer that lapsed with a move is refused as stale", func(svc *play.Service, g play.Game) (play.Result, error) {
			return svc.Move(ctx, act(ann, g, g.Updated.Add(time.Minute)), "gxh4")
		}, play.Moved},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc, st := newService(play.Options{})
			g := playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3", "Nxf6")
			offered := must(svc.OfferDraw(ctx, act(bob, g, g.Updated.Add(time.Minute))))(t).Game
			closed := must(tt.close(svc, offered))(t).Game
			snapshot := dump(t, st)
			_, err := svc.AcceptDraw(ctx, act(ann, offered, closed.Updated.Add(time.Minute)))
			x := wantKind(t, err, play.Stale)
			if x.Revision != closed.Revision || x.Last != tt.last {
				t.Errorf("stale refusal says revision %d, last %q; want %d, %q", x.Revision, x.Last, closed.Revision, tt.last)
			}
			unchanged(t, st, snapshot)
			if g := stored(t, svc, g.ID); g.Over() || g.DrawOffer != nil {
				t.Fatalf("the game after a stale accept: %+v", g)
			}
			_, err = svc.AcceptDraw(ctx, act(ann, closed, closed.Updated.Add(2*time.Minute)))
			wantKind(t, err, play.NoOffer)
		})
	}
	t.Run("the offerer cannot offer again in the same position after withdrawing", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3", "Nxf6")
		g = must(svc.OfferDraw(ctx, act(bob, g, g.Updated.Add(time.Minute))))(t).Game
		g = must(svc.WithdrawDraw(ctx, act(bob, g, g.Updated.Add(time.Minute))))(t).Game
		snapshot := dump(t, st)
		_, err := svc.OfferDraw(ctx, act(bob, g, g.Updated.Add(time.Minute)))
		wantKind(t, err, play.OfferRepeated)
		unchanged(t, st, snapshot)
		g = must(svc.OfferDraw(ctx, act(ann, g, g.Updated.Add(time.Minute))))(t).Game
		if g.DrawOffer == nil || g.DrawOffer.By != ann.ID {
			t.Fatalf("the other player's offer: %+v", g.DrawOffer)
		}
	})
}
