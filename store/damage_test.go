package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

// buildDB makes a realistic database at path: games of the reference set
// at various plies, every third one resigned into the archive, the
// players' and the variant's counts that go with that. It returns every
// game by id as the store returns it. The last commit only sets a user's
// preferences, so a file that falls back to the commit before it (as
// bbolt does when the newer meta page is damaged) holds the same games.
func buildDB(t testing.TB, path string, games int) map[uint64]Game {
	t.Helper()
	refs := loadRefGames(t)
	s, err := Open(path, &Options{BatchDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.db.Update(func(tx *bolt.Tx) error {
		for i := range games {
			ch := fmt.Sprint("channel-", i)
			n := newGame(fmt.Sprint("guild-", i%3), ch, fmt.Sprint("user-", i%7), fmt.Sprint("user-", (i+3)%7), i%3)
			g, err := createGame(tx, n)
			if err != nil {
				return err
			}
			moves := refs[i%len(refs)].moves
			for j := range min(len(moves)-1, 10+i*7%60) {
				who, _ := g.ToMove()
				if g, err = playMove(tx, ch, j, moves[j], who.ID, t0.Add(time.Duration(j+1)*time.Minute)); err != nil {
					return fmt.Errorf("game %d move %d: %w", i, j, err)
				}
			}
			if i%3 == 0 {
				_, err := updateGame(tx, ch, AnyPly, func(g *Game) error {
					g.Status = game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}
					g.Updated = t0.Add(24 * time.Hour)
					return nil
				})
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetPrefs("user-1", func(p *Prefs) error { return nil }); err != nil {
		t.Fatal(err)
	}
	known := map[uint64]Game{}
	for id := uint64(1); id <= uint64(games); id++ {
		g, err := s.GameByID(id)
		if err != nil {
			t.Fatal(err)
		}
		known[id] = g
	}
	return known
}

// pageSize returns the page size of the bbolt file at path.
func pageSize(t testing.TB, path string) int {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return db.Info().PageSize
}

// rootOf returns the root page of a top-level bucket of the file at path.
func rootOf(t testing.TB, path string, bucket []byte) int64 {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var root int64
	db.View(func(tx *bolt.Tx) error {
		root = int64(tx.Bucket(bucket).RootPage())
		return nil
	})
	if root == 0 {
		t.Fatalf("bucket %s is inline, it has no page of its own", bucket)
	}
	return root
}

// writeAt writes b into the file at path at offset off.
func writeAt(t testing.TB, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// farBranch is the header of page id turned into a branch with one
// element that points far beyond the file: bbolt follows it into memory
// that is not mapped, a fault that ends a Go program unless the goroutine
// asked to panic.
func farBranch(id int64) []byte {
	b := make([]byte, 32)
	binary.LittleEndian.PutUint64(b, uint64(id)) // bbolt checks that a page knows its id
	binary.LittleEndian.PutUint16(b[8:], 0x01)   // flags: branch
	binary.LittleEndian.PutUint16(b[10:], 1)     // count
	binary.LittleEndian.PutUint32(b[16:], 16)    // the element's key offset
	binary.LittleEndian.PutUint64(b[24:], 1<<20)
	return b
}

func TestOpenRefusesADamagedFile(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, path string)
		says   string
	}{
		{"a page of games overwritten with random bytes", func(t *testing.T, path string) {
			buf := make([]byte, pageSize(t, path))
			randomBytes(rand.New(rand.NewPCG(1, 2)), buf)
			writeAt(t, path, rootOf(t, path, bucketGames)*int64(len(buf)), buf)
		}, ""},
		{"a page that points out of the file, where reading faults", func(t *testing.T, path string) {
			root := rootOf(t, path, bucketGames)
			writeAt(t, path, root*int64(pageSize(t, path)), farBranch(root))
		}, ""},
		{"both meta pages failing their checksums", func(t *testing.T, path string) {
			ps := int64(pageSize(t, path))
			for _, page := range []int64{0, 1} {
				writeAt(t, path, page*ps+16+56, []byte("damaged!")) // the checksum of the meta
			}
		}, "both meta pages fail their checksums"},
		{"a stored move changed, the record still valid JSON", func(t *testing.T, path string) {
			rewrite(t, path, bucketGames, []byte("channel-1"), func(g *Game) { g.Moves[3].UCI = "a1a8" })
		}, "game 2 does not replay"},
		{"a record that does not decode", func(t *testing.T, path string) {
			put(t, path, bucketArchive, u64(1), []byte(`{"v":2,"id":1,"moves":[`))
		}, "the archived game under key 0000000000000001 does not decode"},
		{"a record under another's key", func(t *testing.T, path string) {
			rewrite(t, path, bucketGames, []byte("channel-1"), func(g *Game) { g.Channel = "channel-2" })
		}, `the active game under channel "channel-1" says it is in channel "channel-2"`},
		{"an index entry for a game that is not there", func(t *testing.T, path string) {
			put(t, path, bucketUserGames, join([]byte("user-1"), []byte("channel-999")), []byte{})
		}, "the index idx.userGames has an entry"},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused, and the error says how to restore a backup", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "iceage.db")
			buildDB(t, path, 12)
			c.damage(t, path)
			_, err := Open(path, &Options{CheckTimeout: 10 * time.Second})
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("Open = %v, want ErrDamaged", err)
			}
			for _, want := range []string{c.says, path, "Restore a backup", "iceage backup"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not say %q: %v", want, err)
				}
			}
			t.Run("and a backup of it is refused", func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "backup.db")
				if err := os.WriteFile(out, []byte("the previous backup"), 0o600); err != nil {
					t.Fatal(err)
				}
				if _, err := CopyFile(path, out, 0); !errors.Is(err, ErrDamaged) {
					t.Fatalf("CopyFile = %v, want ErrDamaged", err)
				}
				if b, _ := os.ReadFile(out); string(b) != "the previous backup" {
					t.Fatal("the previous backup was replaced")
				}
				if left, _ := filepath.Glob(out + ".tmp*"); len(left) > 0 {
					t.Fatalf("temporary files left: %v", left)
				}
			})
		})
	}
	t.Run("a healthy file and an empty one open", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "iceage.db")
		buildDB(t, path, 12)
		openAt(t, path, nil)
		empty := filepath.Join(t.TempDir(), "empty.db")
		if err := os.WriteFile(empty, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		openAt(t, empty, nil)
	})
}

