package play_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/rating"
)

var randomSeed = flag.Uint64("play.seed", 0, "the seed of TestRandomActs (0: new seeds, logged)")

// TestRandomActs runs random sequences of acts — moves, offers, takebacks,
// aborts, resignations, timeouts, challenges and their answers — by
// random users, players and strangers, at random and often stale
// revisions, on games started from positions close to every kind of end.
// After every act: an act applied named the revision the game had and
// bumped it by one, changed no other game, and is what the storage holds;
// a refused one changed nothing at all. Every 25 acts and at the end:
// every game replays to its stored position and outcome, each channel has
// at most one game going on, and the players' records and the statistics
// equal a recount over the finished games (ratings included, the rated
// games replayed through package rating in the order they ended), as do
// the players' logs. A failure names its seed:
// rerun it with -play.seed.
func TestRandomActs(t *testing.T) {
	runs, steps := 16, 500
	if testing.Short() {
		runs, steps = 4, 250
	}
	seeds := []uint64{*randomSeed}
	if *randomSeed == 0 {
		base := uint64(time.Now().UnixNano())
		seeds = seeds[:0]
		for i := range runs {
			seeds = append(seeds, base+uint64(i))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("random acts from seed %d keep every game and record sound", seed), func(t *testing.T) {
			t.Logf("seed %d (rerun with -play.seed=%d)", seed, seed)
			newRandomRun(t, seed).run(steps)
		})
	}
}

// The users of the random runs: players and strangers alike may try
// anything.
var randomUsers = []play.Seat{
	{ID: "u1", Name: "One"}, {ID: "u2", Name: "Two"}, {ID: "u3", Name: "Three"}, {ID: "u4"},
	{ID: "s1", Name: "Stranger"}, {ID: "s2"},
}

// randomChannels are the channels, with their guilds.
var randomChannels = []struct{ channel, guild string }{{"c1", "g1"}, {"c2", "g1"}, {"c3", "g2"}, {"c4", ""}}

// randomStarts are start positions: the ice start and positions a move or
// a few away from every kind of end.
var randomStarts = []string{
	"",
	"",
	"6k1/5ppp/1*******/8/8/8/8/R5K1 w - - 0 1",
	"7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
	"k7/pp6/8/8/8/8/8/7K b - - 0 20",
	"7k/8/8/8/8/8/8/K7 b - - 0 20",
	"k7/8/8/8/8/8/8/K6R w - - 95 10",
	"r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20",
	"4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20",
	"6k1/5ppp/8/8/6n1/8/6PP/6RK b - - 0 20",
}

// randomJunk is text that is seldom a legal move.
var randomJunk = []string{"", "hello", "e9", "Ke2", "O-O", "0-0-0", "Qxh8", "a1a1", "Nf3", "e4", "exd5", "b8=Q",
	"h2g3", "g8f6", "resign", "♘f3", "e2e4e", "  ", "Kxe2", "hxg3+", "Bb5#", "a7a8q"}

type randomRun struct {
	t    *testing.T
	rng  *rand.Rand
	svc  *play.Service
	st   play.Storage
	now  time.Time
	step int

	games      []uint64         // every game ever started, in order
	challenges []uint64         // every challenge ever made
	seen       map[uint64][]int // revisions each game was seen at
	ended      []uint64         // games in the order they ended

	// What the run did, logged at its end.
	applied map[play.Event]int
	refused map[play.RefusalKind]int
}

func newRandomRun(t *testing.T, seed uint64) *randomRun {
	rng := rand.New(rand.NewPCG(seed, seed^0x1ce))
	st := memstore.New()
	svc := play.New(st, play.Options{
		ChallengeTTL: 36 * time.Hour,
		Rand:         func(n int) int { return rng.IntN(n) },
		OnEnd:        []func(play.Tx, *play.Game) error{countEnds},
	})
	return &randomRun{t: t, rng: rng, svc: svc, st: st, now: t0, seen: map[uint64][]int{},
		applied: map[play.Event]int{}, refused: map[play.RefusalKind]int{}}
}

// world is everything the storage holds, read at one instant.
type world struct {
	games      map[uint64]play.Game
	challenges map[uint64]play.Challenge
	records    string // players (hook records included) and statistics
}

