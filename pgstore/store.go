package pgstore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/iceagechess/iceage/play"
)

// Options tune Open. The zero value (or nil) gives the defaults.
type Options struct {
	// MaxConns bounds the pool's connections. Default: pgxpool's (the
	// larger of 4 and the number of CPUs).
	MaxConns int32
	// Retries is how many times Update runs a transaction again after it
	// lost a race (a serialization failure or a deadlock) before giving
	// up with that error. Default 20.
	Retries int
	// TxTimeout is the most one Update or View may take, waiting for a
	// connection and the server included, so that a stalled database
	// fails an act quickly rather than hanging it. Default
	// DefaultTxTimeout.
	TxTimeout time.Duration
}

// The database's time limits. A connection string may set its own
// connect_timeout and statement_timeout; these apply where it does not.
const (
	// DefaultConnectTimeout bounds opening one connection.
	DefaultConnectTimeout = 5 * time.Second
	// DefaultStatementTimeout is the server's limit on one statement,
	// row locks waited for included.
	DefaultStatementTimeout = 5 * time.Second
	// DefaultTxTimeout is Options.TxTimeout's default: Discord waits
	// three seconds for an interaction's first answer, and an apology
	// must fit in them.
	DefaultTxTimeout = 2 * time.Second
	// idleInTransaction is how long the server keeps a transaction whose
	// client went silent, holding its row locks.
	idleInTransaction = time.Minute
)

// Store is a play.Storage on a PostgreSQL database, shared by any number
// of processes. Its methods are safe for concurrent use.
type Store struct {
	pool      *pgxpool.Pool
	retries   int
	txTimeout time.Duration
	brk       breaker // breaker.go
	// notify is the channel of the notifications of the schema's game
	// writes, notes their sender, and feeds the listener that hears them
	// (feed.go).
	notify string
	notes  notifier
	feeds  feeds
}

var _ play.Storage = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or a
// key=value connection string; its search_path, if any, chooses the
// schema), brings its schema up to date, and returns the Store. It fails
// with ErrNewerSchema if the schema comes from a newer program, and with
// a wrapped connection error if the database cannot be reached.
// Connections get DefaultConnectTimeout and DefaultStatementTimeout
// unless url sets connect_timeout or statement_timeout.
func Open(ctx context.Context, url string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Retries <= 0 {
		o.Retries = 20
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("pgstore: the database URL: %w", err)
	}
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	if o.TxTimeout <= 0 {
		o.TxTimeout = DefaultTxTimeout
	}
	if cfg.ConnConfig.ConnectTimeout <= 0 {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	params := cfg.ConnConfig.RuntimeParams
	for name, d := range map[string]time.Duration{"statement_timeout": DefaultStatementTimeout,
		"idle_in_transaction_session_timeout": idleInTransaction} {
		if _, set := params[name]; !set {
			params[name] = strconv.FormatInt(d.Milliseconds(), 10)
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgstore: connecting: %w", err)
	}
	s := &Store{pool: pool, retries: o.Retries, txTimeout: o.TxTimeout, brk: breaker{stop: make(chan struct{})}}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := s.nameChannel(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	s.notes.s = s
	return s, nil
}

// Close closes the pool's connections. It waits for those in use.
func (s *Store) Close() {
	s.brk.close.Do(func() { close(s.brk.stop) })
	s.feeds.close()
	s.notes.close()
	s.pool.Close()
}

// Pool returns the connection pool, for tools and tests.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one file of migrations/, named NNNN_what.sql: it takes
// the schema from version NNNN-1 to NNNN.
type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var ms []migration
	for i, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		n, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || n != i+1 {
			return nil, fmt.Errorf("pgstore: migration %s is out of sequence (want number %d)", name, i+1)
		}
		b, err := migrationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{n, base, string(b)})
	}
	return ms, nil
}

// SchemaVersion is the schema this program creates and expects.
var SchemaVersion = func() int {
	ms, err := migrations()
	if err != nil {
		panic(err)
	}
	return len(ms)
}()

