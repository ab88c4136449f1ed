package schedule_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/schedule/clocktest"
)

var t0 = time.Date(2027, 5, 3, 8, 0, 0, 0, time.UTC)

// notice is one thing the scheduler told the players, as a line a test
// can compare: "remind 1 w 24h at <clock>".
type notice struct {
	text string
	at   time.Time // the clock when told
	t    timeout
}

// timeout is what a timeout's board in the outbox says.
type timeout struct {
	Game play.Game
	Due  time.Time
	Late time.Duration
}

// recorder is a Notifier that keeps what it was told.
type recorder struct {
	clock *clocktest.Clock
	mu    sync.Mutex
	got   []notice
	added chan struct{}
}

func newRecorder(c *clocktest.Clock) *recorder {
	return &recorder{clock: c, added: make(chan struct{}, 1000)}
}

func (r *recorder) add(n notice) error {
	r.mu.Lock()
	n.at = r.clock.Now()
	r.got = append(r.got, n)
	r.mu.Unlock()
	r.added <- struct{}{}
	return nil
}

func (r *recorder) Remind(_ context.Context, m round.Reminder) error {
	return r.add(notice{text: fmt.Sprintf("remind %d %s %dh", m.Game.ID, m.To.ID, m.Hours)})
}

// timedOut notes a timeout's board, written in the outbox by the round.
func (r *recorder) timedOut(d round.Delivery) {
	for _, e := range d.Events {
		t, ok := e.(round.TimedOut)
		if !ok {
			continue
		}
		what := "lost"
		if t.Chooser != "" {
			what = "chooses " + t.Chooser
		}
		_ = r.add(notice{text: fmt.Sprintf("timeout %d %s", d.Game.ID, what), t: timeout{Game: d.Game, Due: t.Due, Late: t.Late}})
	}
}

// outboxWatch is a storage that shows the recorder the timeouts' boards
// the round writes in the outbox, once their transaction commits.
type outboxWatch struct {
	round.Storage
	rec *recorder
}

func (o outboxWatch) Update(ctx context.Context, fn func(play.Tx) error) error {
	var boards []round.Delivery
	err := o.Storage.Update(ctx, func(tx play.Tx) error {
		boards = boards[:0]
		return fn(watchTx{tx, &boards})
	})
	if err == nil {
		for _, d := range boards {
			o.rec.timedOut(d)
		}
	}
	return err
}

type watchTx struct {
	play.Tx
	boards *[]round.Delivery
}

func (t watchTx) PutOutbox(items ...play.OutboxItem) error {
	for _, it := range items {
		if it.Kind != round.KindBoard {
			continue
		}
		d, err := round.DecodeDelivery(it)
		if err != nil {
			return err
		}
		*t.boards = append(*t.boards, d)
	}
	return t.Tx.PutOutbox(items...)
}

