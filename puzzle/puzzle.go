package puzzle

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/iceagechess/iceage/game"
)

// Goal is what a puzzle asks of its solver. The names are stable: they
// are exported and stored.
type Goal string

const (
	Mate      Goal = "mate"      // checkmate the opponent
	Freeze    Goal = "freeze"    // freeze the opponent's king in an Ice Age
	Advantage Goal = "advantage" // find the best move, judged by the engine
)

// Theme is an idea a puzzle shows. The names are stable: they are
// exported and stored.
type Theme string

const (
	FreezeKing     Theme = "freezeKing"     // the win comes by freezing the opponent's king
	SaveKing       Theme = "saveKing"       // the solver's own king would freeze at the coming Ice Age
	MateThroughIce Theme = "mateThroughIce" // a mate that ice makes: without the ice it is no mate
	LostToIceAge   Theme = "iceAgeLoss"     // an opponent's man freezes in the line's Ice Age
	BreakIce       Theme = "breakIce"       // the solution starts by taking ice
	OnlyMove       Theme = "onlyMove"       // every other move throws the win away
	OneMove        Theme = "oneMove"        // solved in one move
	Short          Theme = "short"          // solved in two moves
	Long           Theme = "long"           // solved in three moves or more
)

// Themes lists every theme, the variant's own first.
var Themes = []Theme{FreezeKing, SaveKing, MateThroughIce, LostToIceAge, BreakIce, OnlyMove, OneMove, Short, Long}

// VariantThemes are the themes only Ice Age Chess has; the shipped set
// shows each.
var VariantThemes = []Theme{FreezeKing, SaveKing, MateThroughIce, LostToIceAge, BreakIce}

// MaxProvenMoves is the longest puzzle, in solver moves, proven by
// exhaustive search.
const MaxProvenMoves = 2

// Puzzle is a position, the line that solves it and what it asks. Moves
// are UCI, the solver's first, then the reply, and so on, ending on the
// solver's move.
type Puzzle struct {
	ID     string   `json:"id"`
	FEN    string   `json:"fen"`
	Moves  []string `json:"moves"`
	Goal   Goal     `json:"goal"`
	Themes []Theme  `json:"themes"`
	Rating int      `json:"rating"`
	// Proven is set on a puzzle whose goal is a mate or a freeze within
	// MaxProvenMoves, proven by exhaustive search (Prove).
	Proven bool `json:"proven,omitempty"`
	// Source says where the position came from, for whoever checks it.
	Source string `json:"source,omitempty"`
}

// Exported is the form `iceage puzzles -export` writes: the set without
// what only the program needs.
type Exported struct {
	ID     string   `json:"id"`
	FEN    string   `json:"fen"`
	Moves  []string `json:"moves"`
	Goal   Goal     `json:"goal"`
	Themes []Theme  `json:"themes"`
	Rating int      `json:"rating"`
}

// SolverMoves is the number of moves the solver makes.
func (pz *Puzzle) SolverMoves() int { return (len(pz.Moves) + 1) / 2 }

// Has reports whether the puzzle shows theme t.
func (pz *Puzzle) Has(t Theme) bool { return slices.Contains(pz.Themes, t) }

// Position returns the puzzle's position, the solver to move.
func (pz *Puzzle) Position() (game.Position, error) { return game.ParseFEN(pz.FEN) }

// Line returns the puzzle's moves.
func (pz *Puzzle) Line() ([]game.Move, error) {
	_, line, err := pz.parse()
	return line, err
}

func (pz *Puzzle) parse() (game.Position, []game.Move, error) {
	p, err := game.ParseFEN(pz.FEN)
	if err != nil {
		return p, nil, fmt.Errorf("puzzle %s: %w", pz.ID, err)
	}
	line := make([]game.Move, len(pz.Moves))
	for i, s := range pz.Moves {
		if line[i], err = game.ParseUCI(s); err != nil {
			return p, nil, fmt.Errorf("puzzle %s: move %d: %w", pz.ID, i+1, err)
		}
	}
	return p, line, nil
}

