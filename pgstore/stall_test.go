package pgstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
)

func TestAStalledDatabaseFailsFastInsteadOfHanging(t *testing.T) {
	url, stall := pgtest.Stalling(t)
	const limit = 500 * time.Millisecond
	s, err := pgstore.Open(ctx, url, &pgstore.Options{TxTimeout: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.View(ctx, func(play.ReadTx) error { return nil }); err != nil {
		t.Fatalf("before the stall: %v", err)
	}
	stall()
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"a read", func() error {
			return s.View(ctx, func(tx play.ReadTx) error { _, err := tx.Game(1); return err })
		}},
		{"a write", func() error {
			return s.Update(ctx, func(tx play.Tx) error { _, err := tx.Game(1); return err })
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- c.run() }()
			select {
			case err := <-done:
				if err == nil {
					t.Fatal("succeeded on a stalled database")
				}
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Logf("failed with %v", err)
				}
			case <-time.After(time.Minute): // a bound on a hang, not a measure of speed
				t.Fatal("still waiting on the stalled database after a minute")
			}
		})
	}
}

func TestConnectionsGetTheDefaultTimeouts(t *testing.T) {
	for _, c := range []struct{ name, extra, want string }{
		{"by default", "", "5s"},
		{"unless the connection string sets its own", " statement_timeout=1500", "1500ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := pgstore.Open(ctx, pgtest.New(t)+c.extra, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var got string
			if err := s.Pool().QueryRow(context.Background(), "SHOW statement_timeout").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("statement_timeout %s, want %s", got, c.want)
			}
		})
	}
}