func (r *randomRun) world() world {
	r.t.Helper()
	w := world{games: map[uint64]play.Game{}, challenges: map[uint64]play.Challenge{}}
	var b strings.Builder
	err := r.st.View(ctx, func(tx play.ReadTx) error {
		for _, id := range r.games {
			g, err := tx.Game(id)
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			w.games[id] = g
		}
		for _, id := range r.challenges {
			c, err := tx.Challenge(id)
			if errors.Is(err, play.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			w.challenges[id] = c
		}
		for _, scope := range []string{"", "g1", "g2", hookScope} {
			s, err := tx.Stats(scope)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "stats %q %s\n", scope, asJSON(s))
			var ps []string
			if err := tx.Players(scope, func(p play.Player) error { ps = append(ps, asJSON(p)); return nil }); err != nil {
				return err
			}
			slices.Sort(ps)
			b.WriteString(strings.Join(ps, "\n"))
		}
		return nil
	})
	if err != nil {
		r.t.Fatal(err)
	}
	w.records = b.String()
	return w
}

func (r *randomRun) fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("step %d: "+format, append([]any{r.step}, args...)...)
}

func (r *randomRun) pick(n int) int { return r.rng.IntN(n) }

func (r *randomRun) user() play.Seat { return randomUsers[r.pick(len(randomUsers))] }

// run takes steps random acts, and goes on (up to four times as many)
// until the run has played a move, been refused a stale act and seen a
// game end, so that no seed checks less than that.
func (r *randomRun) run(steps int) {
	triedEnough := func() bool { return r.applied[play.Moved] > 0 && r.refused[play.Stale] > 0 && len(r.ended) > 0 }
	for r.step = 1; r.step <= steps || !triedEnough() && r.step <= 4*steps; r.step++ {
		r.advanceClock()
		before := r.world()
		active := activeGames(before)
		switch n := r.pick(100); {
		case n < 4 || len(active) == 0:
			r.start(before)
		case n < 14:
			r.challengeAct(before)
		default:
			r.gameAct(before, active)
		}
		if r.step%25 == 0 {
			r.checkConsistent()
		}
	}
	r.checkConsistent()
	ends := map[game.Reason]int{}
	for _, id := range r.ended {
		ends[r.world().games[id].Outcome.Reason]++
	}
	r.t.Logf("%d games, %d ended %v; applied %v; refused %v", len(r.games), len(r.ended), ends, r.applied, r.refused)
	if !triedEnough() {
		r.t.Errorf("the run tried too little in %d steps: no move, no stale act or no end", r.step-1)
	}
}

func (r *randomRun) advanceClock() {
	switch n := r.pick(100); {
	case n < 85:
		r.now = r.now.Add(time.Duration(1+r.pick(60)) * time.Minute)
	case n < 98:
		r.now = r.now.Add(time.Duration(1+r.pick(12)) * time.Hour)
	default: // past most deadlines
		r.now = r.now.Add(time.Duration(2+r.pick(6)) * 24 * time.Hour)
	}
}

func activeGames(w world) []play.Game {
	var out []play.Game
	for _, g := range w.games {
		if !g.Over() {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b play.Game) int { return int(a.ID) - int(b.ID) })
	return out
}

// start starts a game directly, in any channel (busy ones too).
func (r *randomRun) start(before world) {
	ch := randomChannels[r.pick(len(randomChannels))]
	n := play.NewGame{Guild: ch.guild, Channel: ch.channel, White: r.user(), Black: r.user(),
		StartFEN: randomStarts[r.pick(len(randomStarts))], Rated: r.pick(3) == 0,
		DaysPerMove: []int{0, 1, 2, 3, 4}[r.pick(5)], At: r.now}
	res, err := r.svc.Start(ctx, n)
	r.checkNewGame(before, res, err, fmt.Sprintf("start %+v", n))
}

// checkNewGame checks a Start or an Accept.
func (r *randomRun) checkNewGame(before world, res play.Result, err error, what string) {
	r.t.Helper()
	after := r.world()
	if err != nil {
		r.checkRefused(before, after, err, what)
		return
	}
	g := res.Game
	if _, known := before.games[g.ID]; known || g.Revision != 1 || res.Event != play.Started || g.White.ID == g.Black.ID {
		r.fatalf("%s: game %+v", what, g)
	}
	for _, o := range activeGames(before) {
		if o.Channel == g.Channel {
			r.fatalf("%s: game %d started in %s, where game %d goes on", what, g.ID, g.Channel, o.ID)
		}
	}
	r.games = append(r.games, g.ID)
	r.applied[play.Started]++
	after = r.world()
	if !reflect.DeepEqual(after.games[g.ID], g) {
		r.fatalf("%s: stored %+v, returned %+v", what, after.games[g.ID], g)
	}
	delete(after.games, g.ID)
	if !reflect.DeepEqual(after.games, before.games) || after.records != before.records {
		r.fatalf("%s: starting game %d changed other records", what, g.ID)
	}
	r.seen[g.ID] = append(r.seen[g.ID], g.Revision)
}

