package play_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/rating"
)

// TestRatedGamesMoveRatings plays one rated game between two new players
// for each way a result comes about and checks both players' ratings,
// globally and in the guild, against package rating (tested against
// Glickman's paper), the change recorded on the game, the rated tallies
// and the logs.
func TestRatedGamesMoveRatings(t *testing.T) {
	tests := []struct {
		name  string
		m     match
		score float64 // White's
		// Two new players (1500, deviation 350, volatility 0.06): the
		// winner goes up by about 162, the loser down as much; a draw
		// moves neither.
		white, black float64
	}{
		{"a win", match{moves: []string{"hxg3", "Nxf6"}, end: blackResigns}, 1, 1662.3, 1337.7},
		{"a loss", match{moves: []string{"hxg3"}, end: whiteResigns}, 0, 1337.7, 1662.3},
		{"a draw", match{moves: []string{"hxg3", "Nxf6"}, end: drawAgreed}, 0.5, 1500, 1500},
		{"a timeout", match{moves: []string{"hxg3", "Nxf6", "gxh4"}, end: timeout}, 1, 1662.3, 1337.7},
		{"a frozen king", match{start: "k7/pp6/8/8/8/8/8/7K b - - 0 20", moves: []string{"b6"}}, 0, 1337.7, 1662.3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLeague(t, nil)
			tc.m.guild, tc.m.white, tc.m.black, tc.m.rated = "g1", "ann", "bob", true
			g := l.play(tc.m)
			wantW, wantB := rating.Game(rating.New(), rating.New(), tc.score)
			if math.Abs(wantW.Rating-tc.white) > 0.05 || math.Abs(wantB.Rating-tc.black) > 0.05 {
				t.Fatalf("rating.Game gives %.2f and %.2f, the test expects %.1f and %.1f", wantW.Rating, wantB.Rating, tc.white, tc.black)
			}
			if len(g.Ratings) != 2 {
				t.Fatalf("the game records %d rating changes, want 2 (global and guild): %+v", len(g.Ratings), g.Ratings)
			}
			for _, scope := range []string{"", "g1"} {
				c, ok := g.RatingsIn(scope)
				if !ok || c.Before != [2]float64{1500, 1500} || c.Deviation != [2]float64{350, 350} ||
					c.After != [2]float64{wantW.Rating, wantB.Rating} {
					t.Errorf("change in %q: %+v, want from 1500/350 each to %.2f and %.2f", scope, c, wantW.Rating, wantB.Rating)
				}
				for i, want := range []struct {
					user string
					r    rating.Rating
					c    game.Color
				}{{"ann", wantW, game.White}, {"bob", wantB, game.Black}} {
					p := l.player(scope, want.user)
					got := p.Rating
					if got.Rating != want.r.Rating || got.Deviation != want.r.Deviation || got.Volatility != want.r.Volatility || !got.Updated.Equal(g.Ended) {
						t.Errorf("%s in %q: %+v, want %+v at %v", want.user, scope, got, want.r, g.Ended)
					}
					var tally play.Tally
					switch {
					case tc.score == 0.5:
						tally.Drawn = 1
					case (tc.score == 1) == (i == 0):
						tally.Won = 1
					default:
						tally.Lost = 1
					}
					if p.RatedGames != 1 || p.RatedTally != tally || p.Total() != tally {
						t.Errorf("%s in %q: %d rated games, rated %+v, all %+v; want 1, %+v", want.user, scope, p.RatedGames, p.RatedTally, p.Total(), tally)
					}
					log := l.log(scope, want.user)
					if len(log) != 1 || log[0].Game != g.ID || !log[0].Rated || log[0].Rating != want.r.Rating ||
						log[0].Deviation != want.r.Deviation || log[0].Color != want.c || log[0].Outcome != g.Outcome || !log[0].Ended.Equal(g.Ended) {
						t.Errorf("log of %s in %q: %+v", want.user, scope, log)
					}
				}
			}
		})
	}
}

