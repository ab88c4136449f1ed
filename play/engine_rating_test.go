package play_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// A rated game against the engine rates the engine at its level: each
// level has a rating of its own, apart from the bot's other levels.
func TestEachEngineLevelHasItsOwnRating(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	svc := play.New(st, play.Options{})
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i, level := range []int{3, 6} {
		r, err := svc.Start(ctx, play.NewGame{Guild: "g", Channel: "c" + string(rune('1'+i)), White: play.Seat{ID: "ann"},
			Black: play.Seat{ID: "bot", Name: "Engine"}, Rated: true, Engine: [2]int{0, level}, At: at})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Resign(ctx, play.Act{By: "ann", Game: r.Game.ID, Revision: r.Game.Revision, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	err := st.View(ctx, func(tx play.ReadTx) error {
		for _, id := range []string{"bot/engine3", "bot/engine6"} {
			p, err := tx.Player("g", id)
			if err != nil || p.RatedGames != 1 || p.Rating.Rating <= play.DefaultRating {
				t.Errorf("%s: %+v, %v; want one rated win", id, p, err)
			}
		}
		if _, err := tx.Player("g", "bot"); !errors.Is(err, play.ErrNotFound) {
			t.Errorf("the bot's own id has a record: %v", err)
		}
		ann, err := tx.Player("g", "ann")
		if err != nil || ann.RatedGames != 2 {
			t.Errorf("ann: %+v, %v", ann, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
