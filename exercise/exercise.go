// Package exercise is a position to solve privately, with a goal, and
// the tries of one player at it: what a lesson and a puzzle have in
// common. A try is any move a player can point at (a man and a target
// square, as the two-click menus of a game give them, or typed text); an
// illegal one is explained with the game's own reason (game.MoveError,
// "the rook on h1 cannot reach h5: ice on h3 blocks it"), a legal one
// that misses the goal says why, and a good one is answered by the
// opponent, from a scripted line or the engine, deterministically.
//
// It knows nothing of Discord or of a terminal: front ends word its
// verdicts (i18n) and draw its positions (render).
package exercise

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/iceagechess/iceage/engine"
	"github.com/iceagechess/iceage/game"
)

// GoalKind is what the solver must bring about.
type GoalKind uint8

const (
	// Take: the solver has captured on every square of Goal.Squares
	// (ice or an enemy man; a man that flees is not taken).
	Take GoalKind = iota + 1
	// Reach: a man of the solver's, of kind Goal.Man (any kind when
	// NoKind), stands on one of Goal.Squares.
	Reach
	// Mate: the opponent is checkmated.
	Mate
	// Freeze: the opponent's king freezes, at once or by the Ice Age of
	// the opponent's next move, whatever that move is.
	Freeze
	// Win: the solver wins, by mate or by freezing (as Freeze).
	Win
	// Draw: the game ends drawn.
	Draw
	// Survive: an Ice Age comes and the solver's king is still on the
	// board after it.
	Survive
	// Line: the solver plays Exercise.Line to its end.
	Line
	// Check: the solver's move gives check.
	Check
	// Keep: an Ice Age comes and none of the solver's men freezes in it.
	Keep
	// Shelter: an Ice Age comes and every square of Goal.Squares is
	// still empty after it (neither ice nor a man).
	Shelter
)

// byReply reports whether the goal may be met by the opponent's reply
// (its Ice Age), so that the reply is played even after the solver's
// last move.
func (k GoalKind) byReply() bool {
	switch k {
	case Freeze, Win, Draw, Survive, Keep, Shelter:
		return true
	}
	return false
}

// Goal is what solves an exercise.
type Goal struct {
	Kind    GoalKind
	Squares []game.Square // of Take and Reach
	Man     game.Kind     // of Reach: the kind that must stand there; NoKind for any
}

// Exercise is a position with a goal. Its zero Limit means Par; a Line
// (UCI: the solver's move, the reply, the solver's move, …) both
// scripts the replies and, for a Line goal, is the solution. Without a
// Line, or off it, the opponent replies with Reply, or, when Reply is
// nil, with the engine at a fixed node budget: the same position gives
// the same reply.
type Exercise struct {
	FEN   string
	Goal  Goal
	Par   int // the solver's moves within which the goal earns full stars
	Limit int // the solver's moves at most; 0 means Par
	Line  []string
	Reply func(pos *game.Position) game.Move
}

// limit returns the most moves the solver may make.
func (ex *Exercise) limit() int {
	if ex.Limit > 0 {
		return ex.Limit
	}
	return max(ex.Par, 1)
}

// Verdict is what a try came to.
type Verdict uint8

const (
	// Illegal: the move is not legal; Result.Err says why, in the
	// game's words. Nothing moved.
	Illegal Verdict = iota + 1
	// Missed: the move is legal but does not solve the exercise;
	// Result.Why says why. The attempt is back at its start.
	Missed
	// Going: the move is good so far, the opponent replied, and the
	// goal is still ahead.
	Going
	// Solved: the goal is met.
	Solved
)

// Why a legal try missed.
type Why uint8

const (
	// OffLine: the move is not the solution's.
	OffLine Why = iota + 1
	// OwnKingFroze: the solver's king froze in an Ice Age (and the
	// solver lost, or drew when both froze).
	OwnKingFroze
	// Lost: the solver was checkmated.
	Lost
	// Ended: the game ended in a draw, or the opponent's king froze
	// along with the solver's, without the goal.
	Ended
	// OutOfMoves: the solver made Limit moves without the goal.
	OutOfMoves
	// NotForced: the opponent has a reply that escapes (a freeze that
	// one reply avoids).
	NotForced
	// OwnManFroze: a man of the solver's, not the king, froze.
	OwnManFroze
	// Filled: the Ice Age filled a square the goal wanted empty.
	Filled
)

