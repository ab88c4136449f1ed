package play_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/playtest"
)

// TestEveryWriteOfATxIsARecordKind keeps the registry whole: a method
// added to Tx that writes a record must name a kind of record (or the
// export, the copy and the suite would not know it), and every kind is
// written by a method of Tx.
func TestEveryWriteOfATxIsARecordKind(t *testing.T) {
	// The writes that make no record of their own.
	noRecord := map[string]string{
		"NextID":          "the id sequence, which Export returns as its last id",
		"DeleteChallenge": "a removal",
		"PutRecent":       "what the caps count, which matters for a minute to a day: a copy or a migration that starts it afresh lets nobody flood anything",
	}
	reads := reflect.TypeFor[play.ReadTx]()
	writers := map[string]play.RecordKind{}
	for _, k := range play.RecordKinds() {
		w := k.Writer()
		if other, dup := writers[w]; dup {
			t.Errorf("%v and %v are both written by %s", other, k, w)
		}
		writers[w] = k
		if _, ok := reflect.TypeFor[play.Tx]().MethodByName(w); !ok {
			t.Errorf("%v are written by %s, which Tx does not have", k, w)
		}
	}
	tx := reflect.TypeFor[play.Tx]()
	for i := range tx.NumMethod() {
		name := tx.Method(i).Name
		if _, read := reads.MethodByName(name); read {
			continue
		}
		if _, ok := writers[name]; !ok && noRecord[name] == "" {
			t.Errorf("Tx.%s writes no kind of record: add its kind to play's registry (export.go), so that Export, the copy and the suite know it", name)
		}
	}
}

func TestARecordHoldsOneKind(t *testing.T) {
	g, c := play.Game{ID: 7}, play.Challenge{ID: 8}
	for _, tc := range []struct {
		name string
		r    play.Record
		kind play.RecordKind
		says string
	}{
		{"a game", play.Record{Game: &g}, play.KindGame, "game 7"},
		{"prefs", play.Record{Prefs: &play.Prefs{}, User: "u1"}, play.KindPrefs, "prefs of u1"},
		{"a log entry", play.Record{LogEntry: &play.LogEntry{Scope: "g1", User: "u1", Game: 7}}, play.KindLogEntry, `log entry u1 in scope "g1" game 7`},
		{"nothing", play.Record{}, 0, "a record of no single kind"},
		{"two", play.Record{Game: &g, Challenge: &c}, 0, "a record of no single kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if k := tc.r.Kind(); k != tc.kind {
				t.Errorf("Kind() = %v, want %v", k, tc.kind)
			}
			if s := tc.r.String(); s != tc.says {
				t.Errorf("String() = %q, want %q", s, tc.says)
			}
			if tc.kind == 0 {
				if err := tc.r.Put(nil); err == nil {
					t.Error("Put of a record of no single kind succeeded")
				}
				if tc.r.Value() != nil {
					t.Error("Value of a record of no single kind is not nil")
				}
			} else if tc.r.Value() == nil {
				t.Error("Value is nil")
			}
		})
	}
	if got := play.KindLogEntry.Count(1) + ", " + play.KindLogEntry.Count(2); got != "1 log entry, 2 log entries" {
		t.Errorf("counts say %q", got)
	}
}

