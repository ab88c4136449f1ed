package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

var update = flag.Bool("update", false, "rewrite the fixtures in testdata (go test ./store -run TestFixture -update)")

// The fixtures are not named *.db: the repository ignores those (databases
// made by running the bot).
const (
	// fixtureV1 is made by writeSchema1, the writing code of schema 1.
	fixtureV1 = "testdata/schema1.bbolt"
	// fixtureV2 was made by the schema-2 code itself, through its API
	// (the test that made it, TestMakeFixtureSchema2, is in the history
	// of store/fixture2_test.go). Content, with game ids 1 to 7 and
	// challenge ids 1 and 2 (schema 2 numbered them apart):
	//
	//   - 1 alice–bob in guild G, channel c-ab, 2 days per move, 30
	//     plies (refs[0]), a draw offer by bob, two message ids;
	//   - 2 bob–carol in G, c-bc, no clock, 7 plies (refs[1]), a
	//     takeback asked by bob;
	//   - 3 alice–carol outside any guild, dm-ac, 1 day per move;
	//   - 4 alice–bob in G, won by bob when White's king froze (archived);
	//   - 5 carol–alice in G, 12 plies, resigned by alice (archived);
	//   - 6 alice–bob in guild H, 1 ply, aborted (archived);
	//   - 7 dave–erin in G, 1 day per move, lost on time by dave
	//     (archived);
	//   - challenge 1 dave → alice in G, random colour, 3 days, expiring
	//     at t0+1h; challenge 2 open from carol, black, expiring at t0+2h;
	//   - bob's global rating 1612.5; alice's prefs: fr, black, on
	//     vacation.
	fixtureV2 = "testdata/schema2.bbolt"
)

// writeSchema1 writes a database in the layout of schema version 1, the
// first released one: no per-user or per-guild index, records of version
// 1. It is that version's writing code, kept so the fixture can be made
// again.
//
// Content: three active games (alice–bob in guild G with a 2-day clock,
// bob–carol in guild G, alice–carol outside any guild), three archived
// games (a frozen king, a resignation, an abort), two challenges, their
// players and statistics.
func writeSchema1(path string, refs []refGame) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Update(func(tx *bolt.Tx) error {
		v1Buckets := []string{"meta", "games", "gameIDs", "archive", "challenges", "players", "prefs", "stats",
			"idx.deadline", "idx.reminder", "idx.expiry"}
		for _, name := range v1Buckets {
			if _, err := tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		meta := tx.Bucket([]byte("meta"))
		meta.Put([]byte("schema"), []byte{0, 0, 0, 1})
		meta.Put([]byte("created"), []byte("2026-01-01T00:00:00Z"))
		var frozen refGame
		for _, r := range refs {
			if r.termination == "black_king_frozen" {
				frozen = r
				break
			}
		}
		games := []struct {
			guild, channel, white, black string
			days                         int
			moves                        []string
			status                       game.Outcome
		}{
			{"G", "c-ab", "alice", "bob", 2, refs[0].moves[:30], game.Outcome{}},
			{"G", "c-bc", "bob", "carol", 0, refs[1].moves[:7], game.Outcome{}},
			{"", "dm-ac", "alice", "carol", 1, nil, game.Outcome{}},
			{"G", "c-old1", "bob", "alice", 0, frozen.moves, game.Outcome{}},
			{"G", "c-old2", "carol", "alice", 3, refs[2].moves[:12], game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}},
			{"H", "c-old3", "alice", "bob", 0, refs[3].moves[:1], game.Outcome{Reason: game.Aborted}},
		}
		for i, x := range games {
			g, err := oldMake(1, uint64(i+1), x.guild, x.channel, x.white, x.black, x.days, x.moves, x.status)
			if err != nil {
				return err
			}
			if !g.Status.Over() {
				oldPut(tx, "games", []byte(g.Channel), g)
				oldPut(tx, "gameIDs", u64(g.ID), []byte(g.Channel))
				if !g.Deadline.IsZero() {
					oldPut(tx, "idx.deadline", append(timeKey(g.Deadline), g.Channel...), []byte{})
					oldPut(tx, "idx.reminder", append(timeKey(g.RemindAt), g.Channel...), []byte{})
				}
				continue
			}
			oldPut(tx, "archive", u64(g.ID), g)
			if err := oldCount(tx, 1, g, []string{"", g.Guild}); err != nil {
				return err
			}
		}
		meta.SetSequence(uint64(len(games)))
		for i, c := range []oldChallenge{
			{V: 1, ID: 1, Guild: "G", Channel: "lobby", From: play.Seat{ID: "dave", Name: "Dave"}, To: play.Seat{ID: "alice", Name: "Alice"}, DaysPerMove: 3, Created: t0, Expires: t0.Add(time.Hour)},
			{V: 1, ID: 2, Guild: "G", Channel: "lobby", From: play.Seat{ID: "carol", Name: "Carol"}, Color: "black", Created: t0, Expires: t0.Add(2 * time.Hour)},
		} {
			oldPut(tx, "challenges", u64(c.ID), &c)
			oldPut(tx, "idx.expiry", append(timeKey(c.Expires), u64(c.ID)...), []byte{})
			tx.Bucket([]byte("challenges")).SetSequence(uint64(i + 1))
		}
		return oldPut(tx, "prefs", []byte("alice"), oldPrefs{V: 1, Language: "fr"})
	})
}

