package store

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

func TestGameLifecycle(t *testing.T) {
	refs := loadRefGames(t)
	var ref refGame
	for _, r := range refs {
		if r.termination == "white_king_frozen" {
			ref = r
			break
		}
	}
	s := openTest(t, nil)
	g, err := s.CreateGame(newGame("guild1", "chan1", "alice", "bob", 3))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a new game is stored with its clock and found by channel, id and player", func(t *testing.T) {
		if g.ID == 0 || g.Ply() != 0 || g.FEN != game.StartFEN || g.Over() {
			t.Fatalf("new game: %+v", g)
		}
		if want := t0.Add(72 * time.Hour); !g.Deadline.Equal(want) {
			t.Errorf("deadline %v, want %v", g.Deadline, want)
		}
		if want := t0.Add(48 * time.Hour); !g.RemindAt.Equal(want) {
			t.Errorf("reminder %v, want %v", g.RemindAt, want)
		}
		byCh, err := s.Game("chan1")
		if err != nil || byCh.ID != g.ID {
			t.Fatalf("Game(chan1) = %d, %v", byCh.ID, err)
		}
		byID, err := s.GameByID(g.ID)
		if err != nil || byID.Channel != "chan1" {
			t.Fatalf("GameByID = %q, %v", byID.Channel, err)
		}
		for _, u := range []string{"alice", "bob"} {
			list, err := s.ActiveGames(u)
			if err != nil || len(list) != 1 || list[0].ID != g.ID {
				t.Errorf("ActiveGames(%s) = %d games, %v", u, len(list), err)
			}
		}
		if list, _ := s.GuildGames("guild1"); len(list) != 1 {
			t.Errorf("GuildGames: %d games", len(list))
		}
	})

	t.Run("a second game in the same channel is refused", func(t *testing.T) {
		_, err := s.CreateGame(newGame("guild1", "chan1", "carol", "dave", 0))
		if !errors.Is(err, ErrChannelBusy) {
			t.Fatalf("got %v, want ErrChannelBusy", err)
		}
	})

	t.Run("moves are stored one by one with their time and move the deadline", func(t *testing.T) {
		g = playAll(t, s, "chan1", ref.moves[:10])
		if g.Ply() != 10 {
			t.Fatalf("ply %d", g.Ply())
		}
		back, err := s.Game("chan1")
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(back) != fmt.Sprint(g) {
			t.Fatalf("read back differs:\n%+v\n%+v", back, g)
		}
		last := t0.Add(10 * time.Minute)
		if !back.Moves[9].At.Equal(last) || back.Moves[9].UCI != ref.moves[9] {
			t.Errorf("last move %+v", back.Moves[9])
		}
		if want := last.Add(72 * time.Hour); !back.Deadline.Equal(want) {
			t.Errorf("deadline %v, want %v", back.Deadline, want)
		}
		due, _ := s.DueDeadlines(last.Add(72*time.Hour), 0)
		if len(due) != 1 || due[0].Channel != "chan1" {
			t.Errorf("due deadlines: %+v", due)
		}
		if due, _ := s.DueDeadlines(last.Add(72*time.Hour-time.Millisecond), 0); len(due) != 0 {
			t.Errorf("deadline due too early: %+v", due)
		}
	})

	t.Run("the move that freezes a king ends the game and archives it", func(t *testing.T) {
		g = playAll(t, s, "chan1", ref.moves[10:])
		if !g.Over() || resultOf(g.Status) != ref.result || g.Status.Reason != game.KingFrozen {
			t.Fatalf("status %+v after the last move, want %s by %s", g.Status, ref.result, ref.termination)
		}
		if g.FEN != ref.finalFEN {
			t.Errorf("final FEN %s, want %s", g.FEN, ref.finalFEN)
		}
		if len(g.IceAges) == 0 || g.LastIceAge() == nil {
			t.Errorf("no Ice Age recorded: %+v", g.IceAges)
		}
		if _, err := s.Game("chan1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("the finished game is still active: %v", err)
		}
		a, err := s.ArchivedGame(g.ID)
		if err != nil || a.Ply() != len(ref.moves) {
			t.Fatalf("archived: ply %d, %v", a.Ply(), err)
		}
		if list, _ := s.ActiveGames("alice"); len(list) != 0 {
			t.Errorf("alice still has %d active games", len(list))
		}
		if due, _ := s.DueDeadlines(t0.Add(1000*time.Hour), 0); len(due) != 0 {
			t.Errorf("a finished game is still due: %+v", due)
		}
		if due, _ := s.DueReminders(t0.Add(1000*time.Hour), 0); len(due) != 0 {
			t.Errorf("a finished game still has a reminder: %+v", due)
		}
		for _, scope := range []string{"", "guild1"} {
			st, err := s.Stats(scope)
			if err != nil || st.BlackWins != 1 || st.ByReason[game.KingFrozen] != 1 {
				t.Errorf("stats %q: %+v, %v", scope, st, err)
			}
			alice, err := s.Player(scope, "alice")
			if err != nil || alice.AsWhite.Lost != 1 || alice.Streak != -1 || alice.Name != "name of alice" {
				t.Errorf("alice in %q: %+v, %v", scope, alice, err)
			}
			bob, _ := s.Player(scope, "bob")
			if bob.AsBlack.Won != 1 || bob.Streak != 1 || bob.BestStreak != 1 || bob.Rating.Rating != DefaultRating {
				t.Errorf("bob in %q: %+v", scope, bob)
			}
		}
	})

	t.Run("the channel is free again after the game ended", func(t *testing.T) {
		g2, err := s.CreateGame(newGame("guild1", "chan1", "carol", "dave", 0))
		if err != nil || g2.ID <= g.ID {
			t.Fatalf("new game %d after %d: %v", g2.ID, g.ID, err)
		}
	})
}

