package store

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
)

var makeFixture2 = flag.Bool("make-schema2", false, "write testdata/schema2.bbolt with this schema-2 code")

// fixtureV2 is a database written by the schema-2 code through its public
// API, kept so that the migration to the next schema is tested on a file
// the released code really made.
const fixtureV2 = "testdata/schema2.bbolt"

// TestMakeFixtureSchema2 writes the schema-2 fixture (go test ./store -run
// TestMakeFixtureSchema2 -make-schema2). Content, with game ids 1 to 7 and
// challenge ids 1 and 2 (the schema had one sequence for each):
//
//   - 1 alice–bob in guild G, channel c-ab, 2 days per move, 30 plies, a
//     draw offer by bob, two message ids;
//   - 2 bob–carol in G, c-bc, no clock, 7 plies, a takeback asked by bob;
//   - 3 alice–carol outside any guild, dm-ac, 1 day per move, no move;
//   - 4 alice–bob in G, won by bob when White's king froze (archived);
//   - 5 carol–alice in G, 12 plies, resigned by alice (archived);
//   - 6 alice–bob in guild H, 1 ply, aborted (archived);
//   - 7 dave–erin in G, 1 day per move, lost on time by dave (archived);
//   - challenge 1 dave → alice in G, random colour, 3 days, expiring at
//     t0+1h; challenge 2 open from carol, black, expiring at t0+2h;
//   - bob's global rating 1612.5; alice's prefs: fr, black, on vacation.
func TestMakeFixtureSchema2(t *testing.T) {
	if !*makeFixture2 {
		t.Skip("run with -make-schema2 to write the fixture")
	}
	refs := loadRefGames(t)
	var frozen refGame
	for _, r := range refs {
		if r.termination == "white_king_frozen" {
			frozen = r
			break
		}
	}
	path := filepath.Join(t.TempDir(), "schema2.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mk := func(guild, channel, white, black string, days int) {
		t.Helper()
		n := newGame(guild, channel, white, black, days)
		n.White.Name, n.Black.Name = "Name "+white, "Name "+black
		_, err := s.CreateGame(n)
		must(err)
	}
	mk("G", "c-ab", "alice", "bob", 2)
	mk("G", "c-bc", "bob", "carol", 0)
	mk("", "dm-ac", "alice", "carol", 1)
	mk("G", "c-old1", "alice", "bob", 0)
	mk("G", "c-old2", "carol", "alice", 3)
	mk("H", "c-old3", "alice", "bob", 0)
	mk("G", "c-old4", "dave", "erin", 1)

	playAll(t, s, "c-ab", refs[0].moves[:30])
	_, err = s.UpdateGame("c-ab", 30, func(g *Game) error {
		g.DrawOffer = "bob"
		g.Messages = []string{"m1", "m2"}
		return nil
	})
	must(err)
	playAll(t, s, "c-bc", refs[1].moves[:7])
	_, err = s.UpdateGame("c-bc", 7, func(g *Game) error { g.Takeback = "bob"; return nil })
	must(err)

	g := playAll(t, s, "c-old1", frozen.moves)
	if g.Status.Reason != game.KingFrozen || len(g.IceAges) == 0 {
		t.Fatalf("game 4 ended %+v with %d Ice Ages", g.Status, len(g.IceAges))
	}
	playAll(t, s, "c-old2", refs[2].moves[:12])
	_, err = s.Resign("c-old2", "alice", t0.Add(2*time.Hour))
	must(err)
	playAll(t, s, "c-old3", refs[3].moves[:1])
	_, err = s.UpdateGame("c-old3", 1, func(g *Game) error {
		g.Status = game.Outcome{Reason: game.Aborted}
		g.Updated = t0.Add(3 * time.Hour)
		return nil
	})
	must(err)
	_, err = s.TimeOut("c-old4", 0, t0.Add(25*time.Hour))
	must(err)

	_, err = s.CreateChallenge(Challenge{Guild: "G", Channel: "lobby", From: Seat{"dave", "Dave"}, To: Seat{"alice", "Alice"},
		DaysPerMove: 3, Created: t0, Expires: t0.Add(time.Hour)})
	must(err)
	_, err = s.CreateChallenge(Challenge{Guild: "G", Channel: "lobby", From: Seat{"carol", "Carol"}, Color: "black",
		Created: t0, Expires: t0.Add(2 * time.Hour)})
	must(err)
	_, err = s.UpdatePlayer("", "bob", func(p *Player) error { p.Rating.Rating = 1612.5; return nil })
	must(err)
	_, err = s.SetPrefs("alice", func(p *Prefs) error {
		p.Language, p.Orientation, p.Vacation = "fr", "black", true
		return nil
	})
	must(err)
	must(s.Close())

	b, err := os.ReadFile(path)
	must(err)
	must(os.WriteFile(fixtureV2, b, 0o644))
	t.Logf("wrote %s", fixtureV2)
}
