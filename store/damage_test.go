package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// buildDB makes a realistic database at path through play, as the bot
// makes one: games of the reference set at various plies, every third
// one resigned into the archive (with the players' and the scopes'
// counts that play keeps), and two pending challenges. It returns every
// game by id as the store returns it (ids 1 to games; the challenges
// come after). The last commit only sets a user's preferences, so a file
// that falls back to the commit before it (as bbolt does when the newer
// meta page is damaged) holds the same games.
func buildDB(t testing.TB, path string, games int) map[uint64]play.Game {
	t.Helper()
	refs := loadRefGames(t)
	s, err := Open(path, &Options{Alone: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Every act commits alone, thousands of them for the larger files:
	// the file is synced once, at the end, not at each commit.
	s.db.NoSync = true
	svc := service(s)
	for i := range games {
		g := start(t, svc, fmt.Sprint("guild-", i%3), fmt.Sprint("channel-", i),
			fmt.Sprint("user-", i%7), fmt.Sprint("user-", (i+3)%7), i%3)
		if g.ID != uint64(i+1) {
			t.Fatalf("game %d has id %d", i, g.ID)
		}
		moves := refs[i%len(refs)].moves
		g = playMoves(t, svc, g, moves[:min(len(moves)-1, 10+i*7%60)])
		if i%3 == 0 {
			// Black resigns a day later: White wins.
			_, err := svc.Resign(ctx, play.Act{By: g.Black.ID, Game: g.ID, Revision: g.Revision, At: g.Updated.Add(24 * time.Hour)})
			if err != nil {
				t.Fatalf("game %d: resigning: %v", g.ID, err)
			}
		}
	}
	for i, to := range []string{"user-2", ""} { // one to a user, one open
		_, err := svc.Challenge(ctx, play.NewChallenge{Guild: "guild-0", Channel: fmt.Sprint("challenge-", i),
			From: play.Seat{ID: "user-1"}, To: play.Seat{ID: to}, DaysPerMove: 3, At: t0})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.db.Sync(); err != nil {
		t.Fatal(err)
	}
	s.db.NoSync = false
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{Language: "fr"}) }); err != nil {
		t.Fatal(err)
	}
	known := map[uint64]play.Game{}
	view(t, s, func(tx play.ReadTx) error {
		for id := uint64(1); id <= uint64(games); id++ {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			known[id] = g
		}
		return nil
	})
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
		// archive: the damage is in the archive, which a start does not
		// need.
		archive bool
	}{
		{"a page of games overwritten with random bytes", func(t *testing.T, path string) {
			buf := make([]byte, pageSize(t, path))
			randomBytes(rand.New(rand.NewPCG(1, 2)), buf)
			writeAt(t, path, rootOf(t, path, bucketActive)*int64(len(buf)), buf)
		}, "", false},
		{"a page that points out of the file, where reading faults", func(t *testing.T, path string) {
			root := rootOf(t, path, bucketActive)
			writeAt(t, path, root*int64(pageSize(t, path)), farBranch(root))
		}, "", false},
		{"both meta pages failing their checksums", func(t *testing.T, path string) {
			ps := int64(pageSize(t, path))
			for _, page := range []int64{0, 1} {
				writeAt(t, path, page*ps+16+56, []byte("damaged!")) // the checksum of the meta
			}
		}, "both meta pages fail their checksums", false},
		{"a stored move changed, the record still valid JSON", func(t *testing.T, path string) {
			rewrite(t, path, bucketActive, u64(2), func(g *play.Game) { g.Moves[3].UCI = "a1a8" })
		}, "game 2 does not replay", false},
		{"a stored position that its moves do not reach", func(t *testing.T, path string) {
			rewrite(t, path, bucketActive, u64(2), func(g *play.Game) { g.FEN = game.StartFEN })
		}, "game 2 replays to ", false},
		{"a record that does not decode", func(t *testing.T, path string) {
			put(t, path, bucketArchive, u64(1), []byte(`{"v":3,"id":1,"moves":[`))
		}, "the archived game under key 0000000000000001 does not decode", true},
		{"a record under another's key", func(t *testing.T, path string) {
			rewrite(t, path, bucketActive, u64(2), func(g *play.Game) { g.ID = 3 })
		}, "the active game under key 0000000000000002 says its id is 3", false},
		{"a game in another channel than its channel's entry says", func(t *testing.T, path string) {
			rewrite(t, path, bucketActive, u64(2), func(g *play.Game) { g.Channel = "channel-2" })
		}, `channel "channel-1" points at 0000000000000002, which is no active game in that channel`, false},
		{"an active game that its channel's entry does not name", func(t *testing.T, path string) {
			put(t, path, bucketChannels, []byte("channel-1"), u64(3))
		}, `the active game 2 is in channel "channel-1", whose entry names 0000000000000003 instead`, false},
		{"a finished game among the active ones", func(t *testing.T, path string) {
			rewrite(t, path, bucketActive, u64(2), func(g *play.Game) { g.Outcome = game.WinFor(game.White, game.Resignation) })
		}, "game 2 is over (resignation) but among the active games", false},
		{"a game that goes on in the archive", func(t *testing.T, path string) {
			rewrite(t, path, bucketArchive, u64(1), func(g *play.Game) { g.Outcome = game.Outcome{} })
		}, "game 1 goes on but is in the archive", true},
		{"a time index entry of the wrong length", func(t *testing.T, path string) {
			put(t, path, bucketDeadlines, append([]byte{0xff, 0, 0, 0}, u64(2)...), []byte{})
		}, "the index idx.deadline has an entry", false},
		{"a challenge that does not decode", func(t *testing.T, path string) {
			put(t, path, bucketChallenges, u64(13), []byte(`{"v":3,"id":`))
		}, "the challenge under key 000000000000000d does not decode", false},
		{"a player's log entry that does not decode", func(t *testing.T, path string) {
			put(t, path, bucketLog, logKey(&play.LogEntry{Scope: "", User: "user-1", Game: 1}), []byte{1})
		}, "a log entry of 1 bytes", true},
		{"a server's settings that do not decode", func(t *testing.T, path string) {
			put(t, path, bucketServers, []byte("guild-0"), []byte(`{"v":1,"language":`))
		}, `the settings record of server "guild-0" does not decode`, false},
		{"a tournament that does not decode", func(t *testing.T, path string) {
			put(t, path, bucketTournaments, u64(40), []byte(`{"ID":40,`))
		}, "the tournament under key 0000000000000028 does not decode", false},
		{"an outbox item under another's key", func(t *testing.T, path string) {
			put(t, path, bucketOutbox, []byte("k1"), []byte(`{"key":"k2","kind":"deliver"}`))
		}, `the outbox item "k1" does not decode`, false},
		{"an index entry for a game that is not there", func(t *testing.T, path string) {
			put(t, path, bucketUserGames, join([]byte("user-1"), u64(999)), []byte{})
		}, "the index idx.userGames has an entry", false},
		{"an index entry for an archived game that is not there", func(t *testing.T, path string) {
			put(t, path, bucketFinished, u64(998), []byte{})
		}, "the index idx.finished has an entry", true},
	}
	// A file is checked whole at Open, or, past wholeCheckBelow, in two
	// parts: what a start needs at Open, the rest (the archive) in the
	// background, whose damage then refuses every write.
	defer func(n int64) { wholeCheckBelow = n }(wholeCheckBelow)
	for _, c := range cases {
		for _, parts := range []string{"", " (in two parts)"} {
			t.Run(c.name+" is refused, and the error says how to restore a backup"+parts, func(t *testing.T) {
				wholeCheckBelow = 1 << 62
				if parts != "" {
					wholeCheckBelow = 0
				}
				path := filepath.Join(t.TempDir(), "iceage.db")
				buildDB(t, path, 12)
				c.damage(t, path)
				err := openDamaged(t, path, c.archive && parts != "")
				checkDamaged(t, c.says, path, err)
			})
		}
	}
	for _, c := range cases {
		t.Run(c.name+": a backup of it is refused", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "iceage.db")
			buildDB(t, path, 12)
			c.damage(t, path)
			{
			}
			{
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
			}
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

// openDamaged opens the damaged file at path and returns the error that
// refuses it: Open's or, when Open leaves the archive to the check in the
// background, the one that then refuses writes. archive says the damage
// is in the archive: then Open must open the file, and reads of active
// games must go on.
func openDamaged(t *testing.T, path string, archive bool) error {
	t.Helper()
	s, err := Open(path, &Options{CheckTimeout: 10 * time.Second})
	if err != nil {
		if archive {
			t.Errorf("Open refused damage in the archive, which it leaves to the check in the background: %v", err)
		}
		return err
	}
	defer s.Close()
	if !archive {
		t.Errorf("Open opened a file with damage where a start needs it")
	}
	if _, err := s.Checked(ctx), s.Checked(ctx); err == nil {
		t.Fatal("the check in the background found nothing")
	}
	if _, err := service(s).Game(ctx, 2); err != nil {
		t.Errorf("reading an active game after the archive's damage was found: %v", err)
	}
	if s.Damage() == nil {
		t.Error("Damage() says nothing")
	}
	err = s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{}) })
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("a write after the check found damage: %v, want ErrDamaged", err)
	}
	return err
}

