package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// The corruption test: a real database file, damaged at random pages
// again and again (64 random bytes in one to three pages), half the time
// before Open and half the time under an open store, each time read,
// checked and backed up in this process. This process must never die (a
// crash fails the test), and no read may return a game that differs from
// the one stored: a file damaged before Open is refused (ErrDamaged) or
// serves every game as it was, and a backup of it is refused likewise; a
// read of a page damaged since Open returns ErrDamaged or ErrCorrupt (or,
// for a damaged key, ErrNotFound: without checksums a changed key is just
// another key, which the check at the next Open finds).
//
// The seed is logged; ICEAGE_CORRUPTION_SEED=n replays a run, and
// ICEAGE_CORRUPTION_ROUNDS=n runs n rounds (a soak) instead of 100 on a
// file of 1 MB (25 on a smaller one under -short).

const (
	corruptionSeedEnv   = "ICEAGE_CORRUPTION_SEED"
	corruptionRoundsEnv = "ICEAGE_CORRUPTION_ROUNDS"
)

func TestCorruption(t *testing.T) {
	rounds, games := 100, 200 // a file of 1 MB
	if testing.Short() {
		rounds, games = 25, 60
	}
	if s := os.Getenv(corruptionRoundsEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s=%q: %v", corruptionRoundsEnv, s, err)
		}
		rounds = n
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(corruptionSeedEnv); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", corruptionSeedEnv, s, err)
		}
		seed = n
	}
	t.Logf("seed %d (%s=%d replays this run)", seed, corruptionSeedEnv, seed)
	rng := rand.New(rand.NewPCG(seed, 7))

	// A check that loops on damaged pages is judged damaged after this
	// long (a healthy one takes milliseconds here); the default would
	// make such a round last minutes.
	defer func(d time.Duration) { checkTimeout = d }(checkTimeout)
	checkTimeout = 2 * time.Second

	dir := t.TempDir()
	pristine := filepath.Join(dir, "pristine.db")
	known := buildDB(t, pristine, games)
	clean, err := os.ReadFile(pristine)
	if err != nil {
		t.Fatal(err)
	}
	ps := pageSize(t, pristine)
	pages := len(clean) / ps
	t.Logf("a file of %d bytes, %d pages, %d games", len(clean), pages, len(known))

	var refused, opened, damagedOpen, readErrors, hidden int
	for round := range rounds {
		// Even rounds damage the file before Open, which must find the
		// damage or serve every game as it was; odd rounds damage it
		// under an open store, whose reads must not die on it.
		whileOpen := round%2 == 1
		data := append([]byte(nil), clean...)
		// One to three pages, 64 random bytes each at a random place.
		type hit struct{ off int }
		var hits []hit
		var where []string
		for range 1 + rng.IntN(3) {
			page := rng.IntN(pages)
			off := page*ps + rng.IntN(ps-64)
			hits = append(hits, hit{off})
			where = append(where, fmt.Sprintf("page %d +%d", page, off-page*ps))
		}
		damage := make([]byte, 64*len(hits))
		randomBytes(rng, damage)
		if !whileOpen {
			for i, h := range hits {
				copy(data[h.off:h.off+64], damage[64*i:])
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("round%d.db", round))
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d, round %d (damage at %v, while open: %v): %s", seed, round, where, whileOpen, fmt.Sprintf(format, args...))
		}

		s, err := Open(path, &Options{CheckTimeout: checkTimeout})
		if err != nil {
			if whileOpen || !errors.Is(err, ErrDamaged) {
				fail("Open = %v, want ErrDamaged or success", err)
			}
			refused++
			if _, err := CopyFile(path, path+".backup", 0); !errors.Is(err, ErrDamaged) {
				fail("Open found the file damaged, but CopyFile said %v", err)
			}
			os.Remove(path)
			continue
		}
		opened++
		if whileOpen {
			damagedOpen++
			for i, h := range hits {
				writeAt(t, path, int64(h.off), damage[64*i:64*i+64])
			}
		}
		sound := true
		for id, want := range known {
			for _, read := range []func() (Game, error){
				func() (Game, error) { return s.GameByID(id) },
				func() (Game, error) {
					if want.Over() {
						return s.ArchivedGame(id)
					}
					return s.Game(want.Channel)
				},
			} {
				got, err := read()
				switch {
				case errors.Is(err, ErrDamaged) || errors.Is(err, ErrCorrupt):
					readErrors++
					sound = false
				case whileOpen && errors.Is(err, ErrNotFound):
					// A key damaged since the check is not found; the
					// check at the next Open finds the damage.
					hidden++
					sound = false
				case err != nil:
					fail("game %d: %v, want the game or ErrDamaged or ErrCorrupt", id, err)
				case !reflect.DeepEqual(got, want):
					fail("game %d came back changed without an error:\n got %+v\nwant %+v", id, got, want)
				}
			}
		}
		for u := range 7 {
			_, err := s.ActiveGames(fmt.Sprint("user-", u))
			if err != nil && !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrCorrupt) && !(whileOpen && errors.Is(err, ErrNotFound)) {
				fail("ActiveGames: %v", err)
			}
		}
		if err := s.Check(); err != nil && (sound && !whileOpen || !errors.Is(err, ErrDamaged)) {
			fail("Check = %v", err)
		}
		if err := s.Close(); err != nil {
			fail("Close: %v", err)
		}
		if !whileOpen {
			if _, err := CopyFile(path, path+".backup", 0); err != nil {
				fail("the file passed the check at Open, but CopyFile said %v", err)
			}
		}
		os.Remove(path)
		os.Remove(path + ".backup")
	}
	t.Logf("%d rounds: %d files refused at open, %d opened (%d damaged while open); %d reads refused, %d games hidden by damage while open",
		rounds, refused, opened, damagedOpen, readErrors, hidden)
}
