package pgstore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// Every write of a game committed is notified on the schema's channel,
// so that the processes that share the database each follow every game
// (play.Feed). The payload is the game's id, its revision and, when it
// fits the payload's limit of 8000 bytes, its record in base64: a
// listener needs no read for nearly every game.
//
// The notifications are sent after the commit, by a sender of the
// process's own, in batches, on a connection whose commits do not wait
// for the disk: a NOTIFY in the act's transaction would hold
// PostgreSQL's one lock of notifying commits while the act's commit is
// flushed, and so put every act of every process in one line (a third
// of the moves per second with four processes). A process that dies
// between a commit and its notification leaves it untold: the
// listeners' receivers read the games they follow again now and then
// (see package stream).

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

// note is a notification to send once the transaction commits.
type note struct {
	game    uint64
	rev     int
	payload string
}

// note notes the write of g, stored as rec. A game written twice at one
// revision is told as last written.
func (t *txn) note(g *play.Game, rec []byte) {
	n := note{g.ID, g.Revision, notification(g, rec)}
	if k := len(t.notes); k > 0 && t.notes[k-1].game == g.ID && t.notes[k-1].rev == g.Revision {
		t.notes[k-1] = n
		return
	}
	t.notes = append(t.notes, n)
}

// noteTournament notes the write of tournament id, once a transaction.
// Its payload is "t" and its id: a game's starts with a digit.
func (t *txn) noteTournament(id uint64) {
	p := "t " + strconv.FormatUint(id, 10)
	for _, n := range t.notes {
		if n.game == 0 && n.payload == p {
			return
		}
	}
	t.notes = append(t.notes, note{payload: p})
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
	if f[0] == "t" {
		id, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil || id == 0 || len(f) > 2 {
			return play.Committed{}, fmt.Errorf("pgstore: a notification's tournament %.40q", p)
		}
		return play.Committed{Tournament: id}, nil
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
	fns    play.Feeders
	stop   context.CancelFunc // stops the listener; nil when none runs
	done   chan struct{}      // closed when the listener has stopped
	closed bool
}

func (f *feeds) tell(games []play.Committed, lost bool) {
	f.mu.Lock()
	fns := f.fns.List()
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
	n := f.fns.Add(fn)
	if f.stop == nil && !f.closed {
		ctx, cancel := context.WithCancel(context.Background())
		f.stop, f.done = cancel, make(chan struct{})
		go s.listen(ctx, f.done)
	}
	return func() {
		f.mu.Lock()
		left := f.fns.Remove(n)
		var stop context.CancelFunc
		var done chan struct{}
		if left == 0 {
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

// The sender's limits: the notifications it sends in one transaction,
// and those it keeps while the database does not answer (the oldest are
// dropped: the listeners read their games again in time).
const (
	notifyBatch = 500
	notifyQueue = 20000
)

// notifier sends the notifications of committed writes, in the order
// they were committed in this process.
type notifier struct {
	mu      sync.Mutex
	queue   []string
	running bool
	closed  bool
	s       *Store
	conn    *pgx.Conn
	wake    chan struct{}
	done    chan struct{}
}

// send queues the notes of a committed transaction.
func (n *notifier) send(notes []note) {
	if len(notes) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	for _, x := range notes {
		n.queue = append(n.queue, x.payload)
	}
	if over := len(n.queue) - notifyQueue; over > 0 {
		n.queue = n.queue[over:]
	}
	if !n.running {
		n.running = true
		n.wake, n.done = make(chan struct{}, 1), make(chan struct{})
		go n.run()
	}
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// run sends what is queued until the store closes.
func (n *notifier) run() {
	defer close(n.done)
	wait := listenRetry
	for {
		n.mu.Lock()
		k := min(len(n.queue), notifyBatch)
		batch := slices.Clone(n.queue[:k])
		n.queue = n.queue[k:]
		closed := n.closed
		n.mu.Unlock()
		if k == 0 {
			if closed {
				return
			}
			<-n.wake
			continue
		}
		if err := n.notify(batch); err != nil {
			if closed {
				return
			}
			n.mu.Lock()
			n.queue = append(batch, n.queue...)
			n.queue = n.queue[max(len(n.queue)-notifyQueue, 0):]
			n.mu.Unlock()
			select {
			case <-n.wake:
			case <-time.After(wait):
			}
			wait = min(2*wait, listenRetryMost)
			continue
		}
		wait = listenRetry
	}
}

// notify sends one batch in one transaction, on the sender's connection.
func (n *notifier) notify(batch []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultConnectTimeout)
	defer cancel()
	if n.conn == nil || n.conn.IsClosed() {
		cfg := n.s.pool.Config().ConnConfig.Copy()
		// A notification lost in a crash is read again in time; the
		// acts' commits are not to wait for it.
		cfg.RuntimeParams["synchronous_commit"] = "off"
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return err
		}
		n.conn = conn
	}
	_, err := n.conn.Exec(ctx, `SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS u(p, i) ORDER BY i`, n.s.notify, batch)
	if err != nil {
		_ = n.conn.Close(ctx)
		n.conn = nil
	}
	return err
}

// close sends what is queued (as far as the database answers) and stops.
func (n *notifier) close() {
	n.mu.Lock()
	n.closed = true
	running, done := n.running, n.done
	if running {
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
	n.mu.Unlock()
	if running {
		<-done
	}
	if n.conn != nil {
		_ = n.conn.Close(context.Background())
	}
}
