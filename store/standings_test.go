package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// TestLogEncoding: every field of a log entry reads back as written,
// through the binary form, for ordinary and extreme values.
func TestLogEncoding(t *testing.T) {
	s := openTest(t, nil)
	rng := rand.New(rand.NewPCG(7, 8))
	times := []time.Time{t0, t0.Add(123456789 * time.Nanosecond), {}, time.Date(1500, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(3000, 12, 31, 23, 59, 59, 999999999, time.UTC), time.Unix(-1, 5).UTC()}
	floats := []float64{0, 1500, -20.25, 3000.125, math.Inf(1), 1e-300, math.MaxFloat64}
	var want []play.LogEntry
	for i := range 200 {
		e := play.LogEntry{Scope: "g1", User: "u1", Game: uint64(i*i + 1), Ended: times[rng.IntN(len(times))],
			Color: game.Color(rng.IntN(3)), Opponent: strings.Repeat("o", rng.IntN(300)), Outcome: game.Outcome{Result: game.Result(rng.IntN(256)), Reason: game.Reason(rng.IntN(256))},
			First: []string{"", "hxg3", "Nxf6", "é\x00\xff"}[rng.IntN(4)], Rated: rng.IntN(2) == 0}
		if rng.IntN(3) > 0 {
			e.Rating, e.Deviation = floats[rng.IntN(len(floats))], floats[rng.IntN(len(floats))]
		}
		want = append(want, e)
	}
	err := s.Update(ctx, func(tx play.Tx) error {
		for _, e := range want {
			if err := tx.PutLogEntry(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx play.ReadTx) error {
		i := 0
		err := tx.PlayerLog("g1", "u1", func(e play.LogEntry) error {
			w := want[i]
			w.V = logVersion
			if !e.Ended.Equal(w.Ended) || e.Ended.Location() != time.UTC {
				t.Errorf("entry %d ended %v, want %v in UTC", i, e.Ended, w.Ended)
			}
			e.Ended, w.Ended = time.Time{}, time.Time{}
			if e != w {
				t.Errorf("entry %d reads back\n%+v\nwant\n%+v", i, e, w)
			}
			i++
			return nil
		})
		if err != nil || i != len(want) {
			t.Fatalf("%d entries, %v", i, err)
		}
		return nil
	})
	t.Run("an entry without a game or with an id that cannot be a key is refused", func(t *testing.T) {
		for _, e := range []play.LogEntry{{User: "u1"}, {User: "", Game: 1}, {User: "u\x00", Game: 1}, {Scope: "g\x001", User: "u", Game: 1}} {
			err := s.Update(ctx, func(tx play.Tx) error { return tx.PutLogEntry(e) })
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%+v: %v, want ErrInvalid", e, err)
			}
		}
	})
	t.Run("the log of one user is not another's whose id it begins", func(t *testing.T) {
		err := s.Update(ctx, func(tx play.Tx) error {
			return tx.PutLogEntry(play.LogEntry{Scope: "g1", User: "u10", Game: 5, Ended: t0})
		})
		if err != nil {
			t.Fatal(err)
		}
		view(t, s, func(tx play.ReadTx) error {
			n := 0
			tx.PlayerLog("g1", "u1", func(play.LogEntry) error { n++; return nil })
			m := 0
			tx.PlayerLog("g1", "u10", func(play.LogEntry) error { m++; return nil })
			if n != len(want) || m != 1 {
				t.Errorf("u1 has %d entries, u10 %d", n, m)
			}
			return nil
		})
	})
}

// TestStandingsOrder: the rating index walks in play.CompareStandings'
// order, whatever the ratings (negative, zero, infinite, equal) and the
// numbers of games, and reads back every field a standing has.
func TestStandingsOrder(t *testing.T) {
	s := openTest(t, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	// JSON has no infinities: a player record cannot hold one.
	ratings := []float64{1500, 1500.0000000001, 1499.9999999999, 0, math.Copysign(0, -1), -0.5, -1500, 2800.75,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}
	var want []play.Standing
	var players []play.Player
	for i := range 300 {
		p := play.NewPlayer("g", fmt.Sprintf("u%03d", rng.IntN(1000)))
		if slices.ContainsFunc(players, func(q play.Player) bool { return q.User == p.User }) {
			continue
		}
		p.Name = []string{"", "Ann", "Ünïcode ☃", strings.Repeat("n", 200)}[i%4]
		p.Rating = play.Rating{Rating: ratings[rng.IntN(len(ratings))], Deviation: 30 + rng.Float64()*300, Volatility: rng.Float64() / 10,
			Updated: t0.Add(time.Duration(rng.Int64N(1<<50)) - 1<<49)}
		if i%17 == 0 {
			p.Rating.Updated = time.Time{}
		}
		p.RatedTally = play.Tally{Won: rng.IntN(4), Lost: rng.IntN(3), Drawn: rng.IntN(2)}
		if i%29 == 0 {
			p.RatedTally.Won = math.MaxInt32 + rng.IntN(10)
		}
		p.RatedGames = p.RatedTally.Games()
		if i%13 == 0 {
			p.RatedGames = 0 // casual games only: not standing
		}
		players = append(players, p)
		if p.RatedGames > 0 {
			want = append(want, play.StandingOf(&p))
		}
	}
	slices.SortStableFunc(want, play.CompareStandings)
	err := s.Update(ctx, func(tx play.Tx) error {
		for _, p := range players {
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx play.ReadTx) error {
		var got []play.Standing
		if err := tx.Standings("g", func(s play.Standing) error { got = append(got, s); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d standings, want %d", len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if !g.Rating.Updated.Equal(w.Rating.Updated) || g.Rating.Updated.IsZero() != w.Rating.Updated.IsZero() {
				t.Errorf("standing %d: updated %v, want %v", i, g.Rating.Updated, w.Rating.Updated)
			}
			g.Rating.Updated, w.Rating.Updated = time.Time{}, time.Time{}
			if g != w && !(g.Rating.Rating == 0 && w.Rating.Rating == 0) {
				t.Errorf("standing %d reads\n%+v\nwant\n%+v", i, g, w)
			}
		}
		return nil
	})
	t.Run("ratings map to keys in order", func(t *testing.T) {
		sorted := append(slices.Clone(ratings), math.Inf(1), math.Inf(-1))
		slices.SortFunc(sorted, func(a, b float64) int { return -cmpFloat(a, b) })
		sorted = append(sorted, math.NaN())
		for i := 1; i < len(sorted); i++ {
			a, b := orderedRating(sorted[i-1]), orderedRating(sorted[i])
			if a > b || a == b && sorted[i-1] != sorted[i] && !(sorted[i] == 0 && sorted[i-1] == 0) {
				t.Errorf("%v and %v: keys %x and %x", sorted[i-1], sorted[i], a, b)
			}
		}
		for _, r := range ratings {
			if back := ratingOfOrdered(orderedRating(r)); back != r {
				t.Errorf("%v reads back as %v", r, back)
			}
		}
		if back := ratingOfOrdered(orderedRating(math.NaN())); !math.IsNaN(back) {
			t.Errorf("NaN reads back as %v", back)
		}
	})
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestNewerLogAndStandingsAreRefused: entries of a newer encoding than
// this program's are refused, not misread; damaged ones are reported.
func TestNewerLogAndStandingsAreRefused(t *testing.T) {
	s := openTest(t, nil)
	p := play.NewPlayer("g", "ann")
	p.RatedGames, p.RatedTally = 1, play.Tally{Won: 1}
	err := s.Update(ctx, func(tx play.Tx) error {
		return errors.Join(tx.PutPlayer(p), tx.PutLogEntry(play.LogEntry{Scope: "g", User: "ann", Game: 1, Ended: t0, Opponent: "bob"}))
	})
	if err != nil {
		t.Fatal(err)
	}
	set := func(bucket []byte, v func([]byte) []byte) {
		t.Helper()
		err := s.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucket)
			k, old := b.Cursor().First()
			return b.Put(bytes.Clone(k), v(bytes.Clone(old)))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk := func() (logErr, standErr error) {
		s.View(ctx, func(tx play.ReadTx) error {
			logErr = tx.PlayerLog("g", "ann", func(play.LogEntry) error { return nil })
			standErr = tx.Standings("g", func(play.Standing) error { return nil })
			return nil
		})
		return
	}
	var saved [2][]byte
	set(bucketLog, func(v []byte) []byte { saved[0] = bytes.Clone(v); v[0] = logVersion + 1; return v })
	set(bucketRatings, func(v []byte) []byte { saved[1] = bytes.Clone(v); v[0] = standingVersion + 1; return v })
	if l, st := walk(); !errors.Is(l, ErrNewerSchema) || !errors.Is(st, ErrNewerSchema) || !strings.Contains(l.Error(), "ann") {
		t.Errorf("newer entries: %v; %v", l, st)
	}
	set(bucketLog, func([]byte) []byte { return saved[0][:7] })
	set(bucketRatings, func([]byte) []byte { return saved[1][:10] })
	if l, st := walk(); !errors.Is(l, play.ErrCorrupt) || !errors.Is(st, play.ErrCorrupt) {
		t.Errorf("damaged entries: %v; %v", l, st)
	}
	set(bucketLog, func([]byte) []byte { return saved[0] })
	set(bucketRatings, func([]byte) []byte { return saved[1] })
	if l, st := walk(); l != nil || st != nil {
		t.Errorf("restored entries: %v; %v", l, st)
	}
	t.Run("a player record of a newer version is not replaced", func(t *testing.T) {
		set(bucketPlayers, func(v []byte) []byte {
			saved[0] = bytes.Clone(v)
			return bytes.Replace(v, fmt.Appendf(nil, `{"v":%d,`, play.RecordVersion), fmt.Appendf(nil, `{"v":%d,"title":"GM",`, play.RecordVersion+1), 1)
		})
		if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPlayer(p) }); !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "ann") {
			t.Errorf("got %v, want ErrNewerSchema naming ann", err)
		}
		set(bucketPlayers, func([]byte) []byte { return saved[0] }) // for the cleanup's index check
	})
}

// TestMigrateSchema3 migrates a file of schema 3: this program's file
// with the buckets of schema 4 taken out, as schema 3's program left it.
// The migration must build the same log and rating index as this
// program writes: the log from the archive (the games here are casual,
// as every game of schema 3's program was), the rating index from the
// player records (some of them rated, as a program may have written
// them).
func TestMigrateSchema3(t *testing.T) {
	path := t.TempDir() + "/iceage.db"
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := service(s)
	refs := loadRefGames(t)
	var frozen refGame
	for _, r := range refs {
		if strings.HasSuffix(r.termination, "king_frozen") {
			frozen = r
			break
		}
	}
	end := func(g play.Game, how string) {
		t.Helper()
		a := play.Act{By: g.White.ID, Game: g.ID, Revision: g.Revision, At: g.Updated.Add(time.Hour)}
		var err error
		switch how {
		case "resign":
			_, err = svc.Resign(ctx, a)
		case "abort":
			_, err = svc.Abort(ctx, a)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	end(playMoves(t, svc, start(t, svc, "G", "c1", "alice", "bob", 0), refs[0].moves[:6]), "resign")
	end(playMoves(t, svc, start(t, svc, "", "c2", "bob", "carol", 0), refs[1].moves[:1]), "resign")
	end(start(t, svc, "G", "c3", "carol", "alice", 0), "resign")
	end(start(t, svc, "H", "c4", "alice", "dave", 0), "abort")
	playMoves(t, svc, start(t, svc, "G", "c5", "dave", "alice", 0), frozen.moves) // ends by itself
	playMoves(t, svc, start(t, svc, "G", "c6", "alice", "erin", 0), refs[2].moves[:3])
	r, err := svc.Start(ctx, play.NewGame{Guild: "G", Channel: "c7", White: play.Seat{ID: "erin"}, Black: play.Seat{ID: "bob"},
		StartFEN: "k7/pp6/8/8/8/8/8/7K w - - 0 20", At: t0})
	if err != nil {
		t.Fatal(err)
	}
	end(playMoves(t, svc, r.Game, []string{"h1g1"}), "resign")
	err = s.Update(ctx, func(tx play.Tx) error {
		for i, u := range []string{"alice", "bob", "carol"} {
			p, err := tx.Player("G", u)
			if err != nil {
				return err
			}
			p.Rating = play.Rating{Rating: 1600 - 50*float64(i), Deviation: 80, Volatility: 0.06, Updated: t0}
			p.RatedGames, p.RatedTally = 3, play.Tally{Won: 2 - i, Lost: i + 1}
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var board play.Standings
	if board, err = svc.Leaderboard(ctx, "G", 1, 10, t0); err != nil || board.Ranked != 3 {
		t.Fatalf("the board before: %+v, %v", board, err)
	}
	s.Close()
	want := dump(t, path)
	if !strings.Contains(want, "\nlog ") || !strings.Contains(want, "\nidx.rating ") {
		t.Fatalf("the file has no log or rating index:\n%s", want)
	}

	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := deleteBuckets(tx, [][]byte{bucketLog, bucketRatings}); err != nil {
			return err
		}
		return setSchema(tx, 3)
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path, nil)
	if v := schemaOfFile(t, s); v != schemaVersion {
		t.Fatalf("schema %d", v)
	}
	s.Close()
	if got := dump(t, path); got != want {
		t.Fatalf("the migrated file differs from the one this program wrote:\n--- migrated:\n%s\n--- written:\n%s", got, want)
	}
	s = openAt(t, path, nil)
	svc = service(s)
	after, err := svc.Leaderboard(ctx, "G", 1, 10, t0)
	if err != nil || fmt.Sprint(after) != fmt.Sprint(board) {
		t.Errorf("the board after the migration: %+v, %v; before: %+v", after, err, board)
	}
	pr, err := svc.PlayerStats(ctx, "G", "alice", "bob")
	if err != nil || pr.Logged != 3 || pr.Versus != (play.Tally{Lost: 1}) || pr.Openings[game.White].Move == "" {
		t.Errorf("alice's statistics after the migration: %+v, %v", pr, err)
	}
}

// TestMigratedLogs: the fixtures' archives are in the players' logs after
// the migration, aborted games aside, as play would have logged them.
func TestMigratedLogs(t *testing.T) {
	type want = loggedGames
	common := []want{{"", "alice", "[4 5]"}, {"G", "alice", "[4 5]"}, {"H", "alice", "[]"}, {"G", "bob", "[4]"}, {"", "carol", "[5]"}}
	t.Run("schema 1", func(t *testing.T) {
		checkMigratedLogs(t, openAt(t, copyFixture(t, fixtureV1), nil), common)
	})
	t.Run("schema 2", func(t *testing.T) {
		s := openAt(t, copyFixture(t, fixtureV2), nil)
		checkMigratedLogs(t, s, append(common, want{"", "dave", "[7]"}, want{"G", "erin", "[7]"}))
		pr, err := service(s).PlayerStats(ctx, "G", "alice", "bob")
		if err != nil || pr.Logged != 2 || pr.Versus != (play.Tally{Lost: 1}) || len(pr.History) != 0 {
			t.Errorf("alice's statistics: %+v, %v", pr, err)
		}
		g5, _ := service(s).Game(ctx, 5)
		if first := g5.FirstMoves(); first[game.White] == "" || pr.Openings[game.Black].Move != first[game.Black] {
			t.Errorf("alice's favourite as Black is %+v; game 5 opened %v", pr.Openings[game.Black], first)
		}
	})
}

// loggedGames are the games that a user's log in scope should hold.
type loggedGames struct {
	scope, user string
	games       string
}

func checkMigratedLogs(t *testing.T, s *Store, wants []loggedGames) {
	t.Helper()
	view(t, s, func(tx play.ReadTx) error {
		for _, w := range wants {
			var ids []uint64
			err := tx.PlayerLog(w.scope, w.user, func(e play.LogEntry) error {
				ids = append(ids, e.Game)
				g, err := tx.Game(e.Game)
				if err != nil {
					return err
				}
				c, ok := g.ColorOf(w.user)
				first := g.FirstMoves()
				if !ok || e.Color != c || e.Opponent != g.Seat(c.Other()).ID || e.Outcome != g.Outcome || !e.Ended.Equal(g.Ended) ||
					e.First != first[c] || e.Rated || e.Rating != 0 {
					t.Errorf("the entry of game %d for %s in %q: %+v", e.Game, w.user, w.scope, e)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if fmt.Sprint(ids) != w.games {
				t.Errorf("the log of %s in %q holds %v, want %s", w.user, w.scope, ids, w.games)
			}
		}
		n := 0
		if err := tx.Standings("", func(play.Standing) error { n++; return nil }); err != nil || n != 0 {
			t.Errorf("%d standings (%v): the old records have no rated game", n, err)
		}
		return nil
	})
	var b []byte
	s.db.View(func(tx *bolt.Tx) error {
		b = bytes.Clone(tx.Bucket(bucketPlayers).Get(playerKey("G", "alice")))
		return nil
	})
	var p play.Player
	if err := json.Unmarshal(b, &p); err != nil || p.RatedGames != 0 {
		t.Errorf("alice's record %s, %v", b, err)
	}
}
