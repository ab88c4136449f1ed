package play_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

func TestMovePlayed(t *testing.T) {
	tests := []struct {
		name      string
		start     string
		text      string
		san, uci  string
		after     string
		frozen    []game.Placement // nil: no Ice Age
		iced      int              // squares the Ice Age iced
		bareAfter string           // the Ice Age's Before: after the bare move
		outcome   game.Outcome
	}{
		{name: "an ice capture from the start, typed in SAN", start: "", text: "hxg3", san: "hxg3", uci: "h2g3",
			after: "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1"},
		{name: "the same move typed in UCI has the same SAN", start: "", text: "h2g3", san: "hxg3", uci: "h2g3",
			after: "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1"},
		{name: "the same move typed loosely has the same SAN", start: "", text: "h2-g3", san: "hxg3", uci: "h2g3",
			after: "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1"},
		{name: "a mate is written with its sign and ends the game", start: "6k1/5ppp/1*******/8/8/8/8/R5K1 w - - 0 1",
			text: "Ra8", san: "Ra8#", uci: "a1a8", after: "R5k1/5ppp/1*******/8/8/8/8/6K1 b - - 1 1",
			outcome: game.WinFor(game.White, game.Checkmate)},
		{name: "Black's 20th move brings an Ice Age that freezes a lone rook", start: "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20",
			text: "Bd6", san: "Bd6", uci: "e7d6",
			after:  "****k***/***p****/***b****/********/********/********/P****P**/K***R*** w - - 1 21",
			frozen: []game.Placement{{Square: sq("h4"), Piece: game.MakePiece(game.Black, game.Rook)}}, iced: 57,
			bareAfter: "4k3/3p4/3b4/8/7r/8/P4P2/K3R3 w - - 1 21"},
		{name: "an Ice Age that freezes White's lone king wins for Black", start: "k7/pp6/8/8/8/8/8/7K b - - 0 20",
			text: "b6", san: "b6", uci: "b7b6",
			after:  "k*******/p*******/*p******/********/********/********/********/******** w - - 0 21",
			frozen: []game.Placement{{Square: game.H1, Piece: game.MakePiece(game.White, game.King)}}, iced: 61,
			bareAfter: "k7/p7/1p6/8/8/8/8/7K w - - 0 21", outcome: game.WinFor(game.Black, game.KingFrozen)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := newService(play.Options{})
			g := startFrom(t, svc, tt.start, 1)
			before := must(g.Position())(t)
			mover := g.ToMove()
			at := t0.Add(time.Hour)
			r := must(svc.Move(ctx, act(mover, g, at), tt.text))(t)
			m := r.Move
			switch {
			case m == nil:
				t.Fatal("no move in the result")
			case m.SAN != tt.san || m.UCI != tt.uci || m.Move.UCI() != tt.uci:
				t.Fatalf("SAN %q, UCI %q/%q; want %q, %q", m.SAN, m.UCI, m.Move.UCI(), tt.san, tt.uci)
			case m.By != before.Turn():
				t.Fatalf("by %s, want %s", m.By, before.Turn())
			case m.Before != before:
				t.Fatalf("before %s, want %s", m.Before.FEN(), before.FEN())
			case m.After.FEN() != tt.after || r.Game.FEN != tt.after:
				t.Fatalf("after %s, game %s; want %s", m.After.FEN(), r.Game.FEN, tt.after)
			case r.Game.Outcome != tt.outcome || m.After.Outcome() != tt.outcome:
				t.Fatalf("outcome %+v, position says %+v; want %+v", r.Game.Outcome, m.After.Outcome(), tt.outcome)
			case !slices.Equal(r.Game.Moves, []play.Move{{UCI: tt.uci, At: at, SAN: tt.san, Rev: r.Game.Revision}}):
				t.Fatalf("moves %+v", r.Game.Moves)
			}
			if tt.frozen == nil {
				if m.IceAge != nil {
					t.Fatalf("an Ice Age without one due: %+v", m.IceAge)
				}
				return
			}
			e := m.IceAge
			switch {
			case e == nil:
				t.Fatal("no Ice Age on Black's 20th move")
			case !reflect.DeepEqual(e.Frozen, tt.frozen):
				t.Fatalf("frozen %v, want %v", e.Frozen, tt.frozen)
			case e.Iced().Count() != tt.iced:
				t.Fatalf("%d squares iced, want %d", e.Iced().Count(), tt.iced)
			case e.Before.FEN() != tt.bareAfter:
				t.Fatalf("the Ice Age's position before %s, want %s", e.Before.FEN(), tt.bareAfter)
			case e.Iced()&m.After.Ice() != e.Iced():
				t.Fatalf("iced squares %v are not all ice after the move", e.Iced())
			}
		})
	}
}