// Result is the outcome of one try.
type Result struct {
	Verdict Verdict
	Solver  game.Color // who tried
	// Err is why an Illegal move is not legal: a *game.MoveError, or a
	// *game.SyntaxError for typed text that is no move.
	Err error
	Why Why
	// Move is the try as played, with its SAN (Illegal: only Move.Move).
	Move game.MoveSAN
	// Reply is the opponent's answer, when Replied.
	Reply   game.MoveSAN
	Replied bool
	// IceAge is what an Ice Age of the move or the reply did, if one came.
	IceAge *game.IceAge
	// After is the position after the move (and the reply): for Missed,
	// what went wrong, before the attempt went back to its start.
	After game.Position
}

// Attempt is one player's tries at an exercise. It is a value that the
// moves played so far and the count of wrong tries rebuild (Resume), so a
// front end may keep it anywhere, a button's id included.
type Attempt struct {
	ex     *Exercise
	start  game.Position
	pos    game.Position
	played []game.Move // both sides', since the start or the last miss
	moves  int         // the solver's moves in played
	wrong  int         // wrong tries, illegal ones included
	solved bool
	iceAge *game.IceAge  // the latest Ice Age since the start or the last miss
	taken  game.Bitboard // the squares the solver captured on since then
}

// noteCapture marks the square the solver's move m captures on in pos.
func (a *Attempt) noteCapture(pos *game.Position, m game.Move) {
	if to := m.To(); pos.IsIce(to) || pos.PieceAt(to) != game.NoPiece {
		a.taken |= game.Bit(to)
	}
}

// ErrBadExercise is the error of an exercise that cannot be tried: its
// FEN does not read, or its side to move has no move.
var ErrBadExercise = errors.New("exercise: not a position to solve")

// New starts an attempt at ex.
func New(ex *Exercise) (*Attempt, error) {
	pos, err := game.ParseFEN(ex.FEN)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadExercise, err)
	}
	if pos.Outcome().Over() {
		return nil, fmt.Errorf("%w: %s is over", ErrBadExercise, ex.FEN)
	}
	return &Attempt{ex: ex, start: pos, pos: pos}, nil
}

// Resume rebuilds an attempt from the moves played since its start (both
// sides', UCI) and its count of wrong tries; a move that does not replay,
// or a reply that is not the one the exercise gives, is an error, not a
// try.
func Resume(ex *Exercise, played []string, wrong int) (*Attempt, error) {
	a, err := New(ex)
	if err != nil {
		return nil, err
	}
	if len(played) > 2*ex.limit() {
		return nil, fmt.Errorf("exercise: %d moves played, more than the exercise allows", len(played))
	}
	onLine := true
	for i, u := range played {
		m, err := game.ParseUCI(u)
		if err != nil || !a.pos.IsLegal(m) {
			return nil, fmt.Errorf("exercise: move %d (%q) does not replay", i+1, u)
		}
		if a.pos.Turn() == a.start.Turn() {
			a.moves++
			onLine = onLine && len(ex.Line) > i && ex.Line[i] == u
			a.noteCapture(&a.pos, m)
		} else if want := a.reply(&a.pos, onLine); m != want {
			return nil, fmt.Errorf("exercise: move %d (%q) is not the reply the exercise gives (%v)", i+1, u, want)
		}
		var ev *game.IceAge
		solverMoved := a.pos.Turn() == a.start.Turn()
		a.pos, ev = a.pos.ApplyWithEvent(m)
		if ev != nil {
			a.iceAge = ev
		}
		a.played = append(a.played, m)
		if a.met(&a.pos, solverMoved) {
			return nil, fmt.Errorf("exercise: move %d (%q) solved it already", i+1, u)
		}
	}
	if a.pos.Turn() != a.start.Turn() || a.pos.Outcome().Over() {
		return nil, errors.New("exercise: the moves played do not leave the solver to move")
	}
	a.wrong = max(wrong, 0)
	return a, nil
}

