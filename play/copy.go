package play

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
)

// Counts are the records of a storage, kind by kind, and a digest of
// their names, so that two storages whose Counts are equal hold the same
// records (by name: game 12, prefs of u1, …), not only as many.
type Counts struct {
	n      [len(kinds)]int
	names  [len(kinds)]uint64 // the sum of the names' FNV-1a hashes: order does not matter
	over   int                // finished games
	speeds int                // player records of a live speed's ratings (RatingScope)
	bad    int                // records of no single kind
	lastID uint64
}

// Add counts one record.
func (c *Counts) Add(r *Record) {
	k := r.Kind()
	if k == 0 {
		c.bad++
		return
	}
	c.n[k]++
	h := fnv.New64a()
	_, _ = h.Write([]byte(r.String())) // a hash's Write never fails
	c.names[k] += h.Sum64()
	if k == KindGame && r.Game.Over() {
		c.over++
	}
	if k == KindPlayer && SpeedOf(r.Player) != Correspondence {
		c.speeds++
	}
}

// Speeds returns how many of the player records counted keep the
// ratings of a live speed, not a player of a scope of their own.
func (c *Counts) Speeds() int { return c.speeds }

// Of returns how many records of kind k were counted.
func (c *Counts) Of(k RecordKind) int {
	if !k.Valid() {
		return 0
	}
	return c.n[k]
}

// Finished returns how many of the games counted are over.
func (c *Counts) Finished() int { return c.over }

// Total returns how many records were counted.
func (c *Counts) Total() int {
	t := c.bad
	for _, n := range c.n {
		t += n
	}
	return t
}

// Lines says the counts kind by kind, one line each, every kind of the
// registry included: "30 games (10 finished)", "0 tournaments", ….
func (c *Counts) Lines() []string {
	var out []string
	for _, k := range RecordKinds() {
		line := k.Count(c.n[k])
		if k == KindGame && c.n[k] > 0 {
			line += fmt.Sprintf(" (%d finished)", c.over)
		}
		if k == KindPlayer && c.speeds > 0 {
			line += fmt.Sprintf(" (%d of them live speeds' ratings)", c.speeds)
		}
		out = append(out, line)
	}
	if c.bad > 0 {
		out = append(out, fmt.Sprintf("%d records of no single kind", c.bad))
	}
	return out
}

// String says the counts on one line.
func (c Counts) String() string { return strings.Join(c.Lines(), ", ") }

// same reports whether c and d count the same records.
func (c *Counts) same(d *Counts) bool {
	return c.n == d.n && c.names == d.names && c.over == d.over && c.speeds == d.speeds && c.bad == d.bad
}

// CountRecords exports st and counts its records.
func CountRecords(ctx context.Context, st Exporter) (Counts, error) {
	var c Counts
	last, err := st.Export(ctx, func(r Record) error { c.Add(&r); return nil })
	c.lastID = last
	return c, err
}

// CopyTarget is a storage a copy writes into.
type CopyTarget interface {
	Storage
	Exporter
}

// Copy copies every record of from into to, which must hold none, in
// transactions of batch records each; makes to's NextID go on after the
// last id from had given; then exports to and checks that it holds the
// same records as from, kind by kind. It returns the counts of from.
//
// An item of the outbox that a process of from had claimed is copied
// unclaimed: it is the copy's processes' to deliver.
func Copy(ctx context.Context, from Exporter, to CopyTarget, batch int) (Counts, error) {
	if had, err := CountRecords(ctx, to); err != nil {
		return Counts{}, fmt.Errorf("counting the records of the target: %w", err)
	} else if had.Total() > 0 {
		return Counts{}, fmt.Errorf("the target is not empty (%v): a copy goes into an empty storage only", had)
	}
	batch = max(batch, 1)
	var (
		want    Counts
		last    uint64
		pending []Record
	)
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		recs := pending
		pending = nil
		return to.Update(ctx, func(tx Tx) error {
			for i := range recs {
				if err := recs[i].Put(tx); err != nil {
					return err
				}
			}
			return nil
		})
	}
	lastID, err := from.Export(ctx, func(r Record) error {
		if r.Kind() == 0 {
			return fmt.Errorf("the source exported %v", r)
		}
		want.Add(&r)
		switch {
		case r.Game != nil:
			last = max(last, r.Game.ID)
		case r.Challenge != nil:
			last = max(last, r.Challenge.ID)
		}
		pending = append(pending, r)
		if len(pending) >= batch {
			return flush()
		}
		return nil
	})
	want.lastID = max(last, lastID)
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = to.Renumber(ctx, want.lastID)
	}
	if err != nil {
		return want, err
	}
	got, err := CountRecords(ctx, to)
	if err != nil {
		return want, fmt.Errorf("counting the copy: %w", err)
	}
	if !got.same(&want) {
		return want, fmt.Errorf("the copy holds %v, the source %v%s", got, want, differences(&got, &want))
	}
	if got.lastID < want.lastID {
		return want, fmt.Errorf("the copy's ids go on from %d, the source's from %d", got.lastID, want.lastID)
	}
	return want, nil
}

// differences names the kinds whose records differ between two counts.
func differences(got, want *Counts) string {
	var kinds []string
	for _, k := range RecordKinds() {
		if got.n[k] != want.n[k] || got.names[k] != want.names[k] {
			kinds = append(kinds, k.String())
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	return "; they differ in " + strings.Join(kinds, ", ")
}
