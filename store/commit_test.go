package store

import (
	"fmt"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// holdCommit starts a write that stays in its transaction until release
// is called, so that the writes started meanwhile queue for the next
// commit.
func holdCommit(t *testing.T, s *Store) (release func()) {
	t.Helper()
	in, out := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.write(func(tx *bolt.Tx) error {
			select {
			case in <- struct{}{}:
			default: // a rerun: already held
			}
			<-out
			_, err := tx.CreateBucketIfNotExists([]byte("held"))
			return err
		})
	}()
	<-in
	return func() {
		close(out)
		if err := <-done; err != nil {
			t.Errorf("the held write: %v", err)
		}
	}
}

// QueuedWrites waits until n writes wait for the next commit, and
// reports whether they did (for the tests outside the package).
func QueuedWrites(s *Store, n int) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.group.mu.Lock()
		q := len(s.group.queue)
		s.group.mu.Unlock()
		if q == n {
			return true
		}
	}
	return false
}

func putTest(tx *bolt.Tx, key string) error {
	b, err := tx.CreateBucketIfNotExists([]byte("test"))
	if err != nil {
		return err
	}
	return b.Put([]byte(key), []byte("x"))
}

func storedTest(t *testing.T, s *Store, key string) bool {
	t.Helper()
	var ok bool
	if err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("test"))
		ok = b != nil && b.Get([]byte(key)) != nil
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return ok
}

// The writes that arrive while a commit is in progress share the next
// one, and each returns only once it is done: one transaction, one fsync.
func TestWritesArrivingDuringACommitShareTheNext(t *testing.T) {
	s := openTest(t, nil)
	release := holdCommit(t, s)
	const n = 12
	ids := make([]int, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.write(func(tx *bolt.Tx) error {
				ids[i] = tx.ID()
				return putTest(tx, fmt.Sprint("k", i))
			})
		})
	}
	if !QueuedWrites(s, n) {
		t.Fatalf("%d writes never queued", n)
	}
	release()
	wg.Wait()
	for i := range n {
		if errs[i] != nil || !storedTest(t, s, fmt.Sprint("k", i)) || ids[i] != ids[0] {
			t.Errorf("write %d: %v, stored %v, transaction %d (the first's %d)", i, errs[i], storedTest(t, s, fmt.Sprint("k", i)), ids[i], ids[0])
		}
	}
	// A lone write afterwards commits at once, in a transaction of its own.
	var id int
	if err := s.write(func(tx *bolt.Tx) error { id = tx.ID(); return putTest(tx, "after") }); err != nil || id == ids[0] {
		t.Errorf("the write after: %v, transaction %d", err, id)
	}
}
