package playtest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/iceagechess/iceage/play"
)

// runTournamentSuite checks the tournament records: read back equal, a
// guild's newest first, a game found from its tournament and never given
// to two, writes kept only with their transaction.
func runTournamentSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	put := func(t *testing.T, st play.Storage, r play.TournamentRecord) error {
		return st.Update(ctx, func(tx play.Tx) error { return tx.PutTournament(r) })
	}
	t.Run("a tournament is read back equal, by id, by guild and from its games", func(t *testing.T) {
		st := open(t)
		a := play.TournamentRecord{ID: 10, Guild: "g1", Body: []byte(`{"name":"Autumn Swiss"}`), Games: []uint64{101, 102}}
		b := play.TournamentRecord{ID: 12, Guild: "g1", Finished: true, Body: []byte(`{"name":"Blitz"}`)}
		c := play.TournamentRecord{ID: 11, Guild: "g2", Body: []byte(`{}`)}
		for _, r := range []play.TournamentRecord{a, b, c} {
			if err := put(t, st, r); err != nil {
				t.Fatal(err)
			}
		}
		err := st.View(ctx, func(tx play.ReadTx) error {
			got, err := tx.Tournament(10)
			if err != nil {
				return err
			}
			if got.Guild != "g1" || string(got.Body) != string(a.Body) || !slices.Equal(got.Games, a.Games) || got.Finished {
				t.Errorf("tournament 10 read back as %+v", got)
			}
			rs, err := tx.Tournaments("g1")
			if err != nil {
				return err
			}
			if len(rs) != 2 || rs[0].ID != 12 || rs[1].ID != 10 || !rs[0].Finished {
				t.Errorf("guild g1 has %+v, want 12 then 10", rs)
			}
			if id, err := tx.TournamentOf(102); err != nil || id != 10 {
				t.Errorf("game 102 belongs to %d (%v), want 10", id, err)
			}
			if _, err := tx.TournamentOf(999); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("a game of no tournament: %v", err)
			}
			if _, err := tx.Tournament(99); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("a missing tournament: %v", err)
			}
			if rs, err := tx.Tournaments("nobody"); err != nil || len(rs) != 0 {
				t.Errorf("a guild without tournaments: %v %v", rs, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The next round adds games; the record is replaced.
		a.Games = append(a.Games, 103)
		a.Body = []byte(`{"name":"Autumn Swiss","round":2}`)
		if err := put(t, st, a); err != nil {
			t.Fatal(err)
		}
		_ = st.View(ctx, func(tx play.ReadTx) error {
			got, err := tx.Tournament(10)
			if err != nil || len(got.Games) != 3 || string(got.Body) != string(a.Body) {
				t.Errorf("after the second round: %+v %v", got, err)
			}
			if id, err := tx.TournamentOf(103); err != nil || id != 10 {
				t.Errorf("game 103 belongs to %d (%v)", id, err)
			}
			return nil
		})
	})
	t.Run("a game belongs to one tournament; bad records are refused", func(t *testing.T) {
		st := open(t)
		if err := put(t, st, play.TournamentRecord{ID: 1, Guild: "g", Games: []uint64{5}}); err != nil {
			t.Fatal(err)
		}
		for name, r := range map[string]play.TournamentRecord{
			"another's game": {ID: 2, Guild: "g", Games: []uint64{5}},
			"no id":          {Guild: "g"},
			"no guild":       {ID: 3},
			"a bad guild id": {ID: 3, Guild: "g\x00h"},
			"game zero":      {ID: 3, Guild: "g", Games: []uint64{0}},
		} {
			if err := put(t, st, r); err == nil {
				t.Errorf("%s: stored %+v", name, r)
			}
		}
		if err := put(t, st, play.TournamentRecord{ID: 1, Guild: "other"}); err == nil {
			t.Error("a tournament moved to another guild")
		}
	})
	t.Run("a game once listed stays listed, in the record as in the index", func(t *testing.T) {
		st := open(t)
		for _, games := range [][]uint64{{5, 6}, {7}} {
			if err := put(t, st, play.TournamentRecord{ID: 1, Guild: "g", Body: []byte("{}"), Games: games}); err != nil {
				t.Fatal(err)
			}
		}
		_ = st.View(ctx, func(tx play.ReadTx) error {
			r, err := tx.Tournament(1)
			if got := slices.Sorted(slices.Values(r.Games)); err != nil || !slices.Equal(got, []uint64{5, 6, 7}) {
				t.Errorf("the tournament lists games %v (%v), want 5, 6 and 7", r.Games, err)
			}
			for _, g := range []uint64{5, 6, 7} {
				if id, err := tx.TournamentOf(g); err != nil || id != 1 {
					t.Errorf("TournamentOf(%d) = %d, %v", g, id, err)
				}
			}
			return nil
		})
	})
	t.Run("a failed transaction keeps no tournament", func(t *testing.T) {
		st := open(t)
		boom := errors.New("boom")
		err := st.Update(ctx, func(tx play.Tx) error {
			if err := tx.PutTournament(play.TournamentRecord{ID: 7, Guild: "g", Games: []uint64{70}}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v", err)
		}
		_ = st.View(ctx, func(tx play.ReadTx) error {
			if _, err := tx.Tournament(7); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("the failed transaction's tournament is there: %v", err)
			}
			if _, err := tx.TournamentOf(70); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("the failed transaction's game index is there: %v", err)
			}
			return nil
		})
	})
}
