package tournament

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// Runner runs tournaments on play: their records live in play's storage
// and their games start as acts of the round (round.Round.StartWith), so
// that a tournament's games are ordinary games — moves, clocks,
// reminders, ratings, first boards and whom they tell, all in the
// outbox. Give play the OnEnd hook below so that a game's end records
// its result in the tournament.
type Runner struct {
	Round *round.Round
	// Channel makes the place where a board's game is played (a thread)
	// before the game starts.
	Channel func(ctx context.Context, t *Tournament, board int) (string, error)
	// MaxPlayers is the MaxPlayers of the tournaments Create makes that
	// set none; 0 means DefaultMaxPlayers.
	MaxPlayers int
	// Lot draws the top seed's colour in round 1 (White or Black, each
	// half the time) when a tournament starts; the caller owns the
	// randomness, seeded as it likes. nil gives the top seed White.
	Lot func() Color
}

// st is the storage of the round's games, which keeps the tournaments.
func (r *Runner) st() play.Storage { return r.Round.Service().Storage() }

func load(tx play.ReadTx, id uint64) (*Tournament, error) {
	rec, err := tx.Tournament(id)
	if err != nil {
		return nil, err
	}
	return FromRecord(rec)
}

// save stores t and the tasks its state makes due.
func save(tx play.Tx, t *Tournament, now time.Time) error {
	rec, err := t.Stored()
	if err != nil {
		return err
	}
	if err := tx.PutTournament(rec); err != nil {
		return err
	}
	return tasks(tx, t, now)
}

// Get returns the stored tournament.
func (r *Runner) Get(ctx context.Context, id uint64) (*Tournament, error) {
	var t *Tournament
	err := r.st().View(ctx, func(tx play.ReadTx) error {
		var err error
		t, err = load(tx, id)
		return err
	})
	return t, err
}

