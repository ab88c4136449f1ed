package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
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
	moveTime := fs.Duration("time", 0, "time budget per move instead of the levels' own (0: the levels' budgets)")
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

	limits := func(level int) engine.Limits {
		lim := engine.Level(level)
		if *nodes > 0 {
			lim.Nodes, lim.Time = *nodes, 0
		}
		if *moveTime > 0 {
			lim.Time = *moveTime
		}
		return lim
	}
	engines := [2]*engine.Engine{engine.New(engine.Options{}), engine.New(engine.Options{})}
	var wins [2]int // by colour
	draws := 0
	for i := range *games {
		levels := [2]int{*white, *black}
		if *swap && i%2 == 1 {
			levels[0], levels[1] = levels[1], levels[0]
		}
		s := *seed + uint64(i)
		m, err := selfplayGame(engines, [2]engine.Limits{limits(levels[0]), limits(levels[1])}, start, s, *openings, *maxPlies)
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

// selfplayGame plays one game from start: openings random plies chosen
// by seed, then each side's engine with its limits (engines[0] plays
// White). A game still going after maxPlies is ended as a draw. Each
// engine is reset first, so a game depends only on its arguments (and
// the clock, when a limit has a time budget). An error means the engine
// chose a move the match refused: a bug.
func selfplayGame(engines [2]*engine.Engine, lims [2]engine.Limits, start game.Position, seed uint64, openings, maxPlies int) (*game.Match, error) {
	for _, e := range engines {
		e.Reset()
	}
	m := game.NewMatch(start)
	r := seed*0x9e3779b97f4a7c15 + 1
	for ply := 0; !m.Outcome().Over(); ply++ {
		if ply >= maxPlies {
			// Adjudicated a draw at the cap; the game is not over, so End cannot fail.
			_ = m.End(game.Outcome{Result: game.Draw, Reason: game.DrawAgreed})
			break
		}
		p := m.Position()
		side := p.Turn()
		var mv game.Move
		if ply < openings {
			legal := p.LegalMoves(nil)
			r ^= r << 13
			r ^= r >> 7
			r ^= r << 17
			mv = legal[r%uint64(len(legal))]
		} else {
			lim := lims[side]
			lim.Seed = seed<<16 + uint64(ply)
			mv = engines[side].Search(context.Background(), p, lim).Best
		}
		if _, err := m.PlayMove(mv); err != nil {
			return m, fmt.Errorf("the engine chose %s in %s: %w", mv, p.FEN(), err)
		}
	}
	return m, nil
}
