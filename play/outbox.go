package play

import (
	"context"
	"time"
)

// OutboxItem is something a front end must do because of an act — post a
// board, tell a player, let the engine move — written in the act's own
// transaction (Tx.PutOutbox), so that an act committed is never an act
// forgotten, and delivered afterwards by a delivery loop (Outbox). play
// stores items and hands them out; what they mean is the business of the
// package that writes them (package round).
type OutboxItem struct {
	// Key is the item's idempotency key, unique: putting an item whose
	// key is already pending keeps the first. Deliveries pass it on
	// (Discord's message nonce) so that a retried delivery never does
	// its work twice.
	Key string `json:"key"`
	// Game is the game the item is about; 0 for none.
	Game uint64 `json:"game,omitempty"`
	// Kind says what the item is to its writer, say "deliver" or
	// "engine".
	Kind string `json:"kind"`
	// Body is the writer's encoding of what is to be done.
	Body []byte `json:"body,omitempty"`
	// Due is when the item may next be handed out. A claim moves it to
	// the end of the claim's lease, so the item of a process that died is
	// handed out again then.
	Due time.Time `json:"due"`
	// Created is when the act that wrote the item happened.
	Created time.Time `json:"created"`
	// Tries counts the deliveries that failed (Outbox.RetryOutbox).
	Tries int `json:"tries,omitempty"`
	// Owner is who holds the item's current claim ("" if nobody).
	Owner string `json:"owner,omitempty"`
}

// Outbox hands out the items of the outbox to the delivery loops of any
// number of processes, each item to one loop at a time. A Storage that
// keeps an outbox implements it; every storage of this module does.
//
// An item is pending until it is done. A claim holds it for the
// claimer until the lease ends; after that, a claimer that died or
// hangs loses it to the next. Delivery is therefore at least once: a
// delivery that does something outside (a post) makes it idempotent with
// the item's Key.
type Outbox interface {
	// ClaimOutbox returns up to limit pending items due at or before now,
	// earliest first (then by Key), that no live claim holds, and holds
	// them for owner until now+lease.
	ClaimOutbox(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]OutboxItem, error)
	// DoneOutbox removes delivered items, in one transaction; an item no
	// longer there is not an error (someone else delivered it, or it was
	// done before).
	DoneOutbox(ctx context.Context, keys ...string) error
	// RetryOutbox gives up owner's claim on an item and makes it due
	// again at at, counting a failed try (Tries). An item owner no longer
	// holds (another loop claimed it, or it is done) is left alone; owner
	// "" releases an item nobody claimed, such as one a front end kept
	// for itself (round's first board) and could not deliver.
	RetryOutbox(ctx context.Context, key, owner string, at time.Time) error
}

// OutboxBackoff returns how long to wait before trying an item again
// after tries failures: one second, doubling, at most ten minutes, so
// that a short outage delays deliveries by seconds and a long one is not
// hammered.
func OutboxBackoff(tries int) time.Duration {
	const most = 10 * time.Minute
	if tries <= 0 {
		return time.Second
	}
	if tries >= 10 {
		return most
	}
	return min(time.Second<<tries, most)
}