// checkRefused checks that err is a refusal and nothing changed.
func (r *randomRun) checkRefused(before, after world, err error, what string) {
	r.t.Helper()
	var x *play.Refusal
	if !errors.As(err, &x) {
		r.fatalf("%s: %v (%T), want a *play.Refusal", what, err, err)
	}
	r.refused[x.Kind]++
	if !reflect.DeepEqual(before, after) {
		r.fatalf("%s: refused (%v) but the storage changed", what, err)
	}
}

// challengeAct makes, answers or expires a challenge.
func (r *randomRun) challengeAct(before world) {
	id := uint64(1 + r.pick(len(r.games)+len(r.challenges)+2))
	if len(r.challenges) > 0 && r.pick(3) > 0 {
		id = r.challenges[r.pick(len(r.challenges))]
	}
	var err error
	var what string
	switch r.pick(5) {
	case 0:
		ch := randomChannels[r.pick(len(randomChannels))]
		to := r.user()
		if r.pick(3) == 0 {
			to = play.Seat{}
		}
		n := play.NewChallenge{Guild: ch.guild, Channel: ch.channel, From: r.user(), To: to,
			Color: []play.Color{play.Random, play.WhiteSide, play.BlackSide, "", "purple"}[r.pick(5)],
			Rated: r.pick(2) == 0, DaysPerMove: []int{0, 1, 3, 6}[r.pick(4)], At: r.now,
			StartFEN: randomStarts[r.pick(len(randomStarts))]}
		var c play.Challenge
		c, err = r.svc.Challenge(ctx, n)
		what = fmt.Sprintf("challenge %+v", n)
		if err == nil {
			r.challenges = append(r.challenges, c.ID)
			after := r.world()
			if !reflect.DeepEqual(after.challenges[c.ID], c) {
				r.fatalf("%s: stored %+v, returned %+v", what, after.challenges[c.ID], c)
			}
			delete(after.challenges, c.ID)
			if !reflect.DeepEqual(after, before) {
				r.fatalf("%s: made challenge %d and changed other records", what, c.ID)
			}
			return
		}
	case 1:
		by := r.user()
		channel := ""
		if r.pick(2) == 0 {
			channel = randomChannels[r.pick(len(randomChannels))].channel
		}
		c, pending := before.challenges[id]
		res, err := r.svc.Accept(ctx, id, by, channel, r.now)
		what = fmt.Sprintf("%s accepts challenge %d in %q", by.ID, id, channel)
		if err == nil {
			if !pending || by.ID == c.From.ID || !c.Open() && by.ID != c.To.ID || !r.now.Before(c.Expires) {
				r.fatalf("%s: applied to %+v", what, c)
			}
			if ids := []string{res.Game.White.ID, res.Game.Black.ID}; !slices.Contains(ids, by.ID) || !slices.Contains(ids, c.From.ID) {
				r.fatalf("%s: the game is %v", what, ids)
			}
			if _, still := r.world().challenges[id]; still {
				r.fatalf("%s: the challenge is still there", what)
			}
			delete(before.challenges, id)
		}
		r.checkNewGame(before, res, err, what)
		return
	case 2:
		by := r.user()
		var c play.Challenge
		c, err = r.svc.Decline(ctx, id, by.ID, r.now)
		what = fmt.Sprintf("%s declines challenge %d", by.ID, id)
		if err == nil && (c.Open() || by.ID != c.To.ID) {
			r.fatalf("%s: applied to %+v", what, c)
		}
	case 3:
		by := r.user()
		var c play.Challenge
		c, err = r.svc.Cancel(ctx, id, by.ID, r.now)
		what = fmt.Sprintf("%s withdraws challenge %d", by.ID, id)
		if err == nil && by.ID != c.From.ID {
			r.fatalf("%s: applied to %+v", what, c)
		}
	case 4:
		var gone []play.Challenge
		gone, err = r.svc.Expire(ctx, r.now, 1+r.pick(3))
		for _, c := range gone {
			if c.Expires.After(r.now) {
				r.fatalf("expired %+v before its time", c)
			}
			delete(before.challenges, c.ID)
		}
		if after := r.world(); err == nil && !reflect.DeepEqual(after, before) {
			r.fatalf("expire changed more than the expired challenges")
		}
		return
	}
	after := r.world()
	if err != nil {
		r.checkRefused(before, after, err, what)
		return
	}
	delete(before.challenges, id)
	if !reflect.DeepEqual(after, before) {
		r.fatalf("%s: changed more than the challenge", what)
	}
}

