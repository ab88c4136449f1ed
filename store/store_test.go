package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/playtest"
)

func TestStorageSuite(t *testing.T) {
	for _, bc := range []struct {
		name  string
		alone bool
	}{{"with one commit per write", true}, {"with batched commits", false}} {
		t.Run(bc.name, func(t *testing.T) {
			playtest.RunStorageSuite(t, func(t *testing.T) play.Storage { return openTest(t, &Options{Alone: bc.alone}) })
		})
	}
}

func TestGameThroughPlay(t *testing.T) {
	ref := refEndingIn(t, "white_king_frozen")
	s := openTest(t, nil)
	svc := service(s)
	g := start(t, svc, "guild1", "chan1", "alice", "bob", 3)

	t.Run("a new game is stored with its clock and found by channel, id, player and guild", func(t *testing.T) {
		if g.ID == 0 || g.Ply() != 0 || g.FEN != game.StartFEN || g.Over() {
			t.Fatalf("new game: %+v", g)
		}
		view(t, s, func(tx play.ReadTx) error {
			byCh, err := tx.GameIn("chan1")
			if err != nil || byCh.ID != g.ID || byCh.V != recordVersion {
				t.Errorf("GameIn(chan1) = game %d (v%d), %v", byCh.ID, byCh.V, err)
			}
			for _, u := range []string{"alice", "bob"} {
				if list, err := tx.ActiveGames(u); err != nil || idsOf(list) != fmt.Sprint([]uint64{g.ID}) {
					t.Errorf("ActiveGames(%s) = %s, %v", u, idsOf(list), err)
				}
			}
			if list, _ := tx.GuildGames("guild1"); len(list) != 1 {
				t.Errorf("GuildGames: %d games", len(list))
			}
			if d, _ := tx.Due(play.DueReminder, t0.Add(48*time.Hour), 10); len(d) != 1 || d[0].ID != g.ID || !d[0].At.Equal(t0.Add(48*time.Hour)) {
				t.Errorf("reminders due: %+v", d)
			}
			return nil
		})
	})

	t.Run("moves move the deadline in the index", func(t *testing.T) {
		g = playMoves(t, svc, g, ref.moves[:10])
		view(t, s, func(tx play.ReadTx) error {
			back, err := tx.Game(g.ID)
			if err != nil || back.Ply() != 10 || back.Revision != g.Revision || !back.Deadline.Equal(g.Deadline) {
				t.Fatalf("read back: ply %d, revision %d, deadline %v, %v", back.Ply(), back.Revision, back.Deadline, err)
			}
			if d, _ := tx.Due(play.DueDeadline, g.Deadline.Add(-time.Millisecond), 10); len(d) != 0 {
				t.Errorf("due before the deadline: %+v", d)
			}
			if d, _ := tx.Due(play.DueDeadline, g.Deadline, 10); len(d) != 1 || d[0].ID != g.ID {
				t.Errorf("due at the deadline: %+v", d)
			}
			return nil
		})
	})

	t.Run("the move that freezes a king archives the game and counts it", func(t *testing.T) {
		g = playMoves(t, svc, g, ref.moves[10:])
		if !g.Over() || g.Outcome.Reason != game.KingFrozen || g.FEN != ref.finalFEN {
			t.Fatalf("outcome %+v, FEN %s", g.Outcome, g.FEN)
		}
		ices := iceAgeCount(t, &g)
		view(t, s, func(tx play.ReadTx) error {
			if _, err := tx.GameIn("chan1"); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("the finished game still holds its channel: %v", err)
			}
			a, err := tx.Game(g.ID)
			if err != nil || a.Ply() != len(ref.moves) || replays(&a) != nil {
				t.Fatalf("archived: ply %d, %v, %v", a.Ply(), err, replays(&a))
			}
			if list, _ := tx.ActiveGames("alice"); len(list) != 0 {
				t.Errorf("alice still has %d active games", len(list))
			}
			for _, kind := range []play.DueKind{play.DueDeadline, play.DueReminder} {
				if _, ok, _ := tx.NextDue(kind); ok {
					t.Errorf("a finished game is still in time index %d", kind)
				}
			}
			for _, scope := range []string{"", "guild1"} {
				st, err := tx.Stats(scope)
				if err != nil || st.BlackWins != 1 || st.ByReason[game.KingFrozen] != 1 || st.IceAges != ices {
					t.Errorf("stats %q: %+v, %v (want %d Ice Ages)", scope, st, err, ices)
				}
				alice, err := tx.Player(scope, "alice")
				if err != nil || alice.AsWhite.Lost != 1 || alice.FrozenLosses != 1 || alice.Name != "name of alice" {
					t.Errorf("alice in %q: %+v, %v", scope, alice, err)
				}
			}
			if f, _ := tx.Finished("bob", "", 0, 10); idsOf(f) != fmt.Sprint([]uint64{g.ID}) {
				t.Errorf("bob's finished games %s", idsOf(f))
			}
			return nil
		})
	})

	t.Run("the channel is free again, and ids keep growing", func(t *testing.T) {
		g2 := start(t, svc, "guild1", "chan1", "carol", "dave", 0)
		if g2.ID <= g.ID {
			t.Fatalf("new game %d after %d", g2.ID, g.ID)
		}
	})
}