// List returns a guild's tournaments, newest first.
func (r *Runner) List(ctx context.Context, guild string) ([]*Tournament, error) {
	var out []*Tournament
	err := r.st().View(ctx, func(tx play.ReadTx) error {
		recs, err := tx.Tournaments(guild)
		for _, rec := range recs {
			t, err := FromRecord(rec)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return err
	})
	return out, err
}

// Create stores a new tournament taking sign-ups and gives it its id;
// one with a StartAt gets its start task.
func (r *Runner) Create(ctx context.Context, t Tournament, now time.Time) (*Tournament, error) {
	if t.System != Swiss && t.System != RoundRobin {
		return nil, fmt.Errorf("a tournament is Swiss or round-robin, not system %d", t.System)
	}
	if t.System == Swiss && (t.Rounds < 1 || t.Rounds > maxTRFRounds) {
		return nil, fmt.Errorf("a Swiss has 1 to %d rounds, not %d", maxTRFRounds, t.Rounds)
	}
	t.Status, t.Members, t.Played = SigningUp, nil, nil
	if t.MaxPlayers <= 0 {
		t.MaxPlayers = r.MaxPlayers
	}
	err := r.st().Update(ctx, func(tx play.Tx) error {
		id, err := tx.NextID()
		if err != nil {
			return err
		}
		t.ID = id
		return save(tx, &t, now)
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// Do runs fn on the stored tournament in one transaction and stores what
// fn made of it, with the tasks it makes due; an error from fn changes
// nothing.
func (r *Runner) Do(ctx context.Context, id uint64, now time.Time, fn func(t *Tournament) error) (*Tournament, error) {
	var t *Tournament
	err := r.st().Update(ctx, func(tx play.Tx) error {
		var err error
		if t, err = load(tx, id); err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
		return save(tx, t, now)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// errChanged: the tournament changed between the snapshot a pairing was
// made from and its write.
var errChanged = errors.New("tournament: changed while it was paired")

// pairAttempts is how often DoPairing pairs again a tournament that
// changed meanwhile (a player joined, say) before it gives up.
const pairAttempts = 5

// DoPairing is Do for what pairs a round (Tournament.Start, Next):
// pairing a large Swiss takes seconds, and in a write transaction every
// other write of the storage, every move in every server, would wait
// for it. So fn runs on a snapshot, read outside any write, and what it
// made of it is written only if the stored tournament is still the
// snapshot, byte for byte; if it changed meanwhile, fn runs again on a
// new snapshot.
func (r *Runner) DoPairing(ctx context.Context, id uint64, now time.Time, fn func(t *Tournament) error) (*Tournament, error) {
	st := r.st()
	for attempt := 1; ; attempt++ {
		var snap play.TournamentRecord
		err := st.View(ctx, func(tx play.ReadTx) (err error) {
			snap, err = tx.Tournament(id)
			return err
		})
		if err != nil {
			return nil, err
		}
		t, err := FromRecord(snap)
		if err != nil {
			return nil, err
		}
		if err := fn(t); err != nil {
			return nil, err
		}
		err = st.Update(ctx, func(tx play.Tx) error {
			cur, err := tx.Tournament(id)
			if err != nil {
				return err
			}
			if !bytes.Equal(cur.Body, snap.Body) {
				return errChanged
			}
			if err := tellBye(tx, t, now); err != nil {
				return err
			}
			return save(tx, t, now)
		})
		switch {
		case err == nil:
			return t, nil
		case errors.Is(err, errChanged) && attempt < pairAttempts:
			continue
		default:
			return nil, err
		}
	}
}

// Start starts the tournament (by its organiser, or by "" at its time),
// pairs round 1 and starts its games.
func (r *Runner) Start(ctx context.Context, id uint64, by string, now time.Time) (*Tournament, error) {
	if _, err := r.DoPairing(ctx, id, now, func(t *Tournament) error {
		if t.TopColor == NoColor && r.Lot != nil {
			t.TopColor = r.Lot()
		}
		_, err := t.Start(by, now)
		return err
	}); err != nil {
		return nil, err
	}
	if _, err := r.StartGames(ctx, id, now); err != nil {
		return nil, err
	}
	return r.Get(ctx, id)
}

// tellBye decides, in the pairing's transaction, how the player with the
// current round's bye is told of it, from their settings, as any game's
// player is told of their game.
func tellBye(tx play.ReadTx, t *Tournament, now time.Time) error {
	if t.Status != Running || len(t.Played) == 0 {
		return nil
	}
	r := &t.Played[len(t.Played)-1]
	if r.Bye < 0 || r.ByeTold != nil {
		return nil
	}
	tl, err := round.TellOf(tx, t.Members[r.Bye].ID, &play.Game{Guild: t.Guild, Channel: t.Channel}, round.Bye, now)
	if err != nil {
		return fmt.Errorf("tournament %d: reading the settings of the player with the bye: %w", t.ID, err)
	}
	r.ByeTold = &tl
	return nil
}

var errStartedAlready = errors.New("tournament: the board's game started already")

// StartGames starts the games of the current round that have not started:
// each game in one transaction with the tournament's record of it, so
// that a board gets exactly one game, whatever fails or runs twice.
func (r *Runner) StartGames(ctx context.Context, id uint64, now time.Time) ([]play.Game, error) {
	t, err := r.Get(ctx, id)
	if err != nil || t.Status != Running || len(t.Played) == 0 {
		return nil, err
	}
	k := len(t.Played) - 1
	var started []play.Game
	for i, b := range t.Played[k].Boards {
		if b.GameID != 0 || b.Outcome != Pending {
			continue
		}
		ch, err := r.Channel(ctx, t, i)
		if err != nil {
			return started, fmt.Errorf("tournament %d round %d board %d: %w", id, k+1, i+1, err)
		}
		w, bl := t.Members[b.White], t.Members[b.Black]
		out, err := r.Round.StartWith(ctx, play.NewGame{
			Guild: t.Guild, Channel: ch, Tournament: t.ID,
			White: play.Seat{ID: w.ID, Name: w.Name}, Black: play.Seat{ID: bl.ID, Name: bl.Name},
			Rated: t.Rated, DaysPerMove: t.DaysPerMove, Time: t.Time, At: now,
		}, func(tx play.Tx, g *play.Game) error {
			cur, err := load(tx, id)
			if err != nil {
				return err
			}
			if len(cur.Played) != k+1 || cur.Played[k].Boards[i].GameID != 0 {
				return errStartedAlready
			}
			cur.Played[k].Boards[i].GameID = g.ID
			return save(tx, cur, now)
		})
		if errors.Is(err, errStartedAlready) {
			continue
		}
		if err != nil {
			return started, fmt.Errorf("tournament %d round %d board %d: %w", id, k+1, i+1, err)
		}
		started = append(started, out.Game)
	}
	return started, nil
}

// OnEnd is the hook for play.Options.OnEnd: the end of a game of a
// tournament's current round records its result there, in the game's
// own transaction. A game of an earlier round, or one adjudicated when
// its round closed, changes nothing.
func OnEnd(tx play.Tx, g *play.Game) error {
	id, err := tx.TournamentOf(g.ID)
	if errors.Is(err, play.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	t, err := load(tx, id)
	if err != nil || t.Status != Running || len(t.Played) == 0 {
		return err
	}
	r := &t.Played[len(t.Played)-1]
	for i, b := range r.Boards {
		if b.GameID != g.ID || b.Outcome != Pending {
			continue
		}
		if err := t.Record(i, boardOutcome(g)); err != nil {
			return err
		}
		return save(tx, t, g.Ended)
	}
	return nil
}

// boardOutcome is a finished game's result for its board, from White's
// side. A player who lost on time, or by the round's adjudication,
// without ever having moved did not come: the game is lost by forfeit,
// which the pairing counts as not played (the two may meet again, and
// it gives no colour) and the TRF writes as + and -.
func boardOutcome(g *play.Game) Outcome {
	o := whiteOutcome(g.Outcome)
	if r := g.Outcome.Reason; r != game.Timeout && r != game.Adjudicated {
		return o
	}
	switch {
	case o == Win && !moved(g, game.Black):
		return ForfeitWin
	case o == Loss && !moved(g, game.White):
		return ForfeitLoss
	}
	return o
}

// moved tells whether colour c made a move in g.
func moved(g *play.Game, c game.Color) bool {
	first := g.Turn()
	if len(g.Moves)%2 == 1 {
		first = first.Other()
	}
	if c == first {
		return len(g.Moves) >= 1
	}
	return len(g.Moves) >= 2
}

// whiteOutcome is a finished game's result from White's side. An
// aborted game (no result; a tournament's games cannot be aborted, but a
// record may say so) counts as a draw so that the round can end.
func whiteOutcome(o game.Outcome) Outcome {
	if w, decisive := o.Winner(); decisive {
		if w == game.White {
			return Win
		}
		return Loss
	}
	return Draw
}

// Advance pairs the next round once the current one is over and starts
// its games, or finishes the tournament after its last round.
func (r *Runner) Advance(ctx context.Context, id uint64, now time.Time) (*Tournament, []play.Game, error) {
	t, err := r.DoPairing(ctx, id, now, func(t *Tournament) error { _, err := t.Next(now); return err })
	if err != nil {
		return nil, nil, err
	}
	if t.Status == Finished {
		return t, nil, nil
	}
	games, err := r.StartGames(ctx, id, now)
	if err != nil {
		return nil, games, err
	}
	t, err = r.Get(ctx, id)
	return t, games, err
}

// CloseRound scores the unfinished games of a round whose closing time
// has come, as the organiser chose, and advances. Each game still going
// on ends as an act of the round (round.Round.Adjudicate), in its own
// transaction, with its board and whom to tell, and its result reaches
// the tournament as any game's end does (OnEnd); a board whose game never
// started is scored in the tournament alone.
func (r *Runner) CloseRound(ctx context.Context, id uint64, now time.Time) (*Tournament, []play.Game, error) {
	t, err := r.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if t.Status != Running || len(t.Played) == 0 {
		return nil, nil, ErrNotRunning
	}
	k := len(t.Played) - 1
	if c := t.Played[k].Closes; c.IsZero() || now.Before(c) {
		return nil, nil, fmt.Errorf("%w: the round closes at %v", ErrNotYet, c)
	}
	for i, b := range t.Played[k].Boards {
		if b.Outcome != Pending || b.GameID == 0 {
			continue
		}
		_, err := r.Round.Adjudicate(ctx, b.GameID, func(g *play.Game) game.Result {
			return t.adjudicated(g.Turn()).result()
		}, now)
		var x *play.Refusal
		if errors.As(err, &x) && x.Kind == play.GameOver {
			continue // it ended meanwhile, and its end was recorded then
		}
		if err != nil {
			return nil, nil, fmt.Errorf("tournament %d round %d board %d: adjudicating game %d: %w", id, k+1, i+1, b.GameID, err)
		}
	}
	err = r.st().Update(ctx, func(tx play.Tx) error {
		t, err := load(tx, id)
		if err != nil {
			return err
		}
		if len(t.Played) != k+1 {
			return nil // advanced meanwhile
		}
		if _, err := t.Close(now, func(i int) bool { return true }); err != nil {
			return err
		}
		return save(tx, t, now)
	})
	if err != nil {
		return nil, nil, err
	}
	return r.Advance(ctx, id, now)
}

// adjudicated is the result, from White's side, of a game unfinished
// when its round closes with toMove to move, as the organiser chose.
func (t *Tournament) adjudicated(toMove game.Color) Outcome {
	if t.Adjudicate != AdjudicateLossToMove {
		return Draw
	}
	if toMove == game.White {
		return Loss
	}
	return Win
}

// result is a game's result for White's side o.
func (o Outcome) result() game.Result {
	switch o {
	case Win:
		return game.WhiteWins
	case Loss:
		return game.BlackWins
	}
	return game.Draw
}
