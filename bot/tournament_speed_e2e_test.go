package bot_test

import (
	"context"
	"errors"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/tournament"
)

// TestATournamentSeedsByTheRatingsOfItsSpeed: who joins a blitz Swiss
// is seeded by their blitz rating in the server, who joins a
// correspondence one by their correspondence rating.
func TestATournamentSeedsByTheRatingsOfItsSpeed(t *testing.T) {
	for _, c := range []struct {
		name string
		opts []*fakediscord.Option
		want int
	}{
		{"blitz", []*fakediscord.Option{fakediscord.StringOption("system", "swiss"), fakediscord.StringOption("time", "3+2")}, 1900},
		{"correspondence", []*fakediscord.Option{fakediscord.StringOption("system", "swiss")}, 1400},
	} {
		t.Run(c.name, func(t *testing.T) {
			if r := seededAt(t, c.opts...); r != c.want {
				t.Errorf("Alice joined the %s Swiss at %d, want her %s rating %d", c.name, r, c.name, c.want)
			}
		})
	}
}

// seededAt is the rating at which Alice, rated 1400 in correspondence
// and 1900 in blitz, joins a tournament created with opts.
func seededAt(t *testing.T, opts ...*fakediscord.Option) int {
	w := newTournamentWorld(t)
	ctx := context.Background()
	err := w.st.Update(ctx, func(tx play.Tx) error {
		var errs []error
		for _, u := range []fakediscord.User{w.alice} {
			corr, blitz := play.NewPlayer(w.guild.ID, u.ID), play.NewPlayer(play.RatingScope(w.guild.ID, play.Blitz), u.ID)
			corr.Rating.Rating, corr.RatedGames = 1400, 3
			blitz.Rating.Rating, blitz.RatedGames = 1900, 3
			errs = append(errs, tx.PutPlayer(corr), tx.PutPlayer(blitz))
		}
		return errors.Join(errs...)
	})
	if err != nil {
		t.Fatal(err)
	}
	seeded := func(post fakediscord.Message, u fakediscord.User) int {
		t.Helper()
		w.click(u, post, "join")
		var got *tournament.Tournament
		err := w.st.View(ctx, func(tx play.ReadTx) error {
			recs, err := tx.Tournaments(w.guild.ID)
			for _, rec := range recs {
				tn, err := tournament.FromRecord(rec)
				if err != nil {
					return err
				}
				if tn.Post == post.ID {
					got = tn
				}
			}
			return err
		})
		if err != nil || got == nil {
			t.Fatalf("the tournament of post %s: %v", post.ID, err)
		}
		for _, m := range got.Members {
			if m.ID == u.ID {
				return m.Rating
			}
		}
		t.Fatalf("%s did not join: %+v", u.Username, got.Members)
		return 0
	}
	return seeded(w.create(opts...), w.alice)
}
