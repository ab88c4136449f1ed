package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/iceagechess/iceage/play"
)

// Damage. bbolt trusts its file: a damaged page makes it index past a
// slice (a panic), follow a page number out of the memory-mapped file (a
// fault, which ends a Go program unless debug.SetPanicOnFault is on in the
// faulting goroutine), recurse along a cycle of pages (a stack overflow,
// which nothing recovers) or walk such a cycle for ever. So:
//
//   - Open checks an existing file before it opens it, in a child
//     process that runs this same program (see checkChildEnv): whatever
//     the damage does to the child, the caller gets an error, ErrDamaged,
//     that says how to restore a backup. The same check vets every backup
//     before it replaces anything, and Check uses it on a copy.
//   - Every transaction of an open Store runs guarded (guardedDB): a panic
//     or fault that bbolt, or this package reading what bbolt returned,
//     raises on a page damaged since the open becomes an ErrDamaged error,
//     and the store refuses to write from then on, so as not to spread
//     the damage.
//
// The check reads every page header (checkPageRuns), runs bbolt's own
// check (Tx.Check: every page reachable once or free, keys in order) and
// then walks the contents of a file of the current schema (an older one
// is migrated by Open, and judged after that, at the next Open): every
// record decodes and sits under its own key, every game's moves replay
// to its position, every game is in the bucket its outcome calls for
// (active or archive), every active game is the one its channel's entry
// names, and every index entry has the length of its kind and points at
// a record. bbolt has no checksums on data pages, so damage that leaves
// all of this consistent (a changed letter in a player's name) goes
// unseen; random damage does not.

// checkChildEnv names the file a child process is to check. It is read
// by this package's init, which runs the check and exits before the
// program's own code starts, so that any program linking the package (the
// bot, its tools, a test binary) can check a file in a copy of itself.
const checkChildEnv = "ICEAGE_STORE_CHECK_CHILD"

// checkLockEnv holds how long the child waits for the file's lock.
const checkLockEnv = "ICEAGE_STORE_CHECK_LOCK"

// checkExtentEnv says what the child checks: "start" for what a start
// needs (checkStart), anything else for the whole file.
const checkExtentEnv = "ICEAGE_STORE_CHECK_EXTENT"

// checkExtent is how much of a file a check reads.
type checkExtent int

const (
	// checkWhole is every page and every record.
	checkWhole checkExtent = iota
	// checkStart is what the bot needs to start and to serve: bbolt's
	// free list (which a read-write open reads), and every bucket but
	// the ones that grow with the archive (deferredBuckets), pages and
	// records. The archive is left to the whole check, which Open runs
	// in the background.
	checkStart
)

// deferredBuckets are the buckets that grow with the number of finished
// games, which checkStart leaves to the check in the background: the
// archive, its indexes and the players' logs. No act on an active game
// reads them.
var deferredBuckets = [][]byte{bucketArchive, bucketFinished, bucketUserArch, bucketGuildArch, bucketLog}

func deferred(name []byte) bool {
	for _, d := range deferredBuckets {
		if bytes.Equal(name, d) {
			return true
		}
	}
	return false
}

// Exit statuses of the child, and the lines it prints: "damage: …" for
// each problem (after at most maxProblems, "damage: and N more problems"),
// or "error: …" when it could not open the file.
const (
	childHealthy  = 0
	childDamaged  = 1
	childLocked   = 3
	childOpenFail = 4
)

// maxProblems is how many problems a check reports; a badly damaged file
// has thousands, and the first few say enough.
const maxProblems = 12

// DefaultCheckTimeout is how long Open, Check and the backups give the
// damage check of a file, and a second more per megabyte, before they
// judge it damaged: bbolt can walk a cycle of damaged pages for ever. A
// healthy file of 100,000 games (80 MB) is checked whole in a few
// seconds, one of a million in under a minute.
const DefaultCheckTimeout = 2 * time.Minute

