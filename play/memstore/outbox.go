package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/iceagechess/iceage/play"
)

var _ play.Outbox = (*Memory)(nil)

// PutOutbox queues items for the commit.
func (t *memTx) PutOutbox(items ...play.OutboxItem) error {
	if err := t.writable(); err != nil {
		return err
	}
	for _, it := range items {
		if it.Key == "" {
			return fmt.Errorf("memstore: an outbox item without a key")
		}
		it.Body = slices.Clone(it.Body)
		it.Owner = ""
		t.outbox = append(t.outbox, it)
	}
	return nil
}

// addOutbox adds the items of a committed transaction; a key already
// pending keeps its item.
func (m *Memory) addOutbox(items []play.OutboxItem) {
	for _, it := range items {
		if _, ok := m.outbox[it.Key]; !ok {
			m.outbox[it.Key] = it
		}
	}
}

// ClaimOutbox implements play.Outbox.
func (m *Memory) ClaimOutbox(ctx context.Context, owner string, now time.Time, lease time.Duration, limit int) ([]play.OutboxItem, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var due []play.OutboxItem
	for _, it := range m.outbox {
		if !it.Due.After(now) {
			due = append(due, it)
		}
	}
	slices.SortFunc(due, func(a, b play.OutboxItem) int {
		return cmp.Or(a.Due.Compare(b.Due), strings.Compare(a.Key, b.Key))
	})
	due = due[:min(limit, len(due))]
	for i := range due {
		due[i].Due, due[i].Owner = now.Add(lease), owner
		m.outbox[due[i].Key] = due[i]
		due[i].Body = slices.Clone(due[i].Body)
	}
	return due, nil
}

// DoneOutbox implements play.Outbox.
func (m *Memory) DoneOutbox(ctx context.Context, keys ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, key := range keys {
		delete(m.outbox, key)
	}
	return nil
}

// RetryOutbox implements play.Outbox.
func (m *Memory) RetryOutbox(ctx context.Context, key, owner string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.outbox[key]
	if !ok || it.Owner != owner {
		return nil
	}
	it.Due, it.Owner = at, ""
	it.Tries++
	m.outbox[key] = it
	return nil
}
