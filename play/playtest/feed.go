package playtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// runFeedSuite checks play.Feed: every write of a game committed is
// told, once, in order, with the game's record; a transaction rolled
// back tells nothing.
func runFeedSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	st := open(t)
	feed, ok := st.(play.Feed)
	if !ok {
		t.Fatalf("%T tells no commits (play.Feed)", st)
	}
	told := make(chan play.Committed, 1000)
	stop := feed.Feed(func(cs []play.Committed, lost bool) {
		for _, c := range cs {
			told <- c
		}
	})
	defer stop()
	put := func(g *play.Game) {
		t.Helper()
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutGame(*g) }); err != nil {
			t.Fatal(err)
		}
	}
	// next returns the next write told, or fails.
	next := func(within time.Duration) (play.Committed, bool) {
		select {
		case c := <-told:
			return c, true
		case <-time.After(within):
			return play.Committed{}, false
		}
	}

	// A storage that listens (PostgreSQL) may take a moment to: a probe
	// game is written until a write of it is told.
	var probe play.Game
	if err := st.Update(ctx, func(tx play.Tx) error {
		id, err := tx.NextID()
		probe = play.Game{ID: id, Revision: 1, Guild: "g1", Channel: "probe", White: play.Seat{ID: "u1"}, Black: play.Seat{ID: "u2"},
			StartFEN: game.StartFEN, FEN: game.StartFEN, Moves: []play.Move{}, Created: T0, Updated: T0, Last: play.Started}
		if err != nil {
			return err
		}
		return tx.PutGame(probe)
	}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		probe.Revision++
		put(&probe)
		if _, ok := next(200 * time.Millisecond); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no write of the probe game was told")
		}
	}
	for { // what the probe left
		if _, ok := next(300 * time.Millisecond); !ok {
			break
		}
	}

	g := probe
	g.Channel, g.Revision = "c1", 1
	if err := st.Update(ctx, func(tx play.Tx) (err error) {
		g.ID, err = tx.NextID()
		if err != nil {
			return err
		}
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	want := []int{1}
	for _, uci := range []string{"h2g3", "g7f6"} {
		g.Revision++
		g.Moves = append(g.Moves, play.Move{UCI: uci, At: T0.Add(time.Duration(g.Revision) * time.Minute)})
		m, err := g.Match()
		if err != nil {
			t.Fatal(err)
		}
		g.FEN = m.FEN() // a storage may check that the moves replay to it
		put(&g)
		want = append(want, g.Revision)
	}
	// Rolled back after its write: never told.
	rollback := errors.New("rolled back")
	if err := st.Update(ctx, func(tx play.Tx) error {
		r := g.Clone()
		r.Revision = 99
		if err := tx.PutGame(r); err != nil {
			return err
		}
		return rollback
	}); !errors.Is(err, rollback) {
		t.Fatalf("Update: %v", err)
	}
	// Two revisions in one transaction: both told, in order; a write
	// at a revision told as its last.
	if err := st.Update(ctx, func(tx play.Tx) error {
		for range 2 {
			g.Revision++
			if err := tx.PutGame(g); err != nil {
				return err
			}
			want = append(want, g.Revision)
		}
		g.Channel = "c2"
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	g.Revision++
	g.Last = play.Ended
	put(&g)
	want = append(want, g.Revision)

	var got []int
	for len(got) < len(want) {
		c, ok := next(20 * time.Second)
		if !ok {
			t.Fatalf("told revisions %v of game %d, want %v", got, g.ID, want)
		}
		if c.Game != g.ID {
			continue
		}
		got = append(got, c.Revision)
		if c.Record == nil {
			continue // too large to tell: the receiver reads it
		}
		var r play.Game
		if err := play.DecodeRecord(c.Record, &r); err != nil {
			t.Fatalf("the record told of revision %d: %v", c.Revision, err)
		}
		if r.ID != g.ID || r.Revision != c.Revision {
			t.Fatalf("the record told as game %d at revision %d is game %d at %d", c.Game, c.Revision, r.ID, r.Revision)
		}
		if c.Revision == want[len(want)-2] && r.Channel != "c2" {
			t.Fatalf("revision %d is told as first written, in %s", c.Revision, r.Channel)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("told revisions %v, want %v", got, want)
	}
	if c, ok := next(200 * time.Millisecond); ok {
		t.Fatalf("told more: game %d at revision %d", c.Game, c.Revision)
	}

	// A tournament written twice in a transaction, with a game: told
	// once, as a tournament; one rolled back, never.
	if err := st.Update(ctx, func(tx play.Tx) error {
		return tx.PutTournament(play.TournamentRecord{ID: 9001, Guild: "g1", Body: []byte(`{"v":1}`)})
	}); err != nil {
		t.Fatal(err)
	}
	if c, ok := next(20 * time.Second); !ok || c.Tournament != 9001 || c.Game != 0 || c.Record != nil {
		t.Fatalf("a tournament's creation is told as %+v (%v)", c, ok)
	}
	if err := st.Update(ctx, func(tx play.Tx) error {
		if err := tx.PutTournament(play.TournamentRecord{ID: 9001, Guild: "g1", Body: []byte(`{"v":2}`)}); err != nil {
			return err
		}
		return tx.PutTournament(play.TournamentRecord{ID: 9001, Guild: "g1", Body: []byte(`{"v":3}`)})
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.Update(ctx, func(tx play.Tx) error {
		if err := tx.PutTournament(play.TournamentRecord{ID: 9001, Guild: "g1", Body: []byte(`{"v":4}`)}); err != nil {
			return err
		}
		return rollback
	}); !errors.Is(err, rollback) {
		t.Fatalf("Update: %v", err)
	}
	if c, ok := next(20 * time.Second); !ok || c.Tournament != 9001 || c.Game != 0 || c.Record != nil {
		t.Fatalf("a tournament's two writes are told as %+v (%v)", c, ok)
	}
	if c, ok := next(300 * time.Millisecond); ok {
		t.Fatalf("told more after a tournament's writes: %+v", c)
	}
}
