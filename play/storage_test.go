package play_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

var errBroken = errors.New("the disk is on fire")

// faulty is a Storage whose transactions fail in one method: fail names
// it ("PutGame", "Stats", …). With "GameIn:free", GameIn answers that no
// game is in any channel, as a storage racing another writer might.
type faulty struct {
	play.Storage
	fail string
}

func (s *faulty) Update(ctx context.Context, fn func(play.Tx) error) error {
	return s.Storage.Update(ctx, func(tx play.Tx) error { return fn(faultyTx{tx, s.fail}) })
}

func (s *faulty) View(ctx context.Context, fn func(play.ReadTx) error) error {
	return s.Storage.View(ctx, func(tx play.ReadTx) error { return fn(faultyTx{readOnly{tx}, s.fail}) })
}

// readOnly makes a ReadTx a Tx whose writes are never called.
type readOnly struct{ play.ReadTx }

func (readOnly) NextID() (uint64, error)                   { panic("a write in View") }
func (readOnly) PutGame(play.Game) error                   { panic("a write in View") }
func (readOnly) PutChallenge(play.Challenge) error         { panic("a write in View") }
func (readOnly) DeleteChallenge(uint64) error              { panic("a write in View") }
func (readOnly) PutPlayer(play.Player) error               { panic("a write in View") }
func (readOnly) PutLogEntry(play.LogEntry) error           { panic("a write in View") }
func (readOnly) PutStats(play.Stats) error                 { panic("a write in View") }
func (readOnly) PutPrefs(string, play.Prefs) error         { panic("a write in View") }
func (readOnly) PutOutbox(...play.OutboxItem) error        { panic("a write in View") }
func (readOnly) PutTournament(play.TournamentRecord) error { panic("a write in View") }
func (readOnly) PutRecent(string, play.Recent) error       { panic("a write in View") }
func (readOnly) PutPuzzler(play.Puzzler) error             { panic("a write in View") }
func (readOnly) PutPuzzleStats(play.PuzzleStats) error     { panic("a write in View") }
func (readOnly) PutDailyPuzzle(play.DailyPuzzle) error     { panic("a write in View") }
func (readOnly) PutLessonProgress(string, play.LessonProgress) error {
	panic("a write in View")
}
func (readOnly) PutServerSettings(string, play.ServerSettings) error {
	panic("a write in View")
}

type faultyTx struct {
	play.Tx
	fail string
}

func (t faultyTx) broken(method string) error {
	if t.fail == method {
		return fmt.Errorf("%s: %w", method, errBroken)
	}
	return nil
}

func (t faultyTx) Game(id uint64) (play.Game, error) {
	if err := t.broken("Game"); err != nil {
		return play.Game{}, err
	}
	return t.Tx.Game(id)
}

func (t faultyTx) GameIn(channel string) (play.Game, error) {
	if t.fail == "GameIn:free" {
		return play.Game{}, play.ErrNotFound
	}
	if err := t.broken("GameIn"); err != nil {
		return play.Game{}, err
	}
	return t.Tx.GameIn(channel)
}

func (t faultyTx) ActiveGames(user string) ([]play.Game, error) {
	if err := t.broken("ActiveGames"); err != nil {
		return nil, err
	}
	return t.Tx.ActiveGames(user)
}

func (t faultyTx) Challenge(id uint64) (play.Challenge, error) {
	if err := t.broken("Challenge"); err != nil {
		return play.Challenge{}, err
	}
	return t.Tx.Challenge(id)
}

func (t faultyTx) Challenges(user string) ([]play.Challenge, error) {
	if err := t.broken("Challenges"); err != nil {
		return nil, err
	}
	return t.Tx.Challenges(user)
}

func (t faultyTx) Player(scope, user string) (play.Player, error) {
	if err := t.broken("Player"); err != nil {
		return play.Player{}, err
	}
	return t.Tx.Player(scope, user)
}

func (t faultyTx) PlayerLog(scope, user string, fn func(play.LogEntry) error) error {
	if err := t.broken("PlayerLog"); err != nil {
		return err
	}
	return t.Tx.PlayerLog(scope, user, fn)
}

func (t faultyTx) Standings(scope string, fn func(play.Standing) error) error {
	if err := t.broken("Standings"); err != nil {
		return err
	}
	return t.Tx.Standings(scope, fn)
}

