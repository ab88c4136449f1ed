package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	chess "github.com/corentings/chess/v2"
	"github.com/iceagechess/iceage/game"
)

// positions are the Chess Programming Wiki perft positions with their
// published counts. depth suits every engine (corentings is slow); deep,
// when set, is a second depth for the fast engines only.
var positions = []struct {
	name, fen  string
	depth      int
	leaves     uint64
	deep       int
	deepLeaves uint64
}{
	{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609, 6, 119060324},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603, 5, 193690690},
	{"pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624, 0, 0},
	{"pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333, 0, 0},
	{"pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379, 0, 0},
	{"pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890, 0, 0},
}

// counter counts leaves of a position to a depth in one engine and mode.
type counter func(b *testing.B, fen string, depth int) func() uint64

func BenchmarkPerft(b *testing.B) {
	engines := []struct {
		name, mode string
		deep       bool
		count      counter
	}{
		{"iceage", "bulk", true, iceageCounter(func(p game.Position, d int) uint64 { return game.Perft(p, d) })},
		{"iceage", "full", false, iceageCounter(iceageFull)},
		{"corentings", "bulk", false, corentingsCounter(true)},
		{"corentings", "full", false, corentingsCounter(false)},
		{"stockfish", "bulk", true, stockfishCounter},
	}
	for _, pos := range positions {
		for _, e := range engines {
			run := func(depth int, want uint64) {
				name := fmt.Sprintf("pos=%s/depth=%d/mode=%s/engine=%s", pos.name, depth, e.mode, e.name)
				b.Run(name, func(b *testing.B) {
					count := e.count(b, pos.fen, depth)
					var leaves uint64
					for b.Loop() {
						n := count()
						if n != want {
							b.Fatalf("%s counts %d leaves, want %d", e.name, n, want)
						}
						leaves += n
					}
					b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
				})
			}
			run(pos.depth, pos.leaves)
			if e.deep && pos.deep > 0 {
				run(pos.deep, pos.deepLeaves)
			}
		}
	}
}

func iceageCounter(perft func(game.Position, int) uint64) counter {
	return func(b *testing.B, fen string, depth int) func() uint64 {
		p, err := game.ParseFEN(fen)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		return func() uint64 { return perft(p, depth) }
	}
}

// iceageFull plays every move down to the leaves with the public API.
func iceageFull(p game.Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var buf [256]game.Move
	var n uint64
	for _, m := range p.LegalMoves(buf[:0]) {
		n += iceageFull(p.Apply(m), depth-1)
	}
	return n
}

func corentingsCounter(bulk bool) counter {
	return func(b *testing.B, fen string, depth int) func() uint64 {
		var p chess.Position
		if err := p.UnmarshalText([]byte(fen)); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		return func() uint64 { return corentingsPerft(&p, depth, bulk) }
	}
}

func corentingsPerft(p *chess.Position, depth int, bulk bool) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.ValidMoves()
	if bulk && depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		n += corentingsPerft(p.Update(&moves[i]), depth-1, bulk)
	}
	return n
}

// stockfishPath finds Stockfish: $STOCKFISH, then the PATH, then
// /usr/games, where Debian's package puts it.
func stockfishPath() string {
	if p := os.Getenv("STOCKFISH"); p != "" {
		return p
	}
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/stockfish"); err == nil {
		return "/usr/games/stockfish"
	}
	return ""
}

// stockfishCounter starts Stockfish for the benchmark and asks it for
// "go perft" once per call, reading its "Nodes searched" line. The pipe
// round trip is part of the time, as it is small beside the counting.
func stockfishCounter(b *testing.B, fen string, depth int) func() uint64 {
	path := stockfishPath()
	if path == "" {
		b.Skip("stockfish is not installed (apt-get install stockfish, or set $STOCKFISH)")
	}
	cmd := exec.Command(path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting %s: %v", path, err)
	}
	b.Cleanup(func() {
		io.WriteString(stdin, "quit\n")
		stdin.Close()
		cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	send := func(text string) {
		if _, err := io.WriteString(stdin, text+"\n"); err != nil {
			b.Fatalf("writing to stockfish: %v", err)
		}
	}
	waitFor := func(prefix string) string {
		for lines.Scan() {
			if l := lines.Text(); strings.HasPrefix(l, prefix) {
				return l
			}
		}
		b.Fatalf("stockfish stopped before saying %q: %v", prefix, lines.Err())
		return ""
	}
	send("uci")
	waitFor("uciok")
	send("position fen " + fen)
	send("isready")
	waitFor("readyok")
	b.ResetTimer()
	return func() uint64 {
		send("go perft " + strconv.Itoa(depth))
		l := waitFor("Nodes searched:")
		n, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(l, "Nodes searched:")), 10, 64)
		if err != nil {
			b.Fatalf("stockfish said %q: %v", l, err)
		}
		return n
	}
}