func TestStoredForm(t *testing.T) {
	s := openTest(t, nil)
	svc := service(s)
	g := start(t, svc, "", "c", "w", "b", 0)
	g = playMoves(t, svc, g, []string{"e2d3"})
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("w", play.Prefs{Language: "fr"}) }); err != nil {
		t.Fatal(err)
	}
	var game, prefs []byte
	s.db.View(func(tx *bolt.Tx) error {
		game = append(game, tx.Bucket(bucketActive).Get(u64(g.ID))...)
		prefs = append(prefs, tx.Bucket(bucketPrefs).Get([]byte("w"))...)
		return nil
	})
	// A game is play's binary form: its version, then its fields.
	if len(game) == 0 || game[0] != play.RecordVersion || len(game) > 100 {
		t.Errorf("the stored game is %x", game)
	}
	var back play.Game
	if err := play.DecodeRecord(game, &back); err != nil || back.Moves[0].UCI != "e2d3" || back.FEN != g.FEN {
		t.Errorf("the stored game reads as %+v, %v", back, err)
	}
	// The other records are JSON.
	if want := fmt.Sprintf(`{"v":%d,`, play.RecordVersion); !bytes.HasPrefix(prefs, []byte(want)) {
		t.Errorf("the stored preferences %s do not begin with %s", prefs, want)
	}
}