func TestCasualAndAbortedGamesChangeNoRating(t *testing.T) {
	l := newLeague(t, nil)
	casual := l.play(match{guild: "g1", white: "ann", black: "bob", moves: []string{"hxg3", "Nxf6"}, end: blackResigns})
	abort := l.play(match{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"hxg3"}, end: aborted})
	if len(casual.Ratings) != 0 || len(abort.Ratings) != 0 {
		t.Fatalf("rating changes recorded: casual %+v, aborted %+v", casual.Ratings, abort.Ratings)
	}
	for _, scope := range []string{"", "g1"} {
		p := l.player(scope, "ann")
		if p.Rating != play.NewPlayer(scope, "ann").Rating || p.RatedGames != 0 || p.Total() != (play.Tally{Won: 1}) {
			t.Errorf("ann in %q after a casual win and an abort: %+v", scope, p)
		}
		log := l.log(scope, "ann")
		if len(log) != 1 || log[0].Game != casual.ID || log[0].Rated || log[0].Rating != 0 {
			t.Errorf("ann's log in %q: %+v, want only the casual game, unrated", scope, log)
		}
	}
}

func TestAGameOutsideAGuildIsRatedGloballyOnly(t *testing.T) {
	l := newLeague(t, nil)
	g := l.play(match{white: "ann", black: "bob", rated: true, moves: []string{"hxg3"}, end: whiteResigns})
	if len(g.Ratings) != 1 || g.Ratings[0].Scope != "" {
		t.Fatalf("changes %+v, want the global one only", g.Ratings)
	}
	if p := l.player("", "bob"); p.RatedGames != 1 {
		t.Errorf("bob's global record: %+v", p)
	}
}