// gameAct tries an act on a game: mostly one going on, sometimes one that
// has ended or an id that names no game; by a player or a stranger; at the
// current revision or a stale one.
func (r *randomRun) gameAct(before world, active []play.Game) {
	var g play.Game
	switch n := r.pick(100); {
	case n < 80:
		g = active[r.pick(len(active))]
	case n < 95:
		g = before.games[r.games[r.pick(len(r.games))]]
	default:
		g = play.Game{ID: uint64(1000 + r.pick(10)), Revision: 1}
		if len(r.challenges) > 0 {
			g.ID = r.challenges[r.pick(len(r.challenges))]
		}
	}
	by := r.user()
	switch n := r.pick(100); {
	case n < 50 && g.White.ID != "":
		by = g.ToMove()
	case n < 80 && g.White.ID != "":
		by = g.Seat(g.Turn().Other())
	}
	rev := g.Revision
	switch n := r.pick(100); {
	case n < 60:
	case n < 75:
		if seen := r.seen[g.ID]; len(seen) > 0 {
			rev = seen[r.pick(len(seen))]
		}
	case n < 85:
		rev--
	case n < 92:
		rev++
	default:
		rev = 1 + r.pick(8)
	}
	a := play.Act{By: by.ID, Game: g.ID, Revision: rev, At: r.now}
	var res play.Result
	var err error
	what := ""
	timeout := false
	switch n := r.pick(100); {
	case n < 60:
		text := r.moveText(g)
		what = fmt.Sprintf("move %q", text)
		res, err = r.svc.Move(ctx, a, text)
	case n < 65:
		what = "offer a draw"
		res, err = r.svc.OfferDraw(ctx, a)
	case n < 69:
		what = "accept a draw"
		res, err = r.svc.AcceptDraw(ctx, a)
	case n < 72:
		what = "decline a draw"
		res, err = r.svc.DeclineDraw(ctx, a)
	case n < 74:
		what = "withdraw a draw offer"
		res, err = r.svc.WithdrawDraw(ctx, a)
	case n < 79:
		what = "ask for a takeback"
		res, err = r.svc.RequestTakeback(ctx, a)
	case n < 84:
		what = "grant a takeback"
		res, err = r.svc.AcceptTakeback(ctx, a)
	case n < 86:
		what = "refuse a takeback"
		res, err = r.svc.DeclineTakeback(ctx, a)
	case n < 88:
		what = "withdraw a takeback request"
		res, err = r.svc.WithdrawTakeback(ctx, a)
	case n < 90:
		what = "abort"
		res, err = r.svc.Abort(ctx, a)
	case n < 92:
		what = "resign"
		res, err = r.svc.Resign(ctx, a)
	default:
		what, timeout = "time out", true
		res, err = r.svc.TimeOut(ctx, g.ID, r.now)
	}
	what = fmt.Sprintf("%s: %s in game %d at revision %d (the game's: %d)", by.ID, what, a.Game, a.Revision, g.Revision)
	after := r.world()
	if err != nil {
		r.checkRefused(before, after, err, what)
		return
	}
	old, known := before.games[a.Game]
	got := res.Game
	switch {
	case !known:
		r.fatalf("%s: applied to a game that is not there", what)
	case old.Over():
		r.fatalf("%s: applied to a game that was over: %+v", what, old.Outcome)
	case !timeout && a.Revision != old.Revision:
		r.fatalf("%s: a stale act was applied", what)
	case !timeout && !slices.Contains(old.Players(), by.ID):
		r.fatalf("%s: applied for a user who does not play", what)
	case timeout && (old.Deadline.IsZero() || old.Deadline.After(r.now) || got.Outcome.Reason != game.Timeout):
		r.fatalf("%s: a timeout not due was applied: deadline %v, now %v", what, old.Deadline, r.now)
	case got.ID != old.ID || got.Revision != old.Revision+1:
		r.fatalf("%s: game %d at revision %d after %d", what, got.ID, got.Revision, old.Revision)
	case !reflect.DeepEqual(after.games[got.ID], got):
		r.fatalf("%s: stored %+v, returned %+v", what, after.games[got.ID], got)
	}
	if got.Over() {
		r.ended = append(r.ended, got.ID)
	} else if after.records != before.records {
		r.fatalf("%s: the records changed though the game did not end", what)
	}
	delete(after.games, got.ID)
	delete(before.games, got.ID)
	if !reflect.DeepEqual(after.games, before.games) || !reflect.DeepEqual(after.challenges, before.challenges) {
		r.fatalf("%s: an act on game %d changed another game or a challenge", what, got.ID)
	}
	r.seen[got.ID] = append(r.seen[got.ID], got.Revision)
	r.applied[res.Event]++
}

