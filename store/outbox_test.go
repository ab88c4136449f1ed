package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/playtest"
)

// An outbox item pending when the file is closed is there when it is
// opened again, and one claimed by a process that stopped is handed out
// again when the claim's lease ends.
func TestOutboxSurvivesReopening(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "iceage.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	items := []play.OutboxItem{{Key: "pending", Kind: "deliver", Due: playtest.T0, Created: playtest.T0},
		{Key: "claimed", Kind: "engine", Due: playtest.T0, Created: playtest.T0}}
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutOutbox(items...) }); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ClaimOutbox(ctx, "first", playtest.T0, time.Minute, 1); err != nil || len(got) != 1 || got[0].Key != "claimed" {
		t.Fatalf("claimed %v, %v", got, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("a file with an outbox does not check: %v", err)
	}
	got, err := s.ClaimOutbox(ctx, "second", playtest.T0, time.Minute, 10)
	if err != nil || len(got) != 1 || got[0].Key != "pending" {
		t.Fatalf("after reopening, claimed %v, %v; want the pending item", got, err)
	}
	if err := s.DoneOutbox(ctx, "pending"); err != nil {
		t.Fatal(err)
	}
	got, err = s.ClaimOutbox(ctx, "second", playtest.T0.Add(time.Minute), time.Minute, 10)
	if err != nil || len(got) != 1 || got[0].Key != "claimed" || got[0].Owner != "second" {
		t.Fatalf("after the lease, claimed %v, %v; want the item the first process held", got, err)
	}
}
