package play_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// putPlayers writes player records straight into the storage.
func putPlayers(t testing.TB, st play.Storage, ps ...play.Player) {
	t.Helper()
	err := st.Update(context.Background(), func(tx play.Tx) error {
		for _, p := range ps {
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rated returns a record of user in scope with the rating r ± rd, last
// changed at, and rated results won, drawn, lost.
func rated(scope, user string, r, rd float64, at time.Time, won, drawn, lost int) play.Player {
	p := play.NewPlayer(scope, user)
	p.Name = strings.ToUpper(user)
	p.Rating = play.Rating{Rating: r, Deviation: rd, Volatility: 0.06, Updated: at}
	p.RatedTally = play.Tally{Won: won, Drawn: drawn, Lost: lost}
	p.RatedGames = won + drawn + lost
	p.AsWhite = p.RatedTally
	return p
}

func TestLeaderboard(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	st := memstore.New()
	putPlayers(t, st,
		rated("g1", "ada", 1910, 60, now.Add(-2*day), 30, 5, 5),
		rated("g1", "ben", 1700.2, 70, now.Add(-day), 10, 0, 10),
		rated("g1", "cy", 1699.8, 70, now.Add(-day), 12, 0, 8),   // rounds to 1700 too: shares ben's rank
		rated("g1", "dee", 1699.8, 70, now.Add(-day), 12, 0, 9),  // as cy, with more games: before cy
		rated("g1", "eve", 1650, 200, now.Add(-day), 1, 0, 0),    // provisional
		rated("g1", "fay", 1600, 105, now.Add(-80*day), 4, 1, 1), // 80 days away: its deviation has grown past 110
		rated("g1", "gus", 1990, 50, now.Add(-91*day), 50, 0, 0), // 91 days away: off the board
		rated("g1", "hal", 1400, 90, now.Add(-90*day), 2, 0, 8),  // 90 days exactly: still on
		rated("g2", "ivy", 2100, 50, now.Add(-day), 9, 0, 0),     // another guild
		play.NewPlayer("g1", "jo"),                               // casual games only
	)
	svc := play.New(st, play.Options{})

	page := func(p, size int) play.Standings {
		t.Helper()
		s, err := svc.Leaderboard(context.Background(), "g1", p, size, now)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	line := func(rows []play.Standing) string {
		var parts []string
		for _, r := range rows {
			parts = append(parts, fmt.Sprintf("%d %s %s", r.Rank, r.User, r.Rating.Display()))
		}
		return strings.Join(parts, ", ")
	}

	all := page(1, 50)
	want := "1 ada 1910, 2 ben 1700, 2 dee 1700, 2 cy 1700, 5 eve 1650?, 6 fay 1600?, 7 hal 1400"
	if got := line(all.Rows); got != want {
		t.Errorf("the board reads\n%s\nwant\n%s", got, want)
	}
	if all.Ranked != 7 || all.Pages != 1 || all.Page != 1 {
		t.Errorf("ranked %d on %d pages (page %d), want 7 on 1", all.Ranked, all.Pages, all.Page)
	}
	for _, r := range all.Rows {
		switch r.User {
		case "ada":
			if r.Tally.Games() != 40 || r.WinRate() != 0.75 || r.Name != "ADA" {
				t.Errorf("ada's line: %+v (win rate %v)", r, r.WinRate())
			}
		case "fay":
			if r.Rating.Deviation <= 110 || r.Rating.Rating != 1600 {
				t.Errorf("fay after 80 days: %+v, want the deviation grown past 110", r.Rating)
			}
		}
	}

	for _, tc := range []struct {
		name         string
		page, size   int
		want         string
		page0, page1 int
	}{
		{"the first page of three", 1, 3, "1 ada 1910, 2 ben 1700, 2 dee 1700", 1, 3},
		{"the second page keeps the shared rank", 2, 3, "2 cy 1700, 5 eve 1650?, 6 fay 1600?", 2, 3},
		{"the last page is short", 3, 3, "7 hal 1400", 3, 3},
		{"a page beyond the last gives the last", 9, 3, "7 hal 1400", 3, 3},
		{"a page before the first gives the first", -1, 3, "1 ada 1910, 2 ben 1700, 2 dee 1700", 1, 3},
		{"no size is the default size", 1, 0, want, 1, 1},
		{"a page beyond a full last page gives it", 2, 7, want, 1, 1},
		{"a page far beyond the last gives the last", math.MaxInt, 2, "7 hal 1400", 4, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := page(tc.page, tc.size)
			if got := line(s.Rows); got != tc.want || s.Page != tc.page0 || s.Pages != tc.page1 {
				t.Errorf("page %d of %d: %s; want page %d of %d: %s", s.Page, s.Pages, got, tc.page0, tc.page1, tc.want)
			}
		})
	}

	empty, err := svc.Leaderboard(context.Background(), "g9", 1, 10, now)
	if err != nil || empty.Ranked != 0 || empty.Pages != 1 || len(empty.Rows) != 0 {
		t.Errorf("an empty board: %+v, %v", empty, err)
	}
}

// TestInactivePlayersComeBackWithTheirNextGame plays the inactivity rule
// through play: after 91 days without a rated game a player is off the
// board, and one rated game puts them back.
func TestInactivePlayersComeBackWithTheirNextGame(t *testing.T) {
	l := newLeague(t, nil)
	l.play(match{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"hxg3"}, end: whiteResigns})
	l.wait(91 * 24 * time.Hour)
	l.play(match{guild: "g1", white: "cat", black: "bob", rated: true, moves: []string{"hxg3"}, end: whiteResigns})
	l.play(match{guild: "g1", white: "ann", black: "dan", rated: false, moves: []string{"hxg3"}, end: whiteResigns})
	users := func() string {
		s, err := l.svc.Leaderboard(context.Background(), "g1", 1, 10, l.now)
		if err != nil {
			t.Fatal(err)
		}
		var us []string
		for _, r := range s.Rows {
			us = append(us, r.User)
		}
		return strings.Join(us, " ")
	}
	if got := users(); got != "bob cat" {
		t.Errorf("after 91 days and a casual game, the board is %q, want bob and cat only", got)
	}
	l.play(match{guild: "g1", white: "ann", black: "dan", rated: true, moves: []string{"hxg3"}, end: whiteResigns})
	if got := users(); got != "bob dan cat ann" {
		t.Errorf("after ann's rated game (lost to dan), the board is %q, want her back, last", got)
	}
}

// handLeague plays the games whose statistics TestStatistics counts by
// hand. ann's results in g1, in order: won, won, drew, lost, lost to a
// frozen king, won, won, won; an aborted game; and a loss in g2.
func handLeague(t *testing.T) (*league, []play.Game) {
	l := newLeague(t, nil)
	frozen := "k7/pp6/8/8/8/8/8/7K b - - 0 20" // Black's b6 brings an Ice Age that freezes White's king
	ms := []match{
		{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"hxg3", "Nxf6"}, end: blackResigns}, // 1: ann wins as White
		{guild: "g1", white: "bob", black: "ann", rated: true, moves: []string{"gxh3", "Nxf6"}, end: whiteResigns}, // 2: ann wins as Black
		{guild: "g1", white: "ann", black: "cat", moves: []string{"hxg3", "Nxa6"}, end: drawAgreed},                // 3: a casual draw
		{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"Nxf3"}, end: whiteResigns},         // 4: ann loses as White
		{guild: "g1", white: "ann", black: "bob", rated: true, start: frozen, moves: []string{"b6"}},               // 5: ann's king freezes
		{guild: "g1", white: "cat", black: "ann", moves: []string{"hxg3", "Nxh6"}, end: timeout},                   // 6: cat loses on time
		{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"Nxf3", "Nxf6"}, end: blackResigns}, // 7: ann wins as White
		{guild: "g1", white: "bob", black: "ann", rated: true, moves: []string{"hxg3", "Nxf6"}, end: whiteResigns}, // 8: ann wins as Black
		{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"hxg3"}, end: aborted},              // 9: aborted
		{guild: "g2", white: "ann", black: "bob", rated: true, moves: []string{"hxg3"}, end: whiteResigns},         // 10: elsewhere
	}
	var gs []play.Game
	for _, m := range ms {
		gs = append(gs, l.play(m))
		l.wait(time.Hour)
	}
	return l, gs
}

