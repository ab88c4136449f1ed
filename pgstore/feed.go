package pgstore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// Every write of a game notifies the schema's channel (NOTIFY, sent
// with the commit and never for a transaction rolled back), so that the
// processes that share the database each follow every game (play.Feed).
// The payload is the game's id, its revision and, when it fits the
// payload's limit of 8000 bytes, its record in base64: a listener needs
// no read for nearly every game.

var _ play.Feed = (*Store)(nil)

// maxPayload is the longest notification PostgreSQL sends (its limit is
// 8000 bytes, less than that).
const maxPayload = 7999

// The listener's timings: it checks a quiet connection with a ping this
// often, and waits this long (doubling to the most) before it connects
// again after a failure.
var (
	listenPing      = 30 * time.Second
	listenRetry     = 100 * time.Millisecond
	listenRetryMost = 5 * time.Second
)

// nameChannel names the channel of the schema's notifications: schemas
// of one database (tests, several bots on one server) hear none of each
// other's games. A channel name has at most 63 bytes.
func (s *Store) nameChannel(ctx context.Context) error {
	var schema string
	if err := s.pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return fmt.Errorf("pgstore: reading the schema's name: %w", err)
	}
	s.notify = channelName(schema)
	return nil
}

func channelName(schema string) string {
	name := "iceage.games." + schema
	if len(name) > 63 {
		sum := sha256.Sum256([]byte(schema))
		name = "iceage.games." + hex.EncodeToString(sum[:16])
	}
	return name
}

// notification returns the payload that tells of g, stored as rec.
func notification(g *play.Game, rec []byte) string {
	head := strconv.FormatUint(g.ID, 10) + " " + strconv.Itoa(g.Revision)
	if len(head)+1+base64.StdEncoding.EncodedLen(len(rec)) > maxPayload {
		return head
	}
	return head + " " + base64.StdEncoding.EncodeToString(rec)
}

// parseNotification reads a payload that notification wrote.
func parseNotification(p string) (play.Committed, error) {
	f := strings.SplitN(p, " ", 3)
	if len(f) < 2 {
		return play.Committed{}, fmt.Errorf("pgstore: a notification %.40q", p)
	}
	id, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return play.Committed{}, fmt.Errorf("pgstore: a notification's game %.40q", f[0])
	}
	rev, err := strconv.Atoi(f[1])
	if err != nil {
		return play.Committed{}, fmt.Errorf("pgstore: a notification's revision %.40q", f[1])
	}
	c := play.Committed{Game: id, Revision: rev}
	if len(f) == 3 {
		if c.Record, err = base64.StdEncoding.DecodeString(f[2]); err != nil {
			return play.Committed{Game: id, Revision: rev}, nil // read it instead
		}
	}
	return c, nil
}

// feeds are the functions that Feed registered, and the listener that
// calls them while there are any.
type feeds struct {
	mu     sync.Mutex
	fns    map[int]func([]play.Committed, bool)
	next   int
	stop   context.CancelFunc // stops the listener; nil when none runs
	done   chan struct{}      // closed when the listener has stopped
	closed bool
}

func (f *feeds) tell(games []play.Committed, lost bool) {
	f.mu.Lock()
	fns := make([]func([]play.Committed, bool), 0, len(f.fns))
	for _, fn := range f.fns {
		fns = append(fns, fn)
	}
	f.mu.Unlock()
	for _, fn := range fns {
		fn(games, lost)
	}
}

// close stops the listener, for good (Store.Close).
func (f *feeds) close() {
	f.mu.Lock()
	f.closed = true
	stop, done := f.stop, f.done
	f.stop = nil
	f.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// Feed implements play.Feed for every process on the database: a
// listener on a connection of its own hears the notifications of every
// game written in the schema, this process's included, in the order of
// their commits, and calls fn with each. fn is first called with lost
// true once the listener listens, and again after each reconnection.
func (s *Store) Feed(fn func(games []play.Committed, lost bool)) (stop func()) {
	f := &s.feeds
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fns == nil {
		f.fns = map[int]func([]play.Committed, bool){}
	}
	n := f.next
	f.next++
	f.fns[n] = fn
	if f.stop == nil && !f.closed {
		ctx, cancel := context.WithCancel(context.Background())
		f.stop, f.done = cancel, make(chan struct{})
		go s.listen(ctx, f.done)
	}
	return func() {
		f.mu.Lock()
		delete(f.fns, n)
		var stop context.CancelFunc
		var done chan struct{}
		if len(f.fns) == 0 {
			stop, done = f.stop, f.done
			f.stop = nil
		}
		f.mu.Unlock()
		if stop != nil {
			stop()
			<-done
		}
	}
}

// listen listens until ctx ends, connecting again after each failure.
func (s *Store) listen(ctx context.Context, done chan struct{}) {
	defer close(done)
	wait := listenRetry
	for {
		heard, _ := s.listenOnce(ctx) // the next try is the answer to any error
		if heard {
			wait = listenRetry
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, listenRetryMost)
	}
}

// listenOnce listens on one connection until it fails or ctx ends;
// heard reports that it listened.
func (s *Store) listenOnce(ctx context.Context) (heard bool, err error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.notify}.Sanitize()); err != nil {
		return false, err
	}
	// Whatever was written before this instant was not heard.
	s.feeds.tell(nil, true)
	for {
		wctx, cancel := context.WithTimeout(ctx, listenPing)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			// Quiet: make sure the connection still stands.
			pctx, cancel := context.WithTimeout(ctx, DefaultConnectTimeout)
			err = conn.Ping(pctx)
			cancel()
			if err != nil {
				return true, err
			}
			continue
		}
		if err != nil {
			return true, err
		}
		if c, err := parseNotification(n.Payload); err == nil {
			s.feeds.tell([]play.Committed{c}, false)
		}
	}
}
