package round_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// engineClock is a test's clock that stands still but while the engine
// thinks, when it runs speed times faster than the wall clock; a
// person's thought is added by hand.
type engineClock struct {
	mu      sync.Mutex
	now     time.Time
	running time.Time // when the engine began, zero while it stands
	speed   int
}

func (c *engineClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running.IsZero() {
		return c.now
	}
	return c.now.Add(time.Since(c.running) * time.Duration(c.speed))
}

// run makes the clock run while fn does.
func (c *engineClock) run(fn func()) {
	c.mu.Lock()
	c.running = time.Now()
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.now = c.now.Add(time.Since(c.running) * time.Duration(c.speed))
		c.running = time.Time{}
		c.mu.Unlock()
	}()
	fn()
}

func (c *engineClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestUnderClockTheEngineTakesAShareOfItsTime(t *testing.T) {
	o := round.EngineOptions{}
	for _, tt := range []struct {
		level     int
		left, inc time.Duration
		want      time.Duration
	}{
		{8, time.Minute, 0, 2 * time.Second},                           // a share of a minute, the level's own budget alike
		{8, 30 * time.Second, 0, time.Second},                          // half the time, half the share
		{8, 10 * time.Minute, 5 * time.Second, engine.DefaultMoveTime}, // never more than the level allows
		{8, 2 * time.Second, 0, 2 * time.Second / 30},
		{8, 100 * time.Millisecond, 10 * time.Second, 25 * time.Millisecond}, // never more than a quarter of what is left
		{1, time.Minute, 0, 2 * time.Second},                                 // a node budget, and the share besides
	} {
		lim := o.UnderClock(o.Limits(tt.level, 1, 1), tt.left, tt.inc)
		if lim.Time != tt.want {
			t.Errorf("level %d with %v + %v: %v, want %v", tt.level, tt.left, tt.inc, lim.Time, tt.want)
		}
		if tt.level == 1 && lim.Nodes != engine.Level(1).Nodes {
			t.Errorf("level 1 under a clock lost its node budget: %+v", lim)
		}
	}
}

// A 1+0 game against the engine at every level, played to its end: the
// engine never loses on time. While the engine thinks the clock runs
// speed times fast, and its budgets are cut as many times, so that the
// games take seconds; the person moves at once, at random, charged a
// fifth of a second a move. The race detector slows the engine tenfold,
// and its clock would measure the detector: the test does not run under
// it.
func TestTheEngineNeverLosesOnTimeAtOnePlusZero(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector slows the engine tenfold")
	}
	const speed = 20
	for level := 1; level <= engine.Levels; level++ {
		t.Run(fmt.Sprintf("level %d", level), func(t *testing.T) {
			clk := &engineClock{now: t0, speed: speed}
			st := memstore.New()
			r, err := round.New(play.New(st, play.Options{}), round.Options{Now: clk.Now,
				Engine: round.EngineOptions{MoveTime: engine.DefaultMoveTime / time.Duration(speed)}})
			if err != nil {
				t.Fatal(err)
			}
			levels := [2]int{0, level}
			if level%2 == 0 {
				levels = [2]int{level, 0}
			}
			person, bot := ann, eng
			white, black := person, bot
			if levels[0] > 0 {
				white, black = bot, person
			}
			out, err := r.Start(ctx, play.NewGame{Channel: "c1", White: white, Black: black, Engine: levels,
				Time: play.TimeControl{Limit: time.Minute}, At: clk.Now()})
			if err != nil {
				t.Fatal(err)
			}
			g := out.Game
			rnd := rand.New(rand.NewPCG(uint64(level), 7))
			for ply := 0; !g.Over() && ply < 400; ply++ {
				if g.EngineToMove() > 0 {
					var eo round.Outcome
					var ok bool
					var err error
					clk.run(func() { eo, ok, err = r.Engine(ctx, g.ID) })
					if err != nil || !ok {
						t.Fatalf("the engine's move %d: %v, %v", ply, ok, err)
					}
					g = eo.Game
					continue
				}
				clk.advance(200 * time.Millisecond)
				pos, err := g.Position()
				if err != nil {
					t.Fatal(err)
				}
				moves := pos.LegalMoves(nil)
				mv := moves[rnd.IntN(len(moves))]
				o, err := r.Do(ctx, round.Act{Act: play.Act{By: person.ID, Game: g.ID, Revision: g.Revision, At: clk.Now()}, Kind: round.Move, Text: mv.UCI()})
				var x *play.Refusal
				if errors.As(err, &x) && x.Kind == play.TimeUp {
					// The person's flag fell: the round ended the game.
					if g, err = r.Service().Game(ctx, g.ID); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("the person's move %d: %v", ply, err)
				}
				g = o.Game
			}
			if !g.Over() {
				// The fifty-move rule ends any game in time; a game this
				// long would be a game that never ends.
				t.Fatalf("after %d plies the game goes on", g.Ply())
			}
			engineSide := game.White
			if levels[1] > 0 {
				engineSide = game.Black
			}
			if w, decisive := g.Outcome.Winner(); g.Outcome.Reason == game.Timeout && (!decisive || w != engineSide) {
				t.Fatalf("the engine lost on time: %+v after %d plies, clocks %+v", g.Outcome, g.Ply(), g.Clock.Left)
			}
			t.Logf("%v after %d plies; the engine had %v left", g.Outcome, g.Ply(), g.Clock.Left[engineSide])
		})
	}
}
