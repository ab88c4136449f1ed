package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// The fault suite. A child process (this test binary, run again) writes
// through play on a bbolt file and prints every write the store
// acknowledged; the parent kills it with SIGKILL at a random moment —
// sometimes while it opens the file — then reopens the file and checks
// that every acknowledgement of every round so far still holds, that the
// file and its indexes are consistent, and that the counts agree with the
// archive. TestCrashDuringMigration kills a child while it migrates a
// schema-2 file.
//
// The seed is logged; ICEAGE_CRASH_SEED=n repeats its choices (the
// moments of the kills depend on the machine too).

const (
	crashChildEnv = "ICEAGE_STORE_CRASH_CHILD" // the file the child works on
	crashModeEnv  = "ICEAGE_STORE_CRASH_MODE"  // "play", or "migrate": open and stop
	crashSeedEnv  = "ICEAGE_STORE_CRASH_SEED"  // the child's seed
	crashRepeat   = "ICEAGE_CRASH_SEED"        // fixes the parent's seed
)

// crashWorkers write at once, so that commits are batched. Worker w plays
// with its users u{w}a, u{w}b, u{w}c, in channel ch{w}, guild g{w%2}:
// a challenges, b or c accepts, and the game is played to its end.
const crashWorkers = 4

func crashUser(w int, who string) string { return fmt.Sprintf("u%d%s", w, who) }

// crashSeed returns the seed of a crash test, from ICEAGE_CRASH_SEED or
// the clock, and logs it.
func crashSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(crashRepeat); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("%s=%q: %v", crashRepeat, s, err)
		}
	}
	t.Logf("seed %d (%s=%d repeats it)", seed, crashRepeat, seed)
	return seed
}

// gameDigest sums up a game in ten fields without spaces: id, revision,
// ply, position, result, reason, who offered a draw, who asked for a
// takeback, the deadline and a hash of the moves and their times.
func gameDigest(g *play.Game) string {
	h := fnv.New64a()
	for _, m := range g.Moves {
		fmt.Fprintf(h, "%s@%d,", m.UCI, m.At.UnixMilli())
	}
	by := func(o *play.Offer) string {
		if o == nil {
			return "-"
		}
		return fmt.Sprintf("%s@%d", o.By, o.Ply)
	}
	return fmt.Sprintf("%d %d %d %s %d %d %s %s %d %x", g.ID, g.Revision, g.Ply(), strings.ReplaceAll(g.FEN, " ", "_"),
		g.Outcome.Result, g.Outcome.Reason, by(g.DrawOffer), by(g.Takeback), g.Deadline.UnixMilli(), h.Sum64())
}

func prefsDigest(p play.Prefs) string {
	return fmt.Sprintf("%s/%v", p.Language, strings.Trim(fmt.Sprint(p.Reminders), "[]"))
}

// crashOut prints the child's lines, each flushed at once: the parent
// must see an acknowledgement before the next write begins.
type crashOut struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (o *crashOut) say(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.w, format+"\n", args...)
	o.w.Flush()
}

func (o *crashOut) fail(format string, args ...any) {
	o.say("fail "+strings.ReplaceAll(format, "\n", " "), args...)
	os.Exit(3)
}

func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashChildEnv)
	if path == "" {
		t.Skip("run by TestCrash and TestCrashDuringMigration in a child process")
	}
	seed, _ := strconv.ParseUint(os.Getenv(crashSeedEnv), 10, 64)
	out := &crashOut{w: bufio.NewWriter(os.Stdout)}
	out.say("opening")
	s, err := Open(path, &Options{Timeout: 5 * time.Second})
	if err != nil {
		out.fail("open: %v", err)
	}
	out.say("open")
	if os.Getenv(crashModeEnv) == "migrate" {
		s.Close()
		os.Exit(0)
	}
	for w := 0; w < crashWorkers; w++ {
		rng := rand.New(rand.NewPCG(seed, uint64(w)))
		var mu sync.Mutex
		k := &crashWorker{w: w, s: s, rng: rng, out: out,
			a: crashUser(w, "a"), b: crashUser(w, "b"), c: crashUser(w, "c"),
			ch: fmt.Sprint("ch", w), lobby: fmt.Sprint("lobby", w), guild: fmt.Sprint("g", w%2)}
		k.svc = play.New(s, play.Options{Rand: func(n int) int { mu.Lock(); defer mu.Unlock(); return rng.IntN(n) }})
		go k.run()
	}
	select {}
}

