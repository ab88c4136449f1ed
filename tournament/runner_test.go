package tournament

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// mustRound is a round on svc.
func mustRound(t testing.TB, svc *play.Service) *round.Round {
	t.Helper()
	rd, err := round.New(svc, round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

func newRunner(t *testing.T) (*Runner, *play.Service) {
	t.Helper()
	svc := play.New(memstore.New(), play.Options{OnEnd: []func(play.Tx, *play.Game) error{OnEnd}})
	return &Runner{Round: mustRound(t, svc), Channel: func(_ context.Context, tr *Tournament, board int) (string, error) {
		return fmt.Sprintf("t%d-r%d-b%d", tr.ID, len(tr.Played), board+1), nil
	}}, svc
}

// endRound has White resign on every board still going: the results
// reach the tournament through play's end of game.
func endRound(t *testing.T, ctx context.Context, r *Runner, svc *play.Service, id uint64, at time.Time) {
	t.Helper()
	tr, err := r.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range tr.Played[len(tr.Played)-1].Boards {
		if b.Outcome != Pending {
			continue
		}
		g, err := svc.Game(ctx, b.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Resign(ctx, play.Act{By: g.White.ID, Game: g.ID, Revision: g.Revision, At: at}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRunnerSwissThroughPlay(t *testing.T) {
	ctx := context.Background()
	r, svc := newRunner(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Winter Swiss", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		m := Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("Player %d", i), Rating: 1500 + i}
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Start(ctx, tr.ID, "u1", now); !errors.Is(err, ErrNotOrganiser) {
		t.Fatalf("a player started it: %v", err)
	}
	tr, err = r.Start(ctx, tr.ID, "org", now)
	if err != nil {
		t.Fatal(err)
	}
	round := tr.Played[0]
	if len(round.Boards) != 2 || round.Bye < 0 {
		t.Fatalf("round 1: %+v", round)
	}
	for _, b := range round.Boards {
		g, err := svc.Game(ctx, b.GameID)
		if err != nil || g.DaysPerMove != 3 || g.White.ID != tr.Members[b.White].ID {
			t.Fatalf("board %+v: game %+v, %v", b, g, err)
		}
	}
	// Starting again starts nothing twice.
	if again, err := r.StartGames(ctx, tr.ID, now); err != nil || len(again) != 0 {
		t.Fatalf("started again: %v %v", again, err)
	}
	if _, _, err := r.Advance(ctx, tr.ID, now); !errors.Is(err, ErrRoundUnderway) {
		t.Fatalf("advanced during round 1: %v", err)
	}
	endRound(t, ctx, r, svc, tr.ID, now.Add(time.Hour))
	if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Withdraw("u0") }); err != nil {
		t.Fatal(err)
	}
	for k := 2; k <= 3; k++ {
		tr, _, err = r.Advance(ctx, tr.ID, now.Add(time.Duration(k)*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if rd := tr.Played[k-1]; len(rd.Boards) != 2 || rd.Bye != -1 {
			t.Fatalf("round %d: %+v", k, rd)
		}
		endRound(t, ctx, r, svc, tr.ID, now.Add(time.Duration(k)*time.Hour+time.Minute))
	}
	tr, _, err = r.Advance(ctx, tr.ID, now.Add(5*time.Hour))
	if err != nil || tr.Status != Finished {
		t.Fatalf("after round 3: %v, %v", tr.Status, err)
	}
	list, err := r.List(ctx, "g1")
	if err != nil || len(list) != 1 || list[0].Status != Finished {
		t.Fatalf("the guild's tournaments: %v %v", list, err)
	}
	// Black won every game by White's resignation.
	st := tr.Standings()
	total := Points(0)
	for _, s := range st {
		total += s.Score
	}
	if total != 2*(2+2+2)+2 { // six games and one bye
		t.Fatalf("points handed out: %v in %+v", total, st)
	}
}

func TestRunnerRoundClosesWithAdjudication(t *testing.T) {
	ctx := context.Background()
	r, svc := newRunner(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Organiser: "org", System: RoundRobin, DaysPerMove: 14, RoundDays: 7, Adjudicate: AdjudicateLossToMove}, now)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		m := Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("P%d", i)}
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.CloseRound(ctx, tr.ID, now.Add(6*24*time.Hour)); err == nil {
		t.Fatal("closed the round before its time")
	}
	tr, _, err = r.CloseRound(ctx, tr.ID, now.Add(7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// White, to move, loses; having never moved, by forfeit.
	for _, b := range tr.Played[0].Boards {
		if b.Outcome != ForfeitLoss {
			t.Fatalf("an unfinished game with White to move, who never moved, scored %v", b.Outcome)
		}
	}
	if len(tr.Played) != 2 {
		t.Fatalf("round 2 was not paired: %d rounds", len(tr.Played))
	}
	// Each game ended as an act of the round: adjudicated, its board
	// and whom to tell in the outbox, written with its end.
	st := svc.Storage().(round.Storage)
	items, err := st.ClaimOutbox(ctx, "test", now.Add(7*24*time.Hour), time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	boards := map[uint64]round.Delivery{}
	for _, it := range items {
		if it.Kind != round.KindBoard {
			continue
		}
		d, err := round.DecodeDelivery(it)
		if err != nil {
			t.Fatal(err)
		}
		if d.Act == round.Adjudicate {
			boards[d.Game.ID] = d
		}
	}
	for _, b := range tr.Played[0].Boards {
		g, err := svc.Game(ctx, b.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Outcome != (game.Outcome{Result: game.BlackWins, Reason: game.Adjudicated}) {
			t.Errorf("game %d ended %+v", g.ID, g.Outcome)
		}
		d, ok := boards[g.ID]
		if !ok {
			t.Errorf("game %d has no board of its adjudication in the outbox", g.ID)
			continue
		}
		for _, u := range g.Players() {
			if tl, ok := d.Told(u, round.GameOver); !ok || tl.How != round.Mention {
				t.Errorf("game %d tells %s %+v, %v", g.ID, u, tl, ok)
			}
		}
	}
	// A close asked again, before round 2 closes, changes nothing.
	if _, _, err := r.CloseRound(ctx, tr.ID, now.Add(8*24*time.Hour)); err == nil {
		t.Error("round 1 closed twice")
	}
	tr, _ = r.Get(ctx, tr.ID)
	if tr.Played[0].Boards[0].Outcome != ForfeitLoss {
		t.Fatalf("closing again changed an adjudicated result to %v", tr.Played[0].Boards[0].Outcome)
	}
}

// The tasks that move a tournament on are written with the state that
// makes them due: a start at its time, a round's closing, a round over.
func TestRunnerWritesItsTasks(t *testing.T) {
	ctx := context.Background()
	r, svc := newRunner(t)
	ob := svc.Storage().(play.Outbox)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Organiser: "org", System: Swiss, Rounds: 2, DaysPerMove: 14, RoundDays: 5, StartAt: now.Add(time.Hour)}, now)
	if err != nil {
		t.Fatal(err)
	}
	claim := func(at time.Time) []Task {
		t.Helper()
		items, err := ob.ClaimOutbox(ctx, "test", at, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ks []Task
		for _, it := range items {
			if it.Kind != KindTask { // a game's board: the round's
				if err := ob.DoneOutbox(ctx, it.Key); err != nil {
					t.Fatal(err)
				}
				continue
			}
			k, err := DecodeTask(it)
			if err != nil {
				t.Fatal(err)
			}
			ks = append(ks, k)
			if err := ob.DoneOutbox(ctx, it.Key); err != nil {
				t.Fatal(err)
			}
		}
		return ks
	}
	if ks := claim(now); len(ks) != 0 {
		t.Fatalf("tasks due before the start: %+v", ks)
	}
	for i := 0; i < 4; i++ {
		m := Member{ID: fmt.Sprintf("u%d", i)}
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if ks := claim(now.Add(time.Hour)); len(ks) != 1 || ks[0].What != TaskStart {
		t.Fatalf("at the start time: %+v", ks)
	}
	if _, err := r.Start(ctx, tr.ID, "", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Every game started with the round: the task that would start
	// those left out finds none and is done.
	if ks := claim(now.Add(time.Hour + 5*24*time.Hour)); len(ks) != 2 || ks[0].What != TaskGames || ks[1].What != TaskClose || ks[1].Round != 1 {
		t.Fatalf("at the round's closing time: %+v", ks)
	}
	endRound(t, ctx, r, svc, tr.ID, now.Add(2*time.Hour))
	if ks := claim(now.Add(2 * time.Hour)); len(ks) != 1 || ks[0].What != TaskAdvance || ks[0].Round != 1 {
		t.Fatalf("after the round's last game: %+v", ks)
	}
}

// A round's games start as acts of the round: each game's first board is
// in the outbox with the game, telling both players, and a tournament's
// game cannot be aborted.
func TestRunnerStartsGamesThroughTheRound(t *testing.T) {
	ctx := context.Background()
	r, svc := newRunner(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Organiser: "org", System: Swiss, Rounds: 1, DaysPerMove: 3}, now)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		m := Member{ID: fmt.Sprintf("u%d", i)}
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", now); err != nil {
		t.Fatal(err)
	}
	items, err := svc.Storage().(play.Outbox).ClaimOutbox(ctx, "test", now, time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	boards := map[uint64]round.Delivery{}
	for _, it := range items {
		if it.Kind == round.KindBoard {
			d, err := round.DecodeDelivery(it)
			if err != nil {
				t.Fatal(err)
			}
			boards[d.Game.ID] = d
		}
	}
	for _, b := range tr.Played[0].Boards {
		d, ok := boards[b.GameID]
		if !ok {
			t.Fatalf("board of game %d: not in the outbox (%d boards)", b.GameID, len(boards))
		}
		g := d.Game
		if g.Tournament != tr.ID || g.Abortable() {
			t.Errorf("game %d: tournament %d, abortable %v", g.ID, g.Tournament, g.Abortable())
		}
		_, white := d.Told(g.White.ID, round.YourMove)
		_, black := d.Told(g.Black.ID, round.Paired)
		if !white || !black {
			t.Errorf("game %d tells White %v, Black %v: %+v", g.ID, white, black, d.Events)
		}
		_, err := r.Round.Do(ctx, round.Act{Act: play.Act{By: g.White.ID, Game: g.ID, Revision: g.Revision, At: now.Add(time.Minute)}, Kind: round.Abort})
		var x *play.Refusal
		if !errors.As(err, &x) || x.Kind != play.TournamentGame {
			t.Errorf("aborting tournament game %d: %v", g.ID, err)
		}
	}
}

// A task returns typed news for the front end to tell: too few players
// at the start, a round paired, the end; run twice, the same news or
// none, never a second round.
func TestRunTaskReturnsItsNews(t *testing.T) {
	ctx := context.Background()
	r, svc := newRunner(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Organiser: "org", System: Swiss, Rounds: 1, DaysPerMove: 3, StartAt: now.Add(time.Hour)}, now)
	if err != nil {
		t.Fatal(err)
	}
	start := Task{Tournament: tr.ID, What: TaskStart}
	if n, err := r.RunTask(ctx, start, now.Add(time.Hour)); err != nil || n.Kind != NewsTooFewPlayers || n.Tournament.Status != SigningUp {
		t.Fatalf("a start without players: %+v, %v", n, err)
	}
	for i := 0; i < 4; i++ {
		m := Member{ID: fmt.Sprintf("u%d", i)}
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	n, err := r.RunTask(ctx, start, now.Add(time.Hour))
	if err != nil || n.Kind != NewsRound || len(n.Tournament.Played) != 1 {
		t.Fatalf("the start: %+v, %v", n, err)
	}
	if again, err := r.RunTask(ctx, start, now.Add(time.Hour)); err != nil || again.Kind != NewsRound || len(again.Tournament.Played) != 1 {
		t.Fatalf("the start run twice: %+v, %v", again, err)
	}
	advance := Task{Tournament: tr.ID, What: TaskAdvance, Round: 1}
	if early, err := r.RunTask(ctx, advance, now.Add(time.Hour)); err != nil || early.Kind != NewsRound || len(early.Tournament.Played) != 1 {
		t.Fatalf("an advance while the round goes on: %+v, %v", early, err)
	}
	endRound(t, ctx, r, svc, tr.ID, now.Add(2*time.Hour))
	if n, err = r.RunTask(ctx, advance, now.Add(2*time.Hour)); err != nil || n.Kind != NewsFinal || n.Tournament.Status != Finished {
		t.Fatalf("the advance after the last round: %+v, %v", n, err)
	}
	closeTask := Task{Tournament: tr.ID, What: TaskClose, Round: 1}
	if n, err = r.RunTask(ctx, closeTask, now.Add(3*time.Hour)); err != nil || n.Kind == NewsRound {
		t.Fatalf("closing a round over: %+v, %v", n, err)
	}
	if _, err := r.RunTask(ctx, Task{Tournament: tr.ID, What: "dance"}, now); err == nil {
		t.Fatal("an unknown task ran")
	}
}
