package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

func init() {
	register("selfplay", "play the engine against itself at chosen levels and write the games as PGN", runSelfplay)
}

// runSelfplay plays -games games between engine levels -white and -black
// and writes them as PGN to -o, with a line per game and the totals on
// standard error. With -nodes every move gets that node budget instead of
// the level's own (levels 7 and 8 also have a time budget), and the games
// are then the same on every run for the same -seed.
func runSelfplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: iceage selfplay [-white 8] [-black 8] [-games 1] [-seed 1] [-nodes N] [-time 2s] [-swap] [-o games.pgn]")
		fmt.Fprintf(stderr, "Levels run from 1 (a beginner who blunders on purpose) to %d (full strength).\n", engine.Levels)
		fs.PrintDefaults()
	}
	white := fs.Int("white", engine.Levels, "level of the engine playing White in the first game")
	black := fs.Int("black", engine.Levels, "level of the engine playing Black in the first game")
	games := fs.Int("games", 1, "number of games")
	seed := fs.Uint64("seed", 1, "seed for the weaker levels' choices and the random openings; game i uses seed+i")
	nodes := fs.Int64("nodes", 0, "node budget per move instead of the levels' own (0: the levels' budgets); makes the games reproducible")
	moveTime := fs.Duration("time", 0, "the most a move may take (0: the levels' own budgets); the levels that think for a time scale theirs to it")
	swap := fs.Bool("swap", false, "swap colours after every game")
	openings := fs.Int("openings", 0, "start every game with this many random plies (chosen by the game's seed), for variety")
	maxPlies := fs.Int("maxplies", 300, "end a game still going after this many plies as a draw")
	fen := fs.String("fen", game.StartFEN, "start position in FEN, '*' for ice")
	out := fs.String("o", "-", "PGN output file ('-' for standard output)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "selfplay: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	for _, l := range []struct {
		name  string
		level int
	}{{"white", *white}, {"black", *black}} {
		if l.level < 1 || l.level > engine.Levels {
			fmt.Fprintf(stderr, "selfplay: -%s %d: levels run from 1 to %d\n", l.name, l.level, engine.Levels)
			return 2
		}
	}
	switch {
	case *games < 1:
		fmt.Fprintf(stderr, "selfplay: -games %d: want at least 1\n", *games)
		return 2
	case *nodes < 0 || *moveTime < 0 || *openings < 0:
		fmt.Fprintln(stderr, "selfplay: -nodes, -time and -openings cannot be negative")
		return 2
	case *maxPlies < 1:
		fmt.Fprintf(stderr, "selfplay: -maxplies %d: want at least 1\n", *maxPlies)
		return 2
	}
	start, err := game.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintln(stderr, "selfplay:", err)
		return 1
	}
	w := stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "selfplay:", err)
			return 1
		}
		defer f.Close()
		w = f
	}

	var wins [2]int // by colour
	draws := 0
	for i := range *games {
		levels := [2]int{*white, *black}
		if *swap && i%2 == 1 {
			levels[0], levels[1] = levels[1], levels[0]
		}
		s := *seed + uint64(i)
		m, err := selfplayGame(levels, round.EngineOptions{Nodes: *nodes, MoveTime: *moveTime, Seed: s}, start, s, *openings, *maxPlies)
		if err != nil {
			fmt.Fprintf(stderr, "selfplay: game %d: %v\n", i+1, err)
			return 1
		}
		tags := game.Tags{
			Event: "Ice Age Chess engine self-play",
			Site:  "iceage selfplay",
			Round: strconv.Itoa(i + 1),
			White: fmt.Sprintf("engine level %d", levels[0]),
			Black: fmt.Sprintf("engine level %d", levels[1]),
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		if _, err := io.WriteString(w, m.PGN(tags)); err != nil {
			fmt.Fprintln(stderr, "selfplay:", err)
			return 1
		}
		o := m.Outcome()
		how := o.Reason.String()
		if o.Reason == game.DrawAgreed {
			how = fmt.Sprintf("adjudicated after %d plies", *maxPlies)
		}
		if c, ok := o.Winner(); ok {
			wins[c]++
		} else {
			draws++
		}
		fmt.Fprintf(stderr, "game %d: level %d (White) vs level %d (Black): %s, %s, %d plies\n",
			i+1, levels[0], levels[1], o.Result, how, len(m.Moves()))
	}
	fmt.Fprintf(stderr, "%d games: White won %d, Black won %d, %d drawn\n", *games, wins[game.White], wins[game.Black], draws)
	return 0
}

// selfplayGame plays one game from start between the engine at levels
// (White's first) through the round, as the bot and the terminal play it:
// openings random plies chosen by seed, then the engine's moves with
// opts. A game still going after maxPlies is ended as a draw. A game
// depends only on its arguments (and the clock, when a level thinks for
// a time). An error means the engine chose a move play refused: a bug.
func selfplayGame(levels [2]int, opts round.EngineOptions, start game.Position, seed uint64, openings, maxPlies int) (*game.Match, error) {
	ctx := context.Background()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Second); return at }
	r, err := round.New(play.New(memstore.New(), play.Options{}), round.Options{Engine: opts, Now: clock})
	if err != nil {
		return nil, err
	}
	out, err := r.Start(ctx, play.NewGame{Channel: "selfplay", StartFEN: start.FEN(), Engine: levels, At: clock(),
		White: play.Seat{ID: "white", Name: round.EngineName(levels[0])}, Black: play.Seat{ID: "black", Name: round.EngineName(levels[1])}})
	if err != nil {
		return nil, err
	}
	g := out.Game
	rng := seed*0x9e3779b97f4a7c15 + 1
	for ply := 0; !g.Over(); ply++ {
		if ply >= maxPlies {
			m, err := g.Match()
			if err != nil {
				return nil, err
			}
			// Adjudicated a draw at the cap; the game is not over, so End cannot fail.
			_ = m.End(game.Outcome{Result: game.Draw, Reason: game.DrawAgreed})
			return m, nil
		}
		if err := r.Done(ctx, out.Keys...); err != nil {
			return nil, err
		}
		if ply < openings {
			p, err := g.Position()
			if err != nil {
				return nil, err
			}
			legal := p.LegalMoves(nil)
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			mv := legal[rng%uint64(len(legal))]
			a := round.Act{Act: play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: clock()}, Kind: round.Move, Text: mv.UCI()}
			if out, err = r.Do(ctx, a); err != nil {
				return nil, fmt.Errorf("the opening move %s in %s: %w", mv, p.FEN(), err)
			}
		} else {
			var ok bool
			if out, ok, err = r.Engine(ctx, g.ID); err != nil || !ok {
				return nil, fmt.Errorf("the engine did not move in %s: %v", g.FEN, err)
			}
		}
		g = out.Game
	}
	return g.Match()
}