// crashWorker writes through play, one act after another, and says so:
// "try W OP TARGET" before a write, then "ack W …" once it is committed,
// or "nak W" if it was refused (having checked that it changed nothing).
type crashWorker struct {
	w                         int
	s                         *Store
	svc                       *play.Service
	rng                       *rand.Rand
	out                       *crashOut
	a, b, c, ch, lobby, guild string
}

func (k *crashWorker) run() {
	for {
		if k.rng.IntN(40) == 0 {
			k.prefs()
			continue
		}
		g, err := k.svc.GameIn(ctx, k.ch)
		switch {
		case err == nil:
			k.act(g)
		case kindOf(err) == play.NoGame:
			k.challenge()
		default:
			k.out.fail("worker %d: the game of %s: %v", k.w, k.ch, err)
		}
	}
}

func (k *crashWorker) prefs() {
	p := play.Prefs{Language: []string{"en", "fr", "nb", "nl"}[k.rng.IntN(4)], Reminders: []int{1 + k.rng.IntN(48)}}
	k.out.say("try %d prefs %s", k.w, k.a)
	if err := k.s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs(k.a, p) }); err != nil {
		k.out.fail("worker %d: prefs: %v", k.w, err)
	}
	k.out.say("ack %d prefs %s %s", k.w, k.a, prefsDigest(p))
}

func (k *crashWorker) challenge() {
	var mine []play.Challenge
	if err := k.s.View(ctx, func(tx play.ReadTx) (err error) { mine, err = tx.Challenges(k.a); return err }); err != nil {
		k.out.fail("worker %d: challenges: %v", k.w, err)
	}
	if len(mine) == 0 {
		n := play.NewChallenge{Guild: k.guild, Channel: k.lobby, From: play.Seat{ID: k.a, Name: "A"}, To: play.Seat{ID: k.b, Name: "B"},
			Color: []play.Color{play.Random, play.WhiteSide, play.BlackSide}[k.rng.IntN(3)], Rated: k.rng.IntN(3) == 0,
			DaysPerMove: []int{0, 1, 3}[k.rng.IntN(3)], At: time.Now()}
		if k.rng.IntN(3) == 0 {
			n.To = play.Seat{}
		}
		k.out.say("try %d create %s", k.w, k.a)
		c, err := k.svc.Challenge(ctx, n)
		if err != nil {
			k.out.fail("worker %d: challenging: %v", k.w, err)
		}
		k.out.say("ack %d chal %d new", k.w, c.ID)
		return
	}
	c := mine[0]
	taker := c.To.ID
	if c.Open() {
		taker = k.c
	}
	switch r := k.rng.IntN(10); {
	case r < 7:
		k.out.say("try %d accept %d", k.w, c.ID)
		res, err := k.svc.Accept(ctx, c.ID, play.Seat{ID: taker, Name: "T"}, k.ch, time.Now())
		if err != nil {
			k.out.fail("worker %d: accepting %d: %v", k.w, c.ID, err)
		}
		k.out.say("ack %d accept %d %s", k.w, c.ID, gameDigest(&res.Game))
	case r < 8 && !c.Open():
		k.out.say("try %d decline %d", k.w, c.ID)
		if _, err := k.svc.Decline(ctx, c.ID, taker, time.Now()); err != nil {
			k.out.fail("worker %d: declining %d: %v", k.w, c.ID, err)
		}
		k.out.say("ack %d chal %d gone", k.w, c.ID)
	default:
		k.out.say("try %d cancel %d", k.w, c.ID)
		if _, err := k.svc.Cancel(ctx, c.ID, k.a, time.Now()); err != nil {
			k.out.fail("worker %d: cancelling %d: %v", k.w, c.ID, err)
		}
		k.out.say("ack %d chal %d gone", k.w, c.ID)
	}
}

// randomMove returns a legal move of g in SAN, as a user would type it.
func (k *crashWorker) randomMove(g *play.Game) string {
	pos, err := g.Position()
	if err != nil {
		k.out.fail("worker %d: %v", k.w, err)
	}
	sans := pos.SANs()
	if len(sans) == 0 {
		k.out.fail("worker %d: game %d goes on without a legal move", k.w, g.ID)
	}
	return sans[k.rng.IntN(len(sans))].SAN
}

