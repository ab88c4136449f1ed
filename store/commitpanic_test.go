package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// A writer that panics in a commit shared with others gets its panic in
// its own goroutine, as a lone writer does; the others' writes are
// committed and they are told so, and the writes after are not stuck
// behind it. (Outside the package, as TestCallerPanicsAreNotDamage: the
// guard tells a caller's panic from damage by the package that panicked.)
func TestAPanicInASharedCommitIsItsWritersAlone(t *testing.T) {
	s, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	// A commit in progress, held until the others queue behind it.
	in, out, held := make(chan struct{}, 1), make(chan struct{}), make(chan error, 1)
	go func() {
		held <- s.Update(ctx, func(tx play.Tx) error {
			select {
			case in <- struct{}{}:
			default:
			}
			<-out
			return tx.PutPrefs("holder", play.Prefs{Language: "fr"})
		})
	}()
	<-in
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs(fmt.Sprint("ok", i), play.Prefs{Language: "fr"}) })
		})
	}
	panicked := make(chan any, 1)
	wg.Go(func() {
		defer func() { panicked <- recover() }()
		_ = s.Update(ctx, func(tx play.Tx) error {
			if err := tx.PutPrefs("panicker", play.Prefs{Language: "fr"}); err != nil {
				return err
			}
			panic("the writer's own bug")
		})
	})
	if !store.QueuedWrites(s, len(errs)+1) {
		t.Fatal("the writes never queued behind the commit in progress")
	}
	close(out)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if p := <-panicked; p != "the writer's own bug" {
		t.Errorf("the panicking writer recovered %v", p)
	}
	stored := func(user string) bool {
		var p play.Prefs
		if err := s.View(ctx, func(tx play.ReadTx) (err error) { p, err = tx.Prefs(user); return err }); err != nil {
			t.Fatal(err)
		}
		return p.Language != ""
	}
	for i, err := range errs {
		if err != nil || !stored(fmt.Sprint("ok", i)) {
			t.Errorf("writer %d: %v, stored %v", i, err, stored(fmt.Sprint("ok", i)))
		}
	}
	if stored("panicker") {
		t.Error("the panicking writer's write was committed")
	}
	if err := s.Update(ctx, func(tx play.Tx) error { return tx.PutPrefs("after", play.Prefs{}) }); err != nil {
		t.Errorf("the write after: %v", err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
