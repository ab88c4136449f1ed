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
	url, proxy := pgtest.Stalling(t)
	const limit = 500 * time.Millisecond
	s, err := pgstore.Open(ctx, url, &pgstore.Options{TxTimeout: limit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.View(ctx, func(play.ReadTx) error { return nil }); err != nil {
		t.Fatalf("before the stall: %v", err)
	}
	proxy.Stall()
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
	t.Run("once one timed out, the others do not wait", func(t *testing.T) {
		err := s.View(ctx, func(play.ReadTx) error { return nil })
		if !errors.Is(err, pgstore.ErrStalled) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want ErrStalled", err)
		}
	})
	t.Run("when the database answers again, so does the store", func(t *testing.T) {
		proxy.Resume()
		for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
			err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("user-1", play.Prefs{}) })
			if err == nil {
				break
			}
			if time.Since(start) > time.Minute { // a bound on a hang, not a measure
				t.Fatalf("still failing a minute after the database came back: %v", err)
			}
		}
	})
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

func TestAnInteractionIDIsFirstOnceAcrossProcesses(t *testing.T) {
	url := pgtest.New(t)
	var stores []*pgstore.Store
	for range 2 { // two processes sharing the database
		s, err := pgstore.Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		stores = append(stores, s)
	}
	for _, c := range []struct {
		store int
		id    uint64
		life  time.Duration
		want  bool
	}{
		{0, 1577566308994646020, time.Minute, true},
		{1, 1577566308994646020, time.Minute, false}, // the other process has seen it
		{0, 1577566308994646020, time.Minute, false},
		{1, 1577566308994646021, time.Millisecond, true},
	} {
		got, err := stores[c.store].FirstTime(ctx, c.id, c.life)
		if err != nil || got != c.want {
			t.Fatalf("FirstTime(%d) on store %d: %v, %v; want %v", c.id, c.store, got, err, c.want)
		}
	}
	time.Sleep(20 * time.Millisecond) // the short-lived id lapses
	if got, err := stores[0].FirstTime(ctx, 1577566308994646021, time.Minute); err != nil || !got {
		t.Fatalf("a lapsed id: %v, %v; want it new again", got, err)
	}
}