// moveText is what a user types: mostly a legal move of the game's
// position, in SAN or UCI, sometimes anything.
func (r *randomRun) moveText(g play.Game) string {
	if g.FEN == "" || r.pick(4) == 0 {
		return randomJunk[r.pick(len(randomJunk))]
	}
	p, err := g.Position()
	if err != nil {
		r.fatalf("game %d: %v", g.ID, err)
	}
	sans := p.SANs()
	if len(sans) == 0 {
		return randomJunk[r.pick(len(randomJunk))]
	}
	m := sans[r.pick(len(sans))]
	if r.pick(2) == 0 {
		return m.Move.UCI()
	}
	return m.SAN
}

// checkConsistent checks every game and the records against a recount.
func (r *randomRun) checkConsistent() {
	r.t.Helper()
	w := r.world()
	channels := map[string]uint64{}
	for _, id := range r.games {
		g := w.games[id]
		if err := replays(&g); err != nil {
			r.fatalf("%v", err)
		}
		for i := 1; i < len(g.Moves); i++ {
			if g.Moves[i].At.Before(g.Moves[i-1].At) {
				r.fatalf("game %d: move %d was played before move %d", id, i+1, i)
			}
		}
		if g.Over() {
			continue
		}
		if other, busy := channels[g.Channel]; busy {
			r.fatalf("games %d and %d both go on in %s", other, id, g.Channel)
		}
		channels[g.Channel] = id
	}
	err := r.st.View(ctx, func(tx play.ReadTx) error {
		for _, ch := range randomChannels {
			g, err := tx.GameIn(ch.channel)
			switch id, busy := channels[ch.channel]; {
			case busy && (err != nil || g.ID != id):
				return fmt.Errorf("GameIn(%s) = %d, %v; want game %d", ch.channel, g.ID, err, id)
			case !busy && !errors.Is(err, play.ErrNotFound):
				return fmt.Errorf("GameIn(%s) = %d, %v; want none", ch.channel, g.ID, err)
			}
		}
		fin, err := tx.Finished("", "", 0, len(r.games)+1)
		if err != nil {
			return err
		}
		var finished []uint64
		for _, g := range fin {
			finished = append(finished, g.ID)
		}
		var want []uint64
		for _, id := range slices.Backward(r.games) {
			if w.games[id].Outcome.Over() {
				want = append(want, id)
			}
		}
		if !slices.Equal(finished, want) {
			return fmt.Errorf("Finished lists %v, want %v", finished, want)
		}
		if got := slices.Sorted(slices.Values(r.ended)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
			return fmt.Errorf("games ended %v, finished %v", got, want)
		}
		return r.recount(tx, w)
	})
	if err != nil {
		r.fatalf("%v", err)
	}
}