// rewrite changes one game record of the file at path through bbolt,
// leaving it valid JSON.
func rewrite(t *testing.T, path string, bucket, key []byte, change func(*Game)) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		var g Game
		if err := decode("test", tx.Bucket(bucket).Get(key), &g); err != nil {
			return err
		}
		change(&g)
		b, err := encode(&g)
		if err != nil {
			return err
		}
		return tx.Bucket(bucket).Put(key, b)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// put stores a raw value in the file at path through bbolt.
func put(t *testing.T, path string, bucket, key, value []byte) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put(key, value) }); err != nil {
		t.Fatal(err)
	}
}

// Damage that comes while the store is open: a read that faults on it
// returns ErrDamaged instead of ending the process, and from then on the
// store refuses to write, its check and its backups say so.
func TestDamageWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	known := buildDB(t, path, 12)
	root := rootOf(t, path, bucketGames)
	offset := root * int64(pageSize(t, path))
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// bbolt maps the file shared: what is written to it shows at once.
	writeAt(t, path, offset, farBranch(root))

	t.Run("a read that faults returns ErrDamaged", func(t *testing.T) {
		_, err := s.Game("channel-1")
		if !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
	})
	t.Run("reads that do not touch the damage go on", func(t *testing.T) {
		if g, err := s.ArchivedGame(1); err != nil || g.ID != known[1].ID {
			t.Fatalf("got game %d, %v", g.ID, err)
		}
	})
	t.Run("writes are refused", func(t *testing.T) {
		if _, err := s.SetPrefs("user-1", func(p *Prefs) error { return nil }); !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
		g := known[3]
		if _, err := s.PlayMove("channel-2", g.Ply(), "a2a3", "user-2", t0); !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
	})
	t.Run("the check says so", func(t *testing.T) {
		if err := s.Check(); !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
	})
	t.Run("a backup is refused", func(t *testing.T) {
		if _, err := s.BackupFile(filepath.Join(t.TempDir(), "b.db")); !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
	})
}

// randomBytes fills b from rng.
func randomBytes(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}