func TestWriteRefusals(t *testing.T) {
	s := openTest(t, nil)
	good := func(tx play.Tx) play.Game {
		id, err := tx.NextID()
		if err != nil {
			t.Fatal(err)
		}
		return play.Game{ID: id, Revision: 1, Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"},
			StartFEN: game.StartFEN, FEN: game.StartFEN, Created: t0, Updated: t0}
	}
	tests := []struct {
		name string
		put  func(tx play.Tx) error
	}{
		{"a game without an id", func(tx play.Tx) error { g := good(tx); g.ID = 0; return tx.PutGame(g) }},
		{"a game without a channel", func(tx play.Tx) error { g := good(tx); g.Channel = ""; return tx.PutGame(g) }},
		{"a channel id with NUL", func(tx play.Tx) error { g := good(tx); g.Channel = "a\x00b"; return tx.PutGame(g) }},
		{"a guild id with NUL", func(tx play.Tx) error { g := good(tx); g.Guild = "g\x00"; return tx.PutGame(g) }},
		{"a game without a Black player", func(tx play.Tx) error { g := good(tx); g.Black.ID = ""; return tx.PutGame(g) }},
		{"a channel id of 300 bytes", func(tx play.Tx) error { g := good(tx); g.Channel = strings.Repeat("c", 300); return tx.PutGame(g) }},
		{"a challenge without an id", func(tx play.Tx) error {
			return tx.PutChallenge(play.Challenge{Channel: "c", From: play.Seat{ID: "a"}})
		}},
		{"a challenge from nobody", func(tx play.Tx) error { return tx.PutChallenge(play.Challenge{ID: 5, Channel: "c"}) }},
		{"a challenge to a user id with NUL", func(tx play.Tx) error {
			return tx.PutChallenge(play.Challenge{ID: 5, Channel: "c", From: play.Seat{ID: "a"}, To: play.Seat{ID: "\x00"}})
		}},
		{"a player without a user", func(tx play.Tx) error { return tx.PutPlayer(play.NewPlayer("g", "")) }},
		{"a player in a scope with NUL", func(tx play.Tx) error { return tx.PutPlayer(play.NewPlayer("g\x00h", "u")) }},
		{"stats of a scope with NUL", func(tx play.Tx) error { return tx.PutStats(play.Stats{Scope: "\x00"}) }},
		{"prefs of nobody", func(tx play.Tx) error { return tx.PutPrefs("", play.Prefs{}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			err := s.Update(ctx, tt.put)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("got %v, want ErrInvalid", err)
			}
		})
	}
	t.Run("nothing of the refused writes is stored", func(t *testing.T) {
		s.db.View(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{bucketActive, bucketArchive, bucketChallenges, bucketPlayers, bucketStats, bucketPrefs} {
				if n := tx.Bucket(b).Stats().KeyN; n != 0 {
					t.Errorf("%s holds %d records", b, n)
				}
			}
			return nil
		})
	})
	t.Run("lookups of ids that cannot be stored find nothing", func(t *testing.T) {
		view(t, s, func(tx play.ReadTx) error {
			if _, err := tx.GameIn("a\x00b"); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("GameIn: %v", err)
			}
			if _, err := tx.Player("", ""); !errors.Is(err, play.ErrNotFound) {
				t.Errorf("Player: %v", err)
			}
			for _, f := range []func() ([]play.Game, error){
				func() ([]play.Game, error) { return tx.ActiveGames("") },
				func() ([]play.Game, error) { return tx.GuildGames("x\x00") },
				func() ([]play.Game, error) { return tx.Finished("x\x00", "", 0, 10) },
			} {
				if gs, err := f(); len(gs) != 0 || err != nil {
					t.Errorf("found %d games, %v", len(gs), err)
				}
			}
			if _, err := tx.Due(play.DueKind(9), t0, 1); !errors.Is(err, ErrInvalid) {
				t.Errorf("an unknown time index: %v", err)
			}
			return nil
		})
	})
	t.Run("a write in a read transaction is refused", func(t *testing.T) {
		err := s.View(ctx, func(tx play.ReadTx) error {
			return tx.(play.Tx).PutPrefs("u", play.Prefs{Language: "fr"})
		})
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a cancelled context runs nothing", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		cancel()
		ran := false
		if err := s.Update(c, func(play.Tx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
			t.Fatalf("Update: %v, ran %v", err, ran)
		}
		if err := s.View(c, func(play.ReadTx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
			t.Fatalf("View: %v, ran %v", err, ran)
		}
	})
}

// A batch is shared by the writers that arrive together. A refusal (an
// error before any write) must neither fail the batch nor make it run
// again; an error after a write must undo that writer's work only.
func TestBatchedRefusalsAndFailures(t *testing.T) {
	s := openTest(t, nil)
	refused := errors.New("refused")
	failed := errors.New("failed after writing")
	type writer struct {
		kind string // "ok", "refuse", "fail"
		runs atomic.Int32
		err  error
	}
	run := func(t *testing.T, kinds []string) []*writer {
		ws := make([]*writer, len(kinds))
		var wg sync.WaitGroup
		begin := make(chan struct{})
		for i, k := range kinds {
			w := &writer{kind: k}
			ws[i] = w
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-begin
				w.err = s.Update(ctx, func(tx play.Tx) error {
					w.runs.Add(1)
					user := fmt.Sprintf("%s%d", w.kind, i)
					if w.kind == "refuse" {
						if _, err := tx.Prefs(user); err != nil {
							return err
						}
						return fmt.Errorf("%w: user %s", refused, user)
					}
					if err := tx.PutPrefs(user, play.Prefs{Language: "fr"}); err != nil {
						return err
					}
					if w.kind == "fail" {
						return failed
					}
					return nil
				})
			}()
		}
		close(begin)
		wg.Wait()
		return ws
	}
	stored := func(user string) bool {
		var p play.Prefs
		view(t, s, func(tx play.ReadTx) (err error) { p, err = tx.Prefs(user); return err })
		return p.Language != ""
	}
	t.Run("refusals leave the others' commits alone and cause no rerun", func(t *testing.T) {
		var kinds []string
		for i := 0; i < 24; i++ {
			kinds = append(kinds, []string{"ok", "refuse"}[i%2])
		}
		ws := run(t, kinds)
		for i, w := range ws {
			user := fmt.Sprintf("%s%d", w.kind, i)
			switch {
			case w.kind == "ok" && (w.err != nil || !stored(user)):
				t.Errorf("writer %d: %v, stored %v", i, w.err, stored(user))
			case w.kind == "refuse" && !errors.Is(w.err, refused):
				t.Errorf("refuser %d got %v", i, w.err)
			case w.runs.Load() != 1:
				t.Errorf("%s %d ran %d times", w.kind, i, w.runs.Load())
			}
		}
	})
	t.Run("a failure after a write undoes only its own work", func(t *testing.T) {
		var kinds []string
		for i := 0; i < 24; i++ {
			kinds = append(kinds, []string{"ok", "refuse", "ok", "fail"}[i%4])
		}
		ws := run(t, kinds)
		reruns := 0
		for i, w := range ws {
			user := fmt.Sprintf("%s%d", w.kind, i)
			switch w.kind {
			case "ok":
				if w.err != nil || !stored(user) {
					t.Errorf("writer %d: %v, stored %v", i, w.err, stored(user))
				}
			case "refuse":
				if !errors.Is(w.err, refused) {
					t.Errorf("refuser %d got %v", i, w.err)
				}
			case "fail":
				if !errors.Is(w.err, failed) || stored(user) {
					t.Errorf("failing writer %d: %v, stored %v", i, w.err, stored(user))
				}
			}
			reruns += int(w.runs.Load()) - 1
		}
		t.Logf("%d reruns", reruns)
	})
}

