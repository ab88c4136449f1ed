package play_test

import (
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

func TestDrawOffers(t *testing.T) {
	ongoingGame := func(t *testing.T) (*play.Service, play.Storage, play.Game) {
		svc, st := newService(play.Options{})
		return svc, st, playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3", "Nxf6")
	}
	later := func(g play.Game) time.Time { return g.Updated.Add(time.Minute) }

	t.Run("offering a draw to a player who offered one agrees it", func(t *testing.T) {
		svc, _, g := ongoingGame(t)
		g = must(svc.OfferDraw(ctx, act(bob, g, later(g))))(t).Game
		r := must(svc.OfferDraw(ctx, act(ann, g, later(g))))(t)
		if r.Event != play.Ended || r.Game.Outcome != (game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}) {
			t.Fatalf("%q, outcome %+v", r.Event, r.Game.Outcome)
		}
	})

	t.Run("accepting an offer draws the game", func(t *testing.T) {
		svc, _, g := ongoingGame(t)
		g = must(svc.OfferDraw(ctx, act(ann, g, later(g))))(t).Game
		r := must(svc.AcceptDraw(ctx, act(bob, g, later(g))))(t)
		if r.Game.Outcome != (game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}) || r.Game.DrawOffer != nil {
			t.Fatalf("outcome %+v, offer %+v", r.Game.Outcome, r.Game.DrawOffer)
		}
	})

	t.Run("a declined offer cannot be repeated in the same position, but can after the next moves", func(t *testing.T) {
		svc, st, g := ongoingGame(t)
		g = must(svc.OfferDraw(ctx, act(bob, g, later(g))))(t).Game
		g = must(svc.DeclineDraw(ctx, act(ann, g, later(g))))(t).Game
		snapshot := dump(t, st)
		_, err := svc.OfferDraw(ctx, act(bob, g, later(g)))
		wantKind(t, err, play.OfferRepeated)
		unchanged(t, st, snapshot)
		g = playMoves(t, svc, g, "gxh4")
		g = must(svc.OfferDraw(ctx, act(bob, g, later(g))))(t).Game
		if g.DrawOffer == nil || g.DrawOffer.By != bob.ID || g.DrawOffer.Ply != 3 {
			t.Fatalf("offer %+v", g.DrawOffer)
		}
	})

	t.Run("an offer lapses with the next move, and the mover may offer in the new position", func(t *testing.T) {
		svc, _, g := ongoingGame(t)
		g = must(svc.OfferDraw(ctx, act(ann, g, later(g))))(t).Game
		r := must(svc.Move(ctx, act(g.ToMove(), g, later(g)), "gxh4"))(t)
		g = r.Game
		if g.DrawOffer != nil {
			t.Fatalf("the offer survived the move: %+v", g.DrawOffer)
		}
		if r.DrawLapsed == nil || r.DrawLapsed.By != ann.ID || r.TakebackLapsed != nil {
			t.Fatalf("the move's result says the offers %+v and %+v lapsed; want Ann's draw offer", r.DrawLapsed, r.TakebackLapsed)
		}
		_, err := svc.AcceptDraw(ctx, act(bob, g, later(g)))
		wantKind(t, err, play.NoOffer)
		g = playMoves(t, svc, g, "Nxe4")
		if _, err := svc.OfferDraw(ctx, act(ann, g, later(g))); err != nil {
			t.Fatalf("offering again two moves later: %v", err)
		}
	})
}

