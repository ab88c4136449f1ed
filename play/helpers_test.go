package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// t0 is when test time starts.
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

var ctx = context.Background()

// The people of the tests: ann challenges bob and plays White; cat plays
// in no game; dan takes open challenges.
var (
	ann = play.Seat{ID: "ann", Name: "Ann"}
	bob = play.Seat{ID: "bob", Name: "Bob"}
	cat = play.Seat{ID: "cat", Name: "Cat"}
	dan = play.Seat{ID: "dan", Name: "Dan"}
)

// newService returns a Service on an empty in-memory storage whose random
// colours always give the challenger White.
func newService(opts play.Options) (*play.Service, *memstore.Memory) {
	st := memstore.New()
	if opts.Rand == nil {
		opts.Rand = func(int) int { return 0 }
	}
	return play.New(st, opts), st
}

// refusal returns err as a *play.Refusal, failing the test if it is not one.
func refusal(t testing.TB, err error) *play.Refusal {
	t.Helper()
	var x *play.Refusal
	if !errors.As(err, &x) {
		t.Fatalf("got error %v (%T), want a *play.Refusal", err, err)
	}
	return x
}

// wantKind fails the test unless err is a *play.Refusal of kind k.
func wantKind(t testing.TB, err error, k play.RefusalKind) *play.Refusal {
	t.Helper()
	if err == nil {
		t.Fatalf("the act was applied; want it refused: %v", k)
	}
	x := refusal(t, err)
	if x.Kind != k {
		t.Fatalf("refused as %q (%v), want %q", x.Kind, err, k)
	}
	return x
}

func isKind(err error, k play.RefusalKind) bool {
	var x *play.Refusal
	return errors.As(err, &x) && x.Kind == k
}

// must(f())(t) returns f's value, failing the test if f failed.
func must[T any](v T, err error) func(t testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// act names g as it is now, asked by user at the time at.
func act(user play.Seat, g play.Game, at time.Time) play.Act {
	return play.Act{By: user.ID, Game: g.ID, Revision: g.Revision, At: at}
}

// stored reads a game back from the storage.
func stored(t testing.TB, svc *play.Service, id uint64) play.Game {
	t.Helper()
	return must(svc.Game(ctx, id))(t)
}

// dump renders everything a storage holds that play writes (games and
// challenges by id, players and statistics of every scope) as text, so that
// "changed nothing" can be checked by comparing two dumps.
func dump(t testing.TB, st play.Storage) string {
	t.Helper()
	var b strings.Builder
	err := st.View(ctx, func(tx play.ReadTx) error {
		scopes := map[string]bool{"": true}
		// Ids are given in order to games and challenges alike; a run of
		// 50 unused ones is past the last (deleted challenges leave gaps).
		for id, miss := uint64(1), 0; miss < 50; id++ {
			miss++
			if g, err := tx.Game(id); err == nil {
				miss = 0
				scopes[g.Guild] = true
				fmt.Fprintf(&b, "game %s\n", asJSON(g))
			} else if !errors.Is(err, play.ErrNotFound) {
				return err
			}
			if c, err := tx.Challenge(id); err == nil {
				miss = 0
				fmt.Fprintf(&b, "challenge %s\n", asJSON(c))
			} else if !errors.Is(err, play.ErrNotFound) {
				return err
			}
		}
		for _, scope := range slices.Sorted(maps.Keys(scopes)) {
			s, err := tx.Stats(scope)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "stats %q %s\n", scope, asJSON(s))
			var ps []string
			err = tx.Players(scope, func(p play.Player) error {
				s := asJSON(p)
				// The player's log follows their record.
				err := tx.PlayerLog(scope, p.User, func(e play.LogEntry) error { s += "\n  log " + asJSON(e); return nil })
				ps = append(ps, s)
				return err
			})
			if err != nil {
				return err
			}
			slices.Sort(ps)
			for _, p := range ps {
				fmt.Fprintf(&b, "player %q %s\n", scope, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// unchanged fails the test if the storage differs from the dump before.
func unchanged(t testing.TB, st play.Storage, before string) {
	t.Helper()
	if after := dump(t, st); after != before {
		t.Fatalf("a refused act changed the storage:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// startFrom starts a casual game between ann (White) and bob (Black) in
// channel c1 of guild g1 from fen ("" for the ice start).
func startFrom(t testing.TB, svc *play.Service, fen string, days int) play.Game {
	t.Helper()
	r := must(svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob,
		StartFEN: fen, DaysPerMove: days, At: t0}))(t)
	return r.Game
}

// playMoves plays moves in turn from g, a minute apart, and returns the
// game after the last.
func playMoves(t testing.TB, svc *play.Service, g play.Game, moves ...string) play.Game {
	t.Helper()
	for _, mv := range moves {
		at := g.Updated.Add(time.Minute)
		r, err := svc.Move(ctx, act(g.ToMove(), g, at), mv)
		if err != nil {
			t.Fatalf("move %s: %v", mv, err)
		}
		g = r.Game
	}
	return g
}

// replays checks that g replays from its start and moves to its stored
// position and outcome: the moves are legal, the FEN is theirs, a
// board-decided outcome is the board's and no move was played after it.
func replays(g *play.Game) error {
	m, err := g.Match()
	if err != nil {
		return err
	}
	if m.FEN() != g.FEN {
		return fmt.Errorf("game %d replays to %s, stored %s", g.ID, m.FEN(), g.FEN)
	}
	if m.Outcome() != g.Outcome {
		return fmt.Errorf("game %d replays to outcome %+v, stored %+v", g.ID, m.Outcome(), g.Outcome)
	}
	board := m.Position()
	o := board.Outcome()
	switch g.Outcome.Reason {
	case game.Checkmate, game.Stalemate, game.KingFrozen, game.BothKingsFrozen, game.FiftyMoveRule:
		if o != g.Outcome {
			return fmt.Errorf("game %d: stored %+v, but the board says %+v", g.ID, g.Outcome, o)
		}
	default:
		if o.Over() {
			return fmt.Errorf("game %d: the board ended it (%+v), stored %+v", g.ID, o, g.Outcome)
		}
	}
	return nil
}