// maxWrong caps the count of wrong tries a State carries.
const maxWrong = 99

// State returns the attempt as a short text that Restore reads back: the
// count of wrong tries, then the moves played since the start, joined by
// dots ("1.a1a4.h8g8"), for a front end that keeps no state of its own.
func (a *Attempt) State() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(min(a.wrong, maxWrong)))
	for _, m := range a.played {
		b.WriteByte('.')
		b.WriteString(m.UCI())
	}
	return b.String()
}

// ErrBadState is the error of a State text that Restore cannot read: it
// was not written by State for this exercise.
var ErrBadState = errors.New("exercise: not a state of this exercise")

// Restore rebuilds an attempt from State's text.
func Restore(ex *Exercise, state string) (*Attempt, error) {
	parts := strings.Split(state, ".")
	if len(state) > 120 || len(parts) > 2*ex.limit()+1 {
		return nil, ErrBadState
	}
	wrong, err := strconv.Atoi(parts[0])
	if err != nil || wrong < 0 || wrong > maxWrong || parts[0] != strconv.Itoa(wrong) {
		return nil, ErrBadState
	}
	a, err := Resume(ex, parts[1:], wrong)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadState, err)
	}
	return a, nil
}

// Exercise returns what is being tried.
func (a *Attempt) Exercise() *Exercise { return a.ex }

// Start returns the exercise's position.
func (a *Attempt) Start() game.Position { return a.start }

// Position returns the position now, the solver to move (unless solved).
func (a *Attempt) Position() game.Position { return a.pos }

// Solver returns the colour that solves.
func (a *Attempt) Solver() game.Color { return a.start.Turn() }

// Played returns the moves played since the start, both sides', in UCI.
func (a *Attempt) Played() []string {
	out := make([]string, len(a.played))
	for i, m := range a.played {
		out[i] = m.UCI()
	}
	return out
}

// Moves returns how many moves the solver has made since the start.
func (a *Attempt) Moves() int { return a.moves }

// Wrong returns how many tries were wrong, illegal ones included.
func (a *Attempt) Wrong() int { return a.wrong }

// Solved reports whether the goal was met.
func (a *Attempt) Solved() bool { return a.solved }

// MaxStars is the most stars an exercise gives.
const MaxStars = 3

// Stars returns what solving earned: three for the goal within Par moves
// and no wrong try, one less for more moves than Par, one less for each
// wrong try, and one at least; zero while unsolved.
func (a *Attempt) Stars() int {
	if !a.solved {
		return 0
	}
	s := MaxStars - a.wrong
	if a.moves > a.ex.Par {
		s--
	}
	return max(s, 1)
}

// TryText tries a move typed as a player types it (SAN or UCI); text
// that is no move is Illegal with a *game.SyntaxError, and is no wrong
// try: a slip of the keyboard costs no star.
func (a *Attempt) TryText(text string) Result {
	if a.solved {
		return Result{Verdict: Illegal, Err: errSolved, Solver: a.Solver(), After: a.pos}
	}
	m, err := game.ParseMove(&a.pos, text)
	var se *game.SyntaxError
	if err != nil && errors.As(err, &se) {
		return Result{Verdict: Illegal, Err: err, Solver: a.Solver(), After: a.pos}
	}
	if err != nil {
		a.wrong++
		return Result{Verdict: Illegal, Err: err, Solver: a.Solver(), After: a.pos}
	}
	return a.play(m)
}

// errSolved refuses a try after the goal was met.
var errSolved = game.NewMoveError(game.GameOver, game.DetailGameOver, "", "the exercise is solved")

