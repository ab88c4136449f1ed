package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/iceagechess/iceage/play"
)

var ctx = context.Background()

// openTest opens a fresh store in a temporary directory; on cleanup it
// checks the file's consistency (bbolt's and the indexes') and closes it.
func openTest(t testing.TB, opts *Options) *Store {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "iceage.db"), opts)
}

func openAt(t testing.TB, path string, opts *Options) *Store {
	t.Helper()
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Check(); err != nil && !errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
			t.Errorf("consistency check of %s: %v", path, err)
		}
		if err := checkIndexes(s.db); err != nil && !errors.Is(err, bolterrors.ErrDatabaseNotOpen) {
			t.Errorf("index check of %s: %v", path, err)
		}
		s.Close()
	})
	return s
}

// checkIndexes rebuilds every index entry from the records and compares
// them with the index buckets: nothing missing, nothing left over, and
// every record where its outcome says.
func checkIndexes(db guardedDB) error {
	return db.View(func(tx *bolt.Tx) error {
		want := map[string]string{}
		add := func(es []entry) {
			for _, e := range es {
				want[string(e.bucket)+" "+fmt.Sprintf("%q", e.key)] = string(e.val)
			}
		}
		var errs []error
		for _, over := range []bool{false, true} {
			err := tx.Bucket(recordBucket(over)).ForEach(func(k, v []byte) error {
				var g play.Game
				if err := decode(fmt.Sprintf("game %x", k), v, &g); err != nil {
					return err
				}
				if g.Over() != over {
					errs = append(errs, fmt.Errorf("game %d (over: %v) is in %s", g.ID, g.Over(), recordBucket(over)))
				}
				if string(u64(g.ID)) != string(k) {
					errs = append(errs, fmt.Errorf("game %d is stored as %x", g.ID, k))
				}
				p := placementOf(&g, over)
				add(p.entries(g.ID))
				return nil
			})
			if err != nil {
				return err
			}
		}
		err := tx.Bucket(bucketChallenges).ForEach(func(k, v []byte) error {
			var c play.Challenge
			if err := decode(fmt.Sprintf("challenge %x", k), v, &c); err != nil {
				return err
			}
			add(challengeEntries(&c))
			return nil
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(bucketPlayers).ForEach(func(k, v []byte) error {
			p, err := decodePlayer(k, v)
			if errors.Is(err, ErrCorrupt) {
				return nil // a damaged record's entry is unknown; reading it reports the damage
			}
			if err != nil {
				return err
			}
			if e, ok := standingEntry(&p); ok {
				add([]entry{e})
			}
			return nil
		})
		if err != nil {
			return err
		}
		got := map[string]string{}
		for _, b := range indexBuckets {
			tx.Bucket(b).ForEach(func(k, v []byte) error {
				got[string(b)+" "+fmt.Sprintf("%q", k)] = string(v)
				return nil
			})
		}
		var keys []string
		for k := range want {
			keys = append(keys, k)
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			w, inW := want[k]
			g, inG := got[k]
			switch {
			case !inG:
				errs = append(errs, fmt.Errorf("missing index entry %s", k))
			case !inW:
				errs = append(errs, fmt.Errorf("index entry %s of no record", k))
			case w != g:
				errs = append(errs, fmt.Errorf("index entry %s is %q, want %q", k, g, w))
			}
			if len(errs) > 10 {
				break
			}
		}
		return errors.Join(errs...)
	})
}

// refGame is a reference game from game/testdata/games.txt.
type refGame struct {
	moves       []string
	finalFEN    string
	result      string
	termination string
}

// loadRefGames reads the reference games, legal move streams that end
// the way the file says.
func loadRefGames(t testing.TB) []refGame {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "game", "testdata", "games.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refGame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, " ; ")
		if len(fields) != 5 {
			t.Fatalf("games.txt: %d fields in %q", len(fields), line)
		}
		out = append(out, refGame{strings.Fields(fields[0]), fields[2], fields[3], fields[4]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// refEndingIn returns the first reference game with that termination.
func refEndingIn(t testing.TB, termination string) refGame {
	t.Helper()
	for _, r := range loadRefGames(t) {
		if r.termination == termination {
			return r
		}
	}
	t.Fatalf("no reference game ends in %s", termination)
	return refGame{}
}

// t0 is the fixed start of test time.
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// service returns a play.Service on s whose random challenges give the
// challenger White.
func service(s play.Storage) *play.Service {
	return play.New(s, play.Options{Rand: func(int) int { return 0 }})
}

// start starts a game through play, White and Black named after their ids.
func start(t testing.TB, svc *play.Service, guild, channel, white, black string, days int) play.Game {
	t.Helper()
	r, err := svc.Start(ctx, play.NewGame{Guild: guild, Channel: channel,
		White: play.Seat{ID: white, Name: "name of " + white}, Black: play.Seat{ID: black, Name: "name of " + black},
		DaysPerMove: days, At: t0})
	if err != nil {
		t.Fatalf("starting a game in %s: %v", channel, err)
	}
	return r.Game
}

// playMoves plays moves in g through play, one minute apart after g's
// last change, and returns the game after the last one.
func playMoves(t testing.TB, svc *play.Service, g play.Game, moves []string) play.Game {
	t.Helper()
	for _, m := range moves {
		r, err := svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: g.Updated.Add(time.Minute)}, m)
		if err != nil {
			t.Fatalf("game %d, move %d (%s): %v", g.ID, g.Ply()+1, m, err)
		}
		g = r.Game
	}
	return g
}

// replays reports whether g's moves replay to its position.
func replays(g *play.Game) error {
	m, err := g.Match()
	if err != nil {
		return err
	}
	if m.FEN() != g.FEN {
		return fmt.Errorf("game %d replays to %s but holds %s", g.ID, m.FEN(), g.FEN)
	}
	return nil
}

// view reads in one transaction, failing the test on an error.
func view(t testing.TB, s play.Storage, fn func(tx play.ReadTx) error) {
	t.Helper()
	if err := s.View(ctx, fn); err != nil {
		t.Fatal(err)
	}
}

// kindOf returns the refusal kind of err, 0 if it is no refusal.
func kindOf(err error) play.RefusalKind {
	var x *play.Refusal
	if errors.As(err, &x) {
		return x.Kind
	}
	return 0
}

func idsOf(gs []play.Game) string {
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return fmt.Sprint(out)
}

// iceAgeCount counts the Ice Ages of a game by replaying it.
func iceAgeCount(t testing.TB, g *play.Game) int {
	t.Helper()
	m, err := g.Match()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range m.IceAges() {
		if e != nil {
			n++
		}
	}
	return n
}
