package play

import (
	"context"
	"slices"
	"time"
)

// Reminder is a reminder claimed for sending: the player to move in Game
// has Hours left before Deadline.
type Reminder struct {
	Game Game // the game after the claim
	To   Seat // the player to remind: the side to move
	// Hours is the reminder claimed, in hours before the deadline; 0 when
	// none was due after all (the player changed their reminders), and
	// there is nothing to send.
	Hours    int
	Due      time.Time // when it fell due: Deadline less Hours
	Deadline time.Time
	// Prefs are To's settings as the claim's transaction read them: how
	// they are told is decided from these (package round).
	Prefs Prefs
}

// Remind claims the reminder of game id that is due at now, in one
// transaction, before the caller sends it: the claim is written first,
// so a reminder is never sent twice, even when the program stops between
// the claim and the sending (it is then lost instead). When several fell
// due (the program was down), they are claimed together and the one
// closest to the deadline is returned. Game.RemindAt moves to the next
// reminder; a move clears them all.
//
// The claim is bookkeeping, not a change a player makes: it does not
// bump Game.Revision, so buttons on the current board stay valid. A
// reminder whose deadline has passed as well is still claimed; the
// caller should leave it unsent (TimeOut speaks for it).
//
// Refusals: NoGame, GameOver, NotYetDue (no reminder is due at now;
// Refusal.Deadline is when the next one is).
func (s *Service) Remind(ctx context.Context, id uint64, now time.Time) (Reminder, error) {
	now = normTime(now)
	var r Reminder
	err := s.st.Update(ctx, func(tx Tx) error {
		g, err := dueGame(tx, id, now, func(g *Game) time.Time { return g.RemindAt })
		if err != nil {
			return err
		}
		p, err := tx.Prefs(g.ToMove().ID)
		if err != nil {
			return err
		}
		hours := s.hoursFor(&p, &g)
		r = Reminder{To: g.ToMove(), Deadline: g.Deadline, Prefs: p}
		for _, h := range hours {
			if !g.Deadline.Add(-time.Duration(h)*time.Hour).After(now) && !slices.Contains(g.Reminded, h) {
				g.Reminded = append(g.Reminded, h)
				r.Hours = h // the last is the shortest: the closest to the deadline
			}
		}
		if r.Hours > 0 {
			r.Due = g.Deadline.Add(-time.Duration(r.Hours) * time.Hour)
		}
		if err := s.planReminders(tx, &g, now); err != nil {
			return err
		}
		if err := tx.PutGame(g); err != nil {
			return err
		}
		r.Game = g
		return nil
	})
	if err != nil {
		return Reminder{}, err
	}
	return r, nil
}