// migrate applies the migrations the database lacks, in one transaction
// under an advisory lock, so that processes starting together apply each
// once. A schema newer than this program's is refused.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// A migration may rewrite a large table: no statement timeout
		// here, where another process's migration is waited for too.
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return fmt.Errorf("pgstore: lifting the statement timeout for migrations: %w", err)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('iceage:' || current_schema()))`); err != nil {
			return fmt.Errorf("pgstore: locking the schema: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
			version integer PRIMARY KEY,
			name    text NOT NULL,
			applied timestamptz NOT NULL DEFAULT now())`); err != nil {
			return fmt.Errorf("pgstore: the version table: %w", err)
		}
		var v int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
			return fmt.Errorf("pgstore: reading the schema version: %w", err)
		}
		if v > len(ms) {
			return fmt.Errorf("%w: schema version %d, this program knows up to %d", ErrNewerSchema, v, len(ms))
		}
		for _, m := range ms[v:] {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("pgstore: migration %s: %w", m.name, err)
			}
			if after := afterMigration[m.version]; after != nil {
				if err := after(ctx, tx); err != nil {
					return fmt.Errorf("pgstore: migration %s: %w", m.name, err)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
				return fmt.Errorf("pgstore: recording migration %s: %w", m.name, err)
			}
		}
		return nil
	})
}

// Update runs fn in one transaction and returns once it is committed, or
// returns fn's error with nothing written. The records fn reads by key
// (a game, a channel's game, a challenge, a player, stats, prefs) are
// locked until the commit (READ COMMITTED with FOR UPDATE): a concurrent
// transaction that reads one of them waits, then sees the committed
// change — so two acts on one game are decided one after the other, and
// the counters that every game's end updates are queued rather than
// fought over. A transaction that loses a race all the same (a
// deadlock, a channel or a record created meanwhile) is rolled back and
// run again, up to Options.Retries times, so fn may run more than once
// and must act only through tx.
func (s *Store) Update(ctx context.Context, fn func(tx play.Tx) error) (err error) {
	if err := s.stalled(); err != nil {
		return err
	}
	defer func() { s.observe(err) }()
	ctx, cancel := context.WithTimeout(ctx, s.txTimeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		err, again := s.update(ctx, fn)
		if !again || attempt >= s.retries || ctx.Err() != nil {
			return err
		}
		// Back off a random while, growing with the attempts, so that
		// transactions racing for one row do not collide again in step.
		wait := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 6))) // #nosec G404 -- jitter, not a secret
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// update runs fn once; again reports a lost race, to be run again.
func (s *Store) update(ctx context.Context, fn func(tx play.Tx) error) (err error, again bool) {
	ptx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("pgstore: beginning a transaction: %w", err), false
	}
	t := &txn{ctx: ctx, tx: ptx, writable: true}
	if err := fn(t); err != nil || t.lost != nil {
		_ = ptx.Rollback(context.WithoutCancel(ctx)) // fn's error is the one to report; a failed rollback ends the connection
		if t.lost != nil {
			return errors.Join(err, t.lost), true
		}
		return err, false
	}
	if err := ptx.Commit(ctx); err != nil {
		return fmt.Errorf("pgstore: committing: %w", err), retryable(err)
	}
	s.notes.send(t.notes)
	return nil, false
}

// View runs fn in one read-only REPEATABLE READ transaction: it sees one
// snapshot, while writers go on, and never fails for their sake.
func (s *Store) View(ctx context.Context, fn func(tx play.ReadTx) error) (err error) {
	if err := s.stalled(); err != nil {
		return err
	}
	defer func() { s.observe(err) }()
	ctx, cancel := context.WithTimeout(ctx, s.txTimeout)
	defer cancel()
	ptx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("pgstore: beginning a transaction: %w", err)
	}
	defer ptx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after a commit it does nothing; before, fn's error is the one to tell
	return fn(&txn{ctx: ctx, tx: ptx})
}