// TestARatingIsChangedOnceWhateverTheStorageDoes ends a rated game on
// storages that fail the way real ones do: one that runs each transaction
// twice (the first run rolled back), one that crashes before the commit
// (the end is lost and processed again when the scheduler retries), and
// one that crashes after the commit (the caller never hears that the end
// was stored and tries again). Each time the game is rated exactly once.
func TestARatingIsChangedOnceWhateverTheStorageDoes(t *testing.T) {
	want := func() (w, b rating.Rating) { return rating.Game(rating.New(), rating.New(), 0) }
	check := func(t *testing.T, l *league, id uint64) {
		t.Helper()
		w, b := want()
		for _, scope := range []string{"", "g1"} {
			ann, bob := l.player(scope, "ann"), l.player(scope, "bob")
			if ann.RatedGames != 1 || bob.RatedGames != 1 || ann.Rating.Rating != w.Rating || bob.Rating.Rating != b.Rating {
				t.Errorf("in %q: ann %+v (%d games), bob %+v (%d games); want %.2f and %.2f after one game",
					scope, ann.Rating, ann.RatedGames, bob.Rating, bob.RatedGames, w.Rating, b.Rating)
			}
			if log := l.log(scope, "ann"); len(log) != 1 || log[0].Game != id {
				t.Errorf("ann's log in %q: %+v", scope, log)
			}
		}
		var st play.Stats
		_ = l.st.View(context.Background(), func(tx play.ReadTx) (err error) { st, err = tx.Stats("g1"); return err })
		if st.Games() != 1 {
			t.Errorf("the guild's statistics count %d games, want 1", st.Games())
		}
	}
	// A game that White loses on time: the scheduler's TimeOut ends it.
	setUp := func(t *testing.T, st play.Storage) (*league, play.Game) {
		l := newLeague(t, st)
		r, err := l.svc.Start(context.Background(), play.NewGame{Guild: "g1", Channel: "c1", White: seat("ann"), Black: seat("bob"),
			Rated: true, DaysPerMove: 1, At: l.tick()})
		if err != nil {
			t.Fatal(err)
		}
		return l, r.Game
	}

	t.Run("a storage that runs the end twice", func(t *testing.T) {
		l, g := setUp(t, twice{memstore.New()})
		r, err := l.svc.TimeOut(context.Background(), g.ID, g.Deadline)
		if err != nil {
			t.Fatal(err)
		}
		check(t, l, r.Game.ID)
	})

	t.Run("a crash before the end is committed, then the scheduler's retry", func(t *testing.T) {
		st := &crashing{Storage: memstore.New()}
		l, g := setUp(t, st)
		st.beforeCommit = true
		if _, err := l.svc.TimeOut(context.Background(), g.ID, g.Deadline); !errors.Is(err, errCrash) {
			t.Fatalf("TimeOut across the crash: %v", err)
		}
		_ = st.View(context.Background(), func(tx play.ReadTx) error {
			if p, err := tx.Player("g1", "ann"); !errors.Is(err, play.ErrNotFound) {
				t.Fatalf("a rollback left a record: %+v, %v", p, err)
			}
			return nil
		})
		if _, err := l.svc.TimeOut(context.Background(), g.ID, g.Deadline.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		check(t, l, g.ID)
	})

	t.Run("a crash after the end is committed, then the scheduler's retry", func(t *testing.T) {
		st := &crashing{Storage: memstore.New()}
		l, g := setUp(t, st)
		st.afterCommit = true
		if _, err := l.svc.TimeOut(context.Background(), g.ID, g.Deadline); !errors.Is(err, errCrash) {
			t.Fatalf("TimeOut across the crash: %v", err)
		}
		_, err := l.svc.TimeOut(context.Background(), g.ID, g.Deadline.Add(time.Minute))
		var x *play.Refusal
		if !errors.As(err, &x) || x.Kind != play.GameOver {
			t.Fatalf("the retried timeout: %v, want it refused as the game is over", err)
		}
		check(t, l, g.ID)
	})
}

// TestInactivityGrowsTheDeviation: a game after 200 days away is rated
// from a deviation grown by rating.Decay over those days, and the game
// records that grown deviation.
func TestInactivityGrowsTheDeviation(t *testing.T) {
	l := newLeague(t, nil)
	// ann has an established rating from a game long ago.
	before := play.Rating{Rating: 1830, Deviation: 62, Volatility: 0.059, Updated: l.now}
	for _, scope := range []string{"", "g1"} {
		p := play.NewPlayer(scope, "ann")
		p.Rating, p.RatedGames = before, 40
		if err := l.st.Update(context.Background(), func(tx play.Tx) error { return tx.PutPlayer(p) }); err != nil {
			t.Fatal(err)
		}
	}
	l.wait(200 * 24 * time.Hour)
	g := l.play(match{guild: "g1", white: "ann", black: "cat", rated: true, moves: []string{"hxg3"}, end: whiteResigns})
	c, _ := g.RatingsIn("g1")
	idle := g.Ended.Sub(before.Updated)
	want := rating.Decay(rating.Rating{Rating: before.Rating, Deviation: before.Deviation, Volatility: before.Volatility}, rating.Periods(idle))
	if c.Deviation[game.White] != want.Deviation || c.Before[game.White] != before.Rating {
		t.Errorf("rated from %.2f ± %.2f, want %.2f ± %.2f (%.2f grown over %v)", c.Before[game.White], c.Deviation[game.White],
			before.Rating, want.Deviation, before.Deviation, idle)
	}
	if !(want.Deviation > before.Deviation+10) {
		t.Errorf("200 days grew the deviation only from %.2f to %.2f", before.Deviation, want.Deviation)
	}
	if got := before.At(g.Ended); got.Deviation != want.Deviation || got.Rating != before.Rating {
		t.Errorf("Rating.At: %+v, want the deviation %.2f", got, want.Deviation)
	}
	// cat's first game starts from the new player's values.
	if c.Before[game.Black] != play.DefaultRating || c.Deviation[game.Black] != play.DefaultDeviation {
		t.Errorf("a new player rated from %.2f ± %.2f", c.Before[game.Black], c.Deviation[game.Black])
	}
}
