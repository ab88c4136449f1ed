package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
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
)

var update = flag.Bool("update", false, "rewrite the fixtures in testdata (go test ./store -run TestFixture -update)")

// The fixture is not named *.db: the repository ignores those (databases
// made by running the bot).
const fixtureV1 = "testdata/schema1.bbolt"

// writeSchema1 writes a database in the layout of schema version 1, the
// first released one: no per-user or per-guild index, records of version
// 1. It is that version's writing code, kept so the fixture can be made
// again; it plays the moves through package game as version 1 did.
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
		put := func(bucket string, k, v []byte) error {
			if v == nil {
				v = []byte{}
			}
			return tx.Bucket([]byte(bucket)).Put(k, v)
		}
		id := uint64(0)
		mk := func(guild, channel, white, black string, days int, moves []string, status game.Outcome) (*Game, error) {
			id++
			g := &Game{V: 1, ID: id, Guild: guild, Channel: channel, White: Seat{white, "Name " + white}, Black: Seat{black, "Name " + black},
				StartFEN: game.StartFEN, Moves: []Move{}, Created: t0, Updated: t0, DaysPerMove: days, Status: status}
			for i, m := range moves {
				g.Moves = append(g.Moves, Move{m, t0.Add(time.Duration(i+1) * time.Minute)})
			}
			p, ices, err := replay(g.StartFEN, g.Moves)
			if err != nil {
				return nil, err
			}
			g.FEN, g.IceAges = p.FEN(), ices
			if len(moves) > 0 {
				g.Updated = g.Moves[len(moves)-1].At
			}
			if o := p.Outcome(); o.Over() {
				g.Status = o
			}
			if g.Status.Over() {
				g.Ended = g.Updated
			} else if days > 0 {
				g.Deadline = g.Updated.Add(time.Duration(days) * 24 * time.Hour)
				g.RemindAt = g.Deadline.Add(-24 * time.Hour)
			}
			return g, nil
		}
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
		for _, x := range games {
			g, err := mk(x.guild, x.channel, x.white, x.black, x.days, x.moves, x.status)
			if err != nil {
				return err
			}
			b, err := json.Marshal(g)
			if err != nil {
				return err
			}
			if !g.Status.Over() {
				put("games", []byte(g.Channel), b)
				put("gameIDs", u64(g.ID), []byte(g.Channel))
				if !g.Deadline.IsZero() {
					put("idx.deadline", append(timeKey(g.Deadline), g.Channel...), nil)
					put("idx.reminder", append(timeKey(g.RemindAt), g.Channel...), nil)
				}
				continue
			}
			put("archive", u64(g.ID), b)
			for _, scope := range []string{"", g.Guild} {
				if scope == "" && g.Guild == "" {
					continue
				}
				st := Stats{V: 1}
				if v := tx.Bucket([]byte("stats")).Get(prefix(scope)); v != nil {
					json.Unmarshal(v, &st)
				}
				st.count(g.Status)
				sb, _ := json.Marshal(&st)
				put("stats", prefix(scope), sb)
				if g.Status.Reason == game.Aborted {
					continue
				}
				for _, c := range []game.Color{game.White, game.Black} {
					p := newPlayer(scope, g.Seat(c).ID)
					p.V = 1
					if v := tx.Bucket([]byte("players")).Get(playerKey(scope, p.User)); v != nil {
						json.Unmarshal(v, p)
					}
					p.Name = g.Seat(c).Name
					p.count(c, g)
					pb, _ := json.Marshal(p)
					put("players", playerKey(scope, p.User), pb)
				}
			}
		}
		meta.SetSequence(id)
		for i, c := range []Challenge{
			{V: 1, ID: 1, Guild: "G", Channel: "lobby", From: Seat{"dave", "Dave"}, To: Seat{"alice", "Alice"}, DaysPerMove: 3, Created: t0, Expires: t0.Add(time.Hour)},
			{V: 1, ID: 2, Guild: "G", Channel: "lobby", From: Seat{"carol", "Carol"}, Color: "black", Created: t0, Expires: t0.Add(2 * time.Hour)},
		} {
			b, _ := json.Marshal(&c)
			put("challenges", u64(c.ID), b)
			put("idx.expiry", append(timeKey(c.Expires), u64(c.ID)...), nil)
			tx.Bucket([]byte("challenges")).SetSequence(uint64(i + 1))
		}
		pb, _ := json.Marshal(Prefs{V: 1, Language: "fr"})
		return put("prefs", []byte("alice"), pb)
	})
}

// dump lists every bucket, key and value of a database file, with the
// bucket sequences, for comparing files logically.
func dump(t *testing.T, path string) string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var buf bytes.Buffer
	db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			fmt.Fprintf(&buf, "%s seq=%d\n", name, b.Sequence())
			return b.ForEach(func(k, v []byte) error {
				if string(name) == "meta" && string(k) == "created" {
					v = []byte("(time)")
				}
				fmt.Fprintf(&buf, "  %q = %q\n", k, v)
				return nil
			})
		})
	})
	return buf.String()
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

// copyFixture copies a fixture into a temporary directory: migrations
// upgrade in place, and the fixture must stay as it is.
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