func (k *crashWorker) act(g play.Game) {
	a := play.Act{Game: g.ID, Revision: g.Revision, At: time.Now()}
	anyone := []string{g.White.ID, g.Black.ID}[k.rng.IntN(2)]
	other := func(u string) string {
		if u == g.White.ID {
			return g.Black.ID
		}
		return g.White.ID
	}
	answer := func(o *play.Offer, accept, decline, withdraw func(play.Act) (play.Result, error)) func() (play.Result, error) {
		switch k.rng.IntN(3) {
		case 0:
			a.By = other(o.By)
			return func() (play.Result, error) { return accept(a) }
		case 1:
			a.By = other(o.By)
			return func() (play.Result, error) { return decline(a) }
		}
		a.By = o.By
		return func() (play.Result, error) { return withdraw(a) }
	}
	bind := func(f func(context.Context, play.Act) (play.Result, error)) func(play.Act) (play.Result, error) {
		return func(a play.Act) (play.Result, error) { return f(ctx, a) }
	}
	op := "act"
	var do func() (play.Result, error)
	switch r := k.rng.IntN(200); {
	case r < 6 && g.Revision > 1:
		// A stale click: refused, and nothing changes.
		a.By, a.Revision = g.ToMove().ID, g.Revision-1
		k.out.say("try %d act %d", k.w, g.ID)
		if _, err := k.svc.Move(ctx, a, k.randomMove(&g)); kindOf(err) != play.Stale {
			k.out.fail("worker %d: a stale move in game %d: %v", k.w, g.ID, err)
		}
		k.nak(&g)
		return
	case r < 10:
		a.By = anyone
		do = func() (play.Result, error) { return k.svc.OfferDraw(ctx, a) }
	case r < 20 && g.DrawOffer != nil:
		do = answer(g.DrawOffer, bind(k.svc.AcceptDraw), bind(k.svc.DeclineDraw), bind(k.svc.WithdrawDraw))
	case r < 26:
		a.By = anyone
		do = func() (play.Result, error) { return k.svc.RequestTakeback(ctx, a) }
	case r < 36 && g.Takeback != nil:
		do = answer(g.Takeback, bind(k.svc.AcceptTakeback), bind(k.svc.DeclineTakeback), bind(k.svc.WithdrawTakeback))
	case r < 40:
		a.By = anyone
		do = func() (play.Result, error) { return k.svc.Abort(ctx, a) }
	case r < 41:
		a.By = anyone
		do = func() (play.Result, error) { return k.svc.Resign(ctx, a) }
	case r < 42 && !g.Deadline.IsZero():
		op = "timeout"
		do = func() (play.Result, error) { return k.svc.TimeOut(ctx, g.ID, g.Deadline) }
	default:
		a.By = g.ToMove().ID
		mv := k.randomMove(&g)
		if k.rng.IntN(8) == 0 {
			k.doubleClick(&g, a, mv)
			return
		}
		do = func() (play.Result, error) { return k.svc.Move(ctx, a, mv) }
	}
	k.out.say("try %d %s %d", k.w, op, g.ID)
	res, err := do()
	if err != nil {
		if kindOf(err) == 0 {
			k.out.fail("worker %d: game %d: %v", k.w, g.ID, err)
		}
		k.nak(&g)
		return
	}
	k.out.say("ack %d game %s", k.w, gameDigest(&res.Game))
}

// doubleClick plays the same move twice at once: exactly one must play.
func (k *crashWorker) doubleClick(g *play.Game, a play.Act, mv string) {
	k.out.say("try %d act %d", k.w, g.ID)
	type result struct {
		r   play.Result
		err error
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			r, err := k.svc.Move(ctx, a, mv)
			results <- result{r, err}
		}()
	}
	x, y := <-results, <-results
	if x.err != nil {
		x, y = y, x
	}
	// The loser finds the game moved on, or over if the winner ended it.
	if x.err != nil || kindOf(y.err) != play.Stale && !(x.r.Game.Over() && kindOf(y.err) == play.GameOver) {
		k.out.fail("worker %d: two clicks on %s in game %d: %v and %v", k.w, mv, g.ID, x.err, y.err)
	}
	k.out.say("ack %d game %s", k.w, gameDigest(&x.r.Game))
}