func TestStatistics(t *testing.T) {
	l, gs := handLeague(t)
	ctx := context.Background()

	t.Run("a player's statistics in the guild", func(t *testing.T) {
		pr, err := l.svc.PlayerStats(ctx, "g1", "ann", "bob")
		if err != nil {
			t.Fatal(err)
		}
		p := pr.Player
		checks := []struct {
			what      string
			got, want any
		}{
			{"all games", p.Total(), play.Tally{Won: 5, Drawn: 1, Lost: 2}},
			{"as White", p.AsWhite, play.Tally{Won: 2, Drawn: 1, Lost: 2}},
			{"as Black", p.AsBlack, play.Tally{Won: 3}},
			{"the longest winning streak", p.BestStreak, 3},
			{"the current streak", p.Streak, 3},
			{"games lost to a frozen king", p.FrozenLosses, 1},
			{"rated games", p.RatedGames, 6},
			{"rated results", p.RatedTally, play.Tally{Won: 4, Lost: 2}},
			// hxg3 and Nxf3 twice each: Nxf3 was played last (game 7).
			{"the favourite first move as White", pr.Openings[game.White], play.Favourite{Move: "Nxf3", Games: 2}},
			{"the favourite first move as Black", pr.Openings[game.Black], play.Favourite{Move: "Nxf6", Games: 2}},
			{"against bob", pr.Versus, play.Tally{Won: 4, Lost: 2}},
			{"games logged", pr.Logged, 8},
			{"rating points", len(pr.History), 6},
		}
		for _, c := range checks {
			if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
				t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
			}
		}
		var ids []uint64
		for i, pt := range pr.History {
			ids = append(ids, pt.Game)
			if i > 0 && pt.At.Before(pr.History[i-1].At) {
				t.Errorf("rating point %d comes before the one before it", i)
			}
		}
		if want := fmt.Sprint([]uint64{gs[0].ID, gs[1].ID, gs[3].ID, gs[4].ID, gs[6].ID, gs[7].ID}); fmt.Sprint(ids) != want {
			t.Errorf("rating points for games %v, want %s", ids, want)
		}
		last := pr.History[len(pr.History)-1]
		if last.Rating != p.Rating.Rating || last.Deviation != p.Rating.Deviation {
			t.Errorf("the last point %+v is not the rating %+v", last, p.Rating)
		}
		if c, _ := gs[7].RatingsIn("g1"); c.After[game.Black] != last.Rating {
			t.Errorf("game 8 moved ann to %.2f, her last point says %.2f", c.After[game.Black], last.Rating)
		}
	})

	t.Run("the same player everywhere", func(t *testing.T) {
		pr, err := l.svc.PlayerStats(ctx, "", "ann", "cat")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := pr.Player.AsWhite, (play.Tally{Won: 2, Drawn: 1, Lost: 3}); got != want {
			t.Errorf("as White everywhere: %+v, want %+v", got, want)
		}
		if got, want := pr.Versus, (play.Tally{Won: 1, Drawn: 1}); got != want {
			t.Errorf("against cat: %+v, want %+v", got, want)
		}
		if len(pr.History) != 7 || pr.Logged != 9 {
			t.Errorf("%d rating points and %d games logged, want 7 and 9", len(pr.History), pr.Logged)
		}
	})

	t.Run("a player's record, and a user's with no games", func(t *testing.T) {
		if p, err := l.svc.Player(ctx, "g1", "ann"); err != nil || p.RatedGames != 6 || p.Name != "Ann" {
			t.Errorf("ann in g1: %+v, %v", p, err)
		}
		if p, err := l.svc.Player(ctx, "g1", "zed"); err != nil || p != play.NewPlayer("g1", "zed") {
			t.Errorf("zed in g1: %+v, %v", p, err)
		}
	})

	t.Run("a user with no games", func(t *testing.T) {
		pr, err := l.svc.PlayerStats(ctx, "g1", "zed", "ann")
		if err != nil || pr.Player.Total().Games() != 0 || pr.Player.Rating.Rating != play.DefaultRating || len(pr.History) != 0 || pr.Openings[0].Move != "" {
			t.Errorf("%+v, %v", pr, err)
		}
	})

	t.Run("the variant's statistics", func(t *testing.T) {
		st, err := l.svc.VariantStats(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		w, b, d := st.Shares()
		if st.Games() != 8 || st.Aborted != 1 || w != 0.25 || b != 0.625 || d != 0.125 || st.IceAgesPerGame() != 0.125 {
			t.Errorf("%d games (%d aborted), shares %v %v %v, %v Ice Ages a game; want 8 (1), .25 .625 .125, .125",
				st.Games(), st.Aborted, w, b, d, st.IceAgesPerGame())
		}
		// Games 1, 2, 4, 7 and 8 were resigned; the others ended one way each.
		want := fmt.Sprint([]play.Ending{{Reason: game.Resignation, Games: 5}, {Reason: game.KingFrozen, Games: 1},
			{Reason: game.DrawAgreed, Games: 1}, {Reason: game.Timeout, Games: 1}})
		if got := fmt.Sprint(st.Endings()); got != want {
			t.Errorf("endings %s, want %s", got, want)
		}
		all, err := l.svc.VariantStats(ctx, "")
		if err != nil || all.Games() != 9 || all.BlackWins != 6 || all.ByReason[game.Resignation] != 6 {
			t.Errorf("everywhere: %+v, %v", all, err)
		}
		none, err := l.svc.VariantStats(ctx, "g9")
		if w, _, _ := none.Shares(); err != nil || none.Games() != 0 || w != 0 || none.IceAgesPerGame() != 0 || len(none.Endings()) != 0 || none.Scope != "g9" {
			t.Errorf("a guild with no games: %+v, %v", none, err)
		}
	})

	t.Run("history, newest first, in a guild and everywhere", func(t *testing.T) {
		ids := func(user, guild string, before uint64, limit int) string {
			got, err := l.svc.History(ctx, user, guild, before, limit)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, g := range got {
				out = append(out, fmt.Sprint(g.ID))
			}
			return strings.Join(out, " ")
		}
		id := func(is ...int) string {
			var out []string
			for _, i := range is {
				out = append(out, fmt.Sprint(gs[i-1].ID))
			}
			return strings.Join(out, " ")
		}
		for _, c := range []struct{ got, want string }{
			{ids("ann", "g1", 0, 3), id(9, 8, 7)},
			{ids("ann", "g1", gs[6].ID, 10), id(6, 5, 4, 3, 2, 1)},
			{ids("ann", "g2", 0, 10), id(10)},
			{ids("ann", "", 0, 2), id(10, 9)},
			{ids("cat", "g1", 0, 10), id(6, 3)},
			{ids("", "g1", 0, 2), id(9, 8)},
			{ids("ann", "g1", 0, 0), ""},
		} {
			if c.got != c.want {
				t.Errorf("games %s, want %s", c.got, c.want)
			}
		}
	})

	t.Run("the last game between two players, and of a channel", func(t *testing.T) {
		g, err := l.svc.LastBetween(ctx, "g1", "ann", "cat")
		if err != nil || g.ID != gs[5].ID {
			t.Errorf("ann and cat's last game: %d, %v; want %d", g.ID, err, gs[5].ID)
		}
		var x *play.Refusal
		if _, err := l.svc.LastBetween(ctx, "g1", "ann", "dan"); !errors.As(err, &x) || x.Kind != play.NoGame {
			t.Errorf("ann and dan never played: %v", err)
		}
		if g, err := l.svc.LastIn(ctx, "g1", gs[4].Channel); err != nil || g.ID != gs[4].ID {
			t.Errorf("the game of %s: %d, %v; want %d", gs[4].Channel, g.ID, err, gs[4].ID)
		}
		if _, err := l.svc.LastIn(ctx, "g1", "nowhere"); !errors.As(err, &x) || x.Kind != play.NoGame {
			t.Errorf("a channel without games: %v", err)
		}
		r, err := l.svc.Start(ctx, play.NewGame{Guild: "g1", Channel: gs[4].Channel, White: seat("dan"), Black: seat("eve"), At: l.tick()})
		if err != nil {
			t.Fatal(err)
		}
		if g, err := l.svc.LastIn(ctx, "g1", gs[4].Channel); err != nil || g.ID != r.Game.ID {
			t.Errorf("a channel with a game going on: %d, %v; want %d", g.ID, err, r.Game.ID)
		}
	})
}

