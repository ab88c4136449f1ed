package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Options tune Open. The zero value (or nil) gives the defaults.
type Options struct {
	// Timeout is how long Open waits for the file lock held by another
	// process before failing with ErrLocked. Default: 1 second.
	Timeout time.Duration

	// Alone makes every write commit by itself. By default the writes
	// that arrive while a commit is in progress share the next one
	// (group commit, see write), each still acknowledged only after
	// that commit: a busy server pays one fsync for many moves, and no
	// write waits for company.
	Alone bool

	// ReadOnly opens the file with a shared lock for reading only; Open
	// then refuses a file whose schema would need migrating.
	ReadOnly bool

	// CheckTimeout is how long the damage check of Open, Check and
	// BackupFile may run before the file is judged damaged (bbolt can
	// walk a cycle of damaged pages for ever). Default:
	// DefaultCheckTimeout, and a second more per megabyte of the file.
	CheckTimeout time.Duration
}

// DefaultTimeout is the Timeout used when Options leave it zero.
const DefaultTimeout = time.Second

// Store is an open database. Its methods are safe for concurrent use.
type Store struct {
	db           guardedDB
	path         string
	file         os.FileInfo // the file opened, for refusing a backup onto it
	checkTimeout time.Duration
	alone        bool  // Options.Alone
	group        group // the writes waiting for the next commit (commit.go)

	readOnly bool
	checked  chan struct{} // closed when the whole file was checked (see Open)
	checkErr error         // the result of the check in the background, once checked is closed
	stop     chan struct{} // closed by Close, to stop that check
	closing  sync.Once

	feeds feeds // told of the games each commit wrote (feed.go)
}

