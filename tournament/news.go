package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// NewsKind says what a tournament's task did that its players are to be
// told; a front end says it in its own words.
type NewsKind uint8

const (
	// NewsNone: nothing to tell — the task was done already (it ran
	// twice, or the round it closes ended on its own), or its time has
	// not come.
	NewsNone NewsKind = iota
	// NewsRound: the current round is paired and its games started: its
	// pairings are to be told. Each game's first board is in the outbox
	// already, written with the game.
	NewsRound
	// NewsFinal: the tournament is over: its final standings.
	NewsFinal
	// NewsTooFewPlayers: the start at its time found too few players;
	// the tournament still takes sign-ups, and its organiser may start it.
	NewsTooFewPlayers
	// NewsNoPairing: no legal pairing is left for the next round; the
	// organiser must finish it or change its players.
	NewsNoPairing
)

// News is what a task did, and the tournament as it left it.
type News struct {
	Kind       NewsKind
	Tournament *Tournament
}

// RunTask does a tournament's task from the outbox — the start at its
// time, the next round once one is over, a round's closing, the games a
// round could not start at once — and returns what there is to tell.
// Running a task twice does no harm: the second finds it done (NewsNone,
// or the same news again, which a front end tells once by its own key).
// An error with news: the news stands (games started), and the task is
// to be tried again for the rest.
func (r *Runner) RunTask(ctx context.Context, k Task, now time.Time) (News, error) {
	var t *Tournament
	var err error
	switch k.What {
	case TaskStart:
		t, err = r.Start(ctx, k.Tournament, "", now)
		if errors.Is(err, ErrTooFewPlayers) {
			return r.news(ctx, k.Tournament, NewsTooFewPlayers)
		}
	case TaskAdvance:
		t, _, err = r.Advance(ctx, k.Tournament, now)
	case TaskGames:
		// Games a round could not start at once (no thread, say): start
		// them; the round's pairings were not told, the start having
		// failed before.
		cur, err := r.Get(ctx, k.Tournament)
		if err != nil || cur.Status != Running || len(cur.Played) != k.Round {
			return News{}, err
		}
		started, serr := r.StartGames(ctx, k.Tournament, now)
		if len(started) == 0 {
			return News{}, serr
		}
		n, err := r.news(ctx, k.Tournament, NewsRound)
		if err != nil {
			return News{}, err
		}
		return n, serr
	case TaskClose:
		cur, err := r.Get(ctx, k.Tournament)
		if err != nil || len(cur.Played) != k.Round {
			return News{}, err // the round this task closes ended on its own
		}
		t, _, err = r.CloseRound(ctx, k.Tournament, now)
		if err != nil {
			return r.afterError(ctx, k, err, now)
		}
	default:
		return News{}, fmt.Errorf("tournament: a task %q", k.What)
	}
	if err != nil {
		return r.afterError(ctx, k, err, now)
	}
	return r.told(ctx, t.ID, now)
}

// afterError reads what a task's refusal says: done already, no pairing,
// or not yet.
func (r *Runner) afterError(ctx context.Context, k Task, err error, now time.Time) (News, error) {
	switch {
	case errors.Is(err, ErrRoundUnderway), errors.Is(err, ErrNotRunning), errors.Is(err, ErrNotSigningUp):
		// Done already: a task run twice, or a close after the round's
		// end. Its news is told again, once by its key.
		return r.told(ctx, k.Tournament, now)
	case errors.Is(err, ErrNoPairing):
		return r.news(ctx, k.Tournament, NewsNoPairing)
	case errors.Is(err, ErrNotYet):
		return News{}, nil // a close task of a round that ended on its own
	}
	return News{}, err
}

// told starts what games of the current round have not started and
// returns the news of the tournament's state: its round, or its end.
func (r *Runner) told(ctx context.Context, id uint64, now time.Time) (News, error) {
	if _, err := r.StartGames(ctx, id, now); err != nil {
		return News{}, err
	}
	t, err := r.Get(ctx, id)
	if err != nil {
		return News{}, err
	}
	switch {
	case t.Status == Finished:
		return News{Kind: NewsFinal, Tournament: t}, nil
	case t.Status == Running && len(t.Played) > 0:
		return News{Kind: NewsRound, Tournament: t}, nil
	}
	return News{Tournament: t}, nil
}

// news returns news of kind about tournament id as stored.
func (r *Runner) news(ctx context.Context, id uint64, kind NewsKind) (News, error) {
	t, err := r.Get(ctx, id)
	if err != nil {
		return News{}, err
	}
	return News{Kind: kind, Tournament: t}, nil
}
