package store

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/play"
)

// fixtureV4 was made by the schema-4 program (the commit before schema 5)
// through its API: buildDB's 40 games (ids 1 to 40, every third one
// resigned into the archive) and two challenges, with game records in
// JSON. fixtureV4Read is what that program read back: the games and
// user-1's challenges.
const (
	fixtureV4     = "testdata/schema4.bbolt"
	fixtureV4Read = "testdata/schema4.json"
)

type schema4Read struct {
	Games      []play.Game
	Challenges []play.Challenge
}

func readFixtureV4(t *testing.T) schema4Read {
	t.Helper()
	b, err := os.ReadFile(fixtureV4Read)
	if err != nil {
		t.Fatal(err)
	}
	var r schema4Read
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Games) != 40 || len(r.Challenges) != 2 {
		t.Fatalf("the fixture holds %d games and %d challenges", len(r.Games), len(r.Challenges))
	}
	return r
}

// gameForms counts the stored game records in JSON and in binary.
func gameForms(t *testing.T, db *bolt.DB) (jsons, binaries int) {
	t.Helper()
	db.View(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketActive, bucketArchive} {
			tx.Bucket(name).ForEach(func(k, v []byte) error {
				if _, ok := jsonRecord(v); ok {
					jsons++
				} else {
					binaries++
				}
				return nil
			})
		}
		return nil
	})
	return jsons, binaries
}

// sameAsSchema4 checks that the store reads what the schema-4 program
// read from the fixture.
func sameAsSchema4(t *testing.T, s *Store, want schema4Read) {
	t.Helper()
	view(t, s, func(tx play.ReadTx) error {
		for _, w := range want.Games {
			g, err := tx.Game(w.ID)
			if err != nil {
				return err
			}
			g.V = w.V
			// The schema-4 program read no SANs: this one finds each
			// move's as it replays the moves, the same as a replay's.
			m, err := g.Match()
			if err != nil {
				return err
			}
			for i, san := range m.SANs() {
				if g.Moves[i].SAN != san {
					t.Errorf("game %d: move %d reads as %q, a replay says %q", w.ID, i+1, g.Moves[i].SAN, san)
				}
				g.Moves[i].SAN = ""
			}
			if a, b := asJSON(t, g), asJSON(t, w); a != b {
				t.Errorf("game %d reads as\n%s\nthe schema-4 program read\n%s", w.ID, a, b)
			}
		}
		cs, err := tx.Challenges("user-1")
		if err != nil {
			return err
		}
		if a, b := asJSON(t, cs), asJSON(t, want.Challenges); a != b {
			t.Errorf("the challenges read as\n%s\nthe schema-4 program read\n%s", a, b)
		}
		return nil
	})
	if err := checkIndexes(s.db); err != nil {
		t.Error(err)
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMigrateSchema4(t *testing.T) {
	want := readFixtureV4(t)

	t.Run("the games are converted to the binary form, and read as before", func(t *testing.T) {
		path := copyFixture(t, fixtureV4)
		before, _ := os.Stat(path)
		s := openAt(t, path, nil)
		if v := schemaOfFile(t, s); v != schemaVersion {
			t.Fatalf("schema %d after the migration", v)
		}
		if jsons, binaries := gameForms(t, s.db.DB); jsons != 0 || binaries != 40 {
			t.Fatalf("%d games left in JSON, %d binary", jsons, binaries)
		}
		s.db.View(func(tx *bolt.Tx) error {
			if converting(tx) {
				t.Error("the file is still marked for conversion")
			}
			return nil
		})
		sameAsSchema4(t, s, want)
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		// The game goes on as before.
		svc := service(s)
		g := want.Games[1]
		if g.Over() {
			t.Fatal("game 2 of the fixture is over")
		}
		r, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: g.Updated}, legalMove(t, &g))
		if err != nil || r.Game.Ply() != g.Ply()+1 {
			t.Fatalf("a move after the migration: %v", err)
		}
		s.Close()
		after, _ := os.Stat(path)
		t.Logf("the fixture's file: %d bytes before, %d after", before.Size(), after.Size())
		if after.Size() >= before.Size() {
			t.Errorf("the file was not compacted: %d bytes before, %d after", before.Size(), after.Size())
		}
	})

	t.Run("a compaction cut short is done at the next open", func(t *testing.T) {
		path := copyFixture(t, fixtureV4)
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		// What a crash before the compacted copy's rename leaves: the
		// games converted, the file marked, a part of a copy beside it.
		if err := db.Update(upgrade); err != nil {
			t.Fatal(err)
		}
		for done := false; !done; {
			if err := db.Update(func(tx *bolt.Tx) (err error) { done, err = convertSome(tx, convertBatch); return err }); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		left := path + ".compact123"
		if err := os.WriteFile(left, []byte("half a copy"), 0o600); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(path)
		s := openAt(t, path, nil)
		s.db.View(func(tx *bolt.Tx) error {
			if tx.Bucket(bucketMeta).Get(keyCompact) != nil {
				t.Error("the file is still marked for compaction")
			}
			return nil
		})
		after, _ := os.Stat(path)
		if after.Size() >= before.Size() {
			t.Errorf("the file was not compacted: %d bytes before, %d after", before.Size(), after.Size())
		}
		if _, err := os.Stat(left); err == nil {
			t.Error("the part of a copy is left")
		}
		sameAsSchema4(t, s, want)
		// The store works on the new file: a write, and a backup that
		// knows the new file for the database.
		if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{Language: "nb"}) }); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BackupFile(path); !errors.Is(err, ErrInvalid) {
			t.Errorf("a backup onto the compacted file itself: %v, want ErrInvalid", err)
		}
	})

	t.Run("a conversion cut short goes on at the next open", func(t *testing.T) {
		defer func(n int) { convertBatch = n }(convertBatch)
		convertBatch = 7
		path := copyFixture(t, fixtureV4)
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		// What a crash after the migration and two batches leaves.
		if err := db.Update(upgrade); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := db.Update(func(tx *bolt.Tx) error { _, err := convertSome(tx, convertBatch); return err }); err != nil {
				t.Fatal(err)
			}
		}
		jsons, binaries := gameForms(t, db)
		db.Close()
		if binaries != 14 || jsons != 26 {
			t.Fatalf("after two batches: %d JSON, %d binary", jsons, binaries)
		}
		if _, err := Open(path, &Options{ReadOnly: true}); err == nil {
			t.Fatal("a read-only open took a file whose conversion is not done")
		}
		s := openAt(t, path, nil)
		if jsons, binaries := gameForms(t, s.db.DB); jsons != 0 || binaries != 40 {
			t.Fatalf("%d games left in JSON, %d binary", jsons, binaries)
		}
		sameAsSchema4(t, s, want)
	})

	t.Run("the fixture is schema 4 with JSON games", func(t *testing.T) {
		db, err := bolt.Open(fixtureV4, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var v int
		db.View(func(tx *bolt.Tx) (err error) { v, err = schemaOf(tx); return err })
		if jsons, binaries := gameForms(t, db); v != 4 || jsons != 40 || binaries != 0 {
			t.Fatalf("schema %d, %d JSON games, %d binary", v, jsons, binaries)
		}
	})
}

// legalMove returns a legal move of the game's position, in UCI.
func legalMove(t *testing.T, g *play.Game) string {
	t.Helper()
	p, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	legal := p.LegalMoves(nil)
	if len(legal) == 0 {
		t.Fatal(errors.New("no legal move"))
	}
	return legal[0].UCI()
}