// childMemoryBase and the file's size bound the heap of the checking
// child: a damaged overflow count makes bbolt's check mark billions of
// pages reachable, and a cycle of pages makes a cursor's stack grow
// without end; the host should not lose its memory to a check. A healthy
// check needs a few bytes per page and a record at a time.
const childMemoryBase = 512 << 20

func init() {
	path, ok := os.LookupEnv(checkChildEnv)
	if !ok {
		return
	}
	lock, _ := time.ParseDuration(os.Getenv(checkLockEnv))
	scope := checkWhole
	if os.Getenv(checkExtentEnv) == "start" {
		scope = checkStart
	}
	os.Exit(checkChild(path, lock, scope, os.Stdout))
}

// checkChild is the child's work: check the file at path and report on w.
// It returns the exit status.
func checkChild(path string, lock time.Duration, scope checkExtent, w io.Writer) int {
	// A cycle of pages that bbolt follows recursively overflows the stack;
	// a small limit makes that a quick crash rather than a gigabyte.
	debug.SetMaxStack(64 << 20)
	limit := uint64(childMemoryBase)
	if st, err := os.Stat(path); err == nil {
		limit += uint64(st.Size())
	}
	go func() {
		var m runtime.MemStats
		for range time.Tick(50 * time.Millisecond) {
			if runtime.ReadMemStats(&m); m.HeapAlloc > limit {
				fmt.Fprintf(w, "damage: the check used more than %d MB of memory, as damaged page counts make it do\n", limit>>20)
				os.Exit(childDamaged)
			}
		}
	}()
	if lock <= 0 {
		lock = DefaultTimeout
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: lock, ReadOnly: true})
	if errors.Is(err, bolterrors.ErrTimeout) {
		fmt.Fprintln(w, "error: locked")
		return childLocked
	}
	if errors.Is(err, bolterrors.ErrChecksum) {
		fmt.Fprintln(w, "damage: both meta pages fail their checksums")
		return childDamaged
	}
	if err != nil {
		fmt.Fprintln(w, "error:", err)
		return childOpenFail
	}
	defer db.Close()
	problems := checkDB(db, scope)
	for _, p := range problems {
		fmt.Fprintln(w, "damage:", p)
	}
	if len(problems) > 0 {
		return childDamaged
	}
	return childHealthy
}

// checkDB runs the check of scope on db and returns its problems, at
// most maxProblems and a last line that counts the rest.
func checkDB(db *bolt.DB, scope checkExtent) []string {
	var r report
	err := db.View(func(tx *bolt.Tx) error {
		if v, err := schemaOf(tx); scope == checkStart && (err != nil || v != schemaVersion || converting(tx)) {
			// A file that Open is about to migrate, or that is not
			// ours: the migration reads every record, the archive's
			// too, which must not meet damaged pages in the bot.
			scope = checkWhole
		}
		if scope == checkStart {
			checkStartPages(tx, &r)
		} else {
			if checkPageRuns(db.Path(), db.Info().PageSize, tx.Size(), &r); len(r.lines) > 0 {
				return nil
			}
			for e := range tx.Check() {
				r.add("%v", e)
			}
		}
		if len(r.lines) == 0 {
			// Walking the contents of a file whose pages are wrong would
			// only repeat bbolt's findings, or fault on them.
			checkContents(tx, scope, &r)
		}
		return nil
	})
	if err != nil {
		r.add("reading the file: %v", err)
	}
	return r.done()
}

// checkStartPages runs bbolt's check on the pages of every bucket but the
// deferred ones, after reading their every key and value: a page that
// faults or loops does so here, in the child. bbolt's check of a subtree
// also reads the free list. Its cost is the size of those buckets, not of
// the file.
func checkStartPages(tx *bolt.Tx, r *report) {
	// The walks are the check: what they meet shows as a fault or a
	// panic, or in bbolt's check, not as an error of theirs.
	_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if deferred(name) {
			return nil
		}
		_ = b.ForEach(func(k, v []byte) error { return nil })
		if root := b.RootPage(); root != 0 {
			for e := range tx.Check(bolt.WithPageId(uint64(root))) {
				r.add("bucket %s: %v", name, e)
			}
		}
		return nil
	})
}

