package play_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

func TestPlayersGameIsForPlayersOfAGameThatGoesOn(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	svc := play.New(memstore.New(), play.Options{})
	r, err := svc.Start(ctx, play.NewGame{Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, At: at})
	if err != nil {
		t.Fatal(err)
	}
	kind := func(err error) play.RefusalKind {
		var x *play.Refusal
		if errors.As(err, &x) {
			return x.Kind
		}
		return 0
	}
	if g, err := svc.PlayersGame(ctx, r.Game.ID, "b"); err != nil || g.ID != r.Game.ID {
		t.Errorf("a player: %v, %v", g.ID, err)
	}
	if _, err := svc.PlayersGame(ctx, r.Game.ID, "stranger"); kind(err) != play.NotAPlayer {
		t.Errorf("a stranger: %v", err)
	}
	if _, err := svc.PlayersGame(ctx, 999, "b"); kind(err) != play.NoGame {
		t.Errorf("no such game: %v", err)
	}
	if _, err := svc.Resign(ctx, play.Act{By: "b", Game: r.Game.ID, Revision: r.Game.Revision, At: at}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PlayersGame(ctx, r.Game.ID, "b"); kind(err) != play.GameOver {
		t.Errorf("a finished game: %v", err)
	}
}