func filled(t *testing.T) (*memstore.Memory, []play.Record) {
	t.Helper()
	m := memstore.New()
	var recs []play.Record
	err := m.Update(context.Background(), func(tx play.Tx) error {
		var err error
		recs, err = playtest.EveryKind(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, recs
}

func TestCopyKeepsEveryRecord(t *testing.T) {
	ctx := context.Background()
	for _, batch := range []int{1, 3, 500} {
		from, recs := filled(t)
		to := memstore.New()
		c, err := play.Copy(ctx, from, to, batch)
		if err != nil {
			t.Fatalf("batch %d: %v", batch, err)
		}
		if d := playtest.Diff(playtest.Dump(t, to), playtest.Lines(recs)); d != "" {
			t.Fatalf("batch %d: the copy differs:%s", batch, d)
		}
		if got, want := playtest.Schedule(t, to), playtest.Schedule(t, from); len(want) != 3 || !slices.Equal(got, want) {
			t.Errorf("batch %d: the copy's schedule is %q, the source's %q", batch, got, want)
		}
		if c.Total() != len(recs) || c.Of(play.KindGame) != 2 || c.Finished() != 1 || c.Of(play.KindTournament) != 1 {
			t.Errorf("batch %d: counts %v", batch, c)
		}
		lines := c.Lines()
		if len(lines) != len(play.RecordKinds()) || lines[0] != "2 games (1 finished)" || !slices.Contains(lines, "1 log entry") {
			t.Errorf("batch %d: the counts read %q", batch, lines)
		}
		last, _ := from.Export(ctx, func(play.Record) error { return nil })
		_ = to.Update(ctx, func(tx play.Tx) error {
			if id, _ := tx.NextID(); id <= last {
				t.Errorf("batch %d: the copy's NextID gave %d after ids up to %d", batch, id, last)
			}
			return nil
		})
	}
}

func TestCopyRefusesATargetWithRecords(t *testing.T) {
	from, _ := filled(t)
	to, _ := filled(t)
	if _, err := play.Copy(context.Background(), from, to, 10); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("Copy into a storage with records: %v", err)
	}
}

// losing is a storage that accepts log entries and keeps none, as a
// copy that forgot a kind would.
type losing struct{ *memstore.Memory }

type losingTx struct{ play.Tx }

func (losingTx) PutLogEntry(play.LogEntry) error { return nil }

func (s losing) Update(ctx context.Context, fn func(play.Tx) error) error {
	return s.Memory.Update(ctx, func(tx play.Tx) error { return fn(losingTx{tx}) })
}

// renaming keeps every record, but the prefs of another user.
type renaming struct{ *memstore.Memory }

type renamingTx struct{ play.Tx }

func (t renamingTx) PutPrefs(user string, p play.Prefs) error { return t.Tx.PutPrefs(user+"x", p) }

func (s renaming) Update(ctx context.Context, fn func(play.Tx) error) error {
	return s.Memory.Update(ctx, func(tx play.Tx) error { return fn(renamingTx{tx}) })
}

func TestCopyThatLosesRecordsFails(t *testing.T) {
	for _, tc := range []struct {
		to   play.CopyTarget
		kind play.RecordKind
	}{
		{losing{memstore.New()}, play.KindLogEntry},
		{renaming{memstore.New()}, play.KindPrefs},
	} {
		from, _ := filled(t)
		_, err := play.Copy(context.Background(), from, tc.to, 10)
		if err == nil || !strings.HasSuffix(err.Error(), "they differ in "+tc.kind.String()) {
			t.Errorf("a copy that lost its %v: %v", tc.kind, err)
		}
	}
}

// TestCountsTellTheSpeedsRatingsApart: a live speed's ratings are kept
// as player records of their own scope; the counts say how many of the
// player records they are, so that a migration's report does not pass
// them off as more players.
func TestCountsTellTheSpeedsRatingsApart(t *testing.T) {
	var c play.Counts
	for _, scope := range []string{"", "g1", play.RatingScope("g1", play.Blitz), play.RatingScope("", play.Bullet)} {
		p := play.NewPlayer(scope, "u1")
		c.Add(&play.Record{Player: &p})
	}
	if c.Of(play.KindPlayer) != 4 || c.Speeds() != 2 {
		t.Fatalf("%d player records, %d of speeds; want 4 and 2", c.Of(play.KindPlayer), c.Speeds())
	}
	if !slices.Contains(c.Lines(), "4 player records (2 of them live speeds' ratings)") {
		t.Errorf("the counts read %q", c.Lines())
	}
}