// checkPageRuns reads the header of every page below the high-water mark
// (size, in bytes) and reports a page whose run of overflow pages goes
// past it. bbolt's check marks every page of a run as reachable, one map
// entry each, so a damaged overflow count keeps it busy for billions of
// steps. A page bbolt wrote names itself in its header; the other pages
// (the rest of a run, or garbage) are skipped. This reads bbolt's page
// header as laid out on disk: id uint64, flags uint16, count uint16,
// overflow uint32, little-endian.
func checkPageRuns(path string, pageSize int, size int64, r *report) {
	f, err := os.Open(path) // #nosec G304 -- the database file being checked, named by the operator
	if err != nil {
		r.add("reading the pages: %v", err)
		return
	}
	defer f.Close()
	pages := uint64(size / int64(pageSize))
	br := bufio.NewReaderSize(f, 1<<20)
	page := make([]byte, pageSize)
	for id := uint64(0); id < pages; id++ {
		if _, err := io.ReadFull(br, page); err != nil {
			r.add("reading page %d: %v", id, err)
			return
		}
		if id < 2 || binary.LittleEndian.Uint64(page) != id {
			continue // the meta pages, or no page header
		}
		if overflow := uint64(binary.LittleEndian.Uint32(page[12:])); id+overflow >= pages {
			r.add("page %d: its %d overflow pages run past the last page, %d", id, overflow, pages-1)
		}
	}
}

// checkMetaHeaders reports a meta page (pages 0 and 1) whose header does
// not name it: bbolt asserts that, and dies, when it reads the page for a
// check or a write, while a read-only open that finds the other meta page
// sound goes on without a word. The header's id is its first 8 bytes,
// little-endian, as checkPageRuns reads it.
func checkMetaHeaders(path string, pageSize int) ([]string, error) {
	f, err := os.Open(path) // #nosec G304 -- the database file being copied, named by the operator
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var problems []string
	head := make([]byte, 8)
	for id := range uint64(2) {
		if _, err := f.ReadAt(head, int64(id)*int64(pageSize)); err != nil {
			return nil, err
		}
		if got := binary.LittleEndian.Uint64(head); got != id {
			problems = append(problems, fmt.Sprintf("meta page %d names itself page %d", id, got))
		}
	}
	return problems, nil
}

// report collects problems.
type report struct {
	lines []string
	more  int
}

func (r *report) add(format string, args ...any) {
	if len(r.lines) < maxProblems {
		r.lines = append(r.lines, strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " "))
	} else {
		r.more++
	}
}

func (r *report) done() []string {
	if r.more > 0 {
		return append(r.lines, fmt.Sprintf("and %d more problems", r.more))
	}
	return r.lines
}

