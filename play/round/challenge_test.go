package round_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
)

// TestAChallengeWritesTheItemThatShowsIt: a challenge made through the
// round leaves, in its transaction, the one item that shows it; a
// refused one leaves nothing.
func TestAChallengeWritesTheItemThatShowsIt(t *testing.T) {
	r, st := newRound(t, nil)
	tc := play.TimeControl{Limit: time.Minute}
	c, err := challenge(r, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: bob, Color: play.WhiteSide, Time: tc, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	got := pending(t, st, t0)
	if len(got) != 1 || len(got[round.KindChallenge]) != 1 {
		t.Fatalf("the outbox holds %v, want one challenge item", got)
	}
	it := got[round.KindChallenge][0]
	if it.Key != round.ChallengeKey(c.ID) || it.Game != 0 {
		t.Errorf("the item is %q of game %d, want %q of none", it.Key, it.Game, round.ChallengeKey(c.ID))
	}
	shown, err := round.DecodeChallenge(it)
	if err != nil || shown.ID != c.ID || shown.To.ID != "bob" || shown.Time != tc || shown.Color != play.WhiteSide {
		t.Errorf("the item shows %+v (%v), want challenge %d to Bob at 1+0 with White", shown, err, c.ID)
	}
	if _, err := r.Service().GetChallenge(ctx, c.ID); err != nil {
		t.Errorf("the challenge was not recorded: %v", err)
	}

	// Refused: the same challenge again, and one to oneself.
	for _, n := range []play.NewChallenge{
		{Guild: "g1", Channel: "c1", From: ann, To: bob, Time: tc, At: t0.Add(time.Second)},
		{Guild: "g1", Channel: "c1", From: ann, To: ann, Time: tc, At: t0.Add(time.Second)},
		{Guild: "g1", Channel: "c1", From: ann, Time: play.TimeControl{Limit: time.Second}, At: t0.Add(time.Second)},
	} {
		var x *play.Refusal
		if _, err := challenge(r, n); !errors.As(err, &x) {
			t.Errorf("challenge %+v: %v, want a refusal", n, err)
		}
	}
	if got := pending(t, st, t0.Add(time.Minute)); len(got) != 0 {
		t.Errorf("refused challenges left %v in the outbox", got)
	}
	if _, err := round.DecodeChallenge(play.OutboxItem{Key: "x", Body: []byte("{}")}); err == nil {
		t.Error("an item without a challenge decoded")
	}
}

// TestAnAnswerWritesTheItemThatEditsTheChallenge: a challenge accepted
// through AcceptAnswered leaves, with the game's first board, the item
// that edits its message; a decline and a withdrawal leave theirs; a
// refused answer leaves nothing.
func TestAnAnswerWritesTheItemThatEditsTheChallenge(t *testing.T) {
	r, st := newRound(t, nil)
	newChallenge := func(to play.Seat) play.Challenge {
		t.Helper()
		c, err := challenge(r, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: to, Color: play.WhiteSide, InChannel: true, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		c.Message = "m1"
		return c
	}
	c := newChallenge(bob)
	pending(t, st, t0)
	// Ann may not accept her own: nothing is written.
	var x *play.Refusal
	if _, err := r.AcceptAnswered(ctx, &c, ann, "c1", t0); !errors.As(err, &x) {
		t.Fatalf("Ann accepting her own challenge: %v", err)
	}
	if got := pending(t, st, t0); len(got) != 0 {
		t.Errorf("a refused accept wrote %v", got)
	}
	out, err := r.AcceptAnswered(ctx, &c, bob, "c1", t0)
	if err != nil {
		t.Fatal(err)
	}
	got := pending(t, st, t0)
	if len(got[round.KindBoard]) != 1 || len(got[round.KindAnswered]) != 1 {
		t.Fatalf("the accept wrote %v, want a board and the answer", got)
	}
	a, err := round.DecodeAnswered(got[round.KindAnswered][0])
	if err != nil || a.Answer != round.AnswerAccepted || a.By != "bob" || a.Game != out.Game.ID || a.Challenge.Message != "m1" {
		t.Errorf("the answer is %+v, %v", a, err)
	}
	if out.Game.Channel != "c1" {
		t.Errorf("the game is played in %q, want c1", out.Game.Channel)
	}
	for _, tc := range []struct {
		by   play.Seat
		want round.Answer
	}{{bob, round.AnswerDeclined}, {ann, round.AnswerWithdrawn}} {
		c, err := challenge(r, play.NewChallenge{Guild: "g1", Channel: "c2", From: ann, To: bob, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		pending(t, st, t0)
		if err := r.Decline(ctx, &c, tc.by.ID, t0); err != nil {
			t.Fatal(err)
		}
		got := pending(t, st, t0)
		if len(got[round.KindAnswered]) != 1 {
			t.Fatalf("%s's answer wrote %v", tc.by.ID, got)
		}
		if a, _ := round.DecodeAnswered(got[round.KindAnswered][0]); a.Answer != tc.want || a.By != tc.by.ID {
			t.Errorf("%s's answer reads %+v, want %s", tc.by.ID, a, tc.want)
		}
		if err := r.Decline(ctx, &c, tc.by.ID, t0); !errors.As(err, &x) {
			t.Errorf("a second answer: %v, want a refusal", err)
		}
		if got := pending(t, st, t0); len(got) != 0 {
			t.Errorf("a refused answer wrote %v", got)
		}
	}
}

// challenge makes n through the round, shown by the outbox.
func challenge(r *round.Round, n play.NewChallenge) (play.Challenge, error) {
	a, err := r.Ask(ctx, n, false)
	if err == nil && a.Accepted {
		return play.Challenge{}, errors.New("the challenge accepted another")
	}
	return a.Challenge, err
}

// TestAnAskThatCrossesStartsTheGameWithItsItems: Ann asks Bob, whose
// challenge to her on the same terms waits: the round accepts his, and
// writes in that transaction the game's first board and the item that
// edits his challenge's message — no challenge of hers, nothing to show.
// A challenge the front end shows itself (shows) leaves no item.
func TestAnAskThatCrossesStartsTheGameWithItsItems(t *testing.T) {
	r, st := newRound(t, nil)
	tc := play.TimeControl{Limit: time.Minute}
	his, err := r.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "t1", From: bob, To: ann, Color: play.BlackSide, Time: tc, At: t0}, true)
	if err != nil || his.Accepted {
		t.Fatalf("Bob's challenge: %+v, %v", his, err)
	}
	if got := pending(t, st, t0); len(got) != 0 {
		t.Errorf("a challenge the front end shows left %v", got)
	}
	if err := r.Service().SetChallengeMessage(ctx, his.Challenge.ID, "m1"); err != nil {
		t.Fatal(err)
	}
	got, err := r.Ask(ctx, play.NewChallenge{Guild: "g1", Channel: "t1", From: ann, To: bob, Color: play.WhiteSide, Time: tc, At: t0.Add(time.Second)}, true)
	if err != nil || !got.Accepted || got.Challenge.ID != his.Challenge.ID {
		t.Fatalf("Ann's ask: %+v, %v; want Bob's accepted", got, err)
	}
	g := got.Outcome.Game
	if g.White.ID != "ann" || g.Black.ID != "bob" || g.Channel != "t1" || len(got.Outcome.Boards) != 1 {
		t.Errorf("the game: %s White, %s Black, in %q, boards %d", g.White.ID, g.Black.ID, g.Channel, len(got.Outcome.Boards))
	}
	items := pending(t, st, t0.Add(time.Second))
	if len(items[round.KindBoard]) != 1 || len(items[round.KindAnswered]) != 1 || len(items[round.KindChallenge]) != 0 {
		t.Fatalf("the ask wrote %v, want a board and the answer", items)
	}
	a, err := round.DecodeAnswered(items[round.KindAnswered][0])
	if err != nil || a.Answer != round.AnswerAccepted || a.By != "ann" || a.Game != g.ID || a.Challenge.Message != "m1" {
		t.Errorf("the answer is %+v, %v", a, err)
	}
	d, err := round.DecodeDelivery(items[round.KindBoard][0])
	if err != nil || d.Game.ID != g.ID || d.Act != round.Accept || d.By != "ann" {
		t.Errorf("the board is %+v, %v", d, err)
	}
	if len(got.Outcome.Keys) != 2 {
		t.Errorf("the outcome's keys %v, want the board's and the answer's", got.Outcome.Keys)
	}
}

// answerStore is a memstore that can fail the write of an answer's item
// (as a process stopping there would), and records which transactions
// removed a challenge and wrote an item.
type answerStore struct {
	*memstore.Memory
	failItem bool
	// txs are the committed transactions: the challenges each removed
	// and the kinds of the items each wrote.
	txs []answerTx
}

type answerTx struct {
	deleted []uint64
	items   []string
}

var errStopped = errors.New("the process stopped")

func (s *answerStore) Update(ctx context.Context, fn func(play.Tx) error) error {
	var rec answerTx
	err := s.Memory.Update(ctx, func(tx play.Tx) error {
		rec = answerTx{}
		return fn(&answerTxn{Tx: tx, s: s, rec: &rec})
	})
	if err == nil {
		s.txs = append(s.txs, rec)
	}
	return err
}

type answerTxn struct {
	play.Tx
	s   *answerStore
	rec *answerTx
}

func (tx *answerTxn) DeleteChallenge(id uint64) error {
	tx.rec.deleted = append(tx.rec.deleted, id)
	return tx.Tx.DeleteChallenge(id)
}

func (tx *answerTxn) PutOutbox(items ...play.OutboxItem) error {
	for _, it := range items {
		if it.Kind == round.KindAnswered && tx.s.failItem {
			return errStopped
		}
		tx.rec.items = append(tx.rec.items, it.Kind)
	}
	return tx.Tx.PutOutbox(items...)
}

// TestADeclineWritesItsItemInItsTransaction: a decline and a withdrawal
// are one transaction with the item that edits the challenge's message,
// as an accept is: should the item's write fail (the process stopping
// there), the challenge still stands, and the message's buttons still
// answer it; the answer then goes through, item and all, in one
// transaction.
func TestADeclineWritesItsItemInItsTransaction(t *testing.T) {
	st := &answerStore{Memory: memstore.New()}
	r, err := round.New(play.New(st, play.Options{}), round.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		by   play.Seat
		want round.Answer
	}{{bob, round.AnswerDeclined}, {ann, round.AnswerWithdrawn}} {
		c, err := challenge(r, play.NewChallenge{Guild: "g1", Channel: "c1", From: ann, To: bob, InChannel: true, At: t0})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Service().SetChallengeMessage(ctx, c.ID, "m1"); err != nil {
			t.Fatal(err)
		}
		pending(t, st.Memory, t0)
		st.failItem = true
		if err := r.Decline(ctx, &c, tc.by.ID, t0); !errors.Is(err, errStopped) {
			t.Fatalf("%s's answer with its item failing: %v", tc.by.ID, err)
		}
		if _, err := r.Service().GetChallenge(ctx, c.ID); err != nil {
			t.Fatalf("%s's answer failed, yet the challenge is gone (%v): its message keeps buttons that answer nothing", tc.by.ID, err)
		}
		if got := pending(t, st.Memory, t0); len(got) != 0 {
			t.Errorf("a failed answer wrote %v", got)
		}
		st.failItem, st.txs = false, nil
		if err := r.Decline(ctx, &c, tc.by.ID, t0); err != nil {
			t.Fatal(err)
		}
		if len(st.txs) != 1 || !slices.Equal(st.txs[0].deleted, []uint64{c.ID}) || !slices.Equal(st.txs[0].items, []string{round.KindAnswered}) {
			t.Errorf("%s's answer committed %+v, want one transaction that removes challenge %d and writes its item", tc.by.ID, st.txs, c.ID)
		}
		got := pending(t, st.Memory, t0)
		if len(got[round.KindAnswered]) != 1 {
			t.Fatalf("%s's answer left %v", tc.by.ID, got)
		}
		if a, _ := round.DecodeAnswered(got[round.KindAnswered][0]); a.Answer != tc.want || a.By != tc.by.ID || a.Challenge.Message != "m1" {
			t.Errorf("%s's answer reads %+v, want %s of the challenge shown in m1", tc.by.ID, a, tc.want)
		}
	}
}