func (t faultyTx) Stats(scope string) (play.Stats, error) {
	if err := t.broken("Stats"); err != nil {
		return play.Stats{}, err
	}
	return t.Tx.Stats(scope)
}

func (t faultyTx) Due(kind play.DueKind, now time.Time, limit int) ([]play.Due, error) {
	if err := t.broken("Due"); err != nil {
		return nil, err
	}
	return t.Tx.Due(kind, now, limit)
}

func (t faultyTx) NextID() (uint64, error) {
	if err := t.broken("NextID"); err != nil {
		return 0, err
	}
	return t.Tx.NextID()
}

func (t faultyTx) PutGame(g play.Game) error {
	return errors.Join(t.broken("PutGame"), t.Tx.PutGame(g))
}

func (t faultyTx) PutChallenge(c play.Challenge) error {
	return errors.Join(t.broken("PutChallenge"), t.Tx.PutChallenge(c))
}

func (t faultyTx) DeleteChallenge(id uint64) error {
	return errors.Join(t.broken("DeleteChallenge"), t.Tx.DeleteChallenge(id))
}

func (t faultyTx) PutPlayer(p play.Player) error {
	return errors.Join(t.broken("PutPlayer"), t.Tx.PutPlayer(p))
}

func (t faultyTx) PutLogEntry(e play.LogEntry) error {
	return errors.Join(t.broken("PutLogEntry"), t.Tx.PutLogEntry(e))
}

func (t faultyTx) PutStats(s play.Stats) error {
	return errors.Join(t.broken("PutStats"), t.Tx.PutStats(s))
}

func (t faultyTx) Recent(user string) (play.Recent, error) {
	if err := t.broken("Recent"); err != nil {
		return play.Recent{}, err
	}
	return t.Tx.Recent(user)
}

func (t faultyTx) PutRecent(user string, r play.Recent) error {
	return errors.Join(t.broken("PutRecent"), t.Tx.PutRecent(user, r))
}