// checkContents walks every bucket this schema knows and checks that the
// records decode under their own keys, that games replay to their
// positions, and that index entries point at records. Buckets an older
// schema lacks are skipped.
//
// Of scope checkStart, it leaves out the deferred buckets and the index
// entries that point into them.
func checkContents(tx *bolt.Tx, scope checkExtent, r *report) {
	// Read every key and value of every bucket, known or not: a damaged
	// overflow page shows here as a fault or a panic, in the child.
	// The walk is the check: what it meets shows as a fault or a
	// panic, not as an error (its functions return none).
	_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if scope == checkStart && deferred(name) {
			return nil
		}
		return b.ForEach(func(k, v []byte) error { return nil })
	})
	if v, err := schemaOf(tx); err != nil || v != schemaVersion {
		// Not an iceage file, one of a newer program, or one of an older
		// schema that Open is about to migrate: Open says so itself, and
		// its records are not this walk's to judge.
		return
	}
	has := func(bucket, key []byte) bool {
		b := tx.Bucket(bucket)
		return b != nil && b.Get(key) != nil
	}
	each := func(bucket []byte, fn func(k, v []byte)) {
		if scope == checkStart && deferred(bucket) {
			return
		}
		if b := tx.Bucket(bucket); b != nil {
			_ = b.ForEach(func(k, v []byte) error { fn(k, v); return nil }) // the function never fails
		}
	}
	channels := map[uint64]string{} // active games: id → channel
	// Every kind of record is decoded, so that a backup that passes
	// holds no record that cannot be read.
	for _, kind := range play.RecordKinds() {
		switch kind {
		case play.KindGame:
			each(bucketActive, func(k, v []byte) {
				var g play.Game
				if !checkRecord(r, fmt.Sprintf("the active game under key %x", k), v, &g) {
					return
				}
				if !bytes.Equal(k, u64(g.ID)) {
					r.add("the active game under key %x says its id is %d", k, g.ID)
				}
				if g.Over() {
					r.add("game %d is over (%v) but among the active games", g.ID, g.Outcome.Reason)
				}
				replaysTo(r, &g, v)
				channels[g.ID] = g.Channel
				// The channel's entry is how play finds an active game: one
				// missing or naming another game loses this one.
				if v := tx.Bucket(bucketChannels).Get([]byte(g.Channel)); !bytes.Equal(v, k) {
					r.add("the active game %d is in channel %q, whose entry names %x instead", g.ID, g.Channel, v)
				}
			})
			each(bucketArchive, func(k, v []byte) {
				var g play.Game
				if !checkRecord(r, fmt.Sprintf("the archived game under key %x", k), v, &g) {
					return
				}
				if !bytes.Equal(k, u64(g.ID)) {
					r.add("the archived game under key %x says its id is %d", k, g.ID)
				}
				if !g.Over() {
					r.add("game %d goes on but is in the archive", g.ID)
				}
				replaysTo(r, &g, v)
			})
			each(bucketChannels, func(k, v []byte) {
				if len(v) != 8 || channels[binary.BigEndian.Uint64(v)] != string(k) {
					r.add("channel %q points at %x, which is no active game in that channel", k, v)
				}
			})
		case play.KindChallenge:
			each(bucketChallenges, func(k, v []byte) {
				var c play.Challenge
				if checkRecord(r, fmt.Sprintf("the challenge under key %x", k), v, &c) && !bytes.Equal(k, u64(c.ID)) {
					r.add("the challenge under key %x says its id is %d", k, c.ID)
				}
			})
		case play.KindPlayer:
			each(bucketPlayers, func(k, v []byte) { checkRecord(r, fmt.Sprintf("the player %q", k), v, new(play.Player)) })
		case play.KindLogEntry:
			var d logDecoder
			each(bucketLog, func(k, v []byte) {
				if _, err := exportLogEntry(&d, k, v); err != nil && !errors.Is(err, ErrNewerSchema) {
					r.add("%s", strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": "))
				}
			})
		case play.KindStats:
			each(bucketStats, func(k, v []byte) { checkRecord(r, fmt.Sprintf("the statistics %q", k), v, new(play.Stats)) })
		case play.KindPrefs:
			each(bucketPrefs, func(k, v []byte) { checkRecord(r, fmt.Sprintf("the preferences of %q", k), v, new(play.Prefs)) })
		case play.KindServer:
			each(bucketServers, func(k, v []byte) {
				checkRecord(r, fmt.Sprintf("the settings record of server %q", k), v, new(play.ServerSettings))
			})
		case play.KindTournament:
			each(bucketTournaments, func(k, v []byte) {
				var t play.TournamentRecord
				if err := json.Unmarshal(v, &t); err != nil || !bytes.Equal(k, u64(t.ID)) {
					r.add("the tournament under key %x does not decode", k)
				}
			})
		case play.KindOutbox:
			each(bucketOutbox, func(k, v []byte) {
				var it play.OutboxItem
				if err := json.Unmarshal(v, &it); err != nil || it.Key != string(k) {
					r.add("the outbox item %q does not decode", k)
				}
			})
		case play.KindPuzzler, play.KindPuzzleStats, play.KindDailyPuzzle:
			checkPuzzles(kind, r, each)
		case play.KindLessons:
			each(bucketLessons, func(k, v []byte) {
				checkRecord(r, fmt.Sprintf("the lesson progress of %q", k), v, new(play.LessonProgress))
			})
		default:
			r.add("this program cannot check the %v records", kind)
		}
	}

	// Index entries, each pointing at a record by the id that ends its key.
	// Keys are a time and an id, an id alone, or an owner, NUL and an id.
	timeID := func(k []byte) ([]byte, bool) { return k[min(8, len(k)):], len(k) == 16 }
	id := func(k []byte) ([]byte, bool) { return k, len(k) == 8 }
	afterOwner := func(k []byte) ([]byte, bool) {
		i := bytes.IndexByte(k, 0)
		return k[i+1:], i > 0 && len(k)-i-1 == 8
	}
	for _, ix := range []struct {
		bucket, target []byte
		ref            func(k []byte) ([]byte, bool)
	}{
		{bucketDeadlines, bucketActive, timeID},
		{bucketReminders, bucketActive, timeID},
		{bucketExpiries, bucketChallenges, timeID},
		{bucketUserGames, bucketActive, afterOwner},
		{bucketGuildGames, bucketActive, afterOwner},
		{bucketFinished, bucketArchive, id},
		{bucketUserArch, bucketArchive, afterOwner},
		{bucketGuildArch, bucketArchive, afterOwner},
		{bucketChallUsers, bucketChallenges, afterOwner},
	} {
		if scope == checkStart && deferred(ix.target) {
			continue
		}
		each(ix.bucket, func(k, _ []byte) {
			if ref, ok := ix.ref(k); !ok || !has(ix.target, ref) {
				r.add("the index %s has an entry %q for a record that %s does not hold", ix.bucket, k, ix.target)
			}
		})
	}
}