func TestFinishedPaging(t *testing.T) {
	s := openTest(t, nil)
	svc := service(s)
	// Eight games: alice plays all, bob the even ones, carol the odd ones;
	// guild A holds the first five. alicia's id extends ali's.
	var ids []uint64
	for i := 0; i < 8; i++ {
		opp, guild := "bob", "A"
		if i%2 == 1 {
			opp = "carol"
		}
		if i >= 5 {
			guild = "B"
		}
		g := start(t, svc, guild, fmt.Sprint("ch", i), "alice", opp, 0)
		if _, err := svc.Resign(ctx, play.Act{By: opp, Game: g.ID, Revision: g.Revision, At: t0.Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	start(t, svc, "A", "still", "alice", "bob", 0) // an active game is never listed
	tests := []struct {
		name         string
		user, guild  string
		before       uint64
		limit        int
		want         []uint64
		wantNoneOnly bool
	}{
		{"a player's games come newest first", "alice", "", 0, 3, []uint64{ids[7], ids[6], ids[5]}, false},
		{"the next page starts below the last id", "alice", "", ids[5], 3, []uint64{ids[4], ids[3], ids[2]}, false},
		{"the last page is short", "alice", "", ids[2], 3, []uint64{ids[1], ids[0]}, false},
		{"an opponent sees only their games", "carol", "", 0, 100, []uint64{ids[7], ids[5], ids[3], ids[1]}, false},
		{"the user wins over the guild", "carol", "A", 0, 100, []uint64{ids[7], ids[5], ids[3], ids[1]}, false},
		{"a guild sees only its games", "", "A", 0, 100, []uint64{ids[4], ids[3], ids[2], ids[1], ids[0]}, false},
		{"the first guild's games do not spill into the next", "", "B", ids[6], 100, []uint64{ids[5]}, false},
		{"all games, newest first", "", "", 0, 4, []uint64{ids[7], ids[6], ids[5], ids[4]}, false},
		{"all games below an id", "", "", ids[1], 4, []uint64{ids[0]}, false},
		{"an unknown player has no games", "zed", "", 0, 10, nil, true},
		{"a player whose id is a prefix of another's is not mixed in", "ali", "", 0, 10, nil, true},
		{"a limit of 0 gives nothing", "alice", "", 0, 0, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view(t, s, func(tx play.ReadTx) error {
				got, err := tx.Finished(tt.user, tt.guild, tt.before, tt.limit)
				if err != nil {
					t.Fatal(err)
				}
				if tt.wantNoneOnly && len(got) != 0 || !tt.wantNoneOnly && idsOf(got) != fmt.Sprint(tt.want) {
					t.Fatalf("got %s, want %v", idsOf(got), tt.want)
				}
				return nil
			})
		})
	}
}

func TestFarTimesKeepTheirOrder(t *testing.T) {
	s := openTest(t, nil)
	for _, tt := range []struct {
		name    string
		expires time.Time
	}{
		{"a challenge expiring in the year 3000 is not expired now", time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"a challenge expiring in the year 9999 is not expired now", time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := play.Challenge{Channel: "lobby", From: play.Seat{ID: "ann"}, Color: play.Random, Created: t0, Expires: tt.expires}
			err := s.Update(ctx, func(tx play.Tx) (err error) {
				if c.ID, err = tx.NextID(); err != nil {
					return err
				}
				return tx.PutChallenge(c)
			})
			if err != nil {
				t.Fatal(err)
			}
			view(t, s, func(tx play.ReadTx) error {
				if due, _ := tx.Due(play.DueExpiry, t0, 10); len(due) != 0 {
					t.Fatalf("expired at %v: %+v", t0, due)
				}
				if due, _ := tx.Due(play.DueExpiry, tt.expires.Add(-time.Hour), 10); len(due) != 0 {
					t.Fatalf("expired an hour early: %+v", due)
				}
				due, _ := tx.Due(play.DueExpiry, tt.expires, 10)
				if len(due) != 1 || due[0].ID != c.ID || !due[0].At.Equal(tt.expires) {
					t.Fatalf("due at %v: %+v", tt.expires, due)
				}
				if next, ok, err := tx.NextDue(play.DueExpiry); !ok || !next.Equal(tt.expires) || err != nil {
					t.Fatalf("next %v, %v, %v", next, ok, err)
				}
				return nil
			})
			if err := s.Update(ctx, func(tx play.Tx) error { return tx.DeleteChallenge(c.ID) }); err != nil {
				t.Fatal(err)
			}
			view(t, s, func(tx play.ReadTx) error {
				if due, _ := tx.Due(play.DueExpiry, tt.expires, 10); len(due) != 0 {
					t.Fatalf("a deleted challenge left its expiry entry: %+v", due)
				}
				return nil
			})
		})
	}
}

func TestCorruptPlayerIsNotReset(t *testing.T) {
	s := openTest(t, nil)
	svc := service(s)
	bad := []byte(`{"v":3,"rating":`)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketPlayers).Put(playerKey("", "ann"), bad)
	}); err != nil {
		t.Fatal(err)
	}
	g := start(t, svc, "", "c", "ann", "ben", 0)
	t.Run("reading an unreadable player record fails, naming the player", func(t *testing.T) {
		err := s.View(ctx, func(tx play.ReadTx) error { _, err := tx.Player("", "ann"); return err })
		if !errors.Is(err, play.ErrCorrupt) || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "ann") {
			t.Fatalf("got %v, want ErrCorrupt about ann", err)
		}
	})
	t.Run("a game ending does not overwrite the unreadable record, and stays active", func(t *testing.T) {
		_, err := svc.Resign(ctx, play.Act{By: "ben", Game: g.ID, Revision: g.Revision, At: t0})
		if !errors.Is(err, play.ErrCorrupt) {
			t.Fatalf("got %v, want ErrCorrupt", err)
		}
		view(t, s, func(tx play.ReadTx) error {
			if got, err := tx.GameIn("c"); err != nil || got.Revision != g.Revision {
				t.Fatalf("the game: %+v, %v", got, err)
			}
			if st, _ := tx.Stats(""); st.Games() != 0 {
				t.Fatalf("counted: %+v", st)
			}
			return nil
		})
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

func TestCorruptIndexIsReported(t *testing.T) {
	s := openTest(t, nil)
	svc := service(s)
	g := start(t, svc, "G", "c", "w", "b", 0)
	// A channel entry and a user entry naming a game that is not there,
	// and a channel entry naming the game of another channel.
	if err := s.db.Update(func(tx *bolt.Tx) error {
		tx.Bucket(bucketChannels).Put([]byte("ghost"), u64(999))
		tx.Bucket(bucketChannels).Put([]byte("other"), u64(g.ID))
		tx.Bucket(bucketUserGames).Put(join([]byte("w"), u64(999)), []byte{})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx play.ReadTx) error {
		if _, err := tx.GameIn("ghost"); !errors.Is(err, play.ErrCorrupt) {
			t.Errorf("GameIn: %v", err)
		}
		if got, err := tx.GameIn("other"); !errors.Is(err, play.ErrCorrupt) || !strings.Contains(err.Error(), "in channel c") {
			t.Errorf("GameIn of a channel whose entry names another channel's game: game %d, %v", got.ID, err)
		}
		if _, err := tx.ActiveGames("w"); !errors.Is(err, play.ErrCorrupt) || !strings.Contains(err.Error(), "999") {
			t.Errorf("ActiveGames: %v", err)
		}
		return nil
	})
	if err := s.db.Update(func(tx *bolt.Tx) error {
		tx.Bucket(bucketChannels).Delete([]byte("ghost"))
		tx.Bucket(bucketChannels).Delete([]byte("other"))
		return tx.Bucket(bucketUserGames).Delete(join([]byte("w"), u64(999)))
	}); err != nil {
		t.Fatal(err)
	}
	if got, err := svc.GameIn(ctx, "c"); err != nil || got.ID != g.ID {
		t.Fatalf("after the repair: %v", err)
	}
}

func TestNewerRecordsAreRefused(t *testing.T) {
	s := openTest(t, nil)
	svc := service(s)
	g := start(t, svc, "", "c", "w", "b", 0)
	// The record as a newer program would write it: a higher version and
	// a field this program does not know.
	var newer, original []byte
	if err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketActive)
		original = bytes.Clone(b.Get(u64(g.ID)))
		newer = bytes.Clone(original[:len(original)-4])
		newer[0]++
		// Its checksum, CRC-32C of the bytes before it, closes every
		// version's record.
		newer = binary.LittleEndian.AppendUint32(newer, crc32.Checksum(newer, crc32.MakeTable(crc32.Castagnoli)))
		return b.Put(u64(g.ID), newer)
	}); err != nil {
		t.Fatal(err)
	}
	t.Run("reading a game of a newer record version fails", func(t *testing.T) {
		if _, err := svc.Game(ctx, g.ID); !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), fmt.Sprint("game ", g.ID)) {
			t.Fatalf("got %v, want ErrNewerSchema naming the game", err)
		}
	})
	t.Run("a move in it is refused and the record is kept as it was", func(t *testing.T) {
		if _, err := svc.Move(ctx, play.Act{By: "w", Game: g.ID, Revision: g.Revision, At: t0}, "e2d3"); !errors.Is(err, ErrNewerSchema) {
			t.Fatalf("got %v, want ErrNewerSchema", err)
		}
		err := s.Update(ctx, func(tx play.Tx) error { return tx.PutGame(g) })
		if !errors.Is(err, ErrNewerSchema) {
			t.Fatalf("overwriting it: %v, want ErrNewerSchema", err)
		}
		s.db.View(func(tx *bolt.Tx) error {
			if got := tx.Bucket(bucketActive).Get(u64(g.ID)); !bytes.Equal(got, newer) {
				t.Fatalf("the record is now %s", got)
			}
			return nil
		})
	})
	// Put the record back, for the cleanup's index check.
	s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketActive).Put(u64(g.ID), original)
	})
}