// Open opens (creating if needed) the database file at path, upgrades an
// older schema in place, and returns the Store. An existing file is first
// checked for damage, in a child process running this program (see
// ErrDamaged): a small file whole, a larger one in what a start needs,
// the rest in the background once Open returned (see Checked). Open
// fails with
// ErrLocked if another process holds the file, ErrDamaged if the file is
// damaged (the error says what was found and how to restore a backup),
// ErrNewerSchema if the file comes from a newer program, and a wrapped
// bbolt error if the file is not a database.
func Open(path string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	later := false // the archive is left to the check in the background
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		// Before bbolt touches the file here: opening it read-write
		// already reads its free list, which damage can make fault.
		extent := checkWhole
		if st.Size() >= wholeCheckBelow {
			extent, later = checkStart, true
		}
		problems, err := checkFileExtent(path, o.Timeout, o.CheckTimeout, extent, nil)
		if err != nil && !errors.Is(err, errNotChecked) {
			return nil, err
		}
		if len(problems) > 0 {
			return nil, damaged(path, problems)
		}
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.Timeout, ReadOnly: o.ReadOnly})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%w: %s is locked (waited %v); is the bot already running on it?", ErrLocked, path, o.Timeout)
	}
	if errors.Is(err, bolterrors.ErrChecksum) {
		return nil, damaged(path, []string{"both meta pages fail their checksums"})
	}
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	file, err := os.Stat(path)
	if err != nil {
		_ = bdb.Close() // the stat's error is the one to report
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	if !o.ReadOnly {
		// The copies that checks of this file left when their process
		// was killed: with the file locked, no check of it runs now.
		// Their names are the file's, ".check" and CreateTemp's digits.
		// So are the compacted copies of an interrupted compaction.
		for _, kind := range []string{".check", ".compact"} {
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), globEscape(filepath.Base(path))+kind+"*"))
			for _, f := range left {
				if rest := strings.TrimPrefix(filepath.Base(f), filepath.Base(path)+kind); rest != "" && strings.Trim(rest, "0123456789") == "" {
					_ = os.Remove(f) // a copy that will not go is only left over
				}
			}
		}
	}
	db := guardedDB{DB: bdb, harm: new(harm)}
	s := &Store{db: db, path: path, file: file, checkTimeout: o.CheckTimeout, alone: o.Alone,
		checked: make(chan struct{}), stop: make(chan struct{}), readOnly: o.ReadOnly}
	if o.ReadOnly {
		err = db.View(func(tx *bolt.Tx) error {
			v, err := schemaOf(tx)
			if err == nil && (v != schemaVersion || converting(tx)) {
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
		if err == nil {
			err = convertGames(db)
		}
		if err == nil && compacting(db) {
			// A compaction that failed before its rename leaves the file
			// as it was, still marked: the next Open tries again.
			cdb, cerr := compactFile(path, db.DB, o.Timeout)
			if cdb == nil {
				err, db.DB = cerr, nil
			} else {
				db.DB = cdb
				s.db = db
				if st, serr := os.Stat(path); serr == nil {
					s.file = st
				}
			}
		}
	}
	if err != nil {
		if db.DB != nil {
			_ = db.Close() // the open's error is the one to report
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if later {
		go s.checkInBackground()
	} else {
		close(s.checked)
	}
	return s, nil
}

// globEscape escapes the characters that filepath.Glob reads as a pattern.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wholeCheckBelow is the size of file below which Open checks the whole
// file before it returns, as it takes a fraction of a second; a larger
// one is checked in two parts (see Open). A variable for the tests.
var wholeCheckBelow int64 = 32 << 20

// checkInBackground checks the whole file, on a copy, as Check does,
// after an Open that checked only what a start needs. Damage found makes
// the store refuse every write from then on, with the error that says
// what was found and how to restore a backup, as damage met by a
// transaction does.
func (s *Store) checkInBackground() {
	defer close(s.checked)
	var err error
	if s.readOnly {
		// A shared lock admits the checking child on the file itself,
		// which may be where no copy can be written (a backup on
		// read-only media).
		var problems []string
		problems, err = checkFileExtent(s.path, DefaultTimeout, s.checkTimeout, checkWhole, s.stop)
		if len(problems) > 0 {
			err = damaged(s.path, problems)
		}
	} else if err = s.roomForCopy(); err == nil {
		err = s.check(s.stop)
	}
	if errors.Is(err, errStopped) {
		err = nil
	}
	if errors.Is(err, ErrDamaged) {
		s.db.harm.err.CompareAndSwap(nil, &err)
	}
	s.checkErr = err
}

// freeSpaceOf is freeSpace, a variable for the tests.
var freeSpaceOf = freeSpace

// roomForCopy refuses a check of a copy that would leave the disk with
// less than the file's size free: the bot's own writes need room while
// the copy is written.
func (s *Store) roomForCopy() error {
	st, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("store: checking %s: %w", s.path, err)
	}
	need := 2 * uint64(st.Size()) // #nosec G115 -- a file's size is not negative
	if free, ok := freeSpaceOf(filepath.Dir(s.path)); ok && free < need {
		return fmt.Errorf("store: the whole check of %s did not run: it writes a copy of the file beside it, and the disk has %d MB free, less than twice the file's %d MB; free some room and restart, or run the check on a copy elsewhere ('iceage backup')",
			s.path, free>>20, st.Size()>>20)
	}
	return nil
}

// Checked waits for the check of the whole file that Open leaves to run
// in the background, for a file past a few tens of megabytes (at once
// for a smaller one, which Open checked whole), and returns its result:
// nil for a healthy file (or a store closed before the check was done),
// an error wrapping ErrDamaged, or the error that kept the check from
// running (no room for the copy it checks, for one). It returns ctx's
// error if ctx ends first.
func (s *Store) Checked(ctx context.Context) error {
	select {
	case <-s.checked:
		return s.checkErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close closes the database: it stops the check in the background, if
// one runs, and waits for running transactions.
func (s *Store) Close() error {
	s.closing.Do(func() { close(s.stop) })
	<-s.checked
	return s.db.Close()
}

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Backup writes a consistent copy of the whole database to w, in one read
// transaction: writers go on meanwhile, and the copy is the state of one
// instant. It returns the number of bytes written. The copy is not
// checked for damage (what is written to w cannot be taken back): write
// backups with BackupFile, which checks them.
func (s *Store) Backup(w io.Writer) (n int64, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a consistent copy of the database to path, safely: to
// a temporary file beside it, synced, checked for damage like a file
// that Open opens, then renamed over path, so a crash never leaves a
// half-written backup under the final name and a damaged database never
// replaces a good backup. It fails with ErrInvalid, writing nothing, if
// path is the database file itself, by any name (a symbolic link, a linked
// folder, a hard link), or a folder, and with ErrDamaged, leaving path as
// it was, if the copy is damaged.
func (s *Store) BackupFile(path string) (int64, error) {
	return backupFile(s.db, s.path, s.file, path, s.checkTimeout)
}

// CopyFile backs up the database file src to dst like BackupFile, without
// opening it as a Store: it takes a shared lock (waiting at most timeout
// for a writer to let go; DefaultTimeout if timeout is not positive, as
// bbolt would wait for ever) and copies whatever schema version the file
// has, so a file can be saved before an upgrade touches it. Like
// BackupFile it refuses (ErrInvalid) a dst that is src by any name or a
// folder, and refuses (ErrDamaged) to copy a damaged file.
func CopyFile(src, dst string, timeout time.Duration) (int64, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	db, err := bolt.Open(src, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: true})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return 0, fmt.Errorf("%w: %s is locked (waited %v); is the bot running on it? It can back itself up while it runs", ErrLocked, src, timeout)
	}
	if errors.Is(err, bolterrors.ErrChecksum) {
		return 0, damaged(src, []string{"both meta pages fail their checksums"}, "the backup "+dst+" was not written")
	}
	if err != nil {
		return 0, fmt.Errorf("store: opening %s: %w", src, err)
	}
	defer db.Close()
	live, err := os.Stat(src)
	if err != nil {
		return 0, fmt.Errorf("store: opening %s: %w", src, err)
	}
	// The copy gets meta pages of its own, written from the one bbolt
	// chose: a damaged meta page of src would not show in the copy's
	// check, although Open refuses src for it.
	if problems, err := checkMetaHeaders(src, db.Info().PageSize); err != nil {
		return 0, fmt.Errorf("store: reading %s: %w", src, err)
	} else if len(problems) > 0 {
		return 0, damaged(src, problems, "the backup "+dst+" was not written")
	}
	return backupFile(guardedDB{DB: db, harm: new(harm)}, src, live, dst, 0)
}

// backupFile writes the database db, whose file is src (live, as opened),
// to path through a temporary file that is checked for damage, then
// renamed over path.
func backupFile(db guardedDB, src string, live os.FileInfo, path string, checkTimeout time.Duration) (n int64, err error) {
	if err := checkBackupTarget(live, path); err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%w: the folder %s for the backup %s does not exist", ErrInvalid, filepath.Dir(path), path)
	}
	if err != nil {
		return 0, fmt.Errorf("store: backup to %s: %w", path, err)
	}
	defer func() {
		if err != nil { // a half-written copy goes; err says why
			_ = f.Close()
			_ = os.Remove(f.Name())
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
		// The copy is checked, not the live file: it is what will be
		// restored one day, and checking it holds no lock on the live
		// one. Pages are copied as they are, so damage shows in both.
		var problems []string
		problems, err = checkFile(f.Name(), DefaultTimeout, checkTimeout)
		if len(problems) > 0 {
			_ = os.Remove(f.Name()) // the damage is the error to report
			return 0, damaged(src, problems, "the backup "+path+" was not written (a file already there is kept)")
		}
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

// checkBackupTarget refuses a backup path that is the live database or
// a folder. Names are compared as files, not as strings: through a
// symbolic link, a linked folder or a hard link, a path that looks
// different is still the live file, and renaming the copy over it would
// unlink the file the store goes on writing to — every move acknowledged
// after the backup would be lost at the next open.
func checkBackupTarget(live os.FileInfo, path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // a new file cannot be the live one
	case err != nil:
		return fmt.Errorf("store: backup to %s: %w", path, err)
	case os.SameFile(st, live):
		return fmt.Errorf("%w: the backup %s is the database file itself; write the backup to another file", ErrInvalid, path)
	case st.IsDir():
		return fmt.Errorf("%w: the backup %s is a folder; name a file in it, e.g. %s", ErrInvalid, path, filepath.Join(path, "iceage-backup.db"))
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir) // #nosec G304 -- the folder of a file this package writes, opened to sync it
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Check checks the database for damage as Open does: a consistent copy
// of it, written beside it in one read transaction (writers go on), goes
// through bbolt's consistency check and a walk of every record, in a
// child process, and is removed (so it needs room for a copy). It
// returns nil for a healthy file, an error wrapping ErrDamaged that says
// what was found and how to restore a backup (at once if the store met
// damage while running), or the error that kept it from copying.
func (s *Store) Check() error { return s.check(nil) }

// check is Check, stopped (errStopped) when stop is closed.
func (s *Store) check(stop <-chan struct{}) error {
	if err := s.db.harm.get(); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+".check*")
	if err != nil {
		return fmt.Errorf("store: checking %s: %w", s.path, err)
	}
	defer os.Remove(f.Name())
	_, err = s.Backup(stoppableWriter{f, stop})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil && stopped(stop) {
		return errStopped // bbolt's copy does not wrap the writer's error
	}
	if err != nil {
		return fmt.Errorf("store: checking %s: %w", s.path, err)
	}
	problems, err := checkFileExtent(f.Name(), DefaultTimeout, s.checkTimeout, checkWhole, stop)
	if len(problems) > 0 {
		return damaged(s.path, problems)
	}
	if errors.Is(err, errStopped) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: checking %s: %w", s.path, err)
	}
	return nil
}

// stopped reports whether stop is closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// stoppableWriter fails every write once stop is closed, so that a copy
// of the file in a read transaction ends when the store closes.
type stoppableWriter struct {
	w    io.Writer
	stop <-chan struct{}
}

func (w stoppableWriter) Write(p []byte) (int, error) {
	if stopped(w.stop) {
		return 0, errStopped
	}
	return w.w.Write(p)
}

// refusal marks an error that a write function returned before writing
// anything: the request was refused (conflict, illegal move, not found…).
// In a batch it must not fail the shared transaction, and so the batch
// does not rerun the other writers because of it.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

func refuse(err error) error { return refusal{err} }

func unrefuse(err error) error {
	var r refusal
	if errors.As(err, &r) {
		return r.err
	}
	return err
}