// Try tries the move of the man on m.From() to m.To() (promoting to
// m.Promotion()), legal or not: the menus offer every square a man's
// move reaches (Targets) so that a player may learn why one is barred.
func (a *Attempt) Try(m game.Move) Result {
	if a.solved {
		return Result{Verdict: Illegal, Err: errSolved, Solver: a.Solver(), After: a.pos}
	}
	if !a.pos.IsLegal(m) {
		a.wrong++
		// The game's own explanation: the move read as its UCI text.
		_, err := game.ParseMove(&a.pos, m.UCI())
		if err == nil {
			err = game.NewMoveError(game.CannotMoveThatWay, game.DetailNotLegal, m.UCI(), m.UCI()+" is not a legal move here")
		}
		return Result{Verdict: Illegal, Err: err, Solver: a.Solver(), Move: game.MoveSAN{Move: m}, After: a.pos}
	}
	return a.play(m)
}

// play plays the legal move m of the solver and judges it.
func (a *Attempt) play(m game.Move) Result {
	ex := a.ex
	before := a.pos
	r := Result{Solver: a.Solver(), Move: game.MoveSAN{Move: m, SAN: before.SAN(m)}}
	after, ev := before.ApplyWithEvent(m)
	if ev != nil {
		r.IceAge, a.iceAge = ev, ev
	}
	r.After = after
	onLine := len(ex.Line) > len(a.played) && ex.Line[len(a.played)] == m.UCI()
	a.noteCapture(&before, m)
	a.played = append(a.played, m)
	a.moves++
	a.pos = after

	if a.met(&after, true) {
		if ex.Goal.Kind.byReply() && !after.Outcome().Over() {
			// Met whatever the reply: it is shown with its Ice Age.
			reply := a.reply(&after, onLine)
			next, ev2 := after.ApplyWithEvent(reply)
			r.Reply, r.Replied, r.After = game.MoveSAN{Move: reply, SAN: after.SAN(reply)}, true, next
			if ev2 != nil {
				r.IceAge, a.iceAge = ev2, ev2
			}
			a.played = append(a.played, reply)
			a.pos = next
		}
		return a.solve(r)
	}
	if why, over := a.ended(&after); over {
		return a.miss(r, why)
	}
	switch {
	case ex.Goal.Kind == Line && !onLine:
		return a.miss(r, OffLine)
	case ex.Goal.Kind == Line && len(a.played) >= len(ex.Line):
		return a.solve(r)
	case a.moves >= ex.limit() && !ex.Goal.Kind.byReply():
		return a.miss(r, OutOfMoves)
	}
	// The opponent's turn.
	reply := a.reply(&after, onLine)
	if reply == game.NullMove {
		return a.miss(r, Ended)
	}
	r.Reply, r.Replied = game.MoveSAN{Move: reply, SAN: after.SAN(reply)}, true
	next, ev2 := after.ApplyWithEvent(reply)
	if ev2 != nil {
		r.IceAge, a.iceAge = ev2, ev2
	}
	a.played = append(a.played, reply)
	a.pos, r.After = next, next
	if a.met(&next, false) {
		return a.solve(r)
	}
	if why, over := a.ended(&next); over {
		return a.miss(r, why)
	}
	if a.moves >= ex.limit() {
		return a.miss(r, a.whyShort(&after))
	}
	r.Verdict = Going
	return r
}

// whyShort says why the solver's last move, after which the opponent
// was to move in pos, fell short of a goal the reply could have met.
func (a *Attempt) whyShort(pos *game.Position) Why {
	switch k := a.ex.Goal.Kind; {
	case (k == Freeze || k == Win) && a.freezesAnyway(pos):
		return NotForced
	case k == Keep && a.iceAge != nil && a.froze(a.Solver()):
		return OwnManFroze
	case k == Shelter && a.iceAge != nil:
		return Filled
	}
	return OutOfMoves
}

// froze reports whether a man of colour c froze in the latest Ice Age.
func (a *Attempt) froze(c game.Color) bool {
	for _, f := range a.iceAge.Frozen {
		if f.Piece.Color() == c {
			return true
		}
	}
	return false
}

// freezesAnyway reports whether, in pos with the opponent to move before
// an Ice Age, some reply but not every one freezes the opponent's king:
// the freeze was near but not forced.
func (a *Attempt) freezesAnyway(pos *game.Position) bool {
	if !pos.IceAgeNow() {
		return false
	}
	var buf [256]game.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		q := pos.Apply(m)
		if _, ok := q.KingSquare(pos.Turn()); !ok {
			return true
		}
	}
	return false
}

