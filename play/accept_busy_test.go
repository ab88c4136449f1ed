package play_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// An accept refused because its channel is busy writes nothing: the
// challenge still waits, to be accepted elsewhere.
func TestAcceptIntoABusyChannelLeavesTheChallengeStanding(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	st := &refusalsFirst{Storage: memstore.New(), t: t}
	svc := play.New(st, play.Options{})
	if _, err := svc.Start(ctx, play.NewGame{Channel: "busy", White: play.Seat{ID: "x"}, Black: play.Seat{ID: "y"}, At: at}); err != nil {
		t.Fatal(err)
	}
	c, err := svc.Challenge(ctx, play.NewChallenge{Channel: "lobby", From: play.Seat{ID: "a"}, To: play.Seat{ID: "b"}, At: at})
	if err != nil {
		t.Fatal(err)
	}
	_, err = svc.Accept(ctx, c.ID, play.Seat{ID: "b"}, "busy", at)
	var x *play.Refusal
	if !errors.As(err, &x) || x.Kind != play.ChannelBusy {
		t.Fatalf("accepting into a busy channel: %v", err)
	}
	if _, err := svc.GetChallenge(ctx, c.ID); err != nil {
		t.Fatalf("the challenge is gone after a refused accept: %v", err)
	}
	if _, err := svc.Accept(ctx, c.ID, play.Seat{ID: "b"}, "free", at); err != nil {
		t.Fatalf("accepting it elsewhere then: %v", err)
	}
}

// refusalsFirst is a storage that fails the test when an act is refused
// after it wrote: a storage that batches (store's bbolt) would then have
// to rerun the whole batch.
type refusalsFirst struct {
	play.Storage
	t *testing.T
}

type trackedTx struct {
	play.Tx
	wrote bool
}

func (t *trackedTx) NextID() (uint64, error)             { t.wrote = true; return t.Tx.NextID() }
func (t *trackedTx) PutGame(g play.Game) error           { t.wrote = true; return t.Tx.PutGame(g) }
func (t *trackedTx) PutChallenge(c play.Challenge) error { t.wrote = true; return t.Tx.PutChallenge(c) }
func (t *trackedTx) DeleteChallenge(id uint64) error     { t.wrote = true; return t.Tx.DeleteChallenge(id) }

func (s *refusalsFirst) Update(ctx context.Context, fn func(play.Tx) error) error {
	return s.Storage.Update(ctx, func(tx play.Tx) error {
		tt := &trackedTx{Tx: tx}
		err := fn(tt)
		var x *play.Refusal
		if errors.As(err, &x) && tt.wrote {
			s.t.Errorf("refused (%s) after writing", x.Kind)
		}
		return err
	})
}