func checkDamaged(t *testing.T, says, path string, err error) {
	t.Helper()
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("got %v, want ErrDamaged", err)
	}
	for _, want := range []string{says, path, "Restore a backup", "iceage backup"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
}

// rewrite changes one game record of the file at path through bbolt,
// leaving it valid JSON.
func rewrite(t *testing.T, path string, bucket, key []byte, change func(*play.Game)) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		var g play.Game
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
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket) // the tournaments' and the outbox's come with their first record
		if err != nil {
			return err
		}
		return b.Put(key, value)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Damage that comes while the store is open: a read that faults on it
// returns ErrDamaged instead of ending the process, and from then on the
// store refuses to write, its check and its backups say so.
func TestDamageWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	known := buildDB(t, path, 12)
	root := rootOf(t, path, bucketActive)
	offset := root * int64(pageSize(t, path))
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	svc := service(s)
	if err := s.Damage(); err != nil {
		t.Fatalf("Damage before any: %v", err)
	}
	// bbolt maps the file shared: what is written to it shows at once.
	writeAt(t, path, offset, farBranch(root))

	t.Run("a read that faults returns ErrDamaged", func(t *testing.T) {
		err := s.View(ctx, func(tx play.ReadTx) error { _, err := tx.GameIn("channel-1"); return err })
		if !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
		if _, err := svc.Game(ctx, 2); !errors.Is(err, ErrDamaged) {
			t.Fatalf("through play: got %v, want ErrDamaged", err)
		}
	})
	t.Run("reads that do not touch the damage go on", func(t *testing.T) {
		// The archive and its index: the active games' pages are not read.
		var archived []play.Game
		err := s.View(ctx, func(tx play.ReadTx) (err error) {
			archived, err = tx.Finished("", "", 0, len(known))
			return err
		})
		if err != nil || len(archived) != 4 {
			t.Fatalf("got %d archived games, %v", len(archived), err)
		}
		for _, g := range archived {
			if !reflect.DeepEqual(g, known[g.ID]) {
				t.Fatalf("game %d came back changed:\n got %+v\nwant %+v", g.ID, g, known[g.ID])
			}
		}
	})
	t.Run("writes are refused", func(t *testing.T) {
		if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{}) }); !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
		g := known[3]
		if _, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: t0}, "a2a3"); !errors.Is(err, ErrDamaged) {
			t.Fatalf("got %v, want ErrDamaged", err)
		}
	})
	t.Run("the health check can ask", func(t *testing.T) {
		if err := s.Damage(); !errors.Is(err, ErrDamaged) {
			t.Fatalf("Damage: got %v, want ErrDamaged", err)
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

// A file of an older schema is not judged by this schema's walk: its
// records are the old ones (a schema-2 draw offer is a user id, which
// play's record cannot decode), and Open migrates them. The check at the
// next Open judges what the migration wrote.
func TestOlderSchemasAreMigratedNotJudged(t *testing.T) {
	for _, fixture := range []string{fixtureV1, fixtureV2} {
		t.Run(fixture, func(t *testing.T) {
			path := copyFixture(t, fixture)
			if problems, err := checkFile(path, time.Second, 0); err != nil || len(problems) > 0 {
				t.Fatalf("the check of the unmigrated file: %v, %v", problems, err)
			}
			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			// Reopened: now judged by this schema's walk.
			if problems, err := checkFile(path, time.Second, 0); err != nil || len(problems) > 0 {
				t.Fatalf("the check of the migrated file: %v, %v", problems, err)
			}
			openAt(t, path, nil)
		})
	}
	t.Run("the schema-2 records would not pass this schema's walk", func(t *testing.T) {
		// So the test above shows the walk skipped, not merely lenient.
		db, err := bolt.Open(copyFixture(t, fixtureV2), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var undecodable int
		db.View(func(tx *bolt.Tx) error {
			return tx.Bucket(v2Games).ForEach(func(k, v []byte) error {
				if json.Unmarshal(v, new(play.Game)) != nil {
					undecodable++
				}
				return nil
			})
		})
		if undecodable == 0 {
			t.Fatal("every schema-2 active game decodes as play's record")
		}
	})
}

// A check's copy left by a process killed while it checked is removed at
// the next Open; a file that only looks like one is not.
func TestOpenRemovesLeftCheckCopies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "iceage.db")
	buildDB(t, path, 2)
	for _, name := range []string{"iceage.db.check123456", "iceage.db.checkpoint", "other.db.check42"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	openAt(t, path, nil)
	for name, kept := range map[string]bool{"iceage.db.check123456": false, "iceage.db.checkpoint": true, "other.db.check42": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", name, err == nil, kept)
		}
	}
}

// A file checked in two parts: a healthy one passes the check in the
// background, and a Close while it runs stops it and leaves no copy.
func TestCheckInTwoParts(t *testing.T) {
	defer func(n int64) { wholeCheckBelow = n }(wholeCheckBelow)
	wholeCheckBelow = 0
	dir := t.TempDir()
	path := filepath.Join(dir, "iceage.db")
	buildDB(t, path, 12)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Checked(ctx); err != nil {
		t.Fatalf("the check in the background: %v", err)
	}
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{}) }); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		s, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := s.Checked(ctx); err != nil {
			t.Fatalf("Checked after Close: %v", err)
		}
	}
	if left, _ := filepath.Glob(path + ".check*"); len(left) > 0 {
		t.Fatalf("copies left: %v", left)
	}
	short, cancel := context.WithTimeout(ctx, time.Nanosecond)
	defer cancel()
	<-short.Done()
	s = openAt(t, path, nil)
	if err := s.Checked(short); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Checked with a context that ended: %v", err)
	}
}