// checkRecord decodes a record, reporting a failure; the version is not
// judged here (a newer record is refused when read, not damaged).
func checkRecord(r *report, what string, v []byte, into any) bool {
	err := play.DecodeRecord(v, into)
	switch {
	case errors.Is(err, play.ErrNewerRecord):
		return false
	case err != nil:
		r.add("%s does not decode: %v", what, strings.TrimPrefix(err.Error(), play.ErrCorrupt.Error()+": "))
		return false
	}
	return true
}

// replaysTo replays a game's moves and compares the position reached with
// the one stored. A record v whose position is the one its moves reach
// by construction (play.GameRecordDerivesFEN), decoded, was replayed
// already: only an outcome that no end of a game can have is left to
// judge, which the board may have decided itself.
func replaysTo(r *report, g *play.Game, v []byte) {
	if play.GameRecordDerivesFEN(v) && (!g.Over() || g.Outcome.Valid()) {
		return
	}
	m, err := g.Match()
	if err != nil {
		// play's error names the game already ("game 7 does not replay:
		// …"); its "damaged record" prefix would only repeat the verdict.
		r.add("%s", strings.TrimPrefix(err.Error(), play.ErrCorrupt.Error()+": "))
		return
	}
	if fen := m.FEN(); fen != g.FEN {
		r.add("game %d replays to %s, but its record says %s", g.ID, fen, g.FEN)
	}
}

// checkTimeout is DefaultCheckTimeout, a variable so that the tests of
// damaged files need not wait two minutes for a check that loops.
var checkTimeout = DefaultCheckTimeout

// checkFile checks the database file at path for damage, in a child
// process running this program, and returns what it found wrong: nothing
// for a healthy file. A child that crashes or runs out of time found the
// file damaged. The error is ErrLocked (wrapped) if another process holds
// the file for writing (after waiting lock), or errNotChecked (wrapped)
// when the child could not open the file at all: the caller's own open
// then says why.
func checkFile(path string, lock, timeout time.Duration) ([]string, error) {
	return checkFileExtent(path, lock, timeout, checkWhole, nil)
}

