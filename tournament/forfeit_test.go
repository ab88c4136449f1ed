package tournament

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// move plays the first legal move of the side to move in game id.
func move(t *testing.T, ctx context.Context, svc *play.Service, id uint64, at time.Time) {
	t.Helper()
	g, err := svc.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	legal := p.LegalMoves(nil)
	if len(legal) == 0 {
		t.Fatalf("game %d: no legal move in %s", id, g.FEN)
	}
	by := g.White.ID
	if g.Turn() != 0 {
		by = g.Black.ID
	}
	if _, err := svc.Move(ctx, play.Act{By: by, Game: id, Revision: g.Revision, At: at}, p.SAN(legal[0])); err != nil {
		t.Fatal(err)
	}
}

// A player who never moves and loses on time did not come: the game is
// lost by forfeit, written + and - in the TRF, and the pairing counts it
// as not played. A player who moved and then lost on time lost a game.
func TestSwissPlayerWhoNeverMovesLosesByForfeit(t *testing.T) {
	ctx := context.Background()
	r, svc := newRunner(t)
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tr, err := r.Create(ctx, Tournament{Guild: "g1", Name: "Forfeits", Organiser: "org", System: Swiss, Rounds: 3, DaysPerMove: 1}, now)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		m := Member{ID: fmt.Sprintf("u%d", i), Name: fmt.Sprintf("Player %d", i), Rating: 1500 + i}
		if _, err := r.Do(ctx, tr.ID, now, func(t *Tournament) error { return t.Join(m) }); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Start(ctx, tr.ID, "org", now); err != nil {
		t.Fatal(err)
	}
	boards := tr.Played[0].Boards
	if len(boards) != 3 {
		t.Fatalf("round 1 of six: %+v", tr.Played[0])
	}
	// Board 1: White never moves. Board 2: White moves, Black never does.
	// Board 3: both move, then White lets the time run out.
	move(t, ctx, svc, boards[1].GameID, now.Add(time.Hour))
	move(t, ctx, svc, boards[2].GameID, now.Add(time.Hour))
	move(t, ctx, svc, boards[2].GameID, now.Add(2*time.Hour))
	late := now.Add(3 * 24 * time.Hour)
	for _, b := range boards {
		if _, err := r.Round.TimeOut(ctx, b.GameID, late); err != nil {
			t.Fatal(err)
		}
	}
	if tr, err = r.Get(ctx, tr.ID); err != nil {
		t.Fatal(err)
	}
	want := []Outcome{ForfeitLoss, ForfeitWin, Loss}
	for i, b := range tr.Played[0].Boards {
		if b.Outcome != want[i] {
			t.Errorf("board %d: %v, want %v", i+1, b.Outcome, want[i])
		}
	}
	// The pairing reads the forfeits as games not played: no colour (the
	// TRF's "-"), and the players may meet again.
	f := tr.Field()
	for i, b := range boards[:2] {
		for _, p := range []int{b.White, b.Black} {
			if g := f.Players[p].Games[0]; g.Outcome.Played() {
				t.Errorf("board %d: player %d's game counts as played: %+v", i+1, p+1, g)
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteTRF(&buf, tr.TRF()); err != nil {
		t.Fatal(err)
	}
	cells := map[int]string{
		boards[0].White: " - -", boards[0].Black: " - +",
		boards[1].White: " - +", boards[1].Black: " - -",
		boards[2].White: " w 0", boards[2].Black: " b 1",
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		var tpn int
		if _, err := fmt.Sscanf(line, "001 %d", &tpn); err != nil {
			continue
		}
		if c := cells[tpn-1]; !strings.Contains(line[91:], c) {
			t.Errorf("player %d's round 1 is not %q:\n%s", tpn, c, line)
		}
	}
	// The next round is paired from them all the same.
	if tr, _, err = r.Advance(ctx, tr.ID, late); err != nil || len(tr.Played) != 2 || len(tr.Played[1].Boards) != 3 {
		t.Fatalf("round 2: %v, %+v", err, tr.Played)
	}
}
