package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Away is a player's vacation as Vacation left it.
type Away struct {
	From  time.Time // when it began; zero once back
	Until time.Time // when it ends; when the player came back, if back
	Back  bool      // the player came back (Vacation with 0 days)
	// Left is how many days of the year's allowance are left.
	Left int
	// Games are the player's active games whose deadline moved.
	Games []Game
	// Playing are all the player's active games as the vacation left
	// them, and Opponents the settings of their opponents, as its
	// transaction read them: whom to tell, and how, is decided from
	// these (package round).
	Playing   []Game
	Opponents map[string]Prefs
}

// Vacation sends the user on vacation for days from at, or extends the
// vacation they are on by days; with days 0 it brings them back early.
// A vacation pauses the user's clock in all their games: where they are
// to move, the deadline moves by the vacation's length (the time they
// had left is kept), and a deadline set while they are away counts from
// its end. Game.AwayUntil and Prefs.AwayUntil show it.
//
// Each user has Options.VacationDays a year (the calendar year of at, in
// UTC), counted when taken; coming back early gives back the whole days
// unused, and moves the deadlines back by the time not taken. Moving
// while away is allowed and does not end the vacation. Nothing here
// bumps a game's revision: no player acted on the game.
//
// Refusals: NoVacationLeft (Refusal.Left days left, fewer than
// Refusal.Days), NotOnVacation (0 days while not away).
func (s *Service) Vacation(ctx context.Context, user string, days int, at time.Time) (Away, error) {
	if at.IsZero() || user == "" || days < 0 {
		return Away{}, fmt.Errorf("play: a vacation needs a user, a time and days ≥ 0 (got %q, %v, %d)", user, at, days)
	}
	at = normTime(at)
	var out Away
	err := s.st.Update(ctx, func(tx Tx) error {
		p, err := tx.Prefs(user)
		if err != nil {
			return err
		}
		if p.VacationYear != at.Year() {
			p.VacationYear, p.VacationUsed = at.Year(), 0
		}
		var shift time.Duration
		out = Away{}
		if days == 0 {
			if !p.Away(at) {
				return &Refusal{Kind: NotOnVacation}
			}
			unused := p.AwayUntil.Sub(at)
			p.VacationUsed = max(0, p.VacationUsed-int(unused/(24*time.Hour)))
			shift = -unused
			p.AwayFrom, p.AwayUntil = time.Time{}, at
			out.Back = true
		} else {
			if left := s.opts.VacationDays - p.VacationUsed; days > left {
				return &Refusal{Kind: NoVacationLeft, Days: days, Left: max(0, left)}
			}
			shift = time.Duration(days) * 24 * time.Hour
			if !p.Away(at) {
				p.AwayFrom, p.AwayUntil = at, at
			}
			p.AwayUntil = p.AwayUntil.Add(shift)
			p.VacationUsed += days
		}
		out.From, out.Until = p.AwayFrom, p.AwayUntil
		out.Left = s.opts.VacationDays - p.VacationUsed
		games, err := tx.ActiveGames(user)
		if err != nil {
			return err
		}
		out.Opponents = map[string]Prefs{}
		for _, g := range games {
			c, _ := g.ColorOf(user)
			opp := g.Seat(c.Other()).ID
			if _, ok := out.Opponents[opp]; !ok && g.Engine[c.Other()] == 0 {
				op, err := tx.Prefs(opp)
				if err != nil {
					return err
				}
				out.Opponents[opp] = op
			}
			g.AwayUntil[c] = p.AwayUntil
			if g.Turn() == c && g.Flag == nil && g.Clock == nil && g.Deadline.After(at) {
				g.Deadline = g.Deadline.Add(shift)
				if err := s.planReminders(tx, &g, at); err != nil {
					return err
				}
				out.Games = append(out.Games, g)
			}
			if err := tx.PutGame(g); err != nil {
				return err
			}
			out.Playing = append(out.Playing, g)
		}
		return tx.PutPrefs(user, p)
	})
	if err != nil {
		return Away{}, err
	}
	return out, nil
}