// TestStorageFailures: when the storage fails, the act fails with the
// storage's error — not a refusal, which would tell the user the act is
// not allowed — and nothing is written. In particular an unreadable
// player record is never replaced by a fresh one (that would reset a
// rating).
func TestStorageFailures(t *testing.T) {
	type world struct {
		svc       *play.Service
		game      play.Game // an ongoing game, ann to move, in c1
		challenge play.Challenge
		at        time.Time
	}
	tests := []struct {
		name string
		fail string
		do   func(w world) error
	}{
		{"a move when the game cannot be read", "Game", func(w world) error {
			_, err := w.svc.Move(ctx, act(ann, w.game, w.at), "gxh4")
			return err
		}},
		{"a move when the game cannot be written", "PutGame", func(w world) error {
			_, err := w.svc.Move(ctx, act(ann, w.game, w.at), "gxh4")
			return err
		}},
		{"a resignation when the statistics cannot be read", "Stats", func(w world) error {
			_, err := w.svc.Resign(ctx, act(ann, w.game, w.at))
			return err
		}},
		{"a resignation when the statistics cannot be written", "PutStats", func(w world) error {
			_, err := w.svc.Resign(ctx, act(ann, w.game, w.at))
			return err
		}},
		{"a resignation when a player's record cannot be read", "Player", func(w world) error {
			_, err := w.svc.Resign(ctx, act(ann, w.game, w.at))
			return err
		}},
		{"a resignation when a player's record cannot be written", "PutPlayer", func(w world) error {
			_, err := w.svc.Resign(ctx, act(ann, w.game, w.at))
			return err
		}},
		{"a resignation when a player's log cannot be written", "PutLogEntry", func(w world) error {
			_, err := w.svc.Resign(ctx, act(ann, w.game, w.at))
			return err
		}},
		{"reading a player's statistics when their log cannot be read", "PlayerLog", func(w world) error {
			_, err := w.svc.PlayerStats(ctx, "", ann.ID, bob.ID)
			return err
		}},
		{"finding the last game between two players when the log cannot be read", "PlayerLog", func(w world) error {
			_, err := w.svc.LastBetween(ctx, "", ann.ID, bob.ID)
			return err
		}},
		{"a leaderboard when the standings cannot be read", "Standings", func(w world) error {
			_, err := w.svc.Leaderboard(ctx, "", 1, 10, w.at)
			return err
		}},
		{"reading a player's statistics when their record cannot be read", "Player", func(w world) error {
			_, err := w.svc.PlayerStats(ctx, "", ann.ID, bob.ID)
			return err
		}},
		{"a timeout when the game cannot be read", "Game", func(w world) error {
			_, err := w.svc.TimeOut(ctx, w.game.ID, w.game.Deadline)
			return err
		}},
		{"a timeout when the game cannot be written", "PutGame", func(w world) error {
			_, err := w.svc.TimeOut(ctx, w.game.ID, w.game.Deadline)
			return err
		}},
		{"a challenge when the user's challenges cannot be read", "Challenges", func(w world) error {
			_, err := w.svc.Challenge(ctx, play.NewChallenge{Channel: "c2", From: bob, To: cat, At: w.at})
			return err
		}},
		{"a challenge when no id can be had", "NextID", func(w world) error {
			_, err := w.svc.Challenge(ctx, play.NewChallenge{Channel: "c2", From: bob, To: cat, At: w.at})
			return err
		}},
		{"an accept when the challenge cannot be read", "Challenge", func(w world) error {
			_, err := w.svc.Accept(ctx, w.challenge.ID, dan, "c3", w.at)
			return err
		}},
		{"an accept when the challenge cannot be deleted", "DeleteChallenge", func(w world) error {
			_, err := w.svc.Accept(ctx, w.challenge.ID, dan, "c3", w.at)
			return err
		}},
		{"an accept when the channel cannot be looked up", "GameIn", func(w world) error {
			_, err := w.svc.Accept(ctx, w.challenge.ID, dan, "c3", w.at)
			return err
		}},
		{"a start when no id can be had", "NextID", func(w world) error {
			_, err := w.svc.Start(ctx, play.NewGame{Channel: "c3", White: cat, Black: dan, At: w.at})
			return err
		}},
		{"a start when the game cannot be written", "PutGame", func(w world) error {
			_, err := w.svc.Start(ctx, play.NewGame{Channel: "c3", White: cat, Black: dan, At: w.at})
			return err
		}},
		{"a withdrawal when the challenger's recent acts cannot be read", "Recent", func(w world) error {
			_, err := w.svc.Cancel(ctx, w.challenge.ID, cat.ID, w.at)
			return err
		}},
		{"a withdrawal when the challenger's recent acts cannot be written", "PutRecent", func(w world) error {
			_, err := w.svc.Cancel(ctx, w.challenge.ID, cat.ID, w.at)
			return err
		}},
		{"a capped challenge when the challenger's recent acts cannot be read", "Recent", func(w world) error {
			_, err := w.svc.Challenge(ctx, play.NewChallenge{Channel: "c2", From: bob, To: dan, At: w.at, Caps: play.Caps{Posts: 8}})
			return err
		}},
		{"a capped game against the engine when its player's recent acts cannot be written", "PutRecent", func(w world) error {
			_, err := w.svc.Start(ctx, play.NewGame{Channel: "c3", White: cat, Black: dan, Engine: [2]int{0, 3}, At: w.at, Caps: play.Caps{Posts: 8}})
			return err
		}},
		{"a withdrawal when the challenge cannot be read", "Challenge", func(w world) error {
			_, err := w.svc.Cancel(ctx, w.challenge.ID, cat.ID, w.at)
			return err
		}},
		{"a withdrawal when the challenge cannot be deleted", "DeleteChallenge", func(w world) error {
			_, err := w.svc.Cancel(ctx, w.challenge.ID, cat.ID, w.at)
			return err
		}},
		{"a challenge's message when the challenge cannot be read", "Challenge", func(w world) error {
			return w.svc.SetChallengeMessage(ctx, w.challenge.ID, "m")
		}},
		{"a challenge's message when the challenge cannot be written", "PutChallenge", func(w world) error {
			return w.svc.SetChallengeMessage(ctx, w.challenge.ID, "m")
		}},
		{"an expiry when the index cannot be read", "Due", func(w world) error {
			_, err := w.svc.Expire(ctx, w.challenge.Expires, 10)
			return err
		}},
		{"an expiry when a challenge cannot be read", "Challenge", func(w world) error {
			_, err := w.svc.Expire(ctx, w.challenge.Expires, 10)
			return err
		}},
		{"an expiry when a challenge cannot be deleted", "DeleteChallenge", func(w world) error {
			_, err := w.svc.Expire(ctx, w.challenge.Expires, 10)
			return err
		}},
		{"reading a game", "Game", func(w world) error {
			_, err := w.svc.Game(ctx, w.game.ID)
			return err
		}},
		{"reading a channel's game", "GameIn", func(w world) error {
			_, err := w.svc.GameIn(ctx, "c1")
			return err
		}},
		{"reading a user's games", "ActiveGames", func(w world) error {
			_, err := w.svc.ActiveGames(ctx, ann.ID)
			return err
		}},
		{"reading a challenge", "Challenge", func(w world) error {
			_, err := w.svc.GetChallenge(ctx, w.challenge.ID)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s fails with the storage's error and writes nothing", tt.name), func(t *testing.T) {
			mem := memstore.New()
			setup := play.New(mem, play.Options{})
			g := playMoves(t, setup, startFrom(t, setup, "", 3), "hxg3", "Nxf6")
			c := must(setup.Challenge(ctx, play.NewChallenge{Channel: "c2", From: cat, At: t0}))(t)
			snapshot := dump(t, mem)
			st := &faulty{Storage: mem, fail: tt.fail}
			svc := play.New(st, play.Options{})
			err := tt.do(world{svc: svc, game: g, challenge: c, at: g.Updated.Add(time.Minute)})
			var x *play.Refusal
			if !errors.Is(err, errBroken) || errors.As(err, &x) {
				t.Fatalf("%v, want the storage's error and no refusal", err)
			}
			unchanged(t, mem, snapshot)
		})
	}

	t.Run("a channel taken between the check and the write is refused as busy", func(t *testing.T) {
		mem := memstore.New()
		must(play.New(mem, play.Options{}).Start(ctx, play.NewGame{Channel: "c1", White: ann, Black: bob, At: t0}))(t)
		snapshot := dump(t, mem)
		svc := play.New(&faulty{Storage: mem, fail: "GameIn:free"}, play.Options{})
		_, err := svc.Start(ctx, play.NewGame{Channel: "c1", White: cat, Black: dan, At: t0})
		wantKind(t, err, play.ChannelBusy)
		unchanged(t, mem, snapshot)
	})

	t.Run("an act without a time is a programming error, not a refusal", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := startFrom(t, svc, "", 3)
		var x *play.Refusal
		if _, err := svc.Resign(ctx, play.Act{By: ann.ID, Game: g.ID, Revision: g.Revision}); err == nil || errors.As(err, &x) {
			t.Fatalf("%v, want a plain error", err)
		}
	})

	t.Run("a damaged game is reported as such, not refused", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := playMoves(t, svc, startFrom(t, svc, "", 3), "hxg3", "Nxf6")
		g = must(svc.RequestTakeback(ctx, act(bob, g, g.Updated.Add(time.Minute))))(t).Game
		bad := g
		bad.FEN = "rubbish"
		bad.Moves = []play.Move{{UCI: "e1e8", At: g.Updated}, g.Moves[1]}
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutGame(bad) }); err != nil {
			t.Fatal(err)
		}
		snapshot := dump(t, st)
		_, err := svc.Move(ctx, act(ann, bad, bad.Updated.Add(time.Minute)), "gxh4")
		if !errors.Is(err, play.ErrCorrupt) {
			t.Fatalf("a move in a game whose position does not read: %v, want ErrCorrupt", err)
		}
		_, err = svc.AcceptTakeback(ctx, act(ann, bad, bad.Updated.Add(time.Minute)))
		if !errors.Is(err, play.ErrCorrupt) {
			t.Fatalf("a takeback in a game whose moves do not replay: %v, want ErrCorrupt", err)
		}
		unchanged(t, st, snapshot)
	})

	t.Run("the service works on the storage it was given", func(t *testing.T) {
		svc, st := newService(play.Options{})
		if svc.Storage() != play.Storage(st) {
			t.Fatal("Storage() is another storage")
		}
	})
}