// reply returns the opponent's move in pos: the line's while the solver
// follows it, else Reply's, else the engine's.
func (a *Attempt) reply(pos *game.Position, onLine bool) game.Move {
	ex := a.ex
	if onLine && len(ex.Line) > len(a.played) {
		if m, err := game.ParseUCI(ex.Line[len(a.played)]); err == nil && pos.IsLegal(m) {
			return m
		}
	}
	if ex.Reply != nil {
		if m := ex.Reply(pos); pos.IsLegal(m) {
			return m
		}
	}
	return EngineReply(pos)
}

// replyNodes is the engine's budget for a reply: a fixed node count, not
// a time, so that the same position always gets the same reply.
const replyNodes = 60_000

// EngineReply returns the engine's move in pos at a fixed budget (no
// randomness, no clock): deterministic. NullMove when pos has no move.
func EngineReply(pos *game.Position) game.Move {
	e := engine.New(engine.Options{TableBytes: 1 << 20})
	return e.Search(context.Background(), *pos, engine.Limits{Nodes: replyNodes}).Best
}

// met reports whether pos, reached by the solver's move (solverMoved) or
// by the reply, meets the goal.
func (a *Attempt) met(pos *game.Position, solverMoved bool) bool {
	g := a.ex.Goal
	us := a.Solver()
	o := pos.Outcome()
	won := o.Over() && o.Result == winFor(us)
	switch g.Kind {
	case Take:
		for _, s := range g.Squares {
			if !a.taken.Has(s) {
				return false
			}
		}
		return len(g.Squares) > 0
	case Reach:
		for _, s := range g.Squares {
			if x := pos.PieceAt(s); x != game.NoPiece && x.Color() == us && (g.Man == game.NoKind || x.Kind() == g.Man) {
				return true
			}
		}
		return false
	case Mate:
		return won && o.Reason == game.Checkmate
	case Freeze:
		return won && o.Reason == game.KingFrozen || solverMoved && a.freezeForced(pos)
	case Win:
		return won || solverMoved && a.freezeForced(pos)
	case Draw:
		return o.Over() && o.Result == game.Draw
	case Survive:
		_, alive := pos.KingSquare(us)
		return alive && a.iceAge != nil && !(o.Over() && o.Result == winFor(us.Other()))
	case Check:
		return solverMoved && pos.InCheck()
	case Keep:
		return a.iceAge != nil && !a.froze(us) && !(o.Over() && o.Result == winFor(us.Other()))
	case Shelter:
		if a.iceAge == nil {
			return false
		}
		for _, s := range g.Squares {
			if pos.IsIce(s) || pos.PieceAt(s) != game.NoPiece {
				return false
			}
		}
		return true
	}
	return false
}

// freezeForced reports whether, in pos with the opponent to move and
// the Ice Age coming with that move, every reply freezes the
// opponent's king (and not the solver's).
func (a *Attempt) freezeForced(pos *game.Position) bool {
	if !pos.IceAgeNow() || pos.Outcome().Over() {
		return false
	}
	us := a.Solver()
	var buf [256]game.Move
	moves := pos.LegalMoves(buf[:0])
	if len(moves) == 0 {
		return false
	}
	for _, m := range moves {
		q := pos.Apply(m)
		if o := q.Outcome(); !(o.Result == winFor(us) && o.Reason == game.KingFrozen) {
			return false
		}
	}
	return true
}

// ended returns why pos ends the attempt without the goal: the game is
// over, or the solver's king froze.
func (a *Attempt) ended(pos *game.Position) (Why, bool) {
	o := pos.Outcome()
	if !o.Over() {
		return 0, false
	}
	us := a.Solver()
	if _, alive := pos.KingSquare(us); !alive {
		return OwnKingFroze, true
	}
	if o.Result == winFor(us.Other()) {
		return Lost, true
	}
	return Ended, true
}

func winFor(c game.Color) game.Result {
	if c == game.White {
		return game.WhiteWins
	}
	return game.BlackWins
}