func TestMigrateSchema1(t *testing.T) {
	path := copyFixture(t, fixtureV1)
	s := openAt(t, path, nil)

	t.Run("the schema version is now the current one", func(t *testing.T) {
		var v int
		s.db.View(func(tx *bolt.Tx) (err error) { v, err = schemaOf(tx); return err })
		if v != schemaVersion {
			t.Fatalf("schema %d", v)
		}
	})
	ids := func(gs []Game) (out []uint64) {
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	queries := []struct {
		name string
		get  func() ([]Game, error)
		want []uint64
	}{
		{"a user's active games are indexed", func() ([]Game, error) { return s.ActiveGames("alice") }, []uint64{1, 3}},
		{"the other user's active games are indexed", func() ([]Game, error) { return s.ActiveGames("carol") }, []uint64{2, 3}},
		{"a guild's active games are indexed", func() ([]Game, error) { return s.GuildGames("G") }, []uint64{1, 2}},
		{"a user's archive is indexed", func() ([]Game, error) { return s.ArchiveOfPlayer("alice", 0, 0) }, []uint64{6, 5, 4}},
		{"a guild's archive is indexed", func() ([]Game, error) { return s.ArchiveOfGuild("G", 0, 0) }, []uint64{5, 4}},
	}
	for _, q := range queries {
		t.Run(q.name, func(t *testing.T) {
			got, err := q.get()
			if err != nil || fmt.Sprint(ids(got)) != fmt.Sprint(q.want) {
				t.Fatalf("got %v, %v; want %v", ids(got), err, q.want)
			}
		})
	}
	t.Run("challenges are indexed by user", func(t *testing.T) {
		a, _ := s.Challenges("alice")
		c, _ := s.Challenges("carol")
		if len(a) != 1 || a[0].ID != 1 || len(c) != 1 || c[0].ID != 2 {
			t.Fatalf("alice %+v, carol %+v", a, c)
		}
	})
	t.Run("what schema 1 had is kept", func(t *testing.T) {
		due, _ := s.DueDeadlines(t0.Add(1000*time.Hour), 0)
		if len(due) != 2 || due[0].Channel != "dm-ac" || due[1].Channel != "c-ab" {
			t.Fatalf("deadlines %+v", due)
		}
		st, _ := s.Stats("G")
		if st.WhiteWins != 2 || st.Games() != 2 || st.ByReason[game.KingFrozen] != 1 {
			t.Fatalf("stats %+v", st)
		}
		p, _ := s.Prefs("alice")
		if p.Language != "fr" {
			t.Fatalf("prefs %+v", p)
		}
		bob, _ := s.Player("", "bob")
		if bob.AsWhite.Won != 1 || bob.Name != "Name bob" {
			t.Fatalf("bob %+v", bob)
		}
	})
	t.Run("a migrated game plays on and gets new ids after the old ones", func(t *testing.T) {
		g, err := s.Game("c-ab")
		if err != nil {
			t.Fatal(err)
		}
		ref := loadRefGames(t)[0]
		g, err = s.PlayMove("c-ab", 30, ref.moves[30], mover(t, g), t0.Add(time.Hour))
		if err != nil || g.Ply() != 31 || g.V != recordVersion {
			t.Fatalf("ply %d, record version %d, %v", g.Ply(), g.V, err)
		}
		n, err := s.CreateGame(newGame("G", "c-new", "alice", "dave", 0))
		if err != nil || n.ID != 7 {
			t.Fatalf("new game id %d, %v", n.ID, err)
		}
		c, err := s.CreateChallenge(Challenge{Channel: "x", From: Seat{ID: "a"}, Created: t0, Expires: t0.Add(time.Hour)})
		if err != nil || c.ID != 3 {
			t.Fatalf("new challenge id %d, %v", c.ID, err)
		}
	})
	t.Run("reopening an upgraded file changes nothing", func(t *testing.T) {
		s.Close()
		s2 := openAt(t, path, nil)
		if list, _ := s2.ActiveGames("alice"); len(list) != 3 {
			t.Fatalf("%d games after reopening", len(list))
		}
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
	t.Run("a file that is not a database is refused", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "text.db")
		os.WriteFile(path, bytes.Repeat([]byte("not a database\n"), 1000), 0o600)
		if _, err := Open(path, nil); err == nil {
			t.Fatal("opened a text file")
		}
	})
}

func TestFailedMigrationLeavesTheFileAsItWas(t *testing.T) {
	path := copyFixture(t, fixtureV1)
	before := dump(t, path)
	saved := migrations
	defer func() { migrations = saved }()
	boom := errors.New("disk on fire")
	migrations = []func(*bolt.Tx) error{func(tx *bolt.Tx) error {
		if err := migrate1to2(tx); err != nil {
			return err
		}
		return boom // fail after the new indexes were written
	}}
	if _, err := Open(path, nil); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if after := dump(t, path); after != before {
		t.Fatalf("a failed migration changed the file:\n%s", after)
	}
	migrations = saved
	s := openAt(t, path, nil)
	if list, _ := s.ActiveGames("alice"); len(list) != 2 {
		t.Fatalf("after the retry alice has %d active games", len(list))
	}
}

func TestReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGame(newGame("", "c", "w", "b", 0)); err != nil {
		t.Fatal(err)
	}
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
		if g, err := r2.Game("c"); err != nil || g.White.ID != "w" {
			t.Fatalf("%+v, %v", g, err)
		}
		if _, err := r1.CreateGame(newGame("", "d", "w", "b", 0)); err == nil {
			t.Fatal("a read-only store wrote")
		}
	})
	t.Run("a file that needs migrating is refused read-only", func(t *testing.T) {
		_, err := Open(copyFixture(t, fixtureV1), &Options{ReadOnly: true})
		if err == nil || !strings.Contains(err.Error(), "schema version 1") {
			t.Fatalf("got %v", err)
		}
	})
}