// Check replays the puzzle: every move is legal, no move but the last
// ends the game, and for a mate or a freeze the last move reaches the
// goal (Reaches). An advantage is the engine's judgement; Check only
// sees that the solver has not lost.
func (pz *Puzzle) Check() error {
	p, line, err := pz.parse()
	if err != nil {
		return err
	}
	if len(line) == 0 || len(line)%2 == 0 {
		return fmt.Errorf("puzzle %s: %d moves: a line ends on the solver's move", pz.ID, len(line))
	}
	if o := p.Outcome(); o.Over() {
		return fmt.Errorf("puzzle %s: the game is over in its position (%s)", pz.ID, o.Reason)
	}
	for i, m := range line {
		if !p.IsLegal(m) {
			return fmt.Errorf("puzzle %s: move %d (%s) is not legal in %s", pz.ID, i+1, m, p.FEN())
		}
		before := p
		p = p.Apply(m)
		if i == len(line)-1 {
			if pz.Goal != Advantage && !Reaches(&before, m, pz.Goal) {
				return fmt.Errorf("puzzle %s: the last move %s does not reach the goal %s", pz.ID, m, pz.Goal)
			}
			if w, ok := p.Outcome().Winner(); ok && w != before.Turn() {
				return fmt.Errorf("puzzle %s: the last move %s loses", pz.ID, m)
			}
			break
		}
		if p.Outcome().Over() {
			return fmt.Errorf("puzzle %s: the game ends after move %d (%s), before the line does", pz.ID, i+1, m)
		}
	}
	return nil
}

// Reaches reports whether m, played by the side to move in p, reaches
// goal at once: checkmate for Mate; for Freeze the opponent's king
// frozen, now or by the Ice Age of the opponent's reply, whatever it is.
// A checkmate also reaches Freeze (the win is the same), and every win
// reaches Advantage.
func Reaches(p *game.Position, m game.Move, goal Goal) bool {
	if !p.IsLegal(m) {
		return false
	}
	mover := p.Turn()
	q := p.Apply(m)
	o := q.Outcome()
	if w, ok := o.Winner(); ok && w == mover {
		return goal != Mate || o.Reason == game.Checkmate
	}
	if goal == Mate || o.Over() {
		return false
	}
	return Forces(p, m, 1)
}

// ID returns the identifier of a position and line: six letters and
// digits from a hash, the same on every run.
func ID(fen string, moves []string) string {
	h := fnv.New64a()
	_, _ = io.WriteString(h, fen) // a hash's Write never fails
	for _, m := range moves {
		_, _ = io.WriteString(h, " "+m) // a hash's Write never fails
	}
	s := strconv.FormatUint(h.Sum64(), 36)
	for len(s) < 6 {
		s = "0" + s
	}
	return s[:6]
}

// Read reads puzzles as JSON lines.
func Read(r io.Reader) ([]Puzzle, error) {
	var out []Puzzle
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var pz Puzzle
		if err := json.Unmarshal(line, &pz); err != nil {
			return out, fmt.Errorf("puzzle: line %d: %w", n, err)
		}
		out = append(out, pz)
	}
	return out, sc.Err()
}

// Write writes puzzles as JSON lines, in their order.
func Write(w io.Writer, set []Puzzle) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for i := range set {
		if err := enc.Encode(&set[i]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Export writes puzzles in the exported form, as JSON lines.
func Export(w io.Writer, set []Puzzle) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for _, pz := range set {
		if err := enc.Encode(Exported{pz.ID, pz.FEN, pz.Moves, pz.Goal, pz.Themes, pz.Rating}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

//go:embed set.jsonl
var shipped []byte

var (
	setOnce sync.Once
	set     []Puzzle
	byID    map[string]int
)

// Set returns the shipped puzzles, in their file's order. The slice is
// shared: do not change it.
func Set() []Puzzle {
	setOnce.Do(func() {
		var err error
		set, err = Read(bytes.NewReader(shipped))
		if err != nil {
			panic("puzzle: the shipped set does not read: " + err.Error())
		}
		byID = make(map[string]int, len(set))
		for i, pz := range set {
			byID[pz.ID] = i
		}
	})
	return set
}

// ByID returns the shipped puzzle with the identifier id.
func ByID(id string) (Puzzle, bool) {
	Set()
	i, ok := byID[strings.TrimSpace(id)]
	if !ok {
		return Puzzle{}, false
	}
	return set[i], true
}

// Summary counts a set: puzzles, proven ones, goals, themes and ratings.
func Summary(set []Puzzle) string {
	goals := map[Goal]int{}
	themes := map[Theme]int{}
	proven := 0
	var bands [6]int // below 1000, 1000–1399, 1400–1799, 1800–2199, 2200–2599, 2600 and up
	for _, pz := range set {
		goals[pz.Goal]++
		for _, t := range pz.Themes {
			themes[t]++
		}
		if pz.Proven {
			proven++
		}
		bands[min(max((pz.Rating-600)/400, 0), len(bands)-1)]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d puzzles, %d proven; goals: mate %d, freeze %d, advantage %d\nthemes:", len(set), proven, goals[Mate], goals[Freeze], goals[Advantage])
	for _, t := range Themes {
		fmt.Fprintf(&b, " %s %d", t, themes[t])
	}
	fmt.Fprintf(&b, "\nratings: <1000 %d, 1000-1399 %d, 1400-1799 %d, 1800-2199 %d, 2200-2599 %d, 2600+ %d", bands[0], bands[1], bands[2], bands[3], bands[4], bands[5])
	return b.String()
}