// A file that Open is to migrate is checked whole first, however large:
// the migration reads every record, the archive's too.
func TestFileToMigrateIsCheckedWhole(t *testing.T) {
	defer func(n int64) { wholeCheckBelow = n }(wholeCheckBelow)
	wholeCheckBelow = 0
	path := copyFixture(t, fixtureV4)
	buf := make([]byte, pageSize(t, path))
	randomBytes(rand.New(rand.NewPCG(3, 4)), buf)
	writeAt(t, path, rootOf(t, path, bucketArchive)*int64(len(buf)), buf)
	_, err := Open(path, nil)
	checkDamaged(t, "", path, err)
}

// A file opened read-only is checked in the background too, on the file
// itself (its shared lock admits the checking child), not on a copy: it
// may be where nothing can be written.
func TestReadOnlyCheckInTwoParts(t *testing.T) {
	defer func(n int64) { wholeCheckBelow = n }(wholeCheckBelow)
	wholeCheckBelow = 0
	path := filepath.Join(t.TempDir(), "iceage.db")
	buildDB(t, path, 12)
	put(t, path, bucketArchive, u64(1), []byte(`{"v":3,"id":1,"moves":[`))
	s, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Checked(ctx); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "does not decode") {
		t.Fatalf("the check in the background: %v, want the damage found", err)
	}
}

// Without room for the copy it checks, the check in the background does
// not run and says why; the store goes on, writes included.
func TestCheckInTwoPartsWithoutRoom(t *testing.T) {
	defer func(n int64, f func(string) (uint64, bool)) { wholeCheckBelow, freeSpaceOf = n, f }(wholeCheckBelow, freeSpaceOf)
	wholeCheckBelow = 0
	freeSpaceOf = func(string) (uint64, bool) { return 4096, true }
	path := filepath.Join(t.TempDir(), "iceage.db")
	buildDB(t, path, 12)
	s := openAt(t, path, nil)
	if err := s.Checked(ctx); err == nil || errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "MB free") {
		t.Fatalf("Checked = %v, want the check not run for want of room", err)
	}
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{}) }); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(path + ".check*"); len(left) > 0 {
		t.Fatalf("a copy was written: %v", left)
	}
}