func TestRefusalData(t *testing.T) {
	t.Run("not your turn names who is to move and with which colour", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3")
		_, err := svc.Move(ctx, act(ann, g, g.Updated.Add(time.Minute)), "gxh4")
		x := wantKind(t, err, play.NotYourTurn)
		if x.Who != bob || x.Turn != game.Black || x.Game != g.ID {
			t.Fatalf("refusal %+v, want Bob (black) to move in game %d", x, g.ID)
		}
		if want := "it is not your move: Bob (black) is to move"; err.Error() != want {
			t.Fatalf("%q, want %q", err.Error(), want)
		}
	})

	t.Run("an illegal move wraps game's reason and comes with suggestions", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := startFrom(t, svc, "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", 3)
		snapshot := dump(t, st)
		_, err := svc.Move(ctx, act(ann, g, t0.Add(time.Minute)), "Ra5")
		x := wantKind(t, err, play.IllegalMove)
		var me *game.MoveError
		if !errors.As(err, &me) || me.Kind != game.BlockedByIce || me.Move.UCI() != "a1a5" {
			t.Fatalf("wrapped %#v, want a *game.MoveError blocked by ice for a1a5", x.Err)
		}
		if want := []string{"Rxa3", "Ra2", "Rb1", "Rc1", "Rd1"}; !slices.Equal(x.Suggestions, want) {
			t.Fatalf("suggestions %q, want %q", x.Suggestions, want)
		}
		if want := "the rook on a1 cannot reach a5: ice on a3 blocks it"; err.Error() != want {
			t.Fatalf("%q, want %q", err.Error(), want)
		}
		unchanged(t, st, snapshot)
	})

	t.Run("an ambiguous move wraps game's candidates", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := startFrom(t, svc, "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", 3)
		_, err := svc.Move(ctx, act(ann, g, t0.Add(time.Minute)), "Nb3")
		x := wantKind(t, err, play.IllegalMove)
		var me *game.MoveError
		if !errors.As(err, &me) || me.Kind != game.Ambiguous || len(me.Candidates) != 2 {
			t.Fatalf("wrapped %#v, want an ambiguity between two knights", x.Err)
		}
		if len(x.Suggestions) == 0 || len(x.Suggestions) > play.MaxSuggestions {
			t.Fatalf("suggestions %q", x.Suggestions)
		}
	})

	t.Run("text that is no move wraps game's syntax error", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := startFrom(t, svc, "", 3)
		snapshot := dump(t, st)
		_, err := svc.Move(ctx, act(ann, g, t0.Add(time.Minute)), "hello")
		x := wantKind(t, err, play.NotAMove)
		var se *game.SyntaxError
		if !errors.As(err, &se) || se.Text != "hello" {
			t.Fatalf("wrapped %#v, want a *game.SyntaxError", x.Err)
		}
		if err.Error() != se.Error() {
			t.Fatalf("%q, want game's %q", err.Error(), se.Error())
		}
		unchanged(t, st, snapshot)
	})

	t.Run("a stale act says the current revision and what changed it", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := startFrom(t, svc, "", 3)
		g2 := must(svc.OfferDraw(ctx, act(bob, g, t0.Add(time.Minute))))(t).Game
		_, err := svc.Move(ctx, act(ann, g, t0.Add(2*time.Minute)), "hxg3")
		x := wantKind(t, err, play.Stale)
		if x.Revision != g2.Revision || x.Last != play.DrawOffered {
			t.Fatalf("refusal %+v", x)
		}
		if !strings.Contains(err.Error(), play.DrawOffered.String()) {
			t.Fatalf("%q does not say what changed", err.Error())
		}
	})

	t.Run("an act on a game over says how it ended", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := startFrom(t, svc, "", 3)
		g = must(svc.Resign(ctx, act(bob, g, t0.Add(time.Minute))))(t).Game
		_, err := svc.OfferDraw(ctx, act(ann, g, t0.Add(2*time.Minute)))
		x := wantKind(t, err, play.GameOver)
		if x.Outcome != game.WinFor(game.White, game.Resignation) {
			t.Fatalf("outcome %+v", x.Outcome)
		}
		if want := "the game is over: 1-0, resignation"; err.Error() != want {
			t.Fatalf("%q, want %q", err.Error(), want)
		}
	})

	t.Run("a move at the deadline is refused as time up, and the game is then lost on time", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := playMoves(t, svc, startFrom(t, svc, "", 1), "hxg3")
		snapshot := dump(t, st)
		_, err := svc.Move(ctx, act(bob, g, g.Deadline), "Nxf6")
		x := wantKind(t, err, play.TimeUp)
		if !x.Deadline.Equal(g.Deadline) || !strings.Contains(err.Error(), g.Deadline.Format(time.RFC3339)) {
			t.Fatalf("refusal %+v: %v", x, err)
		}
		unchanged(t, st, snapshot)
		if _, err := svc.Move(ctx, act(bob, g, g.Deadline.Add(-time.Millisecond)), "Nxf6"); err != nil {
			t.Fatalf("a move a millisecond before the deadline: %v", err)
		}
	})

	t.Run("a timeout asked too early says when the deadline is", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := startFrom(t, svc, "", 2)
		_, err := svc.TimeOut(ctx, g.ID, t0)
		x := wantKind(t, err, play.NotYetDue)
		if !x.Deadline.Equal(t0.Add(48*time.Hour)) || !strings.Contains(err.Error(), x.Deadline.Format(time.RFC3339)) {
			t.Fatalf("refusal %+v: %v", x, err)
		}
	})

	t.Run("an unknown game id is no game", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		_, err := svc.Game(ctx, 42)
		if x := wantKind(t, err, play.NoGame); x.Game != 42 {
			t.Fatalf("refusal %+v", x)
		}
		_, err = svc.GameIn(ctx, "nowhere")
		wantKind(t, err, play.NoGame)
		_, err = svc.GetChallenge(ctx, 42)
		wantKind(t, err, play.NoChallenge)
	})

	t.Run("a bad time control says the days refused and those offered", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		_, err := svc.Challenge(ctx, play.NewChallenge{Channel: "c1", From: ann, To: bob, DaysPerMove: 4, At: t0})
		wantKind(t, err, play.BadTimeControl)
		if want := "4 days per move is not offered: choose one of [1 2 3 5 7 10 14], or no limit"; err.Error() != want {
			t.Fatalf("%q, want %q", err.Error(), want)
		}
	})

	t.Run("an unusable start position says why", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		for _, tt := range []struct{ fen, msg string }{
			{"8/8 w", "invalid FEN (position): want 4 to 6 fields separated by spaces (board, side to move, castling, en passant, clocks), found 2"},
			{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", "the start position is the end of a game already: 1-0, checkmate"},
		} {
			_, err := svc.Start(ctx, play.NewGame{Channel: "c1", White: ann, Black: bob, StartFEN: tt.fen, At: t0})
			x := wantKind(t, err, play.BadPosition)
			var fe *game.FENError
			if wrapped := errors.As(err, &fe); wrapped == x.Outcome.Over() {
				t.Errorf("%s: refusal %+v, wrapping a FEN error: %v", tt.fen, x, wrapped)
			}
			if err.Error() != tt.msg {
				t.Errorf("%s: %q, want %q", tt.fen, err.Error(), tt.msg)
			}
		}
	})

	t.Run("every kind has a stable name and an English sentence", func(t *testing.T) {
		seen := map[string]play.RefusalKind{}
		for k := play.RefusalKind(1); k < 64; k++ {
			name := k.String()
			if strings.HasPrefix(name, "RefusalKind(") {
				continue
			}
			if other, dup := seen[name]; dup {
				t.Errorf("kinds %d and %d are both %q", other, k, name)
			}
			seen[name] = k
			if msg := (&play.Refusal{Kind: k}).Error(); msg == "" {
				t.Errorf("kind %d says nothing", k)
			}
		}
		if len(seen) != 39 {
			t.Errorf("%d named kinds, want 39", len(seen))
		}
		if got := play.RefusalKind(99).String(); got != "RefusalKind(99)" {
			t.Errorf("an unknown kind is %q", got)
		}
	})

	t.Run("every event has a distinct English name", func(t *testing.T) {
		seen := map[string]bool{}
		for e := play.Started; e <= play.Rehomed; e++ {
			if seen[e.String()] || e.String() == play.NoEvent.String() {
				t.Errorf("event %d is %q", e, e.String())
			}
			seen[e.String()] = true
		}
	})
}

// sq reads a square's name.
func sq(name string) game.Square {
	s, err := game.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}