// dump lists every bucket, key and value of a database file, with the
// bucket sequences, for comparing files logically.
func dump(t *testing.T, path string) string {
	t.Helper()
	var buf bytes.Buffer
	dumpTo(t, &buf, path)
	return buf.String()
}

func dumpTo(t *testing.T, w io.Writer, path string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			fmt.Fprintf(w, "%s seq=%d\n", name, b.Sequence())
			return b.ForEach(func(k, v []byte) error {
				if string(name) == "meta" && string(k) == "created" {
					v = []byte("(time)")
				}
				fmt.Fprintf(w, "  %q = %q\n", k, v)
				return nil
			})
		})
	})
}

func TestFixtureSchema1(t *testing.T) {
	refs := loadRefGames(t)
	fresh := filepath.Join(t.TempDir(), "schema1.db")
	if err := writeSchema1(fresh, refs); err != nil {
		t.Fatal(err)
	}
	if *update {
		b, err := os.ReadFile(fresh)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fixtureV1, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", fixtureV1)
	}
	if got, want := dump(t, fixtureV1), dump(t, fresh); got != want {
		t.Fatalf("%s differs from what writeSchema1 makes; run with -update if the change is intended\n--- fixture:\n%s\n--- fresh:\n%s", fixtureV1, got, want)
	}
}