// solve marks the attempt solved.
func (a *Attempt) solve(r Result) Result {
	a.solved = true
	r.Verdict = Solved
	return r
}

// miss counts a wrong try and takes the attempt back to its start.
func (a *Attempt) miss(r Result, why Why) Result {
	a.wrong++
	a.pos, a.played, a.moves, a.iceAge, a.taken = a.start, nil, 0, nil, 0
	r.Verdict, r.Why = Missed, why
	return r
}

// Men returns the squares of the solver's men that a front end offers
// to move: all of them, those with no legal move too, since a lesson
// teaches why a man cannot move. Kings first, then by kind and square.
func Men(pos *game.Position) []game.Square {
	us := pos.Turn()
	sq := pos.Men(us).Squares()
	slices.SortStableFunc(sq, func(x, y game.Square) int {
		kx, ky := pos.PieceAt(x).Kind(), pos.PieceAt(y).Kind()
		if kx != ky {
			return int(ky) - int(kx)
		}
		return int(x) - int(y)
	})
	return sq
}

// Target is a square a man's move reaches, and the move that goes there
// (promoting to a queen on the last rank), legal or not.
type Target struct {
	Move  game.Move
	Legal bool
}

// Targets returns every square that the man on from reaches by the shape
// of its move, whatever stands in the way (men of the mover's own
// excepted), and its castling moves: the menu of a lesson, where a
// blocked square is there to be tried and explained. Legal moves come
// first, each group by square; a pawn reaching the last rank is offered
// once, as a queen (its other promotions are legal moves too, offered
// when legal).
func Targets(pos *game.Position, from game.Square) []Target {
	x := pos.PieceAt(from)
	if x == game.NoPiece || x.Color() != pos.Turn() {
		return nil
	}
	legal := map[game.Move]bool{}
	var buf [256]game.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		if m.From() == from {
			legal[m] = true
		}
	}
	var out []Target
	seen := map[game.Move]bool{}
	add := func(m game.Move) {
		if !seen[m] {
			seen[m] = true
			out = append(out, Target{Move: m, Legal: legal[m]})
		}
	}
	for m := range legal {
		add(m)
	}
	for _, to := range shape(x, from) {
		if y := pos.PieceAt(to); y != game.NoPiece && y.Color() == x.Color() {
			continue
		}
		promo := game.NoKind
		if x.Kind() == game.Pawn && (to.Rank() == 0 || to.Rank() == 7) {
			promo = game.Queen
		}
		add(game.NewMove(from, to, promo))
	}
	slices.SortFunc(out, func(p, q Target) int {
		if p.Legal != q.Legal {
			if p.Legal {
				return -1
			}
			return 1
		}
		if p.Move.To() != q.Move.To() {
			return int(p.Move.To()) - int(q.Move.To())
		}
		return int(q.Move.Promotion()) - int(p.Move.Promotion())
	})
	return out
}

// shape returns the squares the man x on from would reach on an empty
// board (a pawn: its push, its double step from its first square and
// its two captures).
func shape(x game.Piece, from game.Square) []game.Square {
	f, r := from.File(), from.Rank()
	var out []game.Square
	at := func(df, dr int) bool {
		nf, nr := f+df, r+dr
		if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
			return false
		}
		out = append(out, game.SquareAt(nf, nr))
		return true
	}
	slide := func(dirs [][2]int) {
		for _, d := range dirs {
			for i := 1; at(d[0]*i, d[1]*i); i++ {
			}
		}
	}
	straight := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	diagonal := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	switch x.Kind() {
	case game.Pawn:
		fwd, start := 1, 1
		if x.Color() == game.Black {
			fwd, start = -1, 6
		}
		at(0, fwd)
		if r == start {
			at(0, 2*fwd)
		}
		at(-1, fwd)
		at(1, fwd)
	case game.Knight:
		for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			at(d[0], d[1])
		}
	case game.Bishop:
		slide(diagonal)
	case game.Rook:
		slide(straight)
	case game.Queen:
		slide(append(straight, diagonal...))
	case game.King:
		for _, d := range append(straight, diagonal...) {
			at(d[0], d[1])
		}
	}
	return out
}