// errStopped: the check was stopped (the store closed) before it was done.
var errStopped = errors.New("store: the check was stopped")

// checkFileExtent is checkFile of an extent, stopped (killed, errStopped)
// when stop is closed. A check that can be stopped runs in the background
// while the bot serves: its child runs at a lower priority, so as not to
// take the bot's share of the processors.
func checkFileExtent(path string, lock, timeout time.Duration, scope checkExtent, stop <-chan struct{}) ([]string, error) {
	if timeout <= 0 {
		timeout = checkTimeout
		// A healthy file takes about a second per 20 MB, more on a
		// busy machine: a large one gets a second per megabyte more.
		if st, err := os.Stat(path); err == nil {
			timeout += time.Duration(st.Size()>>20) * time.Second
		}
	}
	exe, err := os.Executable()
	if err != nil {
		// No copy of this program to run: check in this process, where
		// most damage shows as panics that bbolt recovers, but a fault
		// or a cycle of pages would still end the process.
		return checkInProcess(path, lock, scope)
	}
	scopeName := "whole"
	if scope == checkStart {
		scopeName = "start"
	}
	cmd := exec.Command(exe) // #nosec G204 -- this very program (os.Executable), run as the checking child
	cmd.Env = append(os.Environ(), checkChildEnv+"="+path, checkLockEnv+"="+lock.String(), checkExtentEnv+"="+scopeName,
		// A race-detector build (the tests under -race) would otherwise
		// wait a second at exit for reports from other threads.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limitedWriter{&stdout, 64 << 10}, &limitedWriter{&stderr, 64 << 10}
	if err := cmd.Start(); err != nil {
		return checkInProcess(path, lock, scope)
	}
	if stop != nil {
		lowerPriority(cmd.Process.Pid)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-time.After(timeout + lock):
		_ = cmd.Process.Kill() // if it ended meanwhile, done says so
		<-done                 //nolint:errcheck // killed: its exit error says nothing more
		return []string{fmt.Sprintf("the check did not finish within %v, as when bbolt walks a cycle of damaged pages", timeout)}, nil
	case <-stop:
		_ = cmd.Process.Kill() // if it ended meanwhile, done says so
		<-done                 //nolint:errcheck // killed: its exit error says nothing more
		return nil, errStopped
	}
	var problems []string
	var openErr string
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "damage: "); ok {
			problems = append(problems, p)
		} else if e, ok := strings.CutPrefix(line, "error: "); ok {
			openErr = e
		}
	}
	code := cmd.ProcessState.ExitCode()
	switch {
	case waitErr == nil:
		return nil, nil
	case code == childDamaged && len(problems) > 0:
		return problems, nil
	case code == childLocked:
		return nil, fmt.Errorf("%w: %s is locked (waited %v); is the bot already running on it?", ErrLocked, path, lock)
	case code == childOpenFail:
		return nil, fmt.Errorf("%w: %s", errNotChecked, openErr)
	}
	return []string{"the check crashed reading it (" + crashLine(stderr.String(), cmd.ProcessState) + "), as bbolt does on a damaged page"}, nil
}

// errNotChecked means the check could not open the file at all.
var errNotChecked = errors.New("store: the file could not be checked")

// checkInProcess is checkFile without a child process.
func checkInProcess(path string, lock time.Duration, scope checkExtent) (problems []string, err error) {
	if lock <= 0 {
		lock = DefaultTimeout
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: lock, ReadOnly: true})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s is locked (waited %v); is the bot already running on it?", ErrLocked, path, lock)
	case errors.Is(err, bolterrors.ErrChecksum):
		return []string{"both meta pages fail their checksums"}, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %v", errNotChecked, err)
	}
	defer db.Close()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			problems = append(problems, fmt.Sprintf("the check panicked reading it (%v)", r))
		}
	}()
	return checkDB(db, scope), nil
}

