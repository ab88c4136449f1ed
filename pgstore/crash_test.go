package pgstore_test

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
)

// The crash test. A child process (this test binary, run again) plays
// through play on the database with four workers and prints every write
// that Update acknowledged; the parent kills it with SIGKILL at a random
// moment, three times, and after each kill checks that every
// acknowledged write is there and that the index columns agree with the
// records.

const crashURLEnv = "ICEAGE_PG_CRASH_URL" // set in the child: the database

// crashChild runs the child's work and never returns when it is the
// child; it reports false in the parent.
func crashChild() bool {
	url := os.Getenv(crashURLEnv)
	if url == "" {
		return false
	}
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	s, err := pgstore.Open(ctx, url, nil)
	if err != nil {
		say("fail open: %v", err)
		os.Exit(3)
	}
	say("open")
	for w := range 4 {
		go crashWorker(s, w, say)
	}
	select {}
}

func crashWorker(s *pgstore.Store, w int, say func(string, ...any)) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
	svc := play.New(s, play.Options{})
	ch, white, black := fmt.Sprint("ch", w), fmt.Sprint("w", w), fmt.Sprint("b", w)
	fail := func(err error) { say("fail worker %d: %v", w, err); os.Exit(3) }
	var legal []game.Move
	for {
		if rng.IntN(20) == 0 {
			lang := []string{"en", "fr", "nb", "nl"}[rng.IntN(4)]
			say("try prefs %s %s", white, lang)
			if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs(white, play.Prefs{Language: lang}) }); err != nil {
				fail(err)
			}
			say("ack prefs %s %s", white, lang)
			continue
		}
		g, err := svc.GameIn(ctx, ch)
		var r play.Result
		switch {
		case err != nil:
			r, err = svc.Start(ctx, play.NewGame{Guild: "g", Channel: ch, White: play.Seat{ID: white}, Black: play.Seat{ID: black}, DaysPerMove: 3, At: time.Now()})
		case rng.IntN(30) == 0 || g.Ply() > 60:
			r, err = svc.Resign(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: time.Now()})
		default:
			pos, perr := g.Position()
			if perr != nil {
				fail(perr)
			}
			legal = pos.LegalMoves(legal[:0])
			if len(legal) == 0 {
				r, err = svc.Resign(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: time.Now()})
				break
			}
			r, err = svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: time.Now()}, legal[rng.IntN(len(legal))].UCI())
		}
		if err != nil {
			var x *play.Refusal
			if errors.As(err, &x) {
				continue // the game ended by itself meanwhile
			}
			fail(err)
		}
		say("ack game %d %d %d", r.Game.ID, r.Game.Revision, r.Game.Ply())
	}
}

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short mode")
	}
	s, url := openTest(t, nil)
	type ack struct{ rev, ply int }
	games := map[uint64]ack{}
	prefs := map[string][]string{} // user → last acknowledged language, then those tried after
	total := 0
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashURLEnv+"="+url)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 64)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		if l := <-lines; l != "open" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: the child said %q", round, l)
		}
		kill := time.After(time.Duration(300+rand.IntN(900)) * time.Millisecond)
		killed := false
		for !killed {
			select {
			case <-kill:
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("round %d: the child stopped by itself: %v", round, cmd.Wait())
				}
				f := strings.Fields(l)
				switch {
				case f[0] == "fail":
					t.Fatalf("round %d: %s", round, l)
				case f[0] == "try" && f[1] == "prefs":
					prefs[f[2]] = append(prefs[f[2]], f[3])
				case f[0] == "ack" && f[1] == "prefs":
					prefs[f[2]] = []string{f[3]}
					total++
				case f[0] == "ack" && f[1] == "game":
					id, _ := strconv.ParseUint(f[2], 10, 64)
					rev, _ := strconv.Atoi(f[3])
					ply, _ := strconv.Atoi(f[4])
					if rev > games[id].rev {
						games[id] = ack{rev, ply}
					}
					total++
				}
			}
		}
		cmd.Wait()
		for range lines {
		}

		err = s.View(ctx, func(tx play.ReadTx) error {
			for id, a := range games {
				g, err := tx.Game(id)
				if err != nil {
					return fmt.Errorf("acknowledged game %d: %w", id, err)
				}
				if g.Revision < a.rev || g.Revision == a.rev && g.Ply() != a.ply {
					return fmt.Errorf("game %d is at revision %d, ply %d; revision %d, ply %d was acknowledged", id, g.Revision, g.Ply(), a.rev, a.ply)
				}
			}
			for user, langs := range prefs {
				p, err := tx.Prefs(user)
				if err != nil {
					return err
				}
				if !slices.Contains(langs, p.Language) {
					return fmt.Errorf("the prefs of %s say %q; acknowledged or tried since: %v", user, p.Language, langs)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		checkColumns(t, s)
	}
	t.Logf("%d acknowledged writes over three kills, %d games, all there", total, len(games))
}

// checkColumns checks that the index columns of every game agree with
// its record, and that no channel has two active games.
func checkColumns(t *testing.T, s *pgstore.Store) {
	t.Helper()
	rows, err := s.Pool().Query(ctx, `SELECT id, active, channel, white, black, deadline, rec FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	channels := map[string]uint64{}
	for rows.Next() {
		var id int64
		var active bool
		var channel, white, black string
		var deadline *int64
		var rec []byte
		if err := rows.Scan(&id, &active, &channel, &white, &black, &deadline, &rec); err != nil {
			t.Fatal(err)
		}
		var g play.Game
		if err := play.DecodeRecord(rec, &g); err != nil {
			t.Fatalf("game %d: %v", id, err)
		}
		switch {
		case g.Over() == active, g.Channel != channel, g.White.ID != white, g.Black.ID != black:
			t.Errorf("game %d: columns active=%v %s %s %s, record %+v", id, active, channel, white, black, g)
		case active && (deadline == nil) != g.Deadline.IsZero(), active && deadline != nil && *deadline != g.Deadline.UnixNano():
			t.Errorf("game %d: deadline column %v, record %v", id, deadline, g.Deadline)
		}
		if active {
			if other, dup := channels[channel]; dup {
				t.Errorf("games %d and %d both active in %s", other, id, channel)
			}
			channels[channel] = uint64(id)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