func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(t.TempDir(), "iceage.db")
	dst, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func schemaOfFile(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	if err := s.db.View(func(tx *bolt.Tx) (err error) { v, err = schemaOf(tx); return err }); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMigrateSchema1(t *testing.T) {
	path := copyFixture(t, fixtureV1)
	s := openAt(t, path, nil)
	svc := service(s)
	if v := schemaOfFile(t, s); v != schemaVersion {
		t.Fatalf("schema %d", v)
	}
	queries := []struct {
		name string
		get  func(tx play.ReadTx) ([]play.Game, error)
		want []uint64
	}{
		{"a user's active games, oldest first", func(tx play.ReadTx) ([]play.Game, error) { return tx.ActiveGames("alice") }, []uint64{1, 3}},
		{"the other user's active games", func(tx play.ReadTx) ([]play.Game, error) { return tx.ActiveGames("carol") }, []uint64{2, 3}},
		{"a guild's active games", func(tx play.ReadTx) ([]play.Game, error) { return tx.GuildGames("G") }, []uint64{1, 2}},
		{"a user's finished games", func(tx play.ReadTx) ([]play.Game, error) { return tx.Finished("alice", "", 0, 10) }, []uint64{6, 5, 4}},
		{"a guild's finished games", func(tx play.ReadTx) ([]play.Game, error) { return tx.Finished("", "G", 0, 10) }, []uint64{5, 4}},
		{"all finished games", func(tx play.ReadTx) ([]play.Game, error) { return tx.Finished("", "", 0, 10) }, []uint64{6, 5, 4}},
	}
	for _, q := range queries {
		t.Run(q.name+" are indexed", func(t *testing.T) {
			view(t, s, func(tx play.ReadTx) error {
				got, err := q.get(tx)
				if err != nil || idsOf(got) != fmt.Sprint(q.want) {
					t.Fatalf("got %s, %v; want %v", idsOf(got), err, q.want)
				}
				return nil
			})
		})
	}
	t.Run("what schema 1 had is kept, and play's new counts are computed", func(t *testing.T) {
		view(t, s, func(tx play.ReadTx) error {
			a, _ := tx.Challenges("alice")
			c, _ := tx.Challenges("carol")
			if len(a) != 1 || a[0].ID != 1 || a[0].Color != play.Random || len(c) != 1 || c[0].ID != 2 || c[0].Color != play.BlackSide {
				t.Errorf("alice %+v, carol %+v", a, c)
			}
			due, _ := tx.Due(play.DueDeadline, t0.Add(1000*time.Hour), 10)
			if len(due) != 2 || due[0].ID != 3 || due[1].ID != 1 {
				t.Errorf("deadlines %+v", due)
			}
			old4, err := tx.Game(4)
			if err != nil || old4.Outcome.Reason != game.KingFrozen {
				t.Fatalf("game 4: %+v, %v", old4.Outcome, err)
			}
			st, _ := tx.Stats("G")
			if st.WhiteWins != 2 || st.Games() != 2 || st.ByReason[game.KingFrozen] != 1 || st.Scope != "G" || st.IceAges != iceAgeCount(t, &old4) {
				t.Errorf("stats %+v; game 4 has %d Ice Ages", st, iceAgeCount(t, &old4))
			}
			if h, _ := tx.Stats("H"); h.Aborted != 1 || len(h.ByReason) != 0 {
				t.Errorf("an aborted game is still counted by reason: %+v", h)
			}
			if p, _ := tx.Prefs("alice"); p.Language != "fr" {
				t.Errorf("prefs %+v", p)
			}
			bob, _ := tx.Player("", "bob")
			alice, _ := tx.Player("G", "alice")
			if bob.AsWhite.Won != 1 || bob.Name != "Name bob" || alice.FrozenLosses != 1 || bob.FrozenLosses != 0 {
				t.Errorf("bob %+v, alice %+v", bob, alice)
			}
			return nil
		})
	})
	t.Run("a migrated game plays on, and new ids come after the old ones", func(t *testing.T) {
		g, err := svc.Game(ctx, 1)
		if err != nil || g.Revision != 31 || g.Last != play.Moved {
			t.Fatalf("game 1: revision %d, last %v, %v", g.Revision, g.Last, err)
		}
		g = playMoves(t, svc, g, loadRefGames(t)[0].moves[30:31])
		if g.Ply() != 31 || g.V != recordVersion {
			t.Fatalf("ply %d, record version %d", g.Ply(), g.V)
		}
		n := start(t, svc, "G", "c-new", "alice", "dave", 0)
		if n.ID != 7 {
			t.Fatalf("new game id %d", n.ID)
		}
	})
	t.Run("reopening an upgraded file changes nothing", func(t *testing.T) {
		s.Close()
		before := dump(t, path)
		s2 := openAt(t, path, nil)
		s2.Close()
		if after := dump(t, path); after != before {
			t.Fatal("the second open changed the file")
		}
	})
}

func TestMigrateSchema2(t *testing.T) {
	path := copyFixture(t, fixtureV2)
	s := openAt(t, path, nil)
	svc := service(s)
	if v := schemaOfFile(t, s); v != schemaVersion {
		t.Fatalf("schema %d", v)
	}
	ref := loadRefGames(t)
	t.Run("the active games are play's records, offers included", func(t *testing.T) {
		view(t, s, func(tx play.ReadTx) error {
			g1, err := tx.GameIn("c-ab")
			if err != nil {
				t.Fatal(err)
			}
			last := t0.Add(30 * time.Minute)
			switch {
			case g1.ID != 1 || g1.Ply() != 30 || g1.Moves[29].UCI != ref[0].moves[29] || !g1.Moves[29].At.Equal(last):
				t.Errorf("game 1: id %d, %d moves", g1.ID, g1.Ply())
			case g1.Revision != 31 || g1.Last != play.Moved || g1.V != recordVersion:
				t.Errorf("game 1: revision %d, last %v, v%d", g1.Revision, g1.Last, g1.V)
			case g1.DrawOffer == nil || *g1.DrawOffer != (play.Offer{By: "bob", Ply: 30}) || g1.LastOffer != [2]int{0, 31}:
				t.Errorf("game 1: draw offer %+v, last offers %v", g1.DrawOffer, g1.LastOffer)
			case !g1.Deadline.Equal(last.Add(48*time.Hour)) || !g1.RemindAt.Equal(last.Add(24*time.Hour)):
				t.Errorf("game 1: deadline %v, reminder %v", g1.Deadline, g1.RemindAt)
			case g1.White != (play.Seat{ID: "alice", Name: "Name alice"}) || g1.Guild != "G":
				t.Errorf("game 1: %+v in %q", g1.White, g1.Guild)
			case replays(&g1) != nil:
				t.Error(replays(&g1))
			}
			g2, _ := tx.Game(2)
			if g2.Takeback == nil || *g2.Takeback != (play.Offer{By: "bob", Ply: 7}) || g2.DrawOffer != nil || g2.Channel != "c-bc" {
				t.Errorf("game 2: takeback %+v, draw offer %+v", g2.Takeback, g2.DrawOffer)
			}
			g3, _ := tx.Game(3)
			if g3.Revision != 1 || g3.Last != play.Started || g3.Moves == nil || g3.Guild != "" {
				t.Errorf("game 3: %+v", g3)
			}
			for _, q := range []struct {
				name string
				got  func() ([]play.Game, error)
				want string
			}{
				{"alice's active games", func() ([]play.Game, error) { return tx.ActiveGames("alice") }, "[1 3]"},
				{"bob's active games", func() ([]play.Game, error) { return tx.ActiveGames("bob") }, "[1 2]"},
				{"G's active games", func() ([]play.Game, error) { return tx.GuildGames("G") }, "[1 2]"},
				{"alice's finished games", func() ([]play.Game, error) { return tx.Finished("alice", "", 0, 10) }, "[6 5 4]"},
				{"G's finished games", func() ([]play.Game, error) { return tx.Finished("", "G", 0, 10) }, "[7 5 4]"},
				{"all finished games", func() ([]play.Game, error) { return tx.Finished("", "", 0, 10) }, "[7 6 5 4]"},
			} {
				if got, err := q.got(); err != nil || idsOf(got) != q.want {
					t.Errorf("%s: %s, %v; want %s", q.name, idsOf(got), err, q.want)
				}
			}
			if due, _ := tx.Due(play.DueDeadline, t0.Add(1000*time.Hour), 10); len(due) != 2 || due[0].ID != 3 || due[1].ID != 1 {
				t.Errorf("deadlines %+v", due)
			}
			if due, _ := tx.Due(play.DueReminder, t0.Add(1000*time.Hour), 10); len(due) != 2 || due[0].ID != 3 || !due[0].At.Equal(t0.Add(18*time.Hour)) {
				t.Errorf("reminders %+v", due)
			}
			return nil
		})
	})
	t.Run("archived games read as play's records", func(t *testing.T) {
		view(t, s, func(tx play.ReadTx) error {
			for id, want := range map[uint64]game.Outcome{
				4: {Result: game.BlackWins, Reason: game.KingFrozen},
				5: {Result: game.WhiteWins, Reason: game.Resignation},
				6: {Reason: game.Aborted},
				7: {Result: game.BlackWins, Reason: game.Timeout},
			} {
				g, err := tx.Game(id)
				if err != nil || g.Outcome != want || g.Ended.IsZero() || g.DrawOffer != nil || replays(&g) != nil {
					t.Errorf("game %d: %+v, ended %v, %v, %v", id, g.Outcome, g.Ended, err, replays(&g))
				}
				if _, err := g.Match(); err != nil {
					t.Errorf("game %d does not replay: %v", id, err)
				}
			}
			return nil
		})
	})
	t.Run("the counts are carried and completed", func(t *testing.T) {
		view(t, s, func(tx play.ReadTx) error {
			g4, _ := tx.Game(4)
			ices := iceAgeCount(t, &g4)
			if ices == 0 {
				t.Fatal("game 4 has no Ice Age")
			}
			all, _ := tx.Stats("")
			want := play.Stats{V: recordVersion, Scope: "", WhiteWins: 1, BlackWins: 2, Aborted: 1,
				ByReason: map[game.Reason]int{game.KingFrozen: 1, game.Resignation: 1, game.Timeout: 1}, IceAges: ices}
			if fmt.Sprint(all) != fmt.Sprint(want) {
				t.Errorf("global stats %+v, want %+v", all, want)
			}
			if h, _ := tx.Stats("H"); h.Scope != "H" || h.Aborted != 1 || h.ByReason != nil || h.IceAges != 0 {
				t.Errorf("H's stats %+v", h)
			}
			for _, scope := range []string{"", "G"} {
				alice, _ := tx.Player(scope, "alice")
				bob, _ := tx.Player(scope, "bob")
				if alice.FrozenLosses != 1 || alice.Total() != (play.Tally{Lost: 2}) || bob.FrozenLosses != 0 || bob.Total() != (play.Tally{Won: 1}) {
					t.Errorf("in %q: alice %+v, bob %+v", scope, alice, bob)
				}
			}
			if bob, _ := tx.Player("", "bob"); bob.Rating.Rating != 1612.5 {
				t.Errorf("bob's rating %v", bob.Rating)
			}
			if p, _ := tx.Prefs("alice"); p.Language != "fr" {
				t.Errorf("prefs %+v", p)
			}
			return nil
		})
		s.db.View(func(tx *bolt.Tx) error {
			if p := tx.Bucket(bucketPrefs).Get([]byte("alice")); !bytes.Contains(p, []byte(`"vacation":true`)) {
				t.Errorf("the prefs lost the fields play does not know: %s", p)
			}
			return nil
		})
	})
	t.Run("the challenges are play's, with their ids", func(t *testing.T) {
		view(t, s, func(tx play.ReadTx) error {
			c1, err1 := tx.Challenge(1)
			c2, err2 := tx.Challenge(2)
			if err1 != nil || err2 != nil || c1.Color != play.Random || c1.To.ID != "alice" || c1.DaysPerMove != 3 || c2.Color != play.BlackSide || !c2.Open() {
				t.Errorf("%+v %v, %+v %v", c1, err1, c2, err2)
			}
			if due, _ := tx.Due(play.DueExpiry, t0.Add(time.Hour), 10); len(due) != 1 || due[0].ID != 1 {
				t.Errorf("expiries %+v", due)
			}
			return nil
		})
	})
	t.Run("the migrated games play on through play", func(t *testing.T) {
		g1, _ := svc.Game(ctx, 1)
		r, err := svc.AcceptDraw(ctx, play.Act{By: "alice", Game: 1, Revision: g1.Revision, At: t0.Add(time.Hour)})
		if err != nil || r.Game.Outcome.Reason != game.DrawAgreed {
			t.Fatalf("accepting bob's draw offer: %+v, %v", r.Game.Outcome, err)
		}
		g2, _ := svc.Game(ctx, 2)
		r, err = svc.AcceptTakeback(ctx, play.Act{By: "carol", Game: 2, Revision: g2.Revision, At: t0.Add(time.Hour)})
		if err != nil || r.Game.Ply() != 6 || r.TakenBack != 1 {
			t.Fatalf("accepting bob's takeback: ply %d, %v", r.Game.Ply(), err)
		}
		r, err = svc.Accept(ctx, 1, play.Seat{ID: "alice"}, "c-new", t0.Add(time.Minute))
		if err != nil || r.Game.ID != 8 || r.Game.White.ID != "dave" || r.Game.Black.Name != "Alice" {
			t.Fatalf("accepting challenge 1: game %d, %+v, %v", r.Game.ID, r.Game.White, err)
		}
		view(t, s, func(tx play.ReadTx) error {
			if st, _ := tx.Stats("G"); st.Draws != 1 || st.Games() != 4 {
				t.Errorf("G's stats %+v", st)
			}
			if c, _ := tx.Challenges("alice"); len(c) != 0 {
				t.Errorf("alice's challenges %+v", c)
			}
			return nil
		})
	})
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	s := openAt(t, path, nil)
	s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		b := make([]byte, 4)
		binary.BigEndian.PutUint32(b, schemaVersion+1)
		return tx.Bucket(bucketMeta).Put(keySchema, b)
	})
	db.Close()
	_, err = Open(path, nil)
	if !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("got %v, want ErrNewerSchema", err)
	}
	t.Logf("the refusal reads: %v", err)
}

