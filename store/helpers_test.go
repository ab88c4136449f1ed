package store

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/iceagechess/iceage/game"
)

// openTest opens a fresh store in a temporary directory; on cleanup it
// checks the file's consistency and closes it.
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
		s.Close()
	})
	return s
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

// t0 is the fixed start of test time.
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func seats(a, b string) (Seat, Seat) {
	return Seat{ID: a, Name: "name of " + a}, Seat{ID: b, Name: "name of " + b}
}

func newGame(guild, channel, white, black string, days int) NewGame {
	w, b := seats(white, black)
	return NewGame{Guild: guild, Channel: channel, White: w, Black: b, DaysPerMove: days, At: t0}
}

// mover returns the id of the player to move in g.
func mover(t testing.TB, g Game) string {
	t.Helper()
	s, err := g.ToMove()
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// playAll plays moves in the channel's game, one minute apart, and returns
// the game after the last one.
func playAll(t testing.TB, s *Store, channel string, moves []string) Game {
	t.Helper()
	g, err := s.Game(channel)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		g, err = s.PlayMove(channel, g.Ply(), m, mover(t, g), t0.Add(time.Duration(i+1)*time.Minute))
		if err != nil {
			t.Fatalf("move %d (%s): %v", i+1, m, err)
		}
	}
	return g
}

// resultOf returns the game's result in the words of games.txt.
func resultOf(o game.Outcome) string { return o.Result.String() }
