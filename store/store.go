package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Options tune Open. The zero value (or nil) gives the defaults.
type Options struct {
	// Timeout is how long Open waits for the file lock held by another
	// process before failing with ErrLocked. Default: 1 second.
	Timeout time.Duration

	// BatchDelay, when positive, lets concurrent writes (moves, updates)
	// share one transaction and one fsync: a write that arrives while
	// another is in progress waits at most this long for company (a lone
	// write commits at once). It is still acknowledged only after the
	// shared transaction committed. Zero: the default of 2 ms; negative:
	// every write commits alone.
	BatchDelay time.Duration

	// ReadOnly opens the file with a shared lock for reading only; Open
	// then refuses a file whose schema would need migrating.
	ReadOnly bool
}

// DefaultBatchDelay is the BatchDelay used when Options leave it zero.
// A commit costs an fsync, up to milliseconds; a write that already has
// to queue behind another loses little by waiting 2 ms more, and lets a
// busy server commit dozens of moves per fsync.
const DefaultBatchDelay = 2 * time.Millisecond

// DefaultTimeout is the Timeout used when Options leave it zero.
const DefaultTimeout = time.Second

// Store is an open database. Its methods are safe for concurrent use.
type Store struct {
	db       *bolt.DB
	path     string
	batching bool
	writers  atomic.Int32 // writes in progress, for choosing to batch
}

// Open opens (creating if needed) the database file at path, upgrades an
// older schema in place, and returns the Store. It fails with ErrLocked if
// another process holds the file, ErrNewerSchema if the file comes from a
// newer program, and a wrapped bbolt error if the file is not a database.
func Open(path string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.BatchDelay == 0 {
		o.BatchDelay = DefaultBatchDelay
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.Timeout, ReadOnly: o.ReadOnly})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%w: %s is locked (waited %v); is the bot already running on it?", ErrLocked, path, o.Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	s := &Store{db: db, path: path, batching: o.BatchDelay > 0}
	if s.batching {
		db.MaxBatchDelay = o.BatchDelay
	}
	if o.ReadOnly {
		err = db.View(func(tx *bolt.Tx) error {
			v, err := schemaOf(tx)
			if err == nil && v != schemaVersion {
				err = fmt.Errorf("store: %s has schema version %d, this program uses %d; open it read-write once to upgrade it", path, v, schemaVersion)
			}
			return err
		})
	} else {
		// Most opens find the current schema: check that in a read
		// transaction, and write only when there is something to do.
		var v int
		if err = db.View(func(tx *bolt.Tx) (err error) { v, err = schemaOf(tx); return err }); err == nil && v != schemaVersion {
			err = db.Update(upgrade)
		}
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Close closes the database. It waits for running transactions.
func (s *Store) Close() error { return s.db.Close() }

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Backup writes a consistent copy of the whole database to w, in one read
// transaction: writers go on meanwhile, and the copy is the state of one
// instant. It returns the number of bytes written.
func (s *Store) Backup(w io.Writer) (n int64, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy of the database to path, safely: to
// a temporary file beside it, synced, then renamed over path, so a crash
// never leaves a half-written backup under the final name.
func (s *Store) BackupFile(path string) (int64, error) {
	return backupFile(s.db, s.path, path)
}

// CopyFile backs up the database file src to dst like BackupFile, without
// opening it as a Store: it takes a shared lock (waiting at most timeout
// for a writer to let go; DefaultTimeout if timeout is not positive, as
// bbolt would wait for ever) and copies whatever schema version the file
// has, so a file can be saved before an upgrade touches it.
func CopyFile(src, dst string, timeout time.Duration) (int64, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	db, err := bolt.Open(src, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: true})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return 0, fmt.Errorf("%w: %s is locked (waited %v); is the bot running on it? It can back itself up while it runs", ErrLocked, src, timeout)
	}
	if err != nil {
		return 0, fmt.Errorf("store: opening %s: %w", src, err)
	}
	defer db.Close()
	return backupFile(db, src, dst)
}

func backupFile(db *bolt.DB, src, path string) (n int64, err error) {
	if a, err1 := filepath.Abs(path); err1 == nil {
		if b, err2 := filepath.Abs(src); err2 == nil && a == b {
			return 0, fmt.Errorf("%w: the backup %s would overwrite the database itself", ErrInvalid, path)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, fmt.Errorf("store: backup to %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	err = db.View(func(tx *bolt.Tx) error {
		n, err = tx.WriteTo(f)
		return err
	})
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err == nil {
		// The rename itself is durable only once the folder is synced.
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		return n, fmt.Errorf("store: backup to %s: %w", path, err)
	}
	return n, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Check verifies the file's internal consistency (bbolt's Tx.Check: every
// page reachable or free, no page twice) and returns every problem found,
// joined, or nil. It holds the write lock while it runs.
func (s *Store) Check() error {
	var errs []error
	err := s.db.Update(func(tx *bolt.Tx) error {
		for e := range tx.Check() {
			errs = append(errs, e)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return errors.Join(errs...)
}

// refusal marks an error that a write function returned before writing
// anything: the request was refused (conflict, illegal move, not found…).
// In a batch it must not fail the shared transaction, and so the batch
// does not rerun the other writers because of it.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

func refuse(err error) error { return refusal{err} }

// write runs fn in a read-write transaction and returns only after the
// commit. A lone writer commits at once; writers that arrive while others
// are in progress share a batch transaction (group commit), so a busy
// server pays one fsync for many moves and a quiet one pays no delay.
// fn may run more than once (bbolt reruns a batch without a writer that
// failed), so it must only set its results, never act on the world.
func (s *Store) write(fn func(tx *bolt.Tx) error) error {
	n := s.writers.Add(1)
	defer s.writers.Add(-1)
	if !s.batching || n == 1 {
		return unrefuse(s.db.Update(fn))
	}
	var refused error
	err := s.db.Batch(func(tx *bolt.Tx) error {
		refused = nil
		err := fn(tx)
		var r refusal
		if errors.As(err, &r) {
			refused = r.err
			return nil
		}
		return err
	})
	if err != nil {
		return unrefuse(err)
	}
	return refused
}

func unrefuse(err error) error {
	var r refusal
	if errors.As(err, &r) {
		return r.err
	}
	return err
}