// nak checks that a refused act changed nothing, and says so.
func (k *crashWorker) nak(g *play.Game) {
	now, err := k.svc.Game(ctx, g.ID)
	if err != nil || gameDigest(&now) != gameDigest(g) {
		k.out.fail("worker %d: a refused act changed game %d: %s, now %s (%v)", k.w, g.ID, gameDigest(g), gameDigest(&now), err)
	}
	k.out.say("nak %d", k.w)
}

// crashChild is a running child process and its lines.
type crashChild struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr bytes.Buffer
}

func startCrashChild(t *testing.T, path, mode string, seed uint64) *crashChild {
	t.Helper()
	c := &crashChild{lines: make(chan string, 64)}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	c.cmd.Env = append(os.Environ(), crashChildEnv+"="+path, crashModeEnv+"="+mode, fmt.Sprintf("%s=%d", crashSeedEnv, seed))
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.cmd.Stderr = &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

// kill kills the child and returns the lines it printed before it died.
func (c *crashChild) kill() []string {
	c.cmd.Process.Signal(syscall.SIGKILL)
	var rest []string
	for line := range c.lines {
		rest = append(rest, line)
	}
	c.cmd.Wait()
	return rest
}

// crashOp is a write a worker began: "try W OP TARGET".
type crashOp struct{ op, target string }

// crashModel is what the children acknowledged, over all rounds.
type crashModel struct {
	games      map[uint64]string // id → digest
	gameWorker map[uint64]int
	chals      map[uint64]bool // id → still pending
	chalWorker map[uint64]int
	prefs      map[string]string // user → digest
	acks       int
}

func newCrashModel() *crashModel {
	return &crashModel{games: map[uint64]string{}, gameWorker: map[uint64]int{}, chals: map[uint64]bool{},
		chalWorker: map[uint64]int{}, prefs: map[string]string{}}
}

// apply reads one line of a child: it records an acknowledgement, or
// the write begun or refused. It returns an error for a failure the child
// reported or a line it cannot read.
func (m *crashModel) apply(line string, pending map[int]crashOp) error {
	f := strings.Fields(line)
	if len(f) == 0 {
		return fmt.Errorf("an empty line")
	}
	switch f[0] {
	case "opening", "open":
		return nil
	case "fail":
		return fmt.Errorf("the child failed: %s", line)
	}
	if len(f) < 2 {
		return fmt.Errorf("cannot read %q", line)
	}
	w, err := strconv.Atoi(f[1])
	if err != nil {
		return fmt.Errorf("cannot read %q", line)
	}
	switch {
	case f[0] == "try" && len(f) == 4:
		pending[w] = crashOp{f[2], f[3]}
		return nil
	case f[0] == "nak" && len(f) == 2:
		delete(pending, w)
		return nil
	case f[0] != "ack" || len(f) < 3:
		return fmt.Errorf("cannot read %q", line)
	}
	delete(pending, w)
	m.acks++
	id := func(s string) uint64 { n, _ := strconv.ParseUint(s, 10, 64); return n }
	switch {
	case f[2] == "game" && len(f) == 13:
		g := id(f[3])
		m.games[g], m.gameWorker[g] = strings.Join(f[3:], " "), w
	case f[2] == "accept" && len(f) == 14:
		m.chals[id(f[3])] = false
		g := id(f[4])
		m.games[g], m.gameWorker[g] = strings.Join(f[4:], " "), w
	case f[2] == "chal" && len(f) == 5:
		c := id(f[3])
		m.chals[c], m.chalWorker[c] = f[4] == "new", w
	case f[2] == "prefs" && len(f) == 5:
		m.prefs[f[3]] = f[4]
	default:
		return fmt.Errorf("cannot read %q", line)
	}
	return nil
}

// verify checks the reopened store against every acknowledgement so
// far. A record may differ from its acknowledgement only by the one write
// its worker had begun when it was killed (committed, not yet
// acknowledged); verify then takes the stored record as acknowledged.
func (m *crashModel) verify(s *Store, pending map[int]crashOp) error {
	if err := s.Check(); err != nil {
		return fmt.Errorf("the file is inconsistent: %w", err)
	}
	if err := checkIndexes(s.db); err != nil {
		return fmt.Errorf("the indexes are inconsistent: %w", err)
	}
	began := func(w int, ops string, target string) bool {
		p, ok := pending[w]
		return ok && strings.Contains(" "+ops+" ", " "+p.op+" ") && p.target == target
	}
	return s.View(ctx, func(tx play.ReadTx) error {
		for id, want := range m.games {
			g, err := tx.Game(id)
			if err != nil {
				return fmt.Errorf("game %d, acknowledged as %s, is gone: %w", id, want, err)
			}
			got := gameDigest(&g)
			if got == want {
				continue
			}
			wantRev, _ := strconv.Atoi(strings.Fields(want)[1])
			if !began(m.gameWorker[id], "act timeout", fmt.Sprint(id)) || g.Revision != wantRev+1 {
				return fmt.Errorf("game %d is %s, acknowledged as %s (worker %d had begun %+v)", id, got, want, m.gameWorker[id], pending[m.gameWorker[id]])
			}
			m.games[id] = got
		}
		accepted := map[int]uint64{} // worker → the challenge an unacknowledged accept took
		for id, open := range m.chals {
			_, err := tx.Challenge(id)
			switch {
			case err == nil && open, errors.Is(err, play.ErrNotFound) && !open:
			case err == nil:
				return fmt.Errorf("challenge %d, acknowledged as answered, is there", id)
			case !errors.Is(err, play.ErrNotFound):
				return err
			case !began(m.chalWorker[id], "accept decline cancel", fmt.Sprint(id)):
				return fmt.Errorf("challenge %d, acknowledged as pending, is gone (worker %d had begun %+v)", id, m.chalWorker[id], pending[m.chalWorker[id]])
			default:
				m.chals[id] = false
				if pending[m.chalWorker[id]].op == "accept" {
					accepted[m.chalWorker[id]] = id
				}
			}
		}
		for w := 0; w < crashWorkers; w++ {
			a := crashUser(w, "a")
			chals, err := tx.Challenges(a)
			if err != nil {
				return err
			}
			for _, c := range chals {
				if _, known := m.chals[c.ID]; known {
					continue
				}
				if !began(w, "create", a) {
					return fmt.Errorf("challenge %d of worker %d was never acknowledged (it had begun %+v)", c.ID, w, pending[w])
				}
				m.chals[c.ID], m.chalWorker[c.ID] = true, w
				delete(pending, w)
			}
			active, err := tx.ActiveGames(a)
			if err != nil {
				return err
			}
			finished, err := tx.Finished(a, "", 0, 1<<30)
			if err != nil {
				return err
			}
			var unknown []play.Game
			for _, g := range append(active, finished...) {
				if _, known := m.games[g.ID]; !known {
					unknown = append(unknown, g)
				}
			}
			_, took := accepted[w]
			switch {
			case len(unknown) == 0 && !took:
			case len(unknown) == 1 && took && unknown[0].Revision == 1 && !unknown[0].Over():
				m.games[unknown[0].ID], m.gameWorker[unknown[0].ID] = gameDigest(&unknown[0]), w
			default:
				return fmt.Errorf("worker %d: %d games never acknowledged (%s), and an accepted challenge: %v", w, len(unknown), idsOf(unknown), took)
			}
			p, err := tx.Prefs(a)
			if err != nil {
				return err
			}
			if want, ok := m.prefs[a]; ok && prefsDigest(p) != want || !ok && p.Language != "" {
				if !began(w, "prefs", a) {
					return fmt.Errorf("the prefs of %s are %s, acknowledged as %q", a, prefsDigest(p), want)
				}
				m.prefs[a] = prefsDigest(p)
			}
		}
		return checkCounts(tx)
	})
}

// checkCounts checks that the statistics, the players' records and their
// logs count exactly the finished games, that the rated ones were rated
// once, and that every game replays to its position.
func checkCounts(tx play.ReadTx) error {
	finished, err := tx.Finished("", "", 0, 1<<30)
	if err != nil {
		return err
	}
	type tally struct {
		white, black play.Tally
		frozen       int
		logged       []string // the log's entries: game id, and "r" if rated, oldest first
		rated        int
	}
	stats := map[string]*play.Stats{}
	players := map[[2]string]*tally{}
	for _, g := range finished {
		m, err := g.Match()
		if err != nil {
			return err
		}
		if m.FEN() != g.FEN || !g.Over() || g.Ended.IsZero() || !g.Deadline.IsZero() || g.DrawOffer != nil {
			return fmt.Errorf("finished game %d: %s", g.ID, gameDigest(&g))
		}
		ices := 0
		for _, e := range m.IceAges() {
			if e != nil {
				ices++
			}
		}
		for _, scope := range []string{"", g.Guild} {
			st := stats[scope]
			if st == nil {
				st = &play.Stats{Scope: scope}
				stats[scope] = st
			}
			switch g.Outcome.Result {
			case game.WhiteWins:
				st.WhiteWins++
			case game.BlackWins:
				st.BlackWins++
			case game.Draw:
				st.Draws++
			default:
				st.Aborted++
				continue
			}
			if st.ByReason == nil {
				st.ByReason = map[game.Reason]int{}
			}
			st.ByReason[g.Outcome.Reason]++
			st.IceAges += ices
			for _, c := range []game.Color{game.White, game.Black} {
				k := [2]string{scope, g.Seat(c).ID}
				p := players[k]
				if p == nil {
					p = &tally{}
					players[k] = p
				}
				entry := fmt.Sprint(g.ID)
				if g.Rated {
					entry += "r"
					p.rated++
				}
				p.logged = append([]string{entry}, p.logged...) // finished is newest first
				t := &p.white
				if c == game.Black {
					t = &p.black
				}
				switch w, ok := g.Outcome.Winner(); {
				case !ok:
					t.Drawn++
				case w == c:
					t.Won++
				default:
					t.Lost++
					if g.Outcome.Reason == game.KingFrozen {
						p.frozen++
					}
				}
			}
		}
	}
	for scope, want := range stats {
		got, err := tx.Stats(scope)
		if err != nil {
			return err
		}
		got.V = 0
		if fmt.Sprint(got) != fmt.Sprint(*want) {
			return fmt.Errorf("the stats of %q are %+v; the archive counts %+v", scope, got, *want)
		}
	}
	for k, want := range players {
		p, err := tx.Player(k[0], k[1])
		if err != nil {
			return err
		}
		if p.AsWhite != want.white || p.AsBlack != want.black || p.FrozenLosses != want.frozen || p.RatedGames != want.rated {
			return fmt.Errorf("%s in %q: %+v %+v frozen %d, %d rated; the archive counts %+v", k[1], k[0], p.AsWhite, p.AsBlack, p.FrozenLosses, p.RatedGames, *want)
		}
		var logged []string
		err = tx.PlayerLog(k[0], k[1], func(e play.LogEntry) error {
			entry := fmt.Sprint(e.Game)
			if e.Rated {
				entry += "r"
			}
			logged = append(logged, entry)
			return nil
		})
		if err != nil {
			return err
		}
		if fmt.Sprint(logged) != fmt.Sprint(want.logged) {
			return fmt.Errorf("the log of %s in %q holds %v; the archive has %v", k[1], k[0], logged, want.logged)
		}
	}
	for w := 0; w < crashWorkers; w++ {
		active, err := tx.ActiveGames(crashUser(w, "a"))
		if err != nil {
			return err
		}
		for _, g := range active {
			if err := replays(&g); err != nil {
				return err
			}
		}
	}
	return nil
}

func TestCrash(t *testing.T) {
	rounds := 24
	if testing.Short() {
		rounds = 4
	}
	seed := crashSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0))
	path := filepath.Join(t.TempDir(), "crash.db")
	m := newCrashModel()
	duringOpen := 0
	for round := 0; round < rounds; round++ {
		fatalf := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d, round %d: "+format, append([]any{seed, round}, args...)...)
		}
		child := startCrashChild(t, path, "play", seed+uint64(round)+1)
		pending := map[int]crashOp{}
		// Every fourth round is killed at a random moment of its first
		// 15 ms, while it starts or opens the file; the others after a
		// random number of acknowledgements, and a little later.
		var early <-chan time.Time
		if round%4 == 1 {
			early = time.After(time.Duration(rng.IntN(15000)) * time.Microsecond)
		}
		acksBefore, killAfter := m.acks, 1+rng.IntN(300)
		deadline := time.After(30 * time.Second)
	read:
		for early != nil || m.acks-acksBefore < killAfter {
			select {
			case line, ok := <-child.lines:
				if !ok {
					break read
				}
				if err := m.apply(line, pending); err != nil {
					child.kill()
					fatalf("%v; stderr:\n%s", err, child.stderr.String())
				}
			case <-early:
				break read
			case <-deadline:
				child.kill()
				fatalf("the child acknowledged %d writes in 30 s; stderr:\n%s", m.acks-acksBefore, child.stderr.String())
			}
		}
		if early == nil {
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		}
		opened := false
		for _, line := range child.kill() { // lines printed before the kill still count
			opened = opened || line == "open"
			if err := m.apply(line, pending); err != nil {
				fatalf("%v; stderr:\n%s", err, child.stderr.String())
			}
		}
		if early != nil && !opened {
			duringOpen++
		}
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			continue // killed before it created the file
		}
		s, err := Open(path, &Options{Timeout: 5 * time.Second})
		if err != nil {
			fatalf("reopening after the kill: %v", err)
		}
		if err := m.verify(s, pending); err != nil {
			s.Close()
			fatalf("%v", err)
		}
		s.Close()
	}
	var finished []play.Game
	s := openAt(t, path, nil)
	view(t, s, func(tx play.ReadTx) (err error) {
		finished, err = tx.Finished("", "", 0, 1<<30)
		return err
	})
	ends := map[game.Reason]int{}
	for _, g := range finished {
		ends[g.Outcome.Reason]++
	}
	t.Logf("%d rounds (%d killed before the store was open), %d acknowledged writes, %d games of which %d finished %v, %d challenges",
		rounds, duringOpen, m.acks, len(m.games), len(finished), ends, len(m.chals))
}

