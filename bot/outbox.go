package bot

import (
	"context"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// deliveries is this process's side of play's outbox: the storage's
// outbox, the name its claims go under, the delivery loop's wake-up, the
// items delivered and not yet marked done, and the boards being posted
// at once. The loop (deliver.go) and the acts' answers share it, so its
// state is kept here, behind these methods, and nowhere else.
type deliveries struct {
	store play.Outbox // nil without a service: nothing is delivered
	owner string
	wake  chan struct{}
	done  doneKeys
	// atOnce counts the boards posted at once (deliverAtOnce), which
	// Run waits for before it marks the last items done.
	atOnce sync.WaitGroup
}

// newDeliveries delivers store's items as this process; store nil
// delivers nothing.
func newDeliveries(store play.Outbox) *deliveries {
	return &deliveries{store: store, owner: outboxOwner(), wake: make(chan struct{}, 1)}
}

// outboxOwner names this process in the outbox's claims, for operators.
func outboxOwner() string {
	host, _ := os.Hostname()
	return host + ":" + strconv.Itoa(os.Getpid())
}

// delivers reports whether there is an outbox to deliver.
func (o *deliveries) delivers() bool { return o.store != nil }

// wakeUp tells the loop that items may be due now.
func (o *deliveries) wakeUp() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// woken receives when wakeUp was called.
func (o *deliveries) woken() <-chan struct{} { return o.wake }

// claim claims the items due at now for this process.
func (o *deliveries) claim(ctx context.Context, now time.Time) ([]play.OutboxItem, error) {
	return o.store.ClaimOutbox(ctx, o.owner, now, deliveryLease, deliveryBatch)
}

// retry gives item key back to the outbox, due again at at.
func (o *deliveries) retry(ctx context.Context, key string, at time.Time) error {
	return o.store.RetryOutbox(ctx, key, o.owner, at)
}

// delivered notes items delivered (or dropped), to be marked done with
// the next flush.
func (o *deliveries) delivered(keys ...string) { o.done.add(keys...) }

// shown notes the boards of an act that its interaction showed: the
// loop marks them done with what else it has done.
func (o *deliveries) shown(out *round.Outcome) {
	for _, d := range out.Boards {
		o.done.add(d.Key)
	}
}

// flush marks the items delivered so far done, and reports how many it
// tried. Should it fail, they wait for the next flush (the last comes as
// the bot stops); should the process die first, the boards shown are
// posted again when their hold ends, and the items of a batch when their
// claim lapses: at least once.
func (o *deliveries) flush(ctx context.Context) (int, error) {
	keys := o.done.take()
	if len(keys) == 0 {
		return 0, nil
	}
	if err := o.store.DoneOutbox(ctx, keys...); err != nil {
		// Kept for the next flush: the one as the loop stops, say, whose
		// context outlives the loop's.
		o.done.add(keys...)
		return len(keys), err
	}
	return len(keys), nil
}

// atOnceGo runs post, one of the boards posted at once, counted for
// atOnceWait.
func (o *deliveries) atOnceGo(post func()) {
	o.atOnce.Add(1)
	go func() { defer o.atOnce.Done(); post() }()
}

// atOnceWait waits for the boards being posted at once.
func (o *deliveries) atOnceWait() { o.atOnce.Wait() }

// doneKeys are outbox items delivered, waiting to be marked done in one
// transaction with the others: the boards the interactions showed, the
// items of a batch.
type doneKeys struct {
	mu   sync.Mutex
	keys []string
}

func (d *doneKeys) add(keys ...string) {
	d.mu.Lock()
	d.keys = append(d.keys, keys...)
	d.mu.Unlock()
}

func (d *doneKeys) take() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := d.keys
	d.keys = nil
	return k
}