func TestPlayersWalkInAWrite(t *testing.T) {
	s := openTest(t, nil)
	err := s.Update(ctx, func(tx play.Tx) error {
		for _, u := range []string{"a", "b", "c"} {
			if err := tx.PutPlayer(play.NewPlayer("g", u)); err != nil {
				return err
			}
		}
		// A walk that writes (a rating period) sees each record once.
		n := 0
		err := tx.Players("g", func(p play.Player) error {
			n++
			p.RatedGames++
			return tx.PutPlayer(p)
		})
		if n != 3 {
			return fmt.Errorf("walked %d players", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx play.ReadTx) error {
		var users []string
		tx.Players("g", func(p play.Player) error {
			if p.RatedGames != 1 || p.Scope != "g" || p.V != recordVersion {
				t.Errorf("%+v", p)
			}
			users = append(users, p.User)
			return nil
		})
		if fmt.Sprint(users) != "[a b c]" {
			t.Errorf("users %v", users)
		}
		stop := errors.New("stop")
		if err := tx.Players("g", func(play.Player) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("an error from fn: %v", err)
		}
		return nil
	})
}

// The stored form of a move is play's: ["e2d3", unix milliseconds].
func TestMoveEncoding(t *testing.T) {
	at := time.UnixMilli(1764468000123).UTC()
	tests := []struct {
		name string
		json string
		want play.Move
	}{
		{"the written form is read", `["e2d3",1764468000123]`, play.Move{UCI: "e2d3", At: at}},
		{"a promotion is read", `["e7e8q",1764468000123]`, play.Move{UCI: "e7e8q", At: at}},
		{"spaces take the general path", `[ "e2d3" , 1764468000123 ]`, play.Move{UCI: "e2d3", At: at}},
		{"an escaped string takes the general path", `["e2\u0064\u0033",1764468000123]`, play.Move{UCI: "e2d3", At: at}},
		{"a time before 1970 is read", `["a1a2",-5]`, play.Move{UCI: "a1a2", At: time.UnixMilli(-5).UTC()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m play.Move
			if err := m.UnmarshalJSON([]byte(tt.json)); err != nil || m != tt.want {
				t.Fatalf("got %+v, %v", m, err)
			}
		})
	}
	for _, bad := range []string{`["e2d3"]`, `["e2d3",1.5]`, `{"m":"e2d3"}`, `["e2d3",1`, `["e2d3","x"]`} {
		t.Run(bad+" is refused", func(t *testing.T) {
			var m play.Move
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
		m := play.Move{UCI: uci, At: time.UnixMilli(ms).UTC()}
		b, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back play.Move
		if err := back.UnmarshalJSON(b); err != nil || back != m {
			t.Fatalf("%s: got %+v, %v", b, back, err)
		}
	})
}

func TestSchedulerThroughPlay(t *testing.T) {
	s := openTest(t, nil)
	svc := service(s)
	var games []play.Game
	for i, days := range []int{3, 1, 0, 2} {
		games = append(games, start(t, svc, "g", fmt.Sprint("c", i), "w", "b", days))
	}
	var chals []play.Challenge
	for i := 0; i < 5; i++ {
		c, err := svc.Challenge(ctx, play.NewChallenge{Channel: "lobby", From: play.Seat{ID: fmt.Sprint("a", i)}, At: t0.Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		chals = append(chals, c)
	}
	t.Run("challenges expire earliest first, a limited number at a time", func(t *testing.T) {
		due := chals[2].Expires
		gone, err := svc.Expire(ctx, due, 2)
		if err != nil || len(gone) != 2 || gone[0].ID != chals[0].ID || gone[1].ID != chals[1].ID {
			t.Fatalf("expired %+v, %v", gone, err)
		}
		if gone, _ = svc.Expire(ctx, due, 10); len(gone) != 1 || gone[0].ID != chals[2].ID {
			t.Fatalf("then %+v", gone)
		}
		view(t, s, func(tx play.ReadTx) error {
			if next, ok, _ := tx.NextDue(play.DueExpiry); !ok || !next.Equal(chals[3].Expires) {
				t.Errorf("next expiry %v, %v", next, ok)
			}
			return nil
		})
	})
	t.Run("games time out as their deadlines come, and leave the time indexes", func(t *testing.T) {
		var due []play.Due
		view(t, s, func(tx play.ReadTx) (err error) {
			due, err = tx.Due(play.DueDeadline, t0.Add(72*time.Hour), 10)
			return err
		})
		if len(due) != 3 || due[0].ID != games[1].ID || due[1].ID != games[3].ID || due[2].ID != games[0].ID {
			t.Fatalf("due %+v", due)
		}
		if _, err := svc.TimeOut(ctx, games[3].ID, t0.Add(47*time.Hour)); kindOf(err) != play.NotYetDue {
			t.Fatalf("an early timeout: %v", err)
		}
		for _, d := range due[:2] {
			r, err := svc.TimeOut(ctx, d.ID, d.At)
			if err != nil || r.Game.Outcome != game.WinFor(game.Black, game.Timeout) {
				t.Fatalf("timing out game %d: %+v, %v", d.ID, r.Game.Outcome, err)
			}
		}
		view(t, s, func(tx play.ReadTx) error {
			d, _ := tx.Due(play.DueDeadline, t0.Add(1000*time.Hour), 10)
			r, _ := tx.Due(play.DueReminder, t0.Add(1000*time.Hour), 10)
			if len(d) != 1 || d[0].ID != games[0].ID || len(r) != 1 || r[0].ID != games[0].ID {
				t.Errorf("deadlines %+v, reminders %+v", d, r)
			}
			if st, _ := tx.Stats("g"); st.ByReason[game.Timeout] != 2 {
				t.Errorf("stats %+v", st)
			}
			return nil
		})
	})
}