func TestPlayMoveRefusals(t *testing.T) {
	s := openTest(t, nil)
	if _, err := s.CreateGame(newGame("", "c", "w", "b", 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PlayMove("c", 0, "e2d3", "w", t0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		channel string
		ply     int
		uci     string
		by      string
		want    error
	}{
		{"a move made against an old ply is a conflict", "c", 0, "e7f6", "b", ErrConflict},
		{"a move made against a future ply is a conflict", "c", 2, "e7f6", "b", ErrConflict},
		{"a stranger cannot move", "c", 1, "e7f6", "x", ErrNotPlayer},
		{"White cannot move on Black's turn", "c", 1, "e2e3", "w", ErrNotYourTurn},
		{"text that is not UCI is refused", "c", 1, "Nf6", "b", ErrIllegalMove},
		{"a bad promotion letter is refused", "c", 1, "e7e8k", "b", ErrIllegalMove},
		{"a move from an empty square is illegal", "c", 1, "e4e5", "b", ErrIllegalMove},
		{"a pawn cannot push onto ice", "c", 1, "e7e6", "b", ErrIllegalMove},
		{"a channel without a game has nothing to move", "nope", 0, "e2d3", "w", ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.PlayMove(tt.channel, tt.ply, tt.uci, tt.by, t0)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if g, _ := s.Game("c"); g.Ply() != 1 {
				t.Fatalf("a refused move changed the game: ply %d", g.Ply())
			}
		})
	}
	t.Run("a move without a time is refused", func(t *testing.T) {
		if _, err := s.PlayMove("c", 1, "e7f6", "b", time.Time{}); !errors.Is(err, ErrInvalid) {
			t.Fatalf("got %v, want ErrInvalid", err)
		}
		if g, _ := s.Game("c"); g.Ply() != 1 {
			t.Fatalf("a refused move changed the game: ply %d", g.Ply())
		}
	})
	t.Run("AnyPly skips the version check", func(t *testing.T) {
		g, err := s.PlayMove("c", AnyPly, "e7f6", "b", t0)
		if err != nil || g.Ply() != 2 {
			t.Fatalf("ply %d, %v", g.Ply(), err)
		}
	})
}

func TestCreateGameRefusals(t *testing.T) {
	s := openTest(t, nil)
	tests := []struct {
		name string
		edit func(*NewGame)
	}{
		{"an empty channel id", func(n *NewGame) { n.Channel = "" }},
		{"a channel id with NUL", func(n *NewGame) { n.Channel = "a\x00b" }},
		{"an empty player id", func(n *NewGame) { n.Black.ID = "" }},
		{"too many days per move", func(n *NewGame) { n.DaysPerMove = MaxDaysPerMove + 1 }},
		{"negative days per move", func(n *NewGame) { n.DaysPerMove = -1 }},
		{"an unreadable start position", func(n *NewGame) { n.StartFEN = "not a fen" }},
		{"a missing creation time", func(n *NewGame) { n.At = time.Time{} }},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			n := newGame("g", "c", "w", "b", 1)
			tt.edit(&n)
			if _, err := s.CreateGame(n); !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
		})
	}
	if list, _ := s.GuildGames("g"); len(list) != 0 {
		t.Errorf("refused games were stored: %d", len(list))
	}
}

