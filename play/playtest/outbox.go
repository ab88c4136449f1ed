package playtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// runOutboxSuite checks play.Outbox and Tx.PutOutbox: items committed
// with their transaction and only with it, one item per key, claims
// that hold for their lease and lapse after it, and each item handed to
// one of many claimers.
func runOutboxSuite(t *testing.T, open func(t *testing.T) play.Storage) {
	ctx := context.Background()
	outbox := func(t *testing.T) (play.Storage, play.Outbox) {
		st := open(t)
		ob, ok := st.(play.Outbox)
		if !ok {
			t.Fatalf("%T keeps no outbox (play.Outbox)", st)
		}
		return st, ob
	}
	item := func(key string, due time.Time) play.OutboxItem {
		return play.OutboxItem{Key: key, Game: 7, Kind: "deliver", Body: []byte(`{"board":"` + key + `"}`), Due: due, Created: T0}
	}
	put := func(t *testing.T, st play.Storage, items ...play.OutboxItem) {
		t.Helper()
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutOutbox(items...) }); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(t *testing.T, ob play.Outbox, owner string, now time.Time, limit int) []string {
		t.Helper()
		its, err := ob.ClaimOutbox(ctx, owner, now, time.Minute, limit)
		if err != nil {
			t.Fatal(err)
		}
		keys := []string{}
		for _, it := range its {
			keys = append(keys, it.Key)
		}
		return keys
	}

	t.Run("an item committed with an act is claimed as it was put", func(t *testing.T) {
		st, ob := outbox(t)
		want := item("g1.r2", T0)
		want.Tries = 0
		err := st.Update(ctx, func(tx play.Tx) error {
			id, err := tx.NextID()
			if err != nil {
				return err
			}
			want.Game = id
			return tx.PutOutbox(want)
		})
		if err != nil {
			t.Fatal(err)
		}
		its, err := ob.ClaimOutbox(ctx, "p1", T0.Add(time.Second), time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		want.Due, want.Owner = T0.Add(time.Second+time.Minute), "p1"
		if len(its) != 1 || asJSON(its[0]) != asJSON(want) {
			t.Fatalf("claimed %s, want [%s]", asJSON(its), asJSON(want))
		}
	})

	t.Run("a failed transaction puts no item", func(t *testing.T) {
		st, ob := outbox(t)
		boom := errors.New("boom")
		err := st.Update(ctx, func(tx play.Tx) error {
			if err := tx.PutOutbox(item("a", T0)); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Update returned %v", err)
		}
		if got := claim(t, ob, "p1", T0, 10); len(got) != 0 {
			t.Fatalf("claimed %v from a transaction rolled back", got)
		}
	})

	t.Run("an item without a key is refused", func(t *testing.T) {
		st, _ := outbox(t)
		if err := st.Update(ctx, func(tx play.Tx) error { return tx.PutOutbox(item("", T0)) }); err == nil {
			t.Fatal("an item without a key was put")
		}
	})

	t.Run("a key put again keeps its first item", func(t *testing.T) {
		st, ob := outbox(t)
		first := item("k", T0)
		second := item("k", T0)
		second.Body = []byte(`"second"`)
		put(t, st, first, second)
		put(t, st, second)
		its, err := ob.ClaimOutbox(ctx, "p1", T0, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(its) != 1 || string(its[0].Body) != string(first.Body) {
			t.Fatalf("claimed %s", asJSON(its))
		}
	})

	t.Run("items are claimed when due, earliest first, at most the limit", func(t *testing.T) {
		st, ob := outbox(t)
		put(t, st, item("c", T0.Add(2*time.Second)), item("a", T0.Add(time.Second)), item("b", T0.Add(time.Second)), item("later", T0.Add(time.Hour)))
		if got := claim(t, ob, "p1", T0, 10); len(got) != 0 {
			t.Fatalf("claimed %v before they were due", got)
		}
		if got := claim(t, ob, "p1", T0.Add(3*time.Second), 2); !slices.Equal(got, []string{"a", "b"}) {
			t.Fatalf("claimed %v, want [a b]", got)
		}
		if got := claim(t, ob, "p1", T0.Add(3*time.Second), 10); !slices.Equal(got, []string{"c"}) {
			t.Fatalf("claimed %v, want [c]", got)
		}
	})

	t.Run("a claim holds an item until its lease ends, then another takes it", func(t *testing.T) {
		st, ob := outbox(t)
		put(t, st, item("a", T0))
		if got := claim(t, ob, "p1", T0, 10); !slices.Equal(got, []string{"a"}) {
			t.Fatalf("p1 claimed %v", got)
		}
		if got := claim(t, ob, "p2", T0.Add(59*time.Second), 10); len(got) != 0 {
			t.Fatalf("p2 claimed %v within p1's lease", got)
		}
		its, err := ob.ClaimOutbox(ctx, "p2", T0.Add(time.Minute), time.Minute, 10)
		if err != nil || len(its) != 1 || its[0].Owner != "p2" {
			t.Fatalf("after the lease p2 claimed %s, %v", asJSON(its), err)
		}
		// p1 comes back late: its retry must not take the item from p2.
		if err := ob.RetryOutbox(ctx, "a", "p1", T0); err != nil {
			t.Fatal(err)
		}
		if got := claim(t, ob, "p3", T0.Add(90*time.Second), 10); len(got) != 0 {
			t.Fatalf("a stale owner's retry released p2's claim: p3 claimed %v", got)
		}
	})

	t.Run("a retry makes an item due again and counts the try", func(t *testing.T) {
		st, ob := outbox(t)
		put(t, st, item("a", T0))
		claim(t, ob, "p1", T0, 10)
		if err := ob.RetryOutbox(ctx, "a", "p1", T0.Add(5*time.Second)); err != nil {
			t.Fatal(err)
		}
		if got := claim(t, ob, "p1", T0.Add(4*time.Second), 10); len(got) != 0 {
			t.Fatalf("claimed %v before the retry's time", got)
		}
		its, err := ob.ClaimOutbox(ctx, "p2", T0.Add(5*time.Second), time.Minute, 10)
		if err != nil || len(its) != 1 || its[0].Tries != 1 {
			t.Fatalf("claimed %s, %v; want one item tried once", asJSON(its), err)
		}
	})

	t.Run("an item nobody claimed is released by owner \"\"", func(t *testing.T) {
		st, ob := outbox(t)
		put(t, st, item("held", T0.Add(time.Hour)))
		if err := ob.RetryOutbox(ctx, "held", "", T0); err != nil {
			t.Fatal(err)
		}
		if got := claim(t, ob, "p1", T0, 10); !slices.Equal(got, []string{"held"}) {
			t.Fatalf("claimed %v, want [held]", got)
		}
	})

	t.Run("items done are gone, at once or one by one, and done again is no error", func(t *testing.T) {
		st, ob := outbox(t)
		put(t, st, item("a", T0), item("b", T0), item("c", T0), item("d", T0))
		claim(t, ob, "p1", T0, 10)
		for range 2 {
			if err := ob.DoneOutbox(ctx, "a"); err != nil {
				t.Fatal(err)
			}
		}
		if err := ob.DoneOutbox(ctx, "c", "never", "d"); err != nil {
			t.Fatal(err)
		}
		if err := ob.DoneOutbox(ctx); err != nil {
			t.Fatal(err)
		}
		if err := ob.DoneOutbox(ctx, "never"); err != nil {
			t.Fatal(err)
		}
		if err := ob.RetryOutbox(ctx, "a", "p1", T0); err != nil {
			t.Fatal(err)
		}
		if got := claim(t, ob, "p2", T0.Add(time.Hour), 10); !slices.Equal(got, []string{"b"}) {
			t.Fatalf("claimed %v after a was done, want [b]", got)
		}
	})

	t.Run("claimers at once get each item once", func(t *testing.T) {
		st, ob := outbox(t)
		const n = 60
		var items []play.OutboxItem
		for i := range n {
			items = append(items, item(fmt.Sprintf("i%02d", i), T0.Add(time.Duration(i)*time.Millisecond)))
		}
		put(t, st, items...)
		var mu sync.Mutex
		got := map[string]string{}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for w := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprintf("p%d", w)
				for {
					its, err := ob.ClaimOutbox(ctx, owner, T0.Add(time.Second), time.Hour, 7)
					if err != nil {
						errs <- err
						return
					}
					if len(its) == 0 {
						return
					}
					mu.Lock()
					for _, it := range its {
						if o, ok := got[it.Key]; ok {
							errs <- fmt.Errorf("%s claimed by %s and %s", it.Key, o, owner)
						}
						got[it.Key] = owner
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if len(got) != n {
			t.Fatalf("%d items claimed of %d", len(got), n)
		}
	})
}