// crashLine picks from a crashed child's standard error the line that
// says what happened, e.g. "unexpected fault address 0x7f…" or "panic:
// runtime error: slice bounds out of range".
func crashLine(stderr string, st *os.ProcessState) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") ||
			strings.HasPrefix(line, "unexpected fault address") || strings.HasPrefix(line, "runtime: ") {
			return strings.TrimSpace(line)
		}
	}
	return st.String()
}

// damaged returns the error for a damaged file: what the check found,
// what was not done because of it (note, may be empty) and how to
// restore a backup.
func damaged(path string, problems []string, note ...string) error {
	done := strings.Join(append([]string{strings.Join(problems, "; ")}, note...), "; ")
	return fmt.Errorf("%w: %s: %s. Restore a backup: stop the bot, move the damaged file aside (keep it for inspection), "+
		"copy the newest backup (as 'iceage backup -o FILE' or the bot's own backups make them) to %s, and start again; "+
		"moves made since that backup are lost", ErrDamaged, path, done, path)
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// guardedDB is the Store's bbolt database with every transaction guarded:
// see the Damage comment above. The guard costs a deferred call and two
// runtime calls per transaction, nothing per read inside it.
type guardedDB struct {
	*bolt.DB
	harm *harm
}

// harm remembers the first damage a transaction met.
type harm struct{ err atomic.Pointer[error] }

func (h *harm) get() error {
	if p := h.err.Load(); p != nil {
		return *p
	}
	return nil
}

// View runs a read transaction, guarded.
func (d guardedDB) View(fn func(*bolt.Tx) error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer d.catch(&err)
	return d.DB.View(fn)
}

// Update runs a read-write transaction, guarded; once damage was met it
// refuses with that damage instead.
func (d guardedDB) Update(fn func(*bolt.Tx) error) (err error) {
	if err := d.harm.get(); err != nil {
		return err
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer d.catch(&err)
	return d.DB.Update(fn)
}

// catch turns a panic raised by bbolt or by this package into an error
// wrapping ErrDamaged and records the damage. A panic raised in a
// caller's function (the one given to Update or View, or play's code
// that it calls) is not the file's fault and goes on. It must be
// deferred directly.
func (d guardedDB) catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if !raisedByStorage() {
		panic(r)
	}
	e := fmt.Errorf("%w: reading %s failed (%v): the file is damaged since it was opened. Stop the bot and restart it: "+
		"the check at the start tells what to restore", ErrDamaged, d.Path(), r)
	d.harm.err.CompareAndSwap(nil, &e)
	*err = e
}

// The packages whose panics mean damage: bbolt's (and its internal
// packages) and this one.
var (
	bboltPkg = reflect.TypeOf(bolt.DB{}).PkgPath()
	storePkg = reflect.TypeOf(Store{}).PkgPath()
)

// raisedByStorage reports whether the panic being recovered was raised
// in bbolt or in this package: the first frame of the panicking stack
// outside the runtime and the standard library (encoding/binary indexing
// a short key, for one) belongs to one of them. It must be called by the
// deferred function that recovers.
func raisedByStorage() bool {
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:]) // above this, catch and the deferring call
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		pkg := funcPackage(f.Function)
		switch {
		case pkg == "runtime" || strings.HasPrefix(pkg, "runtime/") || pkg == "":
		case !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") && pkg != "main":
			// The standard library: look at its caller.
		default:
			return pkg == storePkg || pkg == bboltPkg || strings.HasPrefix(pkg, bboltPkg+"/")
		}
		if !more {
			return false
		}
	}
}

// funcPackage returns the import path of a function's package, from the
// name runtime.Frame gives it ("go.etcd.io/bbolt/internal/common.(*Page).Meta").
func funcPackage(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return fn[:slash+1+dot]
}

// Damage returns the damage a transaction met since the store was
// opened (an error wrapping ErrDamaged), or nil: for a health check,
// which should say so without waiting for the next write to refuse.
func (s *Store) Damage() error { return s.db.harm.get() }
