// Package playtest is the behavioural suite that every play.Storage
// implementation must pass (RunStorageSuite).
package playtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// T0 is the time the suites start their clocks at.
var T0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// RunStorageSuite checks that a Storage keeps play's records as play
// expects: transactions, indexes, the channel rule and the archive. open
// returns a new, empty storage for each subtest.
func RunStorageSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	update := func(t *testing.T, st play.Storage, fn func(play.Tx) error) {
		t.Helper()
		if err := st.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	newGame := func(tx play.Tx, channel, white, black string, at time.Time) play.Game {
		id, err := tx.NextID()
		if err != nil {
			panic(err)
		}
		return play.Game{ID: id, Revision: 1, Guild: "g1", Channel: channel,
			White: play.Seat{ID: white, Name: "W " + white}, Black: play.Seat{ID: black},
			StartFEN: game.StartFEN, FEN: game.StartFEN, Moves: []play.Move{}, Created: at, Updated: at,
			DaysPerMove: 3, Deadline: at.Add(72 * time.Hour), RemindAt: at.Add(48 * time.Hour)}
	}

	t.Run("a game put is read back equal, by id and by channel", func(t *testing.T) {
		st := open(t)
		var g play.Game
		update(t, st, func(tx play.Tx) error {
			g = newGame(tx, "c1", "u1", "u2", T0)
			g.Moves = append(g.Moves, play.Move{UCI: "h2g3", At: T0.Add(time.Minute), SAN: "hxg3"})
			// The position the move reached: a storage may check that a
			// game's moves replay to it, as package store's damage check
			// does.
			g.FEN = "rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1"
			g.DrawOffer = &play.Offer{By: "u1", Ply: 1}
			// The correspondence fields.
			g.Reminded, g.OpponentChooses = []int{24}, true
			g.Flag = &play.Flag{By: "u1", At: T0.Add(time.Hour)}
			g.AwayUntil[1] = T0.Add(48 * time.Hour)
			g.Premoves = &play.Premoves{By: "u1", Lines: [][]string{{"g8f6", "g1f3"}, {"g8h6", "g1h3"}}}
			return tx.PutGame(g)
		})
		err := st.View(ctx, func(tx play.ReadTx) error {
			for _, read := range []func() (play.Game, error){func() (play.Game, error) { return tx.Game(g.ID) }, func() (play.Game, error) { return tx.GameIn("c1") }} {
				got, err := read()
				if err != nil {
					return err
				}
				got.V = g.V
				if a, b := asJSON(got), asJSON(g); a != b {
					return fmt.Errorf("read back %+v, put %+v", got, g)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("a failed transaction leaves nothing behind", func(t *testing.T) {
		st := open(t)
		boom := errors.New("boom")
		err := st.Update(ctx, func(tx play.Tx) error {
			if err := tx.PutGame(newGame(tx, "c1", "u1", "u2", T0)); err != nil {
				return err
			}
			if err := tx.PutChallenge(play.Challenge{ID: 99, Channel: "c1", From: play.Seat{ID: "u1"}, Created: T0, Expires: T0.Add(time.Hour)}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v, want fn's error", err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			if _, err := tx.GameIn("c1"); !errors.Is(err, play.ErrNotFound) {
				return fmt.Errorf("the game of a failed transaction is there: %v", err)
			}
			if _, err := tx.Challenge(99); !errors.Is(err, play.ErrNotFound) {
				return fmt.Errorf("the challenge of a failed transaction is there: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("one active game per channel; a finished game frees it and is archived", func(t *testing.T) {
		st := open(t)
		var g play.Game
		update(t, st, func(tx play.Tx) error {
			g = newGame(tx, "c1", "u1", "u2", T0)
			return tx.PutGame(g)
		})
		err := st.Update(ctx, func(tx play.Tx) error { return tx.PutGame(newGame(tx, "c1", "u3", "u4", T0)) })
		if !errors.Is(err, play.ErrChannelBusy) {
			t.Fatalf("a second game in the channel: %v, want ErrChannelBusy", err)
		}
		g.Outcome = game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}
		g.Ended, g.Deadline, g.RemindAt = T0.Add(time.Hour), time.Time{}, time.Time{}
		var g2 play.Game
		update(t, st, func(tx play.Tx) error {
			if err := tx.PutGame(g); err != nil {
				return err
			}
			g2 = newGame(tx, "c1", "u3", "u4", T0)
			return tx.PutGame(g2)
		})
		err = st.View(ctx, func(tx play.ReadTx) error {
			got, err := tx.GameIn("c1")
			if err != nil || got.ID != g2.ID {
				return fmt.Errorf("GameIn(c1) = game %d, %v; want the new game %d", got.ID, err, g2.ID)
			}
			old, err := tx.Game(g.ID)
			if err != nil || !old.Over() {
				return fmt.Errorf("the finished game by id: %+v, %v", old, err)
			}
			act, _ := tx.ActiveGames("u1")
			if len(act) != 0 {
				return fmt.Errorf("u1 still has %d active games", len(act))
			}
			fin, _ := tx.Finished("u1", "", 0, 10)
			if len(fin) != 1 || fin[0].ID != g.ID {
				return fmt.Errorf("u1's finished games: %v", ids(fin))
			}
			if d, _ := tx.Due(play.DueDeadline, T0.Add(1000*time.Hour), 10); len(d) != 1 || d[0].ID != g2.ID {
				return fmt.Errorf("deadlines due: %+v, want only game %d", d, g2.ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("indexes follow a game as it changes", func(t *testing.T) {
		st := open(t)
		var a, b, c play.Game
		update(t, st, func(tx play.Tx) error {
			a = newGame(tx, "c1", "u1", "u2", T0)
			b = newGame(tx, "c2", "u2", "u3", T0.Add(time.Hour))
			c = newGame(tx, "c3", "u3", "u1", T0.Add(2*time.Hour))
			c.Guild = "g2"
			c.DaysPerMove, c.Deadline, c.RemindAt = 0, time.Time{}, time.Time{}
			return errors.Join(tx.PutGame(a), tx.PutGame(b), tx.PutGame(c))
		})
		a.Deadline = T0.Add(500 * time.Hour) // a moved: its deadline is now the last
		a.RemindAt = T0.Add(499 * time.Hour)
		update(t, st, func(tx play.Tx) error { return tx.PutGame(a) })
		err := st.View(ctx, func(tx play.ReadTx) error {
			u1, _ := tx.ActiveGames("u1")
			g1, _ := tx.GuildGames("g1")
			due, _ := tx.Due(play.DueDeadline, T0.Add(1000*time.Hour), 10)
			rem, _ := tx.Due(play.DueReminder, T0.Add(1000*time.Hour), 1)
			next, ok, err := tx.NextDue(play.DueDeadline)
			switch {
			case err != nil:
				return err
			case fmt.Sprint(ids(u1)) != fmt.Sprint([]uint64{a.ID, c.ID}):
				return fmt.Errorf("u1's games %v", ids(u1))
			case fmt.Sprint(ids(g1)) != fmt.Sprint([]uint64{a.ID, b.ID}):
				return fmt.Errorf("g1's games %v", ids(g1))
			case len(due) != 2 || due[0].ID != b.ID || due[1].ID != a.ID || !due[1].At.Equal(a.Deadline):
				return fmt.Errorf("deadlines %+v, want b then a", due)
			case len(rem) != 1 || rem[0].ID != b.ID:
				return fmt.Errorf("first reminder %+v, want b's", rem)
			case !ok || !next.Equal(b.Deadline):
				return fmt.Errorf("next deadline %v %v, want %v", next, ok, b.Deadline)
			}
			if d, _ := tx.Due(play.DueDeadline, b.Deadline.Add(-time.Millisecond), 10); len(d) != 0 {
				return fmt.Errorf("due before any deadline: %+v", d)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("finished games come newest first, paged by id", func(t *testing.T) {
		st := open(t)
		var want []uint64
		update(t, st, func(tx play.Tx) error {
			for i := range 5 {
				g := newGame(tx, fmt.Sprint("c", i), "u1", fmt.Sprint("o", i), T0)
				g.Outcome = game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}
				g.Ended, g.Deadline, g.RemindAt = T0, time.Time{}, time.Time{}
				if i == 4 {
					g.Guild = "g2"
				}
				want = append([]uint64{g.ID}, want...)
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		})
		err := st.View(ctx, func(tx play.ReadTx) error {
			all, _ := tx.Finished("u1", "", 0, 10)
			page, _ := tx.Finished("u1", "", want[1], 2)
			guild, _ := tx.Finished("", "g1", 0, 10)
			every, _ := tx.Finished("", "", 0, 3)
			switch {
			case fmt.Sprint(ids(all)) != fmt.Sprint(want):
				return fmt.Errorf("all %v, want %v", ids(all), want)
			case fmt.Sprint(ids(page)) != fmt.Sprint(want[2:4]):
				return fmt.Errorf("page %v, want %v", ids(page), want[2:4])
			case fmt.Sprint(ids(guild)) != fmt.Sprint(want[1:]):
				return fmt.Errorf("guild %v, want %v", ids(guild), want[1:])
			case fmt.Sprint(ids(every)) != fmt.Sprint(want[:3]):
				return fmt.Errorf("every %v, want %v", ids(every), want[:3])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("challenges are indexed by user and expiry and can be deleted once", func(t *testing.T) {
		st := open(t)
		var c1, c2 play.Challenge
		update(t, st, func(tx play.Tx) error {
			id1, _ := tx.NextID()
			id2, _ := tx.NextID()
			if id1 == id2 {
				return fmt.Errorf("NextID gave %d twice", id1)
			}
			c1 = play.Challenge{ID: id1, Guild: "g1", Channel: "c1", From: play.Seat{ID: "u1"}, To: play.Seat{ID: "u2"}, Color: play.Random, Created: T0, Expires: T0.Add(2 * time.Hour)}
			c2 = play.Challenge{ID: id2, Guild: "g1", Channel: "c1", From: play.Seat{ID: "u3"}, Color: play.WhiteSide, DaysPerMove: 7, Created: T0, Expires: T0.Add(time.Hour)}
			return errors.Join(tx.PutChallenge(c1), tx.PutChallenge(c2))
		})
		err := st.View(ctx, func(tx play.ReadTx) error {
			u2, _ := tx.Challenges("u2")
			due, _ := tx.Due(play.DueExpiry, T0.Add(90*time.Minute), 10)
			got, err := tx.Challenge(c2.ID)
			switch {
			case err != nil || got != c2 && fmt.Sprint(got) != fmt.Sprint(play.Challenge{V: got.V, ID: c2.ID, Guild: "g1", Channel: "c1", From: c2.From, Color: c2.Color, DaysPerMove: 7, Created: T0, Expires: c2.Expires}):
				return fmt.Errorf("challenge read back %+v, %v", got, err)
			case len(u2) != 1 || u2[0].ID != c1.ID:
				return fmt.Errorf("u2's challenges %+v", u2)
			case len(due) != 1 || due[0].ID != c2.ID:
				return fmt.Errorf("expired %+v, want c2", due)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		update(t, st, func(tx play.Tx) error { return tx.DeleteChallenge(c1.ID) })
		err = st.Update(ctx, func(tx play.Tx) error { return tx.DeleteChallenge(c1.ID) })
		if !errors.Is(err, play.ErrNotFound) {
			t.Fatalf("deleting twice: %v, want ErrNotFound", err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			if u2, _ := tx.Challenges("u2"); len(u2) != 0 {
				return fmt.Errorf("u2 still has %+v", u2)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("players, stats and prefs are kept per scope", func(t *testing.T) {
		st := open(t)
		p := play.NewPlayer("g1", "u1")
		p.AsWhite.Won, p.Streak, p.Name = 2, 2, "Ann"
		q := play.NewPlayer("", "u1")
		s := play.Stats{Scope: "g1", WhiteWins: 3, ByReason: map[game.Reason]int{game.KingFrozen: 3}, IceAges: 4}
		update(t, st, func(tx play.Tx) error {
			return errors.Join(tx.PutPlayer(p), tx.PutPlayer(q), tx.PutStats(s),
				tx.PutPrefs("u1", play.Prefs{Language: "fr", Theme: "colorblind", Reminders: []int{24, 1}, AwayUntil: T0.Add(time.Hour), VacationUsed: 3}),
				tx.PutPrefs("u2", play.Prefs{Reminders: []int{}}), tx.PutPrefs("u3", play.Prefs{Notifications: "dm", DMRefused: T0}))
		})
		err := st.View(ctx, func(tx play.ReadTx) error {
			got, err := tx.Player("g1", "u1")
			if err != nil || got.AsWhite.Won != 2 || got.Name != "Ann" || got.Rating.Deviation != play.DefaultDeviation {
				return fmt.Errorf("player %+v, %v", got, err)
			}
			if _, err := tx.Player("g2", "u1"); !errors.Is(err, play.ErrNotFound) {
				return fmt.Errorf("a player with no record in g2: %v", err)
			}
			n := 0
			if err := tx.Players("g1", func(play.Player) error { n++; return nil }); err != nil || n != 1 {
				return fmt.Errorf("players of g1: %d, %v", n, err)
			}
			gs, _ := tx.Stats("g1")
			none, _ := tx.Stats("g9")
			pr, _ := tx.Prefs("u1")
			switch {
			case gs.WhiteWins != 3 || gs.ByReason[game.KingFrozen] != 3 || gs.IceAges != 4:
				return fmt.Errorf("stats %+v", gs)
			case none.Games() != 0:
				return fmt.Errorf("stats of an unknown scope %+v", none)
			case pr.Language != "fr" || pr.Theme != "colorblind" || fmt.Sprint(pr.Reminders) != "[24 1]" || !pr.AwayUntil.Equal(T0.Add(time.Hour)) || pr.VacationUsed != 3:
				return fmt.Errorf("prefs %+v", pr)
			}
			// No reminders (empty) is not the defaults (nil).
			if p2, _ := tx.Prefs("u2"); p2.Reminders == nil || len(p2.Reminders) != 0 {
				return fmt.Errorf("prefs with no reminders read back as %#v", p2.Reminders)
			}
			if p3, _ := tx.Prefs("u3"); p3.Reminders != nil || !p3.DMRefused.Equal(T0) {
				return fmt.Errorf("prefs with the default reminders read back as %#v", p3)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("a server's settings are kept per server and rule the games that start there", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{})
		none, err := svc.ServerSettings(ctx, "g1")
		if err != nil || none != (play.ServerSettings{}) {
			t.Fatalf("a server that set nothing: %+v, %v", none, err)
		}
		want := play.ServerSettings{Language: "fr", DefaultDays: play.NoLimitDays, OpponentChooses: play.On, Threads: play.Off, GamesChannel: "c9", OrganiserRole: "r7"}
		got, err := svc.SetServerSettings(ctx, "g1", want, "admin", T0)
		if err != nil {
			t.Fatal(err)
		}
		read, err := svc.ServerSettings(ctx, "g1")
		if err != nil || read.Language != "fr" || read.DefaultDays != play.NoLimitDays || read.OpponentChooses != play.On ||
			read.Threads != play.Off || read.GamesChannel != "c9" || read.OrganiserRole != "r7" || read.UpdatedBy != "admin" || !read.Updated.Equal(got.Updated) {
			t.Fatalf("read back %+v, %v", read, err)
		}
		if other, _ := svc.ServerSettings(ctx, "g2"); other != (play.ServerSettings{}) {
			t.Errorf("another server's settings: %+v", other)
		}
		for _, bad := range []play.ServerSettings{{Language: "xx"}, {DefaultDays: 4}, {DefaultDays: -2}, {Threads: 3}, {OpponentChooses: -1}, {GamesChannel: "a\x00b"}, {OrganiserRole: "r\x00"}} {
			if _, err := svc.SetServerSettings(ctx, "g1", bad, "admin", T0); err == nil {
				t.Errorf("settings %+v were taken", bad)
			}
		}
		if read, _ := svc.ServerSettings(ctx, "g1"); read.Language != "fr" {
			t.Errorf("a refused change changed the settings: %+v", read)
		}
		// The server chose that the opponent chooses on a timeout: a game
		// that starts there has the rule, one elsewhere has not.
		r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "t1", White: play.Seat{ID: "u1"}, Black: play.Seat{ID: "u2"}, DaysPerMove: 3, At: T0})
		if err != nil || !r.Game.OpponentChooses {
			t.Errorf("a game on the server: chooses %v, %v", r.Game.OpponentChooses, err)
		}
		r, err = svc.Start(ctx, play.NewGame{Guild: "g2", Channel: "t2", White: play.Seat{ID: "u1"}, Black: play.Seat{ID: "u2"}, DaysPerMove: 3, At: T0})
		if err != nil || r.Game.OpponentChooses {
			t.Errorf("a game elsewhere: chooses %v, %v", r.Game.OpponentChooses, err)
		}
	})

	t.Run("standings come in leaderboard order, rated players only, and follow their records", func(t *testing.T) {
		st := open(t)
		player := func(scope, user string, r float64, games int, at time.Time) play.Player {
			p := play.NewPlayer(scope, user)
			p.Name = "Name " + user
			p.Rating = play.Rating{Rating: r, Deviation: 60 + float64(games), Volatility: 0.059, Updated: at}
			p.RatedGames = games
			p.RatedTally = play.Tally{Won: games / 2, Lost: games - games/2}
			p.AsWhite.Won = 7
			return p
		}
		update(t, st, func(tx play.Tx) error {
			return errors.Join(
				tx.PutPlayer(player("g1", "u1", 1500, 3, T0)),
				tx.PutPlayer(player("g1", "u2", 1812.25, 9, T0.Add(time.Hour))),
				tx.PutPlayer(player("g1", "u3", 1500, 4, T0)),  // u1's rating, more games: before u1
				tx.PutPlayer(player("g1", "u0", 1500, 3, T0)),  // u1's rating and games: before u1 by id
				tx.PutPlayer(player("g1", "u4", -20.5, 1, T0)), // a negative rating sorts below the others
				tx.PutPlayer(player("g1", "u5", 2400, 0, T0)),  // no rated game: not standing
				tx.PutPlayer(player("g2", "u6", 3000, 5, T0)),  // another scope
				tx.PutPlayer(player("", "u1", 1400, 3, T0)),
				tx.PutPlayer(player("g1", "u7", 1200, 1, time.Time{})),
			)
		})
		order := func(tx play.ReadTx, scope string) (string, error) {
			var users []string
			err := tx.Standings(scope, func(s play.Standing) error {
				users = append(users, s.User)
				return nil
			})
			return fmt.Sprint(users), err
		}
		err := st.View(ctx, func(tx play.ReadTx) error {
			if got, err := order(tx, "g1"); err != nil || got != "[u2 u3 u0 u1 u7 u4]" {
				return fmt.Errorf("the standings of g1: %s, %v; want [u2 u3 u0 u1 u7 u4]", got, err)
			}
			if got, err := order(tx, ""); err != nil || got != "[u1]" {
				return fmt.Errorf("the global standings: %s, %v", got, err)
			}
			if got, err := order(tx, "g9"); err != nil || got != "[]" {
				return fmt.Errorf("the standings of a scope without players: %s, %v", got, err)
			}
			var first play.Standing
			stop := errors.New("stop")
			if err := tx.Standings("g1", func(s play.Standing) error { first = s; return stop }); !errors.Is(err, stop) {
				return fmt.Errorf("fn's error stops the walk: got %v", err)
			}
			p := player("g1", "u2", 1812.25, 9, T0.Add(time.Hour))
			if want := play.StandingOf(&p); asJSON(first) != asJSON(want) {
				return fmt.Errorf("the first standing is %+v, want %+v", first, want)
			}
			var u7 play.Standing
			tx.Standings("g1", func(s play.Standing) error {
				if s.User == "u7" {
					u7 = s
				}
				return nil
			})
			if !u7.Rating.Updated.IsZero() || u7.Rating.Volatility != 0.059 {
				return fmt.Errorf("a rating never dated reads back %+v", u7.Rating)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// A record rewritten moves its standing; the transaction sees it
		// at once, and may write while it walks.
		update(t, st, func(tx play.Tx) error {
			if err := tx.PutPlayer(player("g1", "u4", 1900, 2, T0)); err != nil {
				return err
			}
			if err := tx.PutPlayer(player("g1", "u2", 1812.25, 0, T0)); err != nil { // no rated game any more
				return err
			}
			if got, err := order(tx, "g1"); err != nil || got != "[u4 u3 u0 u1 u7]" {
				return fmt.Errorf("inside the transaction the standings are %s, %v; want [u4 u3 u0 u1 u7]", got, err)
			}
			return tx.Standings("g1", func(s play.Standing) error {
				p, err := tx.Player("g1", s.User)
				if err != nil {
					return err
				}
				p.RatedGames++
				p.RatedTally.Won++
				return tx.PutPlayer(p)
			})
		})
		boom := errors.New("boom")
		err = st.Update(ctx, func(tx play.Tx) error {
			if err := tx.PutPlayer(player("g1", "u1", 2500, 3, T0)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v, want fn's error", err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			var lines []string
			err := tx.Standings("g1", func(s play.Standing) error {
				lines = append(lines, fmt.Sprintf("%s %v %d", s.User, s.Rating.Rating, s.Tally.Games()))
				return nil
			})
			want := "[u4 1900 3 u3 1500 5 u0 1500 4 u1 1500 4 u7 1200 2]"
			if got := fmt.Sprint(lines); err != nil || got != want {
				return fmt.Errorf("after the walk that wrote, the standings are %s, %v; want %s", got, err, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("a player's log keeps one entry per game, in game order, per scope", func(t *testing.T) {
		st := open(t)
		entry := func(scope string, id uint64, opp string) play.LogEntry {
			return play.LogEntry{Scope: scope, User: "u1", Game: id, Ended: T0.Add(time.Duration(id) * time.Hour),
				Color: game.Black, Opponent: opp, Outcome: game.WinFor(game.Black, game.KingFrozen), First: "Nxf6",
				Rated: true, Rating: 1500 + float64(id), Deviation: 80}
		}
		update(t, st, func(tx play.Tx) error {
			return errors.Join(tx.PutLogEntry(entry("g1", 7, "u2")), tx.PutLogEntry(entry("g1", 3, "u3")),
				tx.PutLogEntry(entry("", 3, "u3")), tx.PutLogEntry(entry("g1", 12, "u2")))
		})
		// Writing an entry again, as a retried end would, replaces it; a
		// transaction sees its own entries among the stored ones.
		update(t, st, func(tx play.Tx) error {
			if err := tx.PutLogEntry(entry("g1", 7, "u4")); err != nil {
				return err
			}
			if err := tx.PutLogEntry(entry("g1", 5, "u2")); err != nil {
				return err
			}
			var seen []uint64
			err := tx.PlayerLog("g1", "u1", func(e play.LogEntry) error { seen = append(seen, e.Game); return nil })
			if err != nil || fmt.Sprint(seen) != "[3 5 7 12]" {
				return fmt.Errorf("inside the transaction the log holds games %v (%v), want [3 5 7 12]", seen, err)
			}
			return nil
		})
		boom := errors.New("boom")
		err := st.Update(ctx, func(tx play.Tx) error {
			if err := tx.PutLogEntry(entry("g1", 9, "u2")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v, want fn's error", err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			var got []play.LogEntry
			if err := tx.PlayerLog("g1", "u1", func(e play.LogEntry) error { got = append(got, e); return nil }); err != nil {
				return err
			}
			if len(got) != 4 || got[0].Game != 3 || got[1].Game != 5 || got[2].Game != 7 || got[3].Game != 12 {
				return fmt.Errorf("the log of u1 in g1 holds games %v, want 3, 5, 7, 12", got)
			}
			want := entry("g1", 7, "u4")
			got[2].V = want.V
			if a, b := asJSON(got[2]), asJSON(want); a != b {
				return fmt.Errorf("entry read back %s, put %s", a, b)
			}
			n := 0
			if err := tx.PlayerLog("", "u1", func(play.LogEntry) error { n++; return nil }); err != nil || n != 1 {
				return fmt.Errorf("the global log of u1 has %d entries (%v), want 1", n, err)
			}
			if err := tx.PlayerLog("g1", "u9", func(play.LogEntry) error { return errors.New("an entry for u9") }); err != nil {
				return err
			}
			stop := errors.New("stop")
			if err := tx.PlayerLog("g1", "u1", func(play.LogEntry) error { return stop }); !errors.Is(err, stop) {
				return fmt.Errorf("fn's error stops the walk: got %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("a rated game through play is rated once and logged for both players", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{Rand: func(int) int { return 0 }})
		r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, Rated: true, At: T0})
		if err != nil {
			t.Fatal(err)
		}
		g := r.Game
		for i, mv := range []string{"hxg3", "Nxf6"} {
			if r, err = svc.Move(ctx, play.Act{By: g.ToMove().ID, Game: g.ID, Revision: g.Revision, At: T0.Add(time.Duration(i+1) * time.Minute)}, mv); err != nil {
				t.Fatal(err)
			}
			g = r.Game
		}
		if r, err = svc.Resign(ctx, play.Act{By: "b", Game: g.ID, Revision: g.Revision, At: T0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			back, err := tx.Game(g.ID)
			if err != nil {
				return err
			}
			if len(back.Ratings) != 2 || asJSON(back.Ratings) != asJSON(r.Game.Ratings) {
				return fmt.Errorf("the game's rating changes read back %+v, want %+v", back.Ratings, r.Game.Ratings)
			}
			for _, scope := range []string{"", "g1"} {
				w, err := tx.Player(scope, "w")
				if err != nil || w.RatedGames != 1 || !(w.Rating.Rating > play.DefaultRating) || !w.Rating.Updated.Equal(T0.Add(time.Hour)) {
					return fmt.Errorf("the winner in %q: %+v, %v", scope, w, err)
				}
				b, err := tx.Player(scope, "b")
				if err != nil || b.RatedGames != 1 || !(b.Rating.Rating < play.DefaultRating) {
					return fmt.Errorf("the loser in %q: %+v, %v", scope, b, err)
				}
				for _, p := range []play.Player{w, b} {
					var log []play.LogEntry
					if err := tx.PlayerLog(scope, p.User, func(e play.LogEntry) error { log = append(log, e); return nil }); err != nil {
						return err
					}
					if len(log) != 1 || log[0].Game != g.ID || !log[0].Rated || log[0].Rating != p.Rating.Rating {
						return fmt.Errorf("the log of %s in %q: %+v", p.User, scope, log)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("concurrent acts through play on one game: exactly one of each pair applies", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{Rand: func(int) int { return 0 }})
		r, err := svc.Start(ctx, play.NewGame{Channel: "c1", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, At: T0})
		if err != nil {
			t.Fatal(err)
		}
		g := r.Game
		moves := []string{"h2g3", "g8f6", "g1f3", "f6g4"}
		for i, mv := range moves {
			by := g.ToMove().ID
			var wg sync.WaitGroup
			var mu sync.Mutex
			ok := 0
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := svc.Move(ctx, play.Act{By: by, Game: g.ID, Revision: g.Revision, At: T0.Add(time.Duration(i+1) * time.Minute)}, mv)
					var x *play.Refusal
					switch {
					case err == nil:
						mu.Lock()
						ok++
						mu.Unlock()
					case errors.As(err, &x) && x.Kind == play.Stale:
					default:
						t.Errorf("move %s: %v", mv, err)
					}
				}()
			}
			wg.Wait()
			if ok != 1 {
				t.Fatalf("move %s applied %d times", mv, ok)
			}
			if g, err = svc.Game(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
		}
		if g.Ply() != len(moves) {
			t.Fatalf("game has %d moves, want %d", g.Ply(), len(moves))
		}
	})

	t.Run("a game played to its end through play is counted once", func(t *testing.T) {
		st := open(t)
		svc := play.New(st, play.Options{Rand: func(int) int { return 0 }})
		c, err := svc.Challenge(ctx, play.NewChallenge{Guild: "g1", Channel: "c1", From: play.Seat{ID: "w", Name: "Wanda"}, To: play.Seat{ID: "b"}, Color: play.WhiteSide, DaysPerMove: 1, At: T0})
		if err != nil {
			t.Fatal(err)
		}
		r, err := svc.Accept(ctx, c.ID, play.Seat{ID: "b", Name: "Bo"}, "t1", T0)
		if err != nil {
			t.Fatal(err)
		}
		g := r.Game
		if r, err = svc.Resign(ctx, play.Act{By: "b", Game: g.ID, Revision: g.Revision, At: T0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Resign(ctx, play.Act{By: "b", Game: g.ID, Revision: r.Game.Revision, At: T0.Add(time.Hour)}); !isKind(err, play.GameOver) {
			t.Fatalf("resigning a finished game: %v", err)
		}
		err = st.View(ctx, func(tx play.ReadTx) error {
			for _, scope := range []string{"", "g1"} {
				w, err := tx.Player(scope, "w")
				if err != nil || w.Total() != (play.Tally{Won: 1}) || w.Name != "Wanda" {
					return fmt.Errorf("winner in %q: %+v, %v", scope, w, err)
				}
				b, err := tx.Player(scope, "b")
				if err != nil || b.Total() != (play.Tally{Lost: 1}) {
					return fmt.Errorf("loser in %q: %+v, %v", scope, b, err)
				}
				s, _ := tx.Stats(scope)
				if s.WhiteWins != 1 || s.Games() != 1 || s.ByReason[game.Resignation] != 1 {
					return fmt.Errorf("stats in %q: %+v", scope, s)
				}
			}
			if _, err := tx.GameIn("t1"); !errors.Is(err, play.ErrNotFound) {
				return fmt.Errorf("the finished game still holds its thread: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("the outbox", func(t *testing.T) { runOutboxSuite(t, open) })
	t.Run("tournaments", func(t *testing.T) { runTournamentSuite(t, open) })
	t.Run("export", func(t *testing.T) { runExportSuite(t, open) })
	t.Run("caps", func(t *testing.T) { runLimitsSuite(t, open) })
	t.Run("crossing challenges", func(t *testing.T) { runCrossingSuite(t, open) })
	t.Run("feed", func(t *testing.T) { runFeedSuite(t, open) })
	t.Run("puzzles", func(t *testing.T) { runPuzzleSuite(t, open) })
	t.Run("live clocks", func(t *testing.T) { runClockSuite(t, open) })
	t.Run("lessons", func(t *testing.T) { runLessonsSuite(t, open) })
	t.Run("first writes at once", func(t *testing.T) { runFirstWriteSuite(t, open) })
}

func ids(gs []play.Game) []uint64 {
	out := make([]uint64, len(gs))
	for i, g := range gs {
		out[i] = g.ID
	}
	return out
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func isKind(err error, k play.RefusalKind) bool {
	var x *play.Refusal
	return errors.As(err, &x) && x.Kind == k
}