func TestUpdateGame(t *testing.T) {
	s := openTest(t, nil)
	if _, err := s.CreateGame(newGame("g", "c", "w", "b", 1)); err != nil {
		t.Fatal(err)
	}
	g, err := s.PlayMove("c", 0, "e2d3", "w", t0)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a draw offer and message ids are stored", func(t *testing.T) {
		g, err = s.UpdateGame("c", 1, func(g *Game) error {
			g.DrawOffer = "w"
			g.Messages = append(g.Messages, "m1")
			return nil
		})
		back, _ := s.Game("c")
		if err != nil || back.DrawOffer != "w" || len(back.Messages) != 1 {
			t.Fatalf("%+v, %v", back, err)
		}
	})
	t.Run("the offerer's opponent moving declines the offer", func(t *testing.T) {
		g, err = s.PlayMove("c", 1, "e7f6", "b", t0.Add(time.Hour))
		if err != nil || g.DrawOffer != "" {
			t.Fatalf("offer %q after the reply, %v", g.DrawOffer, err)
		}
	})
	t.Run("an error from the callback is returned and nothing is written", func(t *testing.T) {
		boom := errors.New("boom")
		_, err := s.UpdateGame("c", 2, func(g *Game) error { g.DrawOffer = "b"; return boom })
		if !errors.Is(err, boom) {
			t.Fatalf("got %v", err)
		}
		if back, _ := s.Game("c"); back.DrawOffer != "" {
			t.Fatalf("offer %q written", back.DrawOffer)
		}
	})
	refused := []struct {
		name string
		edit func(*Game)
	}{
		{"changing the moves", func(g *Game) { g.Moves = g.Moves[:1] }},
		{"changing the position", func(g *Game) { g.FEN = game.StartFEN }},
		{"changing a player", func(g *Game) { g.White.ID = "x" }},
		{"changing the channel", func(g *Game) { g.Channel = "d" }},
		{"a result without a reason", func(g *Game) { g.Status.Result = game.Draw }},
		{"an aborted game with a winner", func(g *Game) { g.Status = game.Outcome{Result: game.WhiteWins, Reason: game.Aborted} }},
		{"too many days per move", func(g *Game) { g.DaysPerMove = MaxDaysPerMove + 1 }},
	}
	for _, tt := range refused {
		t.Run(tt.name+" is refused, naming the game", func(t *testing.T) {
			_, err := s.UpdateGame("c", 2, func(g *Game) error { tt.edit(g); return nil })
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
			if want := fmt.Sprintf("game %d", g.ID); !strings.Contains(err.Error(), want) {
				t.Errorf("%q does not say %q", err, want)
			}
		})
	}
	t.Run("an update against an old ply is a conflict", func(t *testing.T) {
		_, err := s.UpdateGame("c", 1, func(g *Game) error { return nil })
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a resignation ends and archives the game", func(t *testing.T) {
		end := t0.Add(2 * time.Hour)
		g, err = s.UpdateGame("c", AnyPly, func(g *Game) error {
			g.Status = game.Outcome{Result: game.BlackWins, Reason: game.Resignation}
			g.Updated = end
			return nil
		})
		if err != nil || !g.Ended.Equal(end) {
			t.Fatalf("ended %v, %v", g.Ended, err)
		}
		a, err := s.ArchivedGame(g.ID)
		if err != nil || a.Status.Reason != game.Resignation {
			t.Fatalf("%+v, %v", a.Status, err)
		}
		if due, _ := s.DueDeadlines(end.Add(1000*time.Hour), 0); len(due) != 0 {
			t.Errorf("still due: %+v", due)
		}
	})
}

