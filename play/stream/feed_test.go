package stream_test

import (
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/stream"
)

// handFed is a storage whose feed the test tells by hand.
type handFed struct {
	*memstore.Memory
	mu sync.Mutex
	fn func([]play.Committed, bool)
}

func (s *handFed) Feed(fn func([]play.Committed, bool)) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fn = fn
	return func() {}
}

func (s *handFed) tell(lost bool, cs ...play.Committed) {
	s.mu.Lock()
	fn := s.fn
	s.mu.Unlock()
	fn(cs, lost)
}

// committed returns the game as the storage holds it now, as a feed
// tells it.
func committed(t *testing.T, tb *table) play.Committed {
	t.Helper()
	tb.refresh()
	b, err := play.EncodeRecord(&tb.g)
	if err != nil {
		t.Fatal(err)
	}
	return play.Committed{Game: tb.g.ID, Revision: tb.g.Revision, Record: b}
}

// The hub puts writes told crosswise back in order; a revision missing
// for Options.GapWait, writes lost, and a write told without its record
// make it read the game: the next revision exactly, or a Sync past a gap.
func TestTheHubOrdersTheFeedAndReadsWhatItMissed(t *testing.T) {
	st := &handFed{Memory: memstore.New()}
	h := newHub(t, st, stream.Options{GapWait: 20 * time.Millisecond})
	tb := newTable(t, st, "c1")
	w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
	if err != nil {
		t.Fatal(err)
	}
	start := tb.g.Revision
	var cs []play.Committed
	for range 3 {
		tb.move()
		cs = append(cs, committed(t, tb))
	}
	st.tell(false, cs[1])
	st.tell(false, cs[0], cs[2])
	st.tell(false, cs[0]) // told twice
	checkEvents(t, collect(t, w, tb.g.Revision), start, []stream.Kind{stream.Moved, stream.Moved, stream.Moved}, tb.g)

	// Revision 5 is never told: the hub reads the game after GapWait.
	tb.move()
	tb.move()
	st.tell(false, committed(t, tb))
	evs := collect(t, w, tb.g.Revision)
	if len(evs) != 1 || evs[0].Kind != stream.Sync {
		t.Fatalf("past a gap: %v", revisions(evs))
	}
	checkState(t, evs[0], tb.g)

	// Lost writes: the hub reads the game, one revision on.
	tb.move()
	st.tell(true)
	checkEvents(t, collect(t, w, tb.g.Revision), tb.g.Revision-1, []stream.Kind{stream.Moved}, tb.g)

	// A write told without its record (too long for a notification).
	tb.move()
	c := committed(t, tb)
	c.Record = nil
	st.tell(false, c)
	checkEvents(t, collect(t, w, tb.g.Revision), tb.g.Revision-1, []stream.Kind{stream.Moved}, tb.g)

	// A damaged record is read again from the storage.
	tb.move()
	c = committed(t, tb)
	c.Record = c.Record[:len(c.Record)/2]
	st.tell(false, c)
	checkEvents(t, collect(t, w, tb.g.Revision), tb.g.Revision-1, []stream.Kind{stream.Moved}, tb.g)
}

// A game nobody watches is followed for Options.Linger, then forgotten;
// a game that is not there is refused.
func TestAGameNobodyWatchesIsForgotten(t *testing.T) {
	st := memstore.New()
	h := newHub(t, st, stream.Options{Linger: 20 * time.Millisecond})
	tb := newTable(t, st, "c1")
	if _, err := h.Subscribe(ctx, 999, 0); err == nil {
		t.Fatal("a game that is not there was watched")
	}
	w, err := h.Subscribe(ctx, tb.g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-w.Events(); ev.Kind != stream.Started {
		t.Fatalf("a new watcher's first event: %v", ev.Kind)
	}
	w.Close()
	deadline := time.Now().Add(10 * time.Second)
	for h.Followed() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the game is still followed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Its moves since are told from its record all the same.
	tb.move()
	w, err = h.Subscribe(ctx, tb.g.ID, tb.g.Revision-1)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, w, tb.g.Revision), tb.g.Revision-1, []stream.Kind{stream.Moved}, tb.g)
	h.Close()
	if _, ok := <-w.Events(); ok {
		t.Fatal("an event after Close")
	}
	if err := w.Err(); err != stream.ErrClosed {
		t.Fatalf("after the hub closed: %v", err)
	}
	if _, err := h.Subscribe(ctx, tb.g.ID, 0); err != stream.ErrClosed {
		t.Fatalf("Subscribe after Close: %v", err)
	}
}

// A write never told (on PostgreSQL, its process died between the
// commit and the notification) reaches the watchers when the hub reads
// the game again, Options.Recheck after it last read it.
func TestAWriteNeverToldIsFoundByTheRecheck(t *testing.T) {
	st := &handFed{Memory: memstore.New()}
	h := newHub(t, st, stream.Options{Recheck: 30 * time.Millisecond})
	tb := newTable(t, st, "c1")
	w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
	if err != nil {
		t.Fatal(err)
	}
	tb.move()
	checkEvents(t, collect(t, w, tb.g.Revision), tb.g.Revision-1, []stream.Kind{stream.Moved}, tb.g)
}