// newRound is a round on svc; its storage keeps an outbox.
func newRound(tb testing.TB, svc *play.Service) *round.Round {
	tb.Helper()
	r, err := round.New(svc, round.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func (r *recorder) Expired(_ context.Context, e round.Expired) error {
	return r.add(notice{text: fmt.Sprintf("expired %d", e.Challenge.ID)})
}

func (r *recorder) texts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, n := range r.got {
		out = append(out, n.text)
	}
	return out
}

func (r *recorder) notices() []notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// world is a scheduler over a service on an in-memory storage, with a
// fake clock.
type world struct {
	t     *testing.T
	clock *clocktest.Clock
	st    *memstore.Memory
	sch   *schedule.Scheduler
	svc   *play.Service
	round *round.Round
	rec   *recorder
	stop  func()
	// timers counts the clock's timers already looked at.
	timers int
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newWorld(t *testing.T, opts play.Options) *world {
	t.Helper()
	w := &world{t: t, clock: clocktest.New(t0), st: memstore.New()}
	w.rec = newRecorder(w.clock)
	w.sch = schedule.New(schedule.Options{Clock: w.clock, Logger: quiet(), MaxSleep: 60 * 24 * time.Hour})
	if opts.Rand == nil {
		opts.Rand = func(int) int { return 0 }
	}
	w.setService(opts)
	return w
}

// setService gives w a service and its round, on its storage, watched by
// its scheduler.
func (w *world) setService(opts play.Options) {
	w.svc = play.New(w.sch.Watch(outboxWatch{w.st, w.rec}), opts)
	w.round = newRound(w.t, w.svc)
}

// run starts the scheduler and waits until it sleeps.
func (w *world) run() {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.sch.Run(ctx, w.round, w.rec) }()
	w.stop = func() {
		cancel()
		if err := <-done; err != nil {
			w.t.Errorf("Run: %v", err)
		}
		w.stop = nil
	}
	w.t.Cleanup(func() {
		if w.stop != nil {
			w.stop()
		}
	})
	w.asleep()
}

// asleep waits until the scheduler sleeps having seen the clock's time:
// it has made a timer since the last look, and its one pending timer is
// due later than now. It returns when that timer is due.
func (w *world) asleep() time.Time {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := w.clock.Timers()
		if p := w.clock.Pending(); n > w.timers && len(p) == 1 && p[0].After(w.clock.Now()) {
			w.timers = n
			return p[0]
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the scheduler did not go to sleep: %d timers, pending %v; told %v", n, w.clock.Pending(), w.rec.texts())
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// advance moves the clock to at and waits until the scheduler sleeps
// again.
func (w *world) advance(at time.Time) time.Time {
	w.t.Helper()
	w.timers = w.clock.Timers()
	w.clock.Set(at)
	return w.asleep()
}

// sleepsUntil waits until the scheduler, woken by changes, sleeps until
// want: wakes that come close together may make one sleep or several.
func (w *world) sleepsUntil(want time.Time) {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p := w.clock.Pending(); len(p) == 1 && p[0].Equal(want) {
			w.timers = w.clock.Timers()
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("sleeps until %v, want %v", w.clock.Pending(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

func (w *world) start(white, black string, days int, fen string) play.Game {
	w.t.Helper()
	r, err := w.svc.Start(context.Background(), play.NewGame{Channel: fmt.Sprintf("c%d", w.clock.Now().UnixNano()) + white + black,
		White: play.Seat{ID: white}, Black: play.Seat{ID: black}, DaysPerMove: days, StartFEN: fen, At: w.clock.Now()})
	if err != nil {
		w.t.Fatal(err)
	}
	return r.Game
}

func (w *world) game(id uint64) play.Game {
	w.t.Helper()
	g, err := w.svc.Game(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	return g
}

func (w *world) move(id uint64, text string) play.Result {
	w.t.Helper()
	g := w.game(id)
	r, err := w.svc.Move(context.Background(), play.Act{By: g.ToMove().ID, Game: id, Revision: g.Revision, At: w.clock.Now()}, text)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

func (w *world) want(texts ...string) {
	w.t.Helper()
	if got := w.rec.texts(); !slices.Equal(got, texts) {
		w.t.Fatalf("told\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(texts, "\n  "))
	}
}

func TestRemindersComeAtTheRightMoments(t *testing.T) {
	w := newWorld(t, play.Options{})
	g := w.start("w", "b", 3, "")
	w.run()
	id := g.ID
	if got := w.clock.Pending(); len(got) != 1 || !got[0].Equal(g.Deadline.Add(-24*time.Hour)) {
		t.Fatalf("sleeps until %v, want the 24-hour reminder at %v", got, g.Deadline.Add(-24*time.Hour))
	}
	next := w.advance(g.Deadline.Add(-24 * time.Hour))
	w.want(fmt.Sprintf("remind %d w 24h", id))
	if !next.Equal(g.Deadline.Add(-time.Hour)) {
		t.Fatalf("then sleeps until %v, want the 1-hour reminder", next)
	}
	next = w.advance(next)
	w.want(fmt.Sprintf("remind %d w 24h", id), fmt.Sprintf("remind %d w 1h", id))
	if !next.Equal(g.Deadline) {
		t.Fatalf("then sleeps until %v, want the deadline %v", next, g.Deadline)
	}
	for _, n := range w.rec.notices() {
		if !n.at.Equal(g.Deadline.Add(-24*time.Hour)) && !n.at.Equal(g.Deadline.Add(-time.Hour)) {
			t.Fatalf("a reminder at %v", n.at)
		}
	}
}

func TestAMoveCancelsTheReminders(t *testing.T) {
	w := newWorld(t, play.Options{})
	g := w.start("w", "b", 2, "")
	w.run()
	w.advance(g.Deadline.Add(-24 * time.Hour))
	w.clock.Advance(time.Hour) // w moves an hour after the reminder
	after := w.move(g.ID, "hxg3").Game
	if !after.RemindAt.Equal(after.Deadline.Add(-24 * time.Hour)) {
		t.Fatalf("b's first reminder at %v", after.RemindAt)
	}
	w.sleepsUntil(after.RemindAt)
	next := after.RemindAt
	// w's 1-hour reminder and deadline pass unnoticed; b's come.
	w.clock.Set(g.Deadline)
	next = w.advance(next)
	w.want(fmt.Sprintf("remind %d w 24h", g.ID), fmt.Sprintf("remind %d b 24h", g.ID))
	if !next.Equal(after.Deadline.Add(-time.Hour)) {
		t.Fatalf("sleeps until %v", next)
	}
}

func TestATimeoutEndsTheGameOnce(t *testing.T) {
	w := newWorld(t, play.Options{Reminders: []int{}})
	g := w.start("w", "b", 1, "")
	w.run()
	w.advance(g.Deadline)
	w.want(fmt.Sprintf("timeout %d lost", g.ID))
	n := w.rec.notices()[0]
	if n.t.Game.Outcome != game.WinFor(game.Black, game.Timeout) || !n.t.Due.Equal(g.Deadline) || n.t.Late != 0 {
		t.Fatalf("timeout %+v due %v late %v", n.t.Game.Outcome, n.t.Due, n.t.Late)
	}
	// Nothing is left to wait for; a second pass and a second scheduler
	// find nothing.
	if p := w.clock.Pending(); len(p) != 1 || !p[0].Equal(g.Deadline.Add(60*24*time.Hour)) {
		t.Fatalf("sleeps until %v, want the longest sleep", p)
	}
	other := schedule.New(schedule.Options{Clock: w.clock, Logger: quiet()})
	if _, ok, err := other.RunDue(context.Background(), w.round, w.rec); err != nil || ok {
		t.Fatalf("a second scheduler: %v, %v", ok, err)
	}
	w.want(fmt.Sprintf("timeout %d lost", g.ID))
}

func TestTwoSchedulersCatchingUpAtOnceAnnounceEachTimeoutOnce(t *testing.T) {
	w := newWorld(t, play.Options{Reminders: []int{}})
	var ids []uint64
	for i := range 40 {
		ids = append(ids, w.start(fmt.Sprint("w", i), fmt.Sprint("b", i), 1, "").ID)
	}
	w.clock.Advance(48 * time.Hour)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := schedule.New(schedule.Options{Clock: w.clock, Logger: quiet(), Batch: 7})
			if _, _, err := s.RunDue(context.Background(), w.round, w.rec); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got := w.rec.texts()
	slices.Sort(got)
	var want []string
	for _, id := range ids {
		want = append(want, fmt.Sprintf("timeout %d lost", id))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("told %d times for %d games:\n%v", len(got), len(ids), got)
	}
}

func TestCatchUpAfterTheProgramWasDown(t *testing.T) {
	w := newWorld(t, play.Options{})
	late := w.start("a", "b", 1, "")  // its deadline passes while down
	soon := w.start("c", "d", 5, "")  // its 24-hour reminder falls due while down
	later := w.start("e", "f", 7, "") // nothing falls due
	ch, err := w.svc.Challenge(context.Background(), play.NewChallenge{Channel: "x", From: play.Seat{ID: "g"}, To: play.Seat{ID: "h"}, DaysPerMove: 3, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	down := t0.Add(100 * time.Hour) // the program comes back
	w.clock.Set(down)
	w.run()
	w.want(fmt.Sprintf("timeout %d lost", late.ID), fmt.Sprintf("expired %d", ch.ID), fmt.Sprintf("remind %d c 24h", soon.ID))
	n := w.rec.notices()[0]
	if !n.t.Due.Equal(late.Deadline) || n.t.Late != down.Sub(late.Deadline) || !n.t.Game.Ended.Equal(late.Deadline) {
		t.Fatalf("the late timeout says due %v, late %v, ended %v; want %v, %v", n.t.Due, n.t.Late, n.t.Game.Ended, late.Deadline, down.Sub(late.Deadline))
	}
	if p := w.clock.Pending(); len(p) != 1 || !p[0].Equal(soon.Deadline.Add(-time.Hour)) {
		t.Fatalf("sleeps until %v, want c's 1-hour reminder at %v", p, soon.Deadline.Add(-time.Hour))
	}
	_ = later
	// A restart finds nothing more to say.
	w.stop()
	w.run()
	if len(w.rec.texts()) != 3 {
		t.Fatalf("a restart told again: %v", w.rec.texts())
	}
}

func TestVacationMovesTheDeadlineTheSchedulerWaitsFor(t *testing.T) {
	w := newWorld(t, play.Options{Reminders: []int{}})
	g := w.start("v", "o", 3, "")
	w.run()
	if _, err := w.svc.Vacation(context.Background(), "v", 5, w.clock.Now()); err != nil {
		t.Fatal(err)
	}
	shifted := g.Deadline.Add(5 * 24 * time.Hour)
	w.sleepsUntil(shifted)
	w.clock.Set(g.Deadline.Add(time.Hour)) // no timer fires
	if _, _, err := w.sch.RunDue(context.Background(), w.round, w.rec); err != nil {
		t.Fatal(err)
	}
	w.want()
	w.advance(shifted)
	w.want(fmt.Sprintf("timeout %d lost", g.ID))
}

func TestTheOpponentChoosesOrTheChoiceLapses(t *testing.T) {
	w := newWorld(t, play.Options{OpponentChooses: true, Reminders: []int{}})
	g := w.start("w", "b", 2, "")
	w.run()
	next := w.advance(g.Deadline)
	w.want(fmt.Sprintf("timeout %d chooses b", g.ID))
	if !next.Equal(g.Deadline.Add(48 * time.Hour)) {
		t.Fatalf("sleeps until %v, want the choice to lapse two days later", next)
	}
	w.advance(next)
	w.want(fmt.Sprintf("timeout %d chooses b", g.ID), fmt.Sprintf("timeout %d lost", g.ID))
	if o := w.game(g.ID).Outcome; o != game.WinFor(game.Black, game.Timeout) {
		t.Fatalf("outcome %+v", o)
	}
}

func TestConditionalMovesRestartTheClocks(t *testing.T) {
	// Black's 20th move brings an Ice Age that freezes White's lone
	// knight; White queued a reply that was checked after it.
	const fen = "rnbqkbnr/pppppppp/********/********/***N****/********/PPPPPPPP/R1BQKBNR b KQkq - 0 20"
	w := newWorld(t, play.Options{})
	g := w.start("w", "b", 3, fen)
	if _, err := w.svc.Premove(context.Background(), play.Act{By: "w", Game: g.ID, Revision: g.Revision, At: t0}, [][]string{{"Nxf6", "hxg3"}}); err != nil {
		t.Fatal(err)
	}
	w.run()
	w.advance(g.Deadline.Add(-24 * time.Hour)) // b is reminded
	w.clock.Advance(2 * time.Hour)
	r := w.move(g.ID, "Nxf6")
	if r.Move.IceAge == nil || r.Conditional == nil || r.Conditional.Reply == nil || r.Game.Turn() != game.Black {
		t.Fatalf("the reply was not played through the Ice Age: %+v", r.Conditional)
	}
	w.sleepsUntil(w.clock.Now().Add(48 * time.Hour)) // b's new reminder
	// A queue that does not match is dropped; the clocks go on as after
	// any move.
	if _, err := w.svc.Premove(context.Background(), play.Act{By: "w", Game: g.ID, Revision: r.Game.Revision, At: w.clock.Now()}, [][]string{{"Nxe4", "Nxe5"}}); err == nil {
		t.Fatal("queued a move of a knight that froze")
	}
	q, err := w.svc.Premove(context.Background(), play.Act{By: "w", Game: g.ID, Revision: r.Game.Revision, At: w.clock.Now()}, [][]string{{"Nxg4", "Nxf3"}})
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(time.Hour)
	r = w.move(q.Game.ID, "Nxh5")
	if r.Conditional == nil || !r.Conditional.Dropped() || r.Game.Turn() != game.White {
		t.Fatalf("conditional %+v", r.Conditional)
	}
	w.sleepsUntil(r.Game.RemindAt)
	w.want(fmt.Sprintf("remind %d b 24h", g.ID))
}

func TestASoonerItemWakesTheScheduler(t *testing.T) {
	w := newWorld(t, play.Options{ChallengeTTL: 2 * time.Hour})
	w.run()
	if p := w.clock.Pending(); len(p) != 1 || !p[0].Equal(t0.Add(60*24*time.Hour)) {
		t.Fatalf("with nothing to do it sleeps until %v, want its longest sleep", p)
	}
	g := w.start("w", "b", 14, "")
	w.sleepsUntil(g.RemindAt)
	c, err := w.svc.Challenge(context.Background(), play.NewChallenge{Channel: "x", From: play.Seat{ID: "p"}, At: w.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	w.sleepsUntil(c.Expires)
	w.advance(c.Expires)
	w.want(fmt.Sprintf("expired %d", c.ID))
	// Three changes, three expiries or reminders: a handful of timers,
	// not one every few seconds.
	if n := w.clock.Timers(); n > 5 {
		t.Fatalf("%d timers", n)
	}
}

func TestSleepsAreBounded(t *testing.T) {
	w := newWorld(t, play.Options{})
	w.sch = schedule.New(schedule.Options{Clock: w.clock, Logger: quiet()})
	w.setService(play.Options{})
	w.start("w", "b", 14, "")
	w.run()
	if p := w.clock.Pending(); len(p) != 1 || !p[0].Equal(t0.Add(time.Hour)) {
		t.Fatalf("sleeps until %v, want an hour at most", p)
	}
}

// stuck is a storage whose deadline index always holds a game that does
// not exist: play refuses it every time.
type stuck struct{ round.Storage }

func (s stuck) View(ctx context.Context, fn func(play.ReadTx) error) error {
	return s.Storage.View(ctx, func(tx play.ReadTx) error { return fn(stuckTx{tx}) })
}

type stuckTx struct{ play.ReadTx }

func (t stuckTx) Due(k play.DueKind, now time.Time, limit int) ([]play.Due, error) {
	if k == play.DueDeadline {
		return []play.Due{{At: t0, ID: 999}}, nil
	}
	return t.ReadTx.Due(k, now, limit)
}

func (t stuckTx) NextDue(k play.DueKind) (time.Time, bool, error) {
	if k == play.DueDeadline {
		return t0, true, nil
	}
	return t.ReadTx.NextDue(k)
}

func TestAnItemRefusedEachTimeDoesNotMakeItSpin(t *testing.T) {
	clock := clocktest.New(t0.Add(time.Minute))
	sch := schedule.New(schedule.Options{Clock: clock, Logger: quiet(), Retry: 5 * time.Minute})
	svc := newRound(t, play.New(stuck{memstore.New()}, play.Options{}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- sch.Run(ctx, svc, newRecorder(clock)) }()
	at, err := clock.AwaitTimer(context.Background(), 1)
	if err != nil || !at.Equal(t0.Add(6*time.Minute)) {
		t.Fatalf("sleeps until %v, %v; want the retry in 5 minutes", at, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// failing is a storage that fails every transaction.
type failing struct{ round.Storage }

var errDown = errors.New("disk unplugged")

func (failing) View(context.Context, func(play.ReadTx) error) error { return errDown }

func TestAFailureIsRetriedLater(t *testing.T) {
	clock := clocktest.New(t0)
	sch := schedule.New(schedule.Options{Clock: clock, Logger: quiet()})
	svc := newRound(t, play.New(failing{memstore.New()}, play.Options{}))
	if _, _, err := sch.RunDue(context.Background(), svc, newRecorder(clock)); !errors.Is(err, errDown) {
		t.Fatalf("RunDue: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- sch.Run(ctx, svc, newRecorder(clock)) }()
	if at, err := clock.AwaitTimer(context.Background(), 1); err != nil || !at.Equal(t0.Add(time.Minute)) {
		t.Fatalf("sleeps until %v, %v; want a minute", at, err)
	}
	cancel()
	<-done
}