// recount counts the finished games again, in the order they ended, and
// compares with the stored statistics, players and OnEnd hook records.
func (r *randomRun) recount(tx play.ReadTx, w world) error {
	stats := map[string]*play.Stats{}
	players := map[[2]string]*play.Player{}
	logs := map[[2]string][]uint64{} // the games of each player's log
	for _, id := range r.ended {
		g := w.games[id]
		m, err := g.Match()
		if err != nil {
			return err
		}
		ices := countNonNil(m.IceAges())
		scopes := []string{""}
		if g.Guild != "" {
			scopes = append(scopes, g.Guild)
		}
		for _, scope := range scopes {
			s := stats[scope]
			if s == nil {
				s = &play.Stats{Scope: scope, ByReason: map[game.Reason]int{}}
				stats[scope] = s
			}
			if g.Outcome.Reason == game.Aborted {
				s.Aborted++
				continue
			}
			s.ByReason[g.Outcome.Reason]++
			s.IceAges += ices
			w, decisive := g.Outcome.Winner()
			switch {
			case !decisive:
				s.Draws++
			case w == game.White:
				s.WhiteWins++
			default:
				s.BlackWins++
			}
			for _, c := range []game.Color{game.White, game.Black} {
				seat := g.Seat(c)
				k := [2]string{scope, seat.ID}
				p := players[k]
				if p == nil {
					np := play.NewPlayer(scope, seat.ID)
					p = &np
					players[k] = p
				}
				if seat.Name != "" {
					p.Name = seat.Name
				}
				tally := &p.AsWhite
				if c == game.Black {
					tally = &p.AsBlack
				}
				switch {
				case !decisive:
					tally.Drawn++
					p.Streak = 0
				case w == c:
					tally.Won++
					p.Streak = max(p.Streak, 0) + 1
					p.BestStreak = max(p.BestStreak, p.Streak)
				default:
					tally.Lost++
					p.Streak = min(p.Streak, 0) - 1
					if g.Outcome.Reason == game.KingFrozen {
						p.FrozenLosses++
					}
				}
				p.LastGame = g.Ended
				logs[k] = append(logs[k], g.ID)
			}
			if g.Rated && g.White.ID != g.Black.ID {
				pw, pb := players[[2]string{scope, g.White.ID}], players[[2]string{scope, g.Black.ID}]
				score := 0.5
				if decisive {
					score = 0
					if w == game.White {
						score = 1
					}
				}
				glicko := func(r play.Rating) rating.Rating {
					return rating.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility}
				}
				nw, nb := rating.Game(glicko(pw.Rating.At(g.Ended)), glicko(pb.Rating.At(g.Ended)), score)
				for _, x := range []struct {
					p *play.Player
					r rating.Rating
					c game.Color
				}{{pw, nw, game.White}, {pb, nb, game.Black}} {
					updated := x.p.Rating.Updated
					if g.Ended.After(updated) {
						updated = g.Ended
					}
					x.p.Rating = play.Rating{Rating: x.r.Rating, Deviation: x.r.Deviation, Volatility: x.r.Volatility, Updated: updated}
					x.p.RatedGames++
					switch {
					case !decisive:
						x.p.RatedTally.Drawn++
					case w == x.c:
						x.p.RatedTally.Won++
					default:
						x.p.RatedTally.Lost++
					}
				}
			}
		}
	}
	for _, scope := range []string{"", "g1", "g2"} {
		got, err := tx.Stats(scope)
		if err != nil {
			return err
		}
		want := play.Stats{V: got.V, Scope: got.Scope}
		if s := stats[scope]; s != nil {
			want = *s
			want.V = got.V
			if len(want.ByReason) == 0 {
				want.ByReason = got.ByReason
			}
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("stats of %q: %+v, recount %+v", scope, got, want)
		}
		n := 0
		err = tx.Players(scope, func(p play.Player) error {
			n++
			want := players[[2]string{scope, p.User}]
			if want == nil {
				return fmt.Errorf("a record of %s in %q, who finished no game there", p.User, scope)
			}
			want.V = p.V
			if !reflect.DeepEqual(p, *want) {
				return fmt.Errorf("%s in %q: %+v, recount %+v", p.User, scope, p, *want)
			}
			var log []uint64
			if err := tx.PlayerLog(scope, p.User, func(e play.LogEntry) error { log = append(log, e.Game); return nil }); err != nil {
				return err
			}
			if wantLog := slices.Sorted(slices.Values(logs[[2]string{scope, p.User}])); !slices.Equal(log, wantLog) {
				return fmt.Errorf("the log of %s in %q holds games %v, recount %v", p.User, scope, log, wantLog)
			}
			return nil
		})
		if err != nil {
			return err
		}
		records := 0
		for k := range players {
			if k[0] == scope {
				records++
			}
		}
		if n != records {
			return fmt.Errorf("%d player records in %q, recount %d", n, scope, records)
		}
	}
	for _, id := range r.games {
		want := 0
		if w.games[id].Outcome.Over() {
			want = 1
		}
		p, err := tx.Player(hookScope, fmt.Sprint(id))
		if errors.Is(err, play.ErrNotFound) {
			err, p.RatedGames = nil, 0
		}
		if err != nil || p.RatedGames != want {
			return fmt.Errorf("the OnEnd hook counted game %d %d times, want %d (%v)", id, p.RatedGames, want, err)
		}
	}
	return nil
}