func TestTakebacks(t *testing.T) {
	later := func(g play.Game) time.Time { return g.Updated.Add(time.Hour) }
	for _, tt := range []struct {
		name      string
		start     string
		moves     []string
		asker     play.Seat
		plies     int
		wantFEN   string // "" for the position before the last plies moves
		wantToAct play.Seat
	}{
		{name: "the player to move takes back their move and the reply", moves: []string{"hxg3", "Nxf6"},
			asker: ann, plies: 2, wantToAct: ann},
		{name: "the player who moved last takes back their move", moves: []string{"hxg3", "Nxf6"},
			asker: bob, plies: 1, wantToAct: bob},
		{name: "taking back an Ice Age brings back the men it froze and the squares it filled",
			start: "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20", moves: []string{"Bd6"},
			asker: bob, plies: 1, wantFEN: "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20", wantToAct: bob},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := newService(play.Options{})
			g := playMoves(t, svc, startFrom(t, svc, tt.start, 2), tt.moves...)
			g = must(svc.OfferDraw(ctx, act(tt.asker, g, later(g))))(t).Game
			g = must(svc.RequestTakeback(ctx, act(tt.asker, g, later(g))))(t).Game
			answerer := ann
			if tt.asker == ann {
				answerer = bob
			}
			at := later(g)
			r := must(svc.AcceptTakeback(ctx, act(answerer, g, at)))(t)
			back := r.Game
			m := must(game.ReplayUCI(g.StartFEN, ucis(g.Moves[:g.Ply()-tt.plies])))(t)
			want := m.FEN()
			if tt.wantFEN != "" && want != tt.wantFEN {
				t.Fatalf("the replay itself gives %s", want)
			}
			switch {
			case r.Event != play.TookBack || r.TakenBack != tt.plies:
				t.Fatalf("%q, %d plies taken back; want %d", r.Event, r.TakenBack, tt.plies)
			case back.Ply() != g.Ply()-tt.plies || back.FEN != want:
				t.Fatalf("ply %d, FEN %s; want ply %d, %s", back.Ply(), back.FEN, g.Ply()-tt.plies, want)
			case back.ToMove() != tt.wantToAct:
				t.Fatalf("%s to move, want %s", back.ToMove().ID, tt.wantToAct.ID)
			case back.DrawOffer != nil || back.Takeback != nil || back.LastOffer != [2]int{}:
				t.Fatalf("offers after a takeback: %+v %+v %v", back.DrawOffer, back.Takeback, back.LastOffer)
			case !back.Deadline.Equal(at.Add(48 * time.Hour)):
				t.Fatalf("deadline %v, want two days after the takeback", back.Deadline)
			}
			if _, err := svc.OfferDraw(ctx, act(tt.asker, back, later(back))); err != nil {
				t.Fatalf("offering a draw after the takeback: %v", err)
			}
		})
	}

	t.Run("a rated game allows no takeback", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := must(svc.Start(ctx, play.NewGame{Channel: "c1", White: ann, Black: bob, Rated: true, At: t0}))(t).Game
		g = playMoves(t, svc, g, "hxg3", "Nxf6")
		snapshot := dump(t, st)
		for _, who := range []play.Seat{ann, bob} {
			_, err := svc.RequestTakeback(ctx, act(who, g, later(g)))
			wantKind(t, err, play.RatedTakeback)
		}
		unchanged(t, st, snapshot)
	})

	t.Run("a player who has not moved yet has nothing to take back", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := playMoves(t, svc, startFrom(t, svc, "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20", 0), "Bd6")
		snapshot := dump(t, st)
		_, err := svc.RequestTakeback(ctx, act(ann, g, later(g)))
		wantKind(t, err, play.NothingToTakeBack)
		unchanged(t, st, snapshot)
	})
}

func TestAbort(t *testing.T) {
	for _, tt := range []struct {
		name  string
		moves []string
		by    play.Seat
		want  play.RefusalKind
	}{
		{"White may abort before moving", nil, ann, 0},
		{"Black may abort before White moves", nil, bob, 0},
		{"White may abort after moving, before Black replies", []string{"hxg3"}, ann, 0},
		{"Black may abort instead of replying", []string{"hxg3"}, bob, 0},
		{"White may not abort once both have moved", []string{"hxg3", "Nxf6"}, ann, play.TooLateToAbort},
		{"Black may not abort once both have moved", []string{"hxg3", "Nxf6"}, bob, play.TooLateToAbort},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svc, st := newService(play.Options{})
			g := must(svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, Rated: true, DaysPerMove: 1, At: t0}))(t).Game
			g = playMoves(t, svc, g, tt.moves...)
			if g.Abortable() != (tt.want == 0) {
				t.Fatalf("Abortable() = %v at ply %d", g.Abortable(), g.Ply())
			}
			snapshot := dump(t, st)
			r, err := svc.Abort(ctx, act(tt.by, g, g.Updated.Add(time.Minute)))
			if tt.want != 0 {
				wantKind(t, err, tt.want)
				unchanged(t, st, snapshot)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Game.Outcome != (game.Outcome{Reason: game.Aborted}) || r.Game.Abortable() {
				t.Fatalf("outcome %+v", r.Game.Outcome)
			}
			err = st.View(ctx, func(tx play.ReadTx) error {
				for _, scope := range []string{"", "g1"} {
					for _, u := range []string{ann.ID, bob.ID} {
						if p, err := tx.Player(scope, u); !errors.Is(err, play.ErrNotFound) {
							t.Errorf("an aborted rated game gave %s a record in %q: %+v", u, scope, p)
						}
					}
					s, _ := tx.Stats(scope)
					if s.Aborted != 1 || s.Games() != 0 || len(s.ByReason) != 0 {
						t.Errorf("stats in %q: %+v", scope, s)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func ucis(ms []play.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI
	}
	return out
}