func TestOpenRefusesForeignFile(t *testing.T) {
	t.Run("a bbolt file of another program is refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		db, _ := bolt.Open(path, 0o600, nil)
		db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
		db.Close()
		if _, err := Open(path, nil); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("an old file without one of its buckets is refused, unchanged", func(t *testing.T) {
		path := copyFixture(t, fixtureV2)
		db, _ := bolt.Open(path, 0o600, nil)
		db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("games")) })
		db.Close()
		before := dump(t, path)
		if _, err := Open(path, nil); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "games") {
			t.Fatalf("got %v", err)
		}
		if dump(t, path) != before {
			t.Fatal("the refused file was changed")
		}
	})
	t.Run("a file that is not a database is refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "text.db")
		os.WriteFile(path, bytes.Repeat([]byte("not a database\n"), 1000), 0o600)
		if _, err := Open(path, nil); err == nil {
			t.Fatal("opened a text file")
		}
	})
}

func TestFailedMigrationLeavesTheFileAsItWas(t *testing.T) {
	for _, fixture := range []string{fixtureV1, fixtureV2} {
		t.Run(fixture, func(t *testing.T) {
			path := copyFixture(t, fixture)
			before := dump(t, path)
			saved := migrations
			defer func() { migrations = saved }()
			boom := errors.New("disk on fire")
			migrations = append([]func(*bolt.Tx) error(nil), saved...)
			last := len(migrations) - 1
			migrations[last] = func(tx *bolt.Tx) error {
				if err := saved[last](tx); err != nil {
					return err
				}
				return boom // fail after everything was written
			}
			if _, err := Open(path, nil); !errors.Is(err, boom) {
				t.Fatalf("got %v", err)
			}
			if after := dump(t, path); after != before {
				t.Fatalf("a failed migration changed the file:\n%s", after)
			}
			migrations = saved
			s := openAt(t, path, nil)
			view(t, s, func(tx play.ReadTx) error {
				if list, _ := tx.ActiveGames("alice"); idsOf(list) != "[1 3]" {
					t.Fatalf("after the retry alice has the active games %s", idsOf(list))
				}
				return nil
			})
		})
	}
}

func TestReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	start(t, service(s), "", "c", "w", "b", 0)
	s.Close()
	t.Run("two readers share the file and cannot write", func(t *testing.T) {
		r1, err := Open(path, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer r1.Close()
		r2, err := Open(path, &Options{ReadOnly: true, Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer r2.Close()
		if g, err := service(r2).GameIn(ctx, "c"); err != nil || g.White.ID != "w" {
			t.Fatalf("%+v, %v", g, err)
		}
		if _, err := service(r1).Start(ctx, play.NewGame{Channel: "d", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, At: t0}); err == nil {
			t.Fatal("a read-only store wrote")
		}
	})
	t.Run("a file that needs migrating is refused read-only", func(t *testing.T) {
		_, err := Open(copyFixture(t, fixtureV2), &Options{ReadOnly: true})
		if err == nil || !strings.Contains(err.Error(), "schema version 2") {
			t.Fatalf("got %v", err)
		}
	})
}