// Prefs returns the user's settings (the zero Prefs if they set none).
func (s *Service) Prefs(ctx context.Context, user string) (Prefs, error) {
	var p Prefs
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		p, err = tx.Prefs(user)
		return err
	})
	return p, err
}

// Languages are the values Prefs.Language takes ("" follows the front
// end's guess).
var Languages = []string{"en", "fr", "ru", "nb", "es", "nl"}

// Themes are the values Prefs.Theme takes besides "" (the front end's
// default): the board themes of package render, by name.
var Themes = []string{"classic", "colorblind"}

// Ways to notify a player of their turn (Prefs.Notifications).
const (
	NotifyMention = "mention" // a mention where the game is played (the default, "")
	NotifyDM      = "dm"      // a direct message
	NotifyNone    = "none"    // nothing
)

// MaxReminders is how many reminders a player may ask for; 336 hours (two
// weeks, the longest time per move) is the longest.
const (
	MaxReminders     = 4
	MaxReminderHours = 14 * 24
)

// SetPrefs stores the user's settings from p: Language, Notifications,
// Theme and Reminders (nil: the defaults; empty: none); the vacation's
// bookkeeping stays as it is, and DMRefused is cleared, so that direct
// messages are tried again. Reminders are put longest first without
// repeats, and the next reminder of every game where the user is to move
// follows them at once (reminders already sent stay sent).
//
// Refusals: BadSettings.
func (s *Service) SetPrefs(ctx context.Context, user string, p Prefs, at time.Time) (Prefs, error) {
	if user == "" || at.IsZero() {
		return Prefs{}, errors.New("play: settings need a user and a time")
	}
	if p.Language != "" && !slices.Contains(Languages, p.Language) {
		return Prefs{}, &Refusal{Kind: BadSettings}
	}
	switch p.Notifications {
	case "", NotifyMention, NotifyDM, NotifyNone:
	default:
		return Prefs{}, &Refusal{Kind: BadSettings}
	}
	if p.Theme != "" && !slices.Contains(Themes, p.Theme) {
		return Prefs{}, &Refusal{Kind: BadSettings}
	}
	if len(p.Reminders) > MaxReminders {
		return Prefs{}, &Refusal{Kind: BadSettings}
	}
	var hours []int
	if p.Reminders != nil {
		hours = make([]int, 0, len(p.Reminders))
		for _, h := range p.Reminders {
			if h < 1 || h > MaxReminderHours {
				return Prefs{}, &Refusal{Kind: BadSettings}
			}
			hours = append(hours, h)
		}
		slices.Sort(hours)
		slices.Reverse(hours)
		hours = slices.Compact(hours)
	}
	at = normTime(at)
	var out Prefs
	err := s.st.Update(ctx, func(tx Tx) error {
		old, err := tx.Prefs(user)
		if err != nil {
			return err
		}
		out = old
		out.Language, out.Notifications, out.Theme, out.Reminders = p.Language, p.Notifications, p.Theme, hours
		out.DMRefused = time.Time{}
		if err := tx.PutPrefs(user, out); err != nil {
			return err
		}
		games, err := tx.ActiveGames(user)
		if err != nil {
			return err
		}
		for _, g := range games {
			if g.ToMove().ID != user || g.Deadline.IsZero() {
				continue
			}
			before := g.RemindAt
			if err := s.planReminders(tx, &g, at); err != nil {
				return err
			}
			if !g.RemindAt.Equal(before) {
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return Prefs{}, err
	}
	return out, nil
}

// NoteDMRefused records that a direct message to the user was refused at
// at (Prefs.DMRefused), so that front ends fall back to a mention.
func (s *Service) NoteDMRefused(ctx context.Context, user string, at time.Time) error {
	return s.st.Update(ctx, func(tx Tx) error {
		p, err := tx.Prefs(user)
		if err != nil {
			return err
		}
		p.DMRefused = normTime(at)
		return tx.PutPrefs(user, p)
	})
}
