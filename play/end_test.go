package play_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// hookScope is where the test's OnEnd hook counts the ends it sees: one
// player record per game, keyed by its id, written in the transaction that
// ends the game, as a rating update would be.
const hookScope = "ended-games"

func countEnds(tx play.Tx, g *play.Game) error {
	if !g.Over() || g.Ended.IsZero() {
		return fmt.Errorf("the OnEnd hook ran on a game not ended: %+v", g)
	}
	id := fmt.Sprint(g.ID)
	p, err := tx.Player(hookScope, id)
	if errors.Is(err, play.ErrNotFound) {
		p = play.NewPlayer(hookScope, id)
	} else if err != nil {
		return err
	}
	p.RatedGames++
	return tx.PutPlayer(p)
}

// hookCount returns how many times the OnEnd hook counted game id.
func hookCount(t testing.TB, st play.Storage, id uint64) int {
	t.Helper()
	n := 0
	err := st.View(ctx, func(tx play.ReadTx) error {
		p, err := tx.Player(hookScope, fmt.Sprint(id))
		if errors.Is(err, play.ErrNotFound) {
			return nil
		}
		n = p.RatedGames
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// retrying is a Storage that runs every update twice, as a storage that
// batches transactions may: the first run is rolled back, the second
// kept. Whatever play decides must come out the same.
type retrying struct{ play.Storage }

var errRollBack = errors.New("rolled back to be run again")

func (s retrying) Update(ctx context.Context, fn func(play.Tx) error) error {
	err := s.Storage.Update(ctx, func(tx play.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errRollBack
	})
	if !errors.Is(err, errRollBack) {
		return err
	}
	return s.Storage.Update(ctx, fn)
}

// endCase is a game driven through play to one of its ends.
type endCase struct {
	name    string
	start   string   // FEN, "" for the ice start
	days    int      // days per move
	moves   []string // played in turn, from the start
	end     func(t testing.TB, svc *play.Service, g play.Game) play.Result
	want    game.Outcome
	iceAges int
}

var endCases = []endCase{
	{name: "checkmate", start: "6k1/5ppp/1*******/8/8/8/8/R5K1 w - - 0 1", moves: []string{"Ra8"},
		want: game.WinFor(game.White, game.Checkmate)},
	{name: "stalemate", start: "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", moves: []string{"Qg6"},
		want: game.Outcome{Result: game.Draw, Reason: game.Stalemate}},
	{name: "one king frozen", start: "k7/pp6/8/8/8/8/8/7K b - - 0 20", moves: []string{"b6"},
		want: game.WinFor(game.Black, game.KingFrozen), iceAges: 1},
	{name: "both kings frozen", start: "7k/8/8/8/8/8/8/K7 b - - 0 20", moves: []string{"Kg8"},
		want: game.Outcome{Result: game.Draw, Reason: game.BothKingsFrozen}, iceAges: 1},
	{name: "the fifty-move rule", start: "k7/8/8/8/8/8/8/K6R w - - 95 10", moves: []string{"Rh2", "Kb8", "Rh3", "Ka8", "Rh4"},
		want: game.Outcome{Result: game.Draw, Reason: game.FiftyMoveRule}},
	{name: "resignation after an Ice Age", start: "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20",
		days: 7, moves: []string{"Rh8", "Nd5"},
		end: func(t testing.TB, svc *play.Service, g play.Game) play.Result {
			return must(svc.Resign(ctx, act(ann, g, g.Updated.Add(time.Hour))))(t)
		},
		want: game.WinFor(game.Black, game.Resignation), iceAges: 1},
	{name: "an agreed draw", days: 3, moves: []string{"hxg3", "Nxf6"},
		end: func(t testing.TB, svc *play.Service, g play.Game) play.Result {
			g = must(svc.OfferDraw(ctx, act(ann, g, g.Updated.Add(time.Hour))))(t).Game
			return must(svc.AcceptDraw(ctx, act(bob, g, g.Updated.Add(time.Hour))))(t)
		},
		want: game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}},
	{name: "a timeout", days: 1, moves: []string{"hxg3", "Nxf6", "gxh4"},
		end: func(t testing.TB, svc *play.Service, g play.Game) play.Result {
			return must(svc.TimeOut(ctx, g.ID, g.Deadline.Add(time.Hour)))(t)
		},
		want: game.WinFor(game.White, game.Timeout)},
	{name: "an abort", days: 2, moves: []string{"hxg3"},
		end: func(t testing.TB, svc *play.Service, g play.Game) play.Result {
			return must(svc.Abort(ctx, act(bob, g, g.Updated.Add(time.Hour))))(t)
		},
		want: game.Outcome{Reason: game.Aborted}},
}

// TestEnds drives a game to each way a game can end and checks that it is
// archived once, counted once (tallies, statistics, the OnEnd hook), cannot
// be ended again, and that its PGN reads back — on a storage that runs
// each transaction once, and on one that runs it twice.
func TestEnds(t *testing.T) {
	for _, storage := range []struct {
		name string
		wrap func(play.Storage) play.Storage
	}{
		{"", func(st play.Storage) play.Storage { return st }},
		{" on a storage that runs every transaction twice", func(st play.Storage) play.Storage { return retrying{st} }},
	} {
		for _, tt := range endCases {
			t.Run(fmt.Sprintf("a game ended by %s is archived and counted once%s", tt.name, storage.name), func(t *testing.T) {
				_, mem := newService(play.Options{})
				st := storage.wrap(mem)
				svc := play.New(st, play.Options{OnEnd: []func(play.Tx, *play.Game) error{countEnds}})
				g := startFrom(t, svc, tt.start, tt.days)
				for i, mv := range tt.moves {
					if g.Over() {
						t.Fatalf("the game ended before move %d, %s: %+v", i+1, mv, g.Outcome)
					}
					g = playMoves(t, svc, g, mv)
				}
				if tt.end != nil {
					if g.Over() {
						t.Fatalf("the game ended by its moves: %+v", g.Outcome)
					}
					before := g
					r := tt.end(t, svc, g)
					if r.Event != play.Ended || r.Game.Revision <= before.Revision {
						t.Fatalf("%q at revision %d after %d", r.Event, r.Game.Revision, before.Revision)
					}
					g = r.Game
				}
				checkEnded(t, svc, st, g, tt.want, tt.iceAges)
			})
		}
	}
}

// checkEnded checks everything about a finished game g.
func checkEnded(t *testing.T, svc *play.Service, st play.Storage, g play.Game, want game.Outcome, iceAges int) {
	t.Helper()
	if g.Outcome != want || g.Ended.IsZero() || !g.Deadline.IsZero() || !g.RemindAt.IsZero() {
		t.Fatalf("outcome %+v, ended %v, deadline %v; want %+v", g.Outcome, g.Ended, g.Deadline, want)
	}
	if back := stored(t, svc, g.ID); !reflect.DeepEqual(back, g) {
		t.Fatalf("stored %+v, result %+v", back, g)
	}
	if err := replays(&g); err != nil {
		t.Fatal(err)
	}

	// Archived once.
	err := st.View(ctx, func(tx play.ReadTx) error {
		for _, q := range []struct{ user, guild string }{{"", ""}, {ann.ID, ""}, {bob.ID, ""}, {"", g.Guild}} {
			fin, err := tx.Finished(q.user, q.guild, 0, 100)
			if err != nil {
				return err
			}
			n := 0
			for _, f := range fin {
				if f.ID == g.ID {
					n++
				}
			}
			if n != 1 {
				return fmt.Errorf("Finished(%q, %q) lists the game %d times", q.user, q.guild, n)
			}
		}
		if other, err := tx.GameIn(g.Channel); !errors.Is(err, play.ErrNotFound) {
			return fmt.Errorf("the channel is still held: %+v, %v", other, err)
		}
		for _, u := range []string{ann.ID, bob.ID} {
			if act, _ := tx.ActiveGames(u); len(act) != 0 {
				return fmt.Errorf("%s still has active games: %+v", u, act)
			}
		}
		for _, k := range []play.DueKind{play.DueDeadline, play.DueReminder} {
			if due, _ := tx.Due(k, t0.Add(10000*time.Hour), 10); len(due) != 0 {
				return fmt.Errorf("still due (%d): %+v", k, due)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.GameIn(ctx, g.Channel); !isKind(err, play.NoGame) {
		t.Fatalf("GameIn after the end: %v, want no game", err)
	}

	// Counted once.
	checkCounted(t, st, g, want, iceAges)
	if n := hookCount(t, st, g.ID); n != 1 {
		t.Fatalf("the OnEnd hook counted the game %d times", n)
	}

	// Never ended twice.
	snapshot := dump(t, st)
	for _, who := range []play.Seat{ann, bob} {
		_, err := svc.Resign(ctx, act(who, g, g.Ended.Add(time.Hour)))
		if x := wantKind(t, err, play.GameOver); x.Outcome != want {
			t.Fatalf("the refusal says %+v", x.Outcome)
		}
		_, err = svc.OfferDraw(ctx, act(who, g, g.Ended.Add(time.Hour)))
		wantKind(t, err, play.GameOver)
	}
	_, err = svc.TimeOut(ctx, g.ID, g.Ended.Add(10000*time.Hour))
	wantKind(t, err, play.GameOver)
	unchanged(t, st, snapshot)

	// The PGN reads back.
	m := must(g.Match())(t)
	pgn := m.PGN(game.Tags{Event: "test", White: g.White.Name, Black: g.Black.Name})
	back, tags, err := game.ParsePGN(pgn)
	if err != nil {
		t.Fatalf("%v\n%s", err, pgn)
	}
	wantBack := want
	if want.Reason == game.Aborted {
		// PGN has no result for an abandoned game ("*"), so it reads
		// back as a game that goes on; its Termination tag says why.
		wantBack = game.Outcome{}
		if !strings.Contains(pgn, `[Termination "abandoned"]`) || !strings.Contains(pgn, `[Result "*"]`) {
			t.Fatalf("an aborted game's PGN:\n%s", pgn)
		}
	}
	switch {
	case !slices.Equal(back.UCIs(), ucis(g.Moves)):
		t.Fatalf("PGN moves %v, game %v\n%s", back.UCIs(), ucis(g.Moves), pgn)
	case back.FEN() != g.FEN:
		t.Fatalf("PGN ends at %s, game at %s", back.FEN(), g.FEN)
	case back.Outcome() != wantBack:
		t.Fatalf("PGN outcome %+v, want %+v\n%s", back.Outcome(), wantBack, pgn)
	case tags.White != g.White.Name || tags.Black != g.Black.Name:
		t.Fatalf("PGN players %q, %q", tags.White, tags.Black)
	}
	if n := countNonNil(back.IceAges()); n != iceAges {
		t.Fatalf("the PGN has %d Ice Ages, want %d", n, iceAges)
	}
}

// checkCounted checks the players' records and the statistics after g,
// the only game of the storage, ended with o.
func checkCounted(t *testing.T, st play.Storage, g play.Game, o game.Outcome, iceAges int) {
	t.Helper()
	err := st.View(ctx, func(tx play.ReadTx) error {
		for _, scope := range []string{"", g.Guild} {
			s, err := tx.Stats(scope)
			if err != nil {
				return err
			}
			want := play.Stats{V: s.V, Scope: scope}
			if o.Reason == game.Aborted {
				want.Aborted = 1
			} else {
				want.ByReason = map[game.Reason]int{o.Reason: 1}
				want.IceAges = iceAges
				switch o.Result {
				case game.WhiteWins:
					want.WhiteWins = 1
				case game.BlackWins:
					want.BlackWins = 1
				case game.Draw:
					want.Draws = 1
				}
			}
			if !reflect.DeepEqual(s, want) {
				return fmt.Errorf("stats in %q: %+v, want %+v", scope, s, want)
			}
			for _, c := range []game.Color{game.White, game.Black} {
				seat := g.Seat(c)
				p, err := tx.Player(scope, seat.ID)
				if o.Reason == game.Aborted {
					if !errors.Is(err, play.ErrNotFound) {
						return fmt.Errorf("an aborted game gave %s a record in %q: %+v, %v", seat.ID, scope, p, err)
					}
					continue
				}
				if err != nil {
					return err
				}
				want := play.NewPlayer(scope, seat.ID)
				want.V, want.Name, want.LastGame = p.V, seat.Name, g.Ended
				tally := &want.AsWhite
				if c == game.Black {
					tally = &want.AsBlack
				}
				switch w, decisive := o.Winner(); {
				case !decisive:
					tally.Drawn = 1
				case w == c:
					tally.Won, want.Streak, want.BestStreak = 1, 1, 1
				default:
					tally.Lost, want.Streak = 1, -1
					if o.Reason == game.KingFrozen {
						want.FrozenLosses = 1
					}
				}
				if !reflect.DeepEqual(p, want) {
					return fmt.Errorf("%s in %q: %+v, want %+v", seat.ID, scope, p, want)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func countNonNil[T any](s []*T) int {
	n := 0
	for _, e := range s {
		if e != nil {
			n++
		}
	}
	return n
}

func TestOnEndFailureRollsTheEndBack(t *testing.T) {
	boom := errors.New("the ratings are down")
	fail := true
	_, st := newService(play.Options{})
	svc := play.New(st, play.Options{OnEnd: []func(play.Tx, *play.Game) error{
		countEnds,
		func(play.Tx, *play.Game) error {
			if fail {
				return boom
			}
			return nil
		},
	}})
	g := playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3", "Nxf6")
	snapshot := dump(t, st)
	if _, err := svc.Resign(ctx, act(bob, g, g.Updated.Add(time.Hour))); !errors.Is(err, boom) {
		t.Fatalf("resigning with a failing hook: %v, want the hook's error", err)
	}
	unchanged(t, st, snapshot)
	if n := hookCount(t, st, g.ID); n != 0 {
		t.Fatalf("the rolled-back end was counted %d times by the first hook", n)
	}
	fail = false
	g = must(svc.Resign(ctx, act(bob, g, g.Updated.Add(2*time.Hour))))(t).Game
	checkCounted(t, st, g, game.WinFor(game.White, game.Resignation), 0)
	if n := hookCount(t, st, g.ID); n != 1 {
		t.Fatalf("the end was counted %d times by the hook", n)
	}
}

// refGame is a whole game of game/testdata/games.txt, from an
// independent implementation of the rules.
type refGame struct {
	moves       []string
	fen, result string
	termination string
}

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

// refOutcome is the outcome games.txt's termination and result name.
func refOutcome(r refGame) game.Outcome {
	reason := map[string]game.Reason{"checkmate": game.Checkmate, "stalemate": game.Stalemate,
		"white_king_frozen": game.KingFrozen, "black_king_frozen": game.KingFrozen,
		"both_kings_frozen": game.BothKingsFrozen, "fifty_move": game.FiftyMoveRule}[r.termination]
	result := map[string]game.Result{"1-0": game.WhiteWins, "0-1": game.BlackWins, "1/2-1/2": game.Draw}[r.result]
	return game.Outcome{Result: result, Reason: reason}
}

// TestReferenceGames plays every reference game through play, alternating
// the players' colours, and checks each ends as recorded, and that the
// statistics and tallies are those of the games.
func TestReferenceGames(t *testing.T) {
	refs := loadRefGames(t)
	svc, st := newService(play.Options{})
	want := play.Stats{ByReason: map[game.Reason]int{}}
	tallies := map[string]*play.Tally{}
	for i, ref := range refs {
		white, black := ann, bob
		if i%2 == 1 {
			white, black = bob, ann
		}
		g := must(svc.Start(ctx, play.NewGame{Channel: fmt.Sprint("c", i), White: white, Black: black, At: t0}))(t).Game
		for j, mv := range ref.moves {
			r, err := svc.Move(ctx, act(g.ToMove(), g, t0.Add(time.Duration(j+1)*time.Minute)), mv)
			if err != nil {
				t.Fatalf("game %d, move %d (%s): %v", i+1, j+1, mv, err)
			}
			g = r.Game
		}
		o := refOutcome(ref)
		if g.FEN != ref.fen || g.Outcome != o {
			t.Fatalf("game %d ends at %s, %+v; want %s, %+v", i+1, g.FEN, g.Outcome, ref.fen, o)
		}
		if !g.Over() {
			g = must(svc.Resign(ctx, act(black, g, t0.Add(1000*time.Hour))))(t).Game
			o = g.Outcome
		}
		m := must(g.Match())(t)
		want.IceAges += countNonNil(m.IceAges())
		want.ByReason[o.Reason]++
		for _, c := range []game.Color{game.White, game.Black} {
			id := g.Seat(c).ID
			if tallies[id] == nil {
				tallies[id] = &play.Tally{}
			}
			switch w, decisive := o.Winner(); {
			case !decisive:
				tallies[id].Drawn++
			case w == c:
				tallies[id].Won++
			default:
				tallies[id].Lost++
			}
		}
		switch o.Result {
		case game.WhiteWins:
			want.WhiteWins++
		case game.BlackWins:
			want.BlackWins++
		case game.Draw:
			want.Draws++
		}
	}
	err := st.View(ctx, func(tx play.ReadTx) error {
		s, err := tx.Stats("")
		if err != nil {
			return err
		}
		want.V = s.V
		if !reflect.DeepEqual(s, want) {
			return fmt.Errorf("stats %+v, want %+v", s, want)
		}
		for id, tally := range tallies {
			p, err := tx.Player("", id)
			if err != nil {
				return err
			}
			if p.Total() != *tally {
				return fmt.Errorf("%s: %+v, want %+v", id, p.Total(), *tally)
			}
		}
		fin, err := tx.Finished("", "", 0, 1000)
		if len(fin) != len(refs) {
			return fmt.Errorf("%d finished games, want %d (%v)", len(fin), len(refs), err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
