package bot

import (
	"context"
	"log/slog"
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
// at once. Its loop (run) claims the items and hands each to the bot's
// deliverOne (deliver.go), which says how an item is delivered; the
// acts' answers note here the boards they showed. Both share this state,
// so it is kept here, behind these methods, and nowhere else.
type deliveries struct {
	store play.Outbox // nil without a service: nothing is delivered
	log   *slog.Logger
	owner string
	wake  chan struct{}
	done  doneKeys
	// atOnce counts the boards posted at once (deliverAtOnce), which
	// Run waits for before it marks the last items done.
	atOnce sync.WaitGroup
}

// newDeliveries delivers store's items as this process; store nil
// delivers nothing.
func newDeliveries(store play.Outbox, log *slog.Logger) *deliveries {
	return &deliveries{store: store, log: log, owner: outboxOwner(), wake: make(chan struct{}, 1)}
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

// run delivers the outbox's items with deliver until ctx ends: it
// claims those due, a batch at a time, when woken or every deliveryPoll.
// deliver marks an item delivered, or gives it back for a retry.
func (o *deliveries) run(ctx context.Context, now func() time.Time, deliver func(context.Context, play.OutboxItem)) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	// What was delivered is marked done as the loop stops, so that a
	// restart does not deliver it again.
	defer o.flush(context.WithoutCancel(ctx))
	for {
		select {
		case <-ctx.Done():
			return
		case <-o.wake:
		case <-timer.C:
		}
		o.flush(ctx)
		for ctx.Err() == nil {
			items, err := o.store.ClaimOutbox(ctx, o.owner, now(), deliveryLease, deliveryBatch)
			if err != nil {
				if ctx.Err() == nil {
					o.log.Error("claiming the outbox's items", "err", err)
				}
				break
			}
			if len(items) == 0 {
				break
			}
			deliverAll(ctx, items, deliver)
			o.flush(ctx)
		}
		timer.Reset(deliveryPoll)
	}
}

// deliverAll delivers items, those of one game in order, a few games at
// once.
func deliverAll(ctx context.Context, items []play.OutboxItem, deliver func(context.Context, play.OutboxItem)) {
	byGame := map[uint64][]play.OutboxItem{}
	var order []uint64
	for _, it := range items {
		if _, ok := byGame[it.Game]; !ok {
			order = append(order, it.Game)
		}
		byGame[it.Game] = append(byGame[it.Game], it)
	}
	sem := make(chan struct{}, deliveryWorkers)
	var wg sync.WaitGroup
	for _, id := range order {
		sem <- struct{}{}
		wg.Add(1)
		go func(its []play.OutboxItem) {
			defer func() { <-sem; wg.Done() }()
			for _, it := range its {
				if ctx.Err() != nil {
					return // stopping: the claim lapses and the next start delivers the rest
				}
				deliver(ctx, it)
			}
		}(byGame[id])
	}
	wg.Wait()
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

// flush marks the items delivered so far done. Should it fail, they
// wait for the next flush (the last comes as the bot stops); should the
// process die first, the boards shown are posted again when their hold
// ends, and the items of a batch when their claim lapses: at least once.
func (o *deliveries) flush(ctx context.Context) {
	keys := o.done.take()
	if len(keys) == 0 {
		return
	}
	if err := o.store.DoneOutbox(ctx, keys...); err != nil {
		// Kept for the next flush: the one as the loop stops, say, whose
		// context outlives the loop's.
		o.done.add(keys...)
		o.log.Warn("marking outbox items done; trying again", "items", len(keys), "err", err)
	}
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