func TestTimeOutAndScheduler(t *testing.T) {
	s := openTest(t, nil)
	for i, days := range []int{3, 1, 0, 2} {
		if _, err := s.CreateGame(newGame("g", fmt.Sprint("c", i), "w", "b", days)); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("deadlines come out earliest first and only when due", func(t *testing.T) {
		due, err := s.DueDeadlines(t0.Add(72*time.Hour), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(due[0].Channel, due[1].Channel, due[2].Channel, len(due)); got != "c1c3c03" {
			t.Fatalf("due: %+v", due)
		}
		if due, _ := s.DueDeadlines(t0.Add(48*time.Hour), 1); len(due) != 1 || due[0].Channel != "c1" {
			t.Fatalf("limited: %+v", due)
		}
	})
	t.Run("reminders come a day before, or a quarter of a one-day clock", func(t *testing.T) {
		due, _ := s.DueReminders(t0.Add(18*time.Hour), 0)
		if len(due) != 1 || due[0].Channel != "c1" || !due[0].At.Equal(t0.Add(18*time.Hour)) {
			t.Fatalf("reminders: %+v", due)
		}
		if _, err := s.UpdateGame("c1", 0, func(g *Game) error { g.RemindAt = time.Time{}; return nil }); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueReminders(t0.Add(18*time.Hour), 0); len(due) != 0 {
			t.Fatalf("a cleared reminder is still due: %+v", due)
		}
	})
	t.Run("the next wake-up is the earliest entry of any index", func(t *testing.T) {
		next, ok, err := s.NextDue()
		if err != nil || !ok || !next.Equal(t0.Add(24*time.Hour)) {
			t.Fatalf("NextDue = %v, %v, %v", next, ok, err)
		}
	})
	t.Run("a timeout before the deadline is refused", func(t *testing.T) {
		if _, err := s.TimeOut("c1", 0, t0.Add(23*time.Hour)); !errors.Is(err, ErrConflict) {
			t.Fatalf("got %v", err)
		}
		if _, err := s.TimeOut("c2", 0, t0.Add(1000*time.Hour)); !errors.Is(err, ErrConflict) {
			t.Fatalf("a game without a clock timed out: %v", err)
		}
	})
	t.Run("a timeout after the deadline loses the game for the side to move", func(t *testing.T) {
		g, err := s.TimeOut("c1", 0, t0.Add(25*time.Hour))
		if err != nil || g.Status != (game.Outcome{Result: game.BlackWins, Reason: game.Timeout}) {
			t.Fatalf("%+v, %v", g.Status, err)
		}
		if due, _ := s.DueDeadlines(t0.Add(48*time.Hour), 0); len(due) != 1 || due[0].Channel != "c3" {
			t.Fatalf("due after the timeout: %+v", due)
		}
	})
	t.Run("a move at the deadline is refused, and the game times out", func(t *testing.T) {
		if _, err := s.PlayMove("c3", 0, "e2d3", "w", t0.Add(48*time.Hour)); !errors.Is(err, ErrTimeUp) {
			t.Fatalf("got %v, want ErrTimeUp", err)
		}
		g, err := s.TimeOut("c3", 0, t0.Add(48*time.Hour))
		if err != nil || g.Status != (game.Outcome{Result: game.BlackWins, Reason: game.Timeout}) {
			t.Fatalf("%+v, %v", g.Status, err)
		}
	})
	t.Run("a move just before the deadline plays", func(t *testing.T) {
		if _, err := s.PlayMove("c0", 0, "e2d3", "w", t0.Add(72*time.Hour-time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestArchiveQueries(t *testing.T) {
	s := openTest(t, nil)
	// Eight games: alice plays all, bob the even ones, carol the odd ones;
	// guild A holds the first five.
	var ids []uint64
	for i := 0; i < 8; i++ {
		opp, guild := "bob", "A"
		if i%2 == 1 {
			opp = "carol"
		}
		if i >= 5 {
			guild = "B"
		}
		ch := fmt.Sprint("ch", i)
		g, err := s.CreateGame(newGame(guild, ch, "alice", opp, 0))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
		if _, err := s.UpdateGame(ch, 0, func(g *Game) error {
			g.Status = game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}
			g.Updated = t0.Add(time.Duration(i) * time.Hour)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	idsOf := func(gs []Game) string {
		var out []uint64
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return fmt.Sprint(out)
	}
	tests := []struct {
		name string
		get  func() ([]Game, error)
		want []uint64
	}{
		{"a player's games come newest first", func() ([]Game, error) { return s.ArchiveOfPlayer("alice", 0, 3) }, []uint64{ids[7], ids[6], ids[5]}},
		{"the next page starts below the last id", func() ([]Game, error) { return s.ArchiveOfPlayer("alice", ids[5], 3) }, []uint64{ids[4], ids[3], ids[2]}},
		{"the last page is short", func() ([]Game, error) { return s.ArchiveOfPlayer("alice", ids[2], 3) }, []uint64{ids[1], ids[0]}},
		{"an opponent sees only their games", func() ([]Game, error) { return s.ArchiveOfPlayer("carol", 0, 0) }, []uint64{ids[7], ids[5], ids[3], ids[1]}},
		{"a guild sees only its games", func() ([]Game, error) { return s.ArchiveOfGuild("A", 0, 0) }, []uint64{ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{"the last guild's games do not spill over", func() ([]Game, error) { return s.ArchiveOfGuild("B", ids[6], 0) }, []uint64{ids[5]}},
		{"an unknown player has no games", func() ([]Game, error) { return s.ArchiveOfPlayer("zed", 0, 0) }, nil},
		{"a player whose id extends another's is not mixed in", func() ([]Game, error) { return s.ArchiveOfPlayer("ali", 0, 0) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.get()
			if err != nil {
				t.Fatal(err)
			}
			if idsOf(got) != fmt.Sprint(tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Fatalf("got %s, want %v", idsOf(got), tt.want)
			}
		})
	}
	t.Run("an export walks the whole archive in id order", func(t *testing.T) {
		var got []Game
		if err := s.EachArchived(0, func(g Game) error { got = append(got, g); return nil }); err != nil {
			t.Fatal(err)
		}
		if idsOf(got) != fmt.Sprint(ids) {
			t.Fatalf("got %s", idsOf(got))
		}
		got = nil
		stop := errors.New("stop")
		err := s.EachArchived(ids[5], func(g Game) error { got = append(got, g); return stop })
		if !errors.Is(err, stop) || idsOf(got) != fmt.Sprint([]uint64{ids[6]}) {
			t.Fatalf("resumed walk: %s, %v", idsOf(got), err)
		}
	})
	t.Run("finished games are found by id", func(t *testing.T) {
		g, err := s.GameByID(ids[3])
		if err != nil || g.Channel != "ch3" || !g.Over() {
			t.Fatalf("%+v, %v", g, err)
		}
		if _, err := s.GameByID(999); !errors.Is(err, ErrNotFound) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("the counts follow the games", func(t *testing.T) {
		a, _ := s.Player("", "alice")
		if a.AsWhite.Won != 8 || a.Streak != 8 || a.BestStreak != 8 || a.Total().Games() != 8 {
			t.Fatalf("alice: %+v", a)
		}
		b, _ := s.Player("A", "bob")
		if b.AsBlack.Lost != 3 || b.Streak != -3 {
			t.Fatalf("bob in A: %+v", b)
		}
		st, _ := s.Stats("B")
		if st.WhiteWins != 3 || st.Games() != 3 {
			t.Fatalf("stats B: %+v", st)
		}
	})
}

func TestChallenges(t *testing.T) {
	s := openTest(t, nil)
	mk := func(to string, color string, expires time.Duration) Challenge {
		c, err := s.CreateChallenge(Challenge{Guild: "g", Channel: "lobby", From: Seat{ID: "ann"}, To: Seat{ID: to},
			Color: color, DaysPerMove: 2, Created: t0, Expires: t0.Add(expires)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	open := mk("", "white", time.Hour)
	direct := mk("ben", "", 2*time.Hour)
	soon := mk("ben", "black", time.Minute)

	t.Run("challenges are listed for both users", func(t *testing.T) {
		ann, _ := s.Challenges("ann")
		ben, _ := s.Challenges("ben")
		if len(ann) != 3 || len(ben) != 2 {
			t.Fatalf("ann %d, ben %d", len(ann), len(ben))
		}
	})
	t.Run("expired challenges come out of the expiry index", func(t *testing.T) {
		due, _ := s.ExpiredChallenges(t0.Add(time.Hour), 0)
		if len(due) != 2 || due[0].ID != soon.ID || due[1].ID != open.ID {
			t.Fatalf("expired: %+v", due)
		}
	})
	refusals := []struct {
		name string
		id   uint64
		a    Accept
		want error
	}{
		{"an expired challenge cannot be accepted", soon.ID, Accept{By: Seat{ID: "ben"}, At: t0.Add(time.Minute)}, ErrExpired},
		{"a challenge for someone else cannot be accepted", direct.ID, Accept{By: Seat{ID: "cat"}, At: t0}, ErrNotPlayer},
		{"one's own challenge cannot be accepted", open.ID, Accept{By: Seat{ID: "ann"}, At: t0}, ErrNotPlayer},
		{"an unknown challenge cannot be accepted", 99, Accept{By: Seat{ID: "ben"}, At: t0}, ErrNotFound},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.AcceptChallenge(tt.id, tt.a); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	t.Run("accepting creates the game with the asked colours and removes the challenge", func(t *testing.T) {
		g, err := s.AcceptChallenge(open.ID, Accept{By: Seat{ID: "cat", Name: "Cat"}, Channel: "thread1", White: false, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		if g.White.ID != "ann" || g.Black.ID != "cat" || g.Channel != "thread1" || g.DaysPerMove != 2 || g.Guild != "g" {
			t.Fatalf("game %+v", g)
		}
		if _, err := s.Challenge(open.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("the challenge is still there: %v", err)
		}
		if _, err := s.AcceptChallenge(open.ID, Accept{By: Seat{ID: "ben"}, At: t0}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a second accept: %v", err)
		}
	})
	t.Run("accepting into a busy channel is refused and keeps the challenge", func(t *testing.T) {
		if _, err := s.AcceptChallenge(direct.ID, Accept{By: Seat{ID: "ben"}, Channel: "thread1", At: t0}); !errors.Is(err, ErrChannelBusy) {
			t.Fatalf("got %v", err)
		}
		if _, err := s.Challenge(direct.ID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a random colour is the caller's draw", func(t *testing.T) {
		g, err := s.AcceptChallenge(direct.ID, Accept{By: Seat{ID: "ben"}, White: true, At: t0})
		if err != nil || g.White.ID != "ann" || g.Channel != "lobby" {
			t.Fatalf("%+v, %v", g, err)
		}
	})
	t.Run("declining removes the challenge and its index entries", func(t *testing.T) {
		if _, err := s.DeleteChallenge(soon.ID); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.ExpiredChallenges(t0.Add(1000*time.Hour), 0); len(due) != 0 {
			t.Fatalf("still expiring: %+v", due)
		}
		if list, _ := s.Challenges("ann"); len(list) != 0 {
			t.Fatalf("still listed: %+v", list)
		}
	})
	t.Run("a bad challenge is refused", func(t *testing.T) {
		for _, c := range []Challenge{
			{Channel: "x", From: Seat{ID: "a"}, Color: "green", Created: t0, Expires: t0.Add(time.Hour)},
			{Channel: "x", From: Seat{ID: "a"}, Created: t0, Expires: t0},
			{Channel: "", From: Seat{ID: "a"}, Created: t0, Expires: t0.Add(time.Hour)},
		} {
			if _, err := s.CreateChallenge(c); !errors.Is(err, ErrInvalid) {
				t.Errorf("%+v: got %v", c, err)
			}
		}
	})
}

func TestPlayersAndPrefs(t *testing.T) {
	s := openTest(t, nil)
	t.Run("an unknown player is not found", func(t *testing.T) {
		if _, err := s.Player("", "nobody"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a rating update creates the record with the defaults first", func(t *testing.T) {
		p, err := s.UpdatePlayer("g", "u", func(p *Player) error {
			if p.Rating.Rating != DefaultRating || p.Rating.Deviation != DefaultDeviation {
				return fmt.Errorf("not the defaults: %+v", p.Rating)
			}
			p.Rating.Rating = 1612.5
			return nil
		})
		if err != nil || p.Rating.Rating != 1612.5 {
			t.Fatalf("%+v, %v", p, err)
		}
		back, _ := s.Player("g", "u")
		if back.Rating.Rating != 1612.5 || back.Scope != "g" {
			t.Fatalf("%+v", back)
		}
		var n int
		s.Players("g", func(Player) error { n++; return nil })
		if n != 1 {
			t.Fatalf("%d players in g", n)
		}
	})
	t.Run("preferences start empty and keep what was set", func(t *testing.T) {
		p, err := s.Prefs("u")
		if err != nil || p != (Prefs{}) {
			t.Fatalf("%+v, %v", p, err)
		}
		if _, err := s.SetPrefs("u", func(p *Prefs) error { p.Language = "nb"; p.Orientation = "black"; return nil }); err != nil {
			t.Fatal(err)
		}
		p, _ = s.Prefs("u")
		if p.Language != "nb" || p.Orientation != "black" || p.V != recordVersion {
			t.Fatalf("%+v", p)
		}
	})
}

func TestTakeBack(t *testing.T) {
	ref := loadRefGames(t)[0]
	s := openTest(t, nil)
	if _, err := s.CreateGame(newGame("", "c", "w", "b", 1)); err != nil {
		t.Fatal(err)
	}
	// Black's 20th move (ply 40) brings the first Ice Age.
	full := playAll(t, s, "c", ref.moves[:41])
	if len(full.IceAges) != 1 || full.IceAges[0].Ply != 40 {
		t.Fatalf("Ice Ages %+v", full.IceAges)
	}
	tests := []struct {
		name    string
		ply, n  int
		want    error
		wantPly int
	}{
		{"taking back more moves than played is refused", 41, 42, ErrInvalid, 41},
		{"taking back nothing is refused", 41, 0, ErrInvalid, 41},
		{"a takeback against an old ply is a conflict", 40, 1, ErrConflict, 41},
		{"a takeback at any ply is refused, as two clicks would take back twice", AnyPly, 1, ErrInvalid, 41},
		{"one move back keeps the Ice Age", 41, 1, nil, 40},
		{"one more move back undoes the Ice Age", 40, 1, nil, 39},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := s.TakeBack("c", tt.ply, tt.n, t0.Add(time.Hour))
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			g, _ = s.Game("c")
			if g.Ply() != tt.wantPly {
				t.Fatalf("ply %d, want %d", g.Ply(), tt.wantPly)
			}
			p, ices, err := replay(game.StartFEN, g.Moves)
			if err != nil || p.FEN() != g.FEN || len(ices) != len(g.IceAges) {
				t.Fatalf("stored %s with %d Ice Ages, replayed %s with %d: %v", g.FEN, len(g.IceAges), p.FEN(), len(ices), err)
			}
		})
	}
	t.Run("the game goes on after a takeback", func(t *testing.T) {
		g := playAll(t, s, "c", ref.moves[39:45])
		if g.Ply() != 45 || len(g.IceAges) != 1 {
			t.Fatalf("ply %d, %d Ice Ages", g.Ply(), len(g.IceAges))
		}
	})
}

func TestMoveEncoding(t *testing.T) {
	at := time.UnixMilli(1764468000123).UTC()
	tests := []struct {
		name string
		json string
		want Move
	}{
		{"the written form is read", `["e2d3",1764468000123]`, Move{"e2d3", at}},
		{"a promotion is read", `["e7e8q",1764468000123]`, Move{"e7e8q", at}},
		{"spaces take the general path", `[ "e2d3" , 1764468000123 ]`, Move{"e2d3", at}},
		{"an escaped string takes the general path", `["e2\u0064\u0033",1764468000123]`, Move{"e2d3", at}},
		{"a time before 1970 is read", `["a1a2",-5]`, Move{"a1a2", time.UnixMilli(-5).UTC()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Move
			if err := m.UnmarshalJSON([]byte(tt.json)); err != nil || m != tt.want {
				t.Fatalf("got %+v, %v", m, err)
			}
		})
	}
	for _, bad := range []string{`["e2d3"]`, `["e2d3",1.5]`, `{"m":"e2d3"}`, `["e2d3",1`, `["e2d3","x"]`} {
		t.Run(bad+" is refused", func(t *testing.T) {
			var m Move
			if err := m.UnmarshalJSON([]byte(bad)); err == nil {
				t.Fatalf("decoded %+v", m)
			}
		})
	}
}

func FuzzMoveJSON(f *testing.F) {
	f.Add("e2d3", int64(1764468000123))
	f.Add("e\"7", int64(-1))
	f.Fuzz(func(t *testing.T, uci string, ms int64) {
		if !utf8.ValidString(uci) {
			return
		}
		m := Move{uci, time.UnixMilli(ms).UTC()}
		b, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back Move
		if err := back.UnmarshalJSON(b); err != nil || back != m {
			t.Fatalf("%s: got %+v, %v", b, back, err)
		}
	})
}

func TestFarTimesKeepTheirOrder(t *testing.T) {
	s := openTest(t, nil)
	now := t0
	for _, tt := range []struct {
		name    string
		expires time.Time
	}{
		{"a challenge expiring in the year 3000 is not expired now", time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"a challenge expiring in the year 9999 is not expired now", time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := s.CreateChallenge(Challenge{Channel: "lobby", From: Seat{ID: "ann"}, Created: now, Expires: tt.expires})
			if err != nil {
				t.Fatal(err)
			}
			if due, _ := s.ExpiredChallenges(now, 0); len(due) != 0 {
				t.Fatalf("expired at %v: %+v", now, due)
			}
			if due, _ := s.ExpiredChallenges(tt.expires, 0); len(due) == 0 || due[len(due)-1].ID != c.ID {
				t.Fatalf("not expired at %v: %+v", tt.expires, due)
			}
			if _, err := s.DeleteChallenge(c.ID); err != nil {
				t.Fatal(err)
			}
			if due, _ := s.ExpiredChallenges(tt.expires, 0); len(due) != 0 {
				t.Fatalf("a deleted challenge left its expiry entry: %+v", due)
			}
		})
	}
	t.Run("a deadline set far ahead by an update is not due now and leaves with the game", func(t *testing.T) {
		if _, err := s.CreateGame(newGame("g", "far", "w", "b", 1)); err != nil {
			t.Fatal(err)
		}
		far := time.Date(2500, 1, 1, 0, 0, 0, 0, time.UTC)
		if _, err := s.UpdateGame("far", 0, func(g *Game) error { g.Deadline, g.RemindAt = far, time.Time{}; return nil }); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueDeadlines(now.Add(48*time.Hour), 0); len(due) != 0 {
			t.Fatalf("due: %+v", due)
		}
		if _, err := s.UpdateGame("far", 0, func(g *Game) error { g.Status = game.Outcome{Result: game.Draw, Reason: game.DrawAgreed}; return nil }); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueDeadlines(far, 0); len(due) != 0 {
			t.Fatalf("an archived game is still indexed: %+v", due)
		}
	})
}

func TestCorruptPlayerIsNotReset(t *testing.T) {
	s := openTest(t, nil)
	bad := []byte(`{"v":2,"rating":`)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPlayers).Put(playerKey("", "ann"), bad)
	}); err != nil {
		t.Fatal(err)
	}
	t.Run("an update of an unreadable player record fails and names the player", func(t *testing.T) {
		_, err := s.UpdatePlayer("", "ann", func(p *Player) error { return nil })
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "ann") {
			t.Fatalf("got %v, want ErrCorrupt about ann", err)
		}
	})
	t.Run("a game ending does not overwrite the unreadable record", func(t *testing.T) {
		if _, err := s.CreateGame(newGame("", "c", "ann", "ben", 0)); err != nil {
			t.Fatal(err)
		}
		_, err := s.UpdateGame("c", AnyPly, func(g *Game) error {
			g.Status = game.Outcome{Result: game.BlackWins, Reason: game.Resignation}
			return nil
		})
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("got %v, want ErrCorrupt", err)
		}
		if _, err := s.Game("c"); err != nil {
			t.Fatalf("the game should still be active: %v", err)
		}
	})
	t.Run("the record is as it was", func(t *testing.T) {
		s.db.View(func(tx *bolt.Tx) error {
			if got := tx.Bucket(bucketPlayers).Get(playerKey("", "ann")); !bytes.Equal(got, bad) {
				t.Fatalf("the record is now %s", got)
			}
			return nil
		})
	})
	t.Run("the damage check names the record", func(t *testing.T) {
		if err := s.Check(); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), `the player "\x00ann" does not decode`) {
			t.Fatalf("got %v", err)
		}
		// Mended, so that the check at cleanup passes.
		s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketPlayers).Delete(playerKey("", "ann")) })
	})
}

func TestNewerRecordsAreRefused(t *testing.T) {
	s := openTest(t, nil)
	if _, err := s.CreateGame(newGame("", "c", "w", "b", 0)); err != nil {
		t.Fatal(err)
	}
	// The record as a newer program would write it: a higher version and
	// a field this program does not know.
	var newer []byte
	if err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketGames)
		newer = bytes.Replace(b.Get([]byte("c")), []byte(`{"v":2,`), []byte(`{"v":3,"clock":{"inc":60},`), 1)
		return b.Put([]byte("c"), newer)
	}); err != nil {
		t.Fatal(err)
	}
	t.Run("reading a game of a newer record version fails", func(t *testing.T) {
		if _, err := s.Game("c"); !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "channel c") {
			t.Fatalf("got %v, want ErrNewerSchema naming the channel", err)
		}
	})
	t.Run("a move in it is refused and the record is kept as it was", func(t *testing.T) {
		if _, err := s.PlayMove("c", 0, "e2d3", "w", t0); !errors.Is(err, ErrNewerSchema) {
			t.Fatalf("got %v, want ErrNewerSchema", err)
		}
		s.db.View(func(tx *bolt.Tx) error {
			if got := tx.Bucket(bucketGames).Get([]byte("c")); !bytes.Equal(got, newer) {
				t.Fatalf("the record is now %s", got)
			}
			return nil
		})
	})
}

func TestDeclineChallenge(t *testing.T) {
	s := openTest(t, nil)
	mk := func(to string) Challenge {
		c, err := s.CreateChallenge(Challenge{Channel: "lobby", From: Seat{ID: "ann"}, To: Seat{ID: to}, Created: t0, Expires: t0.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	direct, open := mk("ben"), mk("")
	tests := []struct {
		name string
		c    Challenge
		by   string
		want error
	}{
		{"a stranger cannot decline a challenge addressed to someone else", direct, "cat", ErrNotPlayer},
		{"nobody but the challenger can decline an open challenge", open, "ben", ErrNotPlayer},
		{"the challenged user declines", direct, "ben", nil},
		{"a challenge already answered is not found", direct, "ben", ErrNotFound},
		{"the challenger withdraws an open challenge", open, "ann", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.DeclineChallenge(tt.c.ID, tt.by)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			_, gone := s.Challenge(tt.c.ID)
			if (tt.want == ErrNotPlayer) != (gone == nil) {
				t.Fatalf("after %v the challenge lookup gives %v", err, gone)
			}
		})
	}
	if list, _ := s.Challenges("ann"); len(list) != 0 {
		t.Fatalf("still listed: %+v", list)
	}
}

func TestResign(t *testing.T) {
	s := openTest(t, nil)
	if _, err := s.CreateGame(newGame("g", "c", "w", "b", 0)); err != nil {
		t.Fatal(err)
	}
	t.Run("a stranger cannot resign for a player", func(t *testing.T) {
		if _, err := s.Resign("c", "x", t0); !errors.Is(err, ErrNotPlayer) {
			t.Fatalf("got %v, want ErrNotPlayer", err)
		}
		if _, err := s.Game("c"); err != nil {
			t.Fatalf("the game should still be active: %v", err)
		}
	})
	t.Run("Black resigning gives White the game, archived", func(t *testing.T) {
		g, err := s.Resign("c", "b", t0.Add(time.Hour))
		if err != nil || g.Status != (game.Outcome{Result: game.WhiteWins, Reason: game.Resignation}) || !g.Ended.Equal(t0.Add(time.Hour)) {
			t.Fatalf("%+v, %v", g, err)
		}
		if a, _ := s.ArchiveOfPlayer("w", 0, 0); len(a) != 1 {
			t.Fatalf("archive of w: %d games", len(a))
		}
	})
	t.Run("a second resignation finds no game", func(t *testing.T) {
		if _, err := s.Resign("c", "w", t0.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
	})
}
