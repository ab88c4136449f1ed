package play_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

func TestClone(t *testing.T) {
	t.Run("a clone of a game without moves has an empty move list, as the game has", func(t *testing.T) {
		g := play.Game{ID: 1, Moves: []play.Move{}}
		c := g.Clone()
		if c.Moves == nil || !reflect.DeepEqual(c, g) {
			t.Fatalf("clone %+v of %+v", c, g)
		}
		a, _ := json.Marshal(g)
		b, _ := json.Marshal(c)
		if string(a) != string(b) {
			t.Fatalf("the clone encodes as\n%s\nthe game as\n%s", b, a)
		}
	})
	t.Run("a clone shares no moves or offers with its game", func(t *testing.T) {
		at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
		g := play.Game{ID: 1, Moves: []play.Move{{UCI: "h2g3", At: at}},
			DrawOffer: &play.Offer{By: "ann", Ply: 1}, Takeback: &play.Offer{By: "bob", Ply: 1}}
		c := g.Clone()
		c.Moves[0].UCI = "g8f6"
		c.DrawOffer.By, c.Takeback.By = "x", "y"
		if g.Moves[0].UCI != "h2g3" || g.DrawOffer.By != "ann" || g.Takeback.By != "bob" {
			t.Fatalf("changing the clone changed the game: %+v", g)
		}
	})
}