// writeSchema2 writes a database of schema 2 as that code would have: the
// games of fixtureV2's kind, many times over — active games with offers,
// archived ones of reference length with their counts, and challenges.
func writeSchema2(tb testing.TB, path string, active, archived int) {
	tb.Helper()
	refs := loadRefGames(tb)
	tmpls := make([]*oldGame, len(refs))
	for i, r := range refs {
		g, err := oldMake(2, 0, "", "", "", "", 0, r.moves, game.Outcome{})
		if err != nil {
			tb.Fatal(err)
		}
		if !g.Status.Over() {
			g.Status, g.Ended = game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}, g.Updated
		}
		tmpls[i] = g
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		for _, name := range []string{"meta", "games", "gameIDs", "archive", "challenges", "players", "prefs", "stats",
			"idx.deadline", "idx.reminder", "idx.expiry", "idx.userGames", "idx.guildGames", "idx.userArch", "idx.guildArch", "idx.challUser"} {
			if _, err := tx.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		meta := tx.Bucket([]byte("meta"))
		meta.Put([]byte("schema"), []byte{0, 0, 0, 2})
		meta.Put([]byte("created"), []byte("2026-06-01T00:00:00Z"))
		user := func(i int) string { return fmt.Sprint("p", i%97) }
		id := uint64(0)
		for i := 0; i < archived; i++ {
			id++
			g := *tmpls[i%len(tmpls)]
			g.ID, g.Guild, g.Channel = id, fmt.Sprint("G", i%5), fmt.Sprint("old", i)
			g.White, g.Black = play.Seat{ID: user(i), Name: "W"}, play.Seat{ID: user(i*7 + 1), Name: "B"}
			if err := oldPut(tx, "archive", u64(id), &g); err != nil {
				return err
			}
			for _, u := range v2Players(g.White.ID, g.Black.ID) {
				oldPut(tx, "idx.userArch", join([]byte(u), u64(id)), []byte{})
			}
			oldPut(tx, "idx.guildArch", join([]byte(g.Guild), u64(id)), []byte{})
			if err := oldCount(tx, 2, &g, []string{"", g.Guild}); err != nil {
				return err
			}
		}
		for i := 0; i < active; i++ {
			id++
			ref := refs[i%len(refs)]
			g, err := oldMake(2, id, fmt.Sprint("G", i%5), fmt.Sprint("c", i), user(i), user(i+1), i%3, ref.moves[:i%40], game.Outcome{})
			if err != nil {
				return err
			}
			switch i % 4 {
			case 1:
				g.DrawOffer = g.Black.ID
			case 2:
				g.Takeback = g.White.ID
			}
			g.Messages = []string{fmt.Sprint("m", i)}
			ch := []byte(g.Channel)
			oldPut(tx, "games", ch, g)
			oldPut(tx, "gameIDs", u64(id), ch)
			if !g.Deadline.IsZero() {
				oldPut(tx, "idx.deadline", append(timeKey(g.Deadline), ch...), []byte{})
				oldPut(tx, "idx.reminder", append(timeKey(g.RemindAt), ch...), []byte{})
			}
			for _, u := range v2Players(g.White.ID, g.Black.ID) {
				oldPut(tx, "idx.userGames", join([]byte(u), ch), []byte{})
			}
			oldPut(tx, "idx.guildGames", join([]byte(g.Guild), ch), []byte{})
		}
		meta.SetSequence(id)
		for i := 1; i <= 5; i++ {
			c := oldChallenge{V: 2, ID: uint64(i), Guild: "G0", Channel: "lobby", From: play.Seat{ID: user(i)}, To: play.Seat{ID: user(i + 50)},
				Color: []string{"", "white", "black"}[i%3], Created: t0, Expires: t0.Add(time.Duration(i) * time.Hour)}
			oldPut(tx, "challenges", u64(c.ID), &c)
			oldPut(tx, "idx.expiry", append(timeKey(c.Expires), u64(c.ID)...), []byte{})
			oldPut(tx, "idx.challUser", join([]byte(c.From.ID), u64(c.ID)), []byte{})
			oldPut(tx, "idx.challUser", join([]byte(c.To.ID), u64(c.ID)), []byte{})
		}
		return tx.Bucket([]byte("challenges")).SetSequence(5)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

func copyFile(tb testing.TB, src, dst string) {
	tb.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// dumpHash sums up a database file logically (see dump).
func dumpHash(t *testing.T, path string) string {
	h := sha256.New()
	dumpTo(t, h, path)
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestCrashDuringMigration(t *testing.T) {
	archived, rounds := 4000, 5
	if testing.Short() {
		archived, rounds = 1500, 3
	}
	if raceEnabled {
		archived = min(archived, 300)
	}
	seed := crashSeed(t)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := t.TempDir()
	orig := filepath.Join(dir, "schema2.bbolt")
	writeSchema2(t, orig, 40, archived)

	// The reference: the same file migrated without a kill.
	ref := filepath.Join(dir, "reference.bbolt")
	copyFile(t, orig, ref)
	begin := time.Now()
	s, err := Open(ref, nil)
	took := time.Since(begin)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkIndexes(s.db); err != nil {
		t.Fatal(err)
	}
	s.Close()
	want := dumpHash(t, ref)
	t.Logf("opening and migrating %d archived games took %v", archived, took)

	killed := map[int]int{}
	for round := 0; round < rounds; round++ {
		path := filepath.Join(dir, fmt.Sprintf("round%d.bbolt", round))
		copyFile(t, orig, path)
		child := startCrashChild(t, path, "migrate", seed+uint64(round))
		select {
		case line := <-child.lines:
			if line != "opening" {
				child.kill()
				t.Fatalf("seed %d: the child said %q; stderr:\n%s", seed, line, child.stderr.String())
			}
		case <-time.After(20 * time.Second):
			child.kill()
			t.Fatalf("seed %d: the child did not start; stderr:\n%s", seed, child.stderr.String())
		}
		time.Sleep(time.Duration(rng.Int64N(int64(took) * 3 / 2)))
		child.kill()
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
		if err != nil {
			t.Fatalf("seed %d, round %d: after the kill the file does not open: %v", seed, round, err)
		}
		var v int
		db.View(func(tx *bolt.Tx) (err error) { v, err = schemaOf(tx); return err })
		db.Close()
		if v != 2 && v != schemaVersion {
			t.Fatalf("seed %d, round %d: schema %d after the kill", seed, round, v)
		}
		killed[v]++
		s, err := Open(path, nil)
		if err != nil {
			t.Fatalf("seed %d, round %d: opening after the kill: %v", seed, round, err)
		}
		// Equal to the reference, whose indexes were checked, the file
		// needs only bbolt's own check.
		if err := s.Check(); err != nil {
			t.Fatalf("seed %d, round %d: %v", seed, round, err)
		}
		s.Close()
		if got := dumpHash(t, path); got != want {
			t.Fatalf("seed %d, round %d: the file migrated after a kill (at schema %d) differs from the reference", seed, round, v)
		}
		os.Remove(path)
	}
	t.Logf("%d kills left schema 2 (migration not committed), %d schema %d", killed[2], killed[schemaVersion], schemaVersion)
}
