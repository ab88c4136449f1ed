package play_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
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

func TestMoveJSON(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 123e6, time.UTC)
	for _, tt := range []struct {
		name string
		move play.Move
		json string
	}{
		{"a move is stored as its UCI and Unix milliseconds", play.Move{UCI: "h2g3", At: at}, `["h2g3",1796040000123]`},
		{"a promotion is stored as its UCI", play.Move{UCI: "b7b8q", At: at}, `["b7b8q",1796040000123]`},
		{"a move before 1970 keeps its sign", play.Move{UCI: "e2e4", At: time.UnixMilli(-5).UTC()}, `["e2e4",-5]`},
		{"text that needs escaping is escaped", play.Move{UCI: `a"b\c`, At: at}, `["a\"b\\c",1796040000123]`},
		{"a move with its SAN carries it third", play.Move{UCI: "h2g3", At: at, SAN: "hxg3"}, `["h2g3",1796040000123,"hxg3"]`},
		{"a SAN that needs escaping is escaped", play.Move{UCI: "h2g3", At: at, SAN: `h"`}, `["h2g3",1796040000123,"h\""]`},
		{"a move with its revision carries it fourth", play.Move{UCI: "h2g3", At: at, SAN: "hxg3", Rev: 4}, `["h2g3",1796040000123,"hxg3",4]`},
		{"a revision without a SAN", play.Move{UCI: "h2g3", At: at, Rev: 4}, `["h2g3",1796040000123,"",4]`},
		{"a revision beside text that needs escaping", play.Move{UCI: `a"b`, At: at, SAN: `h"`, Rev: 9}, `["a\"b",1796040000123,"h\"",9]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.move)
			if err != nil || string(b) != tt.json {
				t.Fatalf("%s, %v; want %s", b, err, tt.json)
			}
			var back play.Move
			if err := json.Unmarshal(b, &back); err != nil || back != tt.move {
				t.Fatalf("read back %+v, %v; want %+v", back, err, tt.move)
			}
		})
	}
	t.Run("other JSON of the same shape reads the slow way", func(t *testing.T) {
		for _, text := range []string{` [ "h2g3" , 1796040000123 ] `, `["h2g3",1796040000123.0]`, `["h\u0032g3",1796040000123]`} {
			var m play.Move
			err := json.Unmarshal([]byte(text), &m)
			if text == `["h2g3",1796040000123.0]` {
				if err == nil {
					t.Errorf("%s read as %+v, want an error: milliseconds are whole", text, m)
				}
				continue
			}
			if err != nil || m != (play.Move{UCI: "h2g3", At: at}) {
				t.Errorf("%s: %+v, %v", text, m, err)
			}
		}
	})
	t.Run("JSON of another shape is an error that quotes it", func(t *testing.T) {
		for _, text := range []string{`"h2g3"`, `[1796040000123,"h2g3"]`, `["h2g3","soon"]`, `{}`, `["h2g3",1,"hxg3","4"]`, `["h2g3",1,"hxg3",-4]`, `["h2g3",1,"hxg3",4,5]`, `["h2g3",1,5]`, `["h2g3"]`} {
			var m play.Move
			err := json.Unmarshal([]byte(text), &m)
			if err == nil {
				t.Errorf("%s read as %+v", text, m)
			}
		}
	})
	t.Run("a game reads back from its JSON equal", func(t *testing.T) {
		g := play.Game{ID: 7, Revision: 3, Guild: "g", Channel: "c", White: play.Seat{ID: "w", Name: "W"}, Black: play.Seat{ID: "b"},
			StartFEN: "s", FEN: "f", Moves: []play.Move{{UCI: "h2g3", At: at}, {UCI: "g8f6", At: at.Add(time.Second)}},
			Last: play.DrawOffered, Created: at, Updated: at, DaysPerMove: 3, Deadline: at.Add(time.Hour), RemindAt: at,
			DrawOffer: &play.Offer{By: "b", Ply: 2}, LastOffer: [2]int{0, 3}}
		b, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		var back play.Game
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, g) {
			t.Fatalf("%+v, %v\nwant %+v", back, err, g)
		}
	})
}

// A move carries its SAN from the act that played it and from a binary
// record, which finds it as it replays the moves; a record of the JSON
// form keeps none, and Game.SANs replays the game for them.
func TestSANsComeWithTheMoves(t *testing.T) {
	m, err := game.ReplayUCI(game.StartFEN, []string{"h2g3", "g8f6", "g3h4"})
	if err != nil {
		t.Fatal(err)
	}
	want := m.SANs()
	g := play.Game{ID: 9, StartFEN: game.StartFEN, FEN: m.FEN()}
	for _, u := range []string{"h2g3", "g8f6", "g3h4"} {
		g.Moves = append(g.Moves, play.Move{UCI: u})
	}
	b, err := play.EncodeRecord(&g)
	if err != nil {
		t.Fatal(err)
	}
	var bin play.Game
	if err := play.DecodeRecord(b, &bin); err != nil {
		t.Fatal(err)
	}
	before := play.Replays()
	if got, err := bin.SANs(); err != nil || !slices.Equal(got, want) || play.Replays() != before {
		t.Fatalf("the binary record's SANs %q, %v, after %d replays; want %q and none", got, err, play.Replays()-before, want)
	}
	g.V = 3
	js, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var old play.Game
	if err := play.DecodeRecord(js, &old); err != nil {
		t.Fatal(err)
	}
	if got, err := old.SANs(); err != nil || !slices.Equal(got, want) || play.Replays() != before+1 {
		t.Fatalf("the JSON record's SANs %q, %v, after %d replays; want %q and one", got, err, play.Replays()-before, want)
	}
}

func TestGameRecord(t *testing.T) {
	g := play.Game{ID: 9, White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, StartFEN: "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
		FEN: "4k3/8/8/8/8/8/8/4K2R w K - 0 1", Moves: []play.Move{}}
	t.Run("a game whose moves do not replay is damaged", func(t *testing.T) {
		bad := g
		bad.Moves = []play.Move{{UCI: "e8e7"}}
		if _, err := bad.Match(); !errors.Is(err, play.ErrCorrupt) {
			t.Fatalf("%v, want ErrCorrupt", err)
		}
	})
	t.Run("a game with an impossible outcome is damaged", func(t *testing.T) {
		bad := g
		bad.Outcome = game.Outcome{Result: game.Draw, Reason: game.Checkmate}
		if _, err := bad.Match(); !errors.Is(err, play.ErrCorrupt) {
			t.Fatalf("%v, want ErrCorrupt", err)
		}
	})
	t.Run("a game whose position does not read is damaged", func(t *testing.T) {
		bad := g
		bad.FEN = "rubbish"
		if _, err := bad.Position(); !errors.Is(err, play.ErrCorrupt) {
			t.Fatalf("%v, want ErrCorrupt", err)
		}
		if bad.Turn() != game.White {
			t.Fatalf("the turn of an unreadable position is %s, want White", bad.Turn())
		}
	})
	t.Run("the players, the turn and the seats are read from the record", func(t *testing.T) {
		b := g
		b.FEN = "4k3/8/8/8/8/8/8/4K2R b K - 0 1"
		if c, ok := b.ColorOf("b"); !ok || c != game.Black || b.Turn() != game.Black || b.ToMove().ID != "b" {
			t.Fatalf("ColorOf(b) %s %v, turn %s, to move %s", c, ok, b.Turn(), b.ToMove().ID)
		}
		if _, ok := b.ColorOf("x"); ok {
			t.Fatal("a stranger has a colour")
		}
		if !slices.Equal(b.Players(), []string{"w", "b"}) {
			t.Fatalf("players %v", b.Players())
		}
	})
	t.Run("a tally counts its games", func(t *testing.T) {
		p := play.NewPlayer("", "u")
		p.AsWhite, p.AsBlack = play.Tally{Won: 2, Lost: 1}, play.Tally{Drawn: 3, Won: 1}
		if p.Total() != (play.Tally{Won: 3, Lost: 1, Drawn: 3}) || p.Total().Games() != 7 {
			t.Fatalf("total %+v", p.Total())
		}
	})
}
