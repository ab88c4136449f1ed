package play

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Limits of a queue of conditional moves: enough for every sensible
// plan, small enough that a queue never weighs on a move.
const (
	// MaxPremoveLines is how many lines a queue holds.
	MaxPremoveLines = 12
	// MaxPremovePlies is how long a line is, in plies: ten replies.
	MaxPremovePlies = 20
)

// Premove queues conditional moves in the game a names: the asker, who
// has just moved, answers the opponent's expected moves in advance. Each
// line is a sequence of moves in any notation game.ParseMove reads: an
// opponent's move, the asker's reply, the opponent's next move, and so
// on; lines that start alike branch where the opponent's moves differ.
// The lines replace the asker's queue; none clears it.
//
// When the opponent then plays the first move of a line, the reply is
// played at once, in the same transaction as that move (Move reports it
// in Result.Conditional), and the rest of the lines that matched stays
// queued; any other move drops the queue. A takeback or the end of the
// game drops it too. Every line is checked here, Ice Ages included, so a
// queued reply is legal when its turn comes.
//
// The queue is private to the asker: it is stored in Game.Premoves, but
// it does not change Game.Revision, so the opponent's buttons stay valid
// and nothing tells them a queue exists. Result.Event is Queued.
//
// Refusals: those of every act; YourTurn (the asker is to move: there
// is nothing to answer yet); TooManyPremoves (more than MaxPremoveLines
// lines, or a line longer than MaxPremovePlies; Refusal.Line names it);
// NotAMove and IllegalMove (as Move's, with Refusal.Line); NoReply (a
// line ends with an opponent's move, answered by nothing); PremoveConflict
// (a line answers an opponent's move with another reply than an earlier
// line; Refusal.Line names the later).
func (s *Service) Premove(ctx context.Context, a Act, lines [][]string) (Result, error) {
	if a.At.IsZero() {
		return Result{}, errNoTime
	}
	var r Result
	err := s.st.Update(ctx, func(tx Tx) error {
		g, me, err := actOn(tx, a)
		if err != nil {
			return err
		}
		if g.Turn() == me {
			return refuse(YourTurn, &g)
		}
		q, err := parseLines(&g, lines)
		if err != nil {
			return err
		}
		g.Premoves = nil
		if len(q) > 0 {
			g.Premoves = &Premoves{By: a.By, Lines: q}
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		r = Result{Game: g, Event: Queued}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return r, nil
}

// parseLines reads lines of moves from g's position into UCI, checks
// each, and returns them without duplicates or lines another contains.
func parseLines(g *Game, lines [][]string) ([][]string, error) {
	if len(lines) > MaxPremoveLines {
		x := refuse(TooManyPremoves, g)
		x.Line = MaxPremoveLines + 1
		return nil, x
	}
	start, err := g.Position()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for i, line := range lines {
		if len(line) > MaxPremovePlies {
			x := refuse(TooManyPremoves, g)
			x.Line = i + 1
			return nil, x
		}
		pos := start
		ucis := make([]string, 0, len(line))
		for _, text := range line {
			text = strings.TrimSpace(text)
			mv, err := game.ParseMove(&pos, text)
			if err != nil {
				x := moveRefusal(g, &pos, text, err)
				if r, ok := x.(*Refusal); ok {
					r.Line = i + 1
				}
				return nil, x
			}
			ucis = append(ucis, mv.UCI())
			pos, _ = pos.ApplyWithEvent(mv)
		}
		if len(ucis)%2 == 1 {
			x := refuse(NoReply, g)
			x.Line = i + 1
			return nil, x
		}
		for _, prev := range out {
			if k := divergence(prev, ucis); k >= 0 && k%2 == 1 {
				x := refuse(PremoveConflict, g)
				x.Line = i + 1
				return nil, x
			}
		}
		if len(ucis) > 0 {
			out = append(out, ucis)
		}
	}
	return prune(out), nil
}

// divergence returns the first index at which a and b differ, or -1 if
// one starts the other. An even index is an opponent's move, where lines
// may branch; an odd one is a reply, where they must not.
func divergence(a, b []string) int {
	for k := range min(len(a), len(b)) {
		if a[k] != b[k] {
			return k
		}
	}
	return -1
}

// prune drops the lines that another line starts with (or repeats): the
// longer line answers everything they do.
func prune(lines [][]string) [][]string {
	var out [][]string
	for i, l := range lines {
		covered := false
		for j, m := range lines {
			if i != j && len(m) >= len(l) && slices.Equal(m[:len(l)], l) && (len(m) > len(l) || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, l)
		}
	}
	return out
}

// answer plays the reply that q queued to the move just played, if any,
// and keeps the rest of the lines that matched; otherwise it drops q.
func (g *Game) answer(q *Premoves, played *MovePlayed, at time.Time) *Conditional {
	g.Premoves = nil
	c := &Conditional{By: q.By}
	if q.By == g.ToMove().ID {
		var reply string
		var rest [][]string
		for _, l := range q.Lines {
			if l[0] != played.UCI {
				continue
			}
			if len(l) > 1 {
				reply = l[1]
			}
			if len(l) > 2 {
				rest = append(rest, l[2:])
			}
		}
		pos := played.After
		if mv, err := game.ParseUCI(reply); err == nil && reply != "" && pos.IsLegal(mv) {
			if g.Clock != nil {
				// Played the moment the move it answers arrived: it
				// costs no time and earns the increment.
				g.Clock.moved(pos.Turn(), at, time.Time{})
			}
			c.Reply = g.play(&pos, mv, at)
			if len(rest) > 0 && !g.Over() {
				g.Premoves = &Premoves{By: q.By, Lines: rest}
				c.Left = len(rest)
			}
		}
	}
	return c
}