// TestExportedPGNReadsBack exports games through play and reads them back
// with game.ParsePGN: the same moves, the same outcome, the tags.
func TestExportedPGNReadsBack(t *testing.T) {
	l := newLeague(t, nil)
	l.play(match{guild: "g1", white: "ann", black: "bob", rated: true, moves: []string{"hxg3"}, end: whiteResigns})
	iceAge := l.play(match{guild: "g1", white: "ann", black: "bob", rated: true,
		start: "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20", moves: []string{"Rh8", "Nd5"}, end: timeout})
	casual := l.play(match{guild: "g1", white: "cat", black: "dan", moves: []string{"hxg3", "Nxf6", "gxh4", "Nxh5"}, end: drawAgreed})
	r, err := l.svc.Start(context.Background(), play.NewGame{Guild: "g1", Channel: "going", White: seat("ann"), Black: seat("dan"), Rated: true, At: l.tick()})
	if err != nil {
		t.Fatal(err)
	}
	ongoing := r.Game
	ongoing.Moves = append(ongoing.Moves, play.Move{UCI: "h2g3", At: l.tick()})
	c, _ := iceAge.RatingsIn("g1")

	for _, tc := range []struct {
		name string
		g    play.Game
		tags game.Tags
		has  []string
	}{
		{"a rated game with an Ice Age, won on time", iceAge,
			game.Tags{Event: "Rated Ice Age game", Site: "Ice Club", Date: iceAge.Created.Format("2006.01.02"), White: "Ann", Black: "Bob",
				WhiteElo: fmt.Sprint(math.Round(c.Before[0])), BlackElo: fmt.Sprint(math.Round(c.Before[1])), TimeControl: "1/86400"},
			[]string{"[Termination \"time forfeit\"]", "{Ice Age:", "[FEN \"r3k3/pp1p1p*r/", "[Result \"1-0\"]"}},
		{"a casual draw", casual,
			game.Tags{Event: "Casual Ice Age game", Site: "Ice Club", Date: casual.Created.Format("2006.01.02"), White: "Cat", Black: "Dan", TimeControl: "1/86400"},
			[]string{"[Result \"1/2-1/2\"]", "1. hxg3 Nxf6 2. gxh4 Nxh5 1/2-1/2"}},
		{"a game going on, without a time limit", ongoing,
			game.Tags{Event: "Rated Ice Age game", Site: "Ice Club", Date: ongoing.Created.Format("2006.01.02"), White: "Ann", Black: "Dan", TimeControl: "-"},
			[]string{"[Result \"*\"]", "[Termination \"unterminated\"]", "1. hxg3 *"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := tc.g.PGN("Ice Club")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.has {
				if !strings.Contains(text, s) {
					t.Errorf("the PGN lacks %q:\n%s", s, text)
				}
			}
			m, tags, err := game.ParsePGN(text)
			if err != nil {
				t.Fatalf("%v in\n%s", err, text)
			}
			if tags != tc.tags {
				t.Errorf("tags read back %+v, want %+v", tags, tc.tags)
			}
			want, err := tc.g.Match()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(m.UCIs(), " ") != strings.Join(want.UCIs(), " ") || m.Outcome() != tc.g.Outcome {
				t.Errorf("read back %v ending %+v, want %v ending %+v", m.UCIs(), m.Outcome(), want.UCIs(), tc.g.Outcome)
			}
		})
	}
	if c.Before[0] == play.DefaultRating {
		t.Errorf("the second rated game was rated from the default rating: %+v", c)
	}
}
