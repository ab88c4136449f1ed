package stream_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/store"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ann = play.Seat{ID: "ann", Name: "Ann"}
	bob = play.Seat{ID: "bob", Name: "Bob"}
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// inProcess are the storages whose feed tells this process's commits.
var inProcess = []struct {
	name string
	open func(t testing.TB) play.Storage
}{
	{"memstore", func(testing.TB) play.Storage { return memstore.New() }},
	{"bbolt", func(t testing.TB) play.Storage {
		st, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		return st
	}},
}

func newHub(t testing.TB, st play.Storage, opts stream.Options) *stream.Hub {
	t.Helper()
	h, err := stream.New(st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// table is a game being played through play, as any front end plays.
type table struct {
	t   testing.TB
	svc *play.Service
	g   play.Game
	at  time.Time
	rng *rand.Rand
}

func newTable(t testing.TB, st play.Storage, channel string) *table {
	t.Helper()
	svc := play.New(st, play.Options{})
	res, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: channel, White: ann, Black: bob, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	return &table{t: t, svc: svc, g: res.Game, at: t0, rng: rand.New(rand.NewPCG(uint64(len(channel)), 7))}
}

// on returns a table that plays the same game through another storage
// (another process on the same database).
func (tb *table) on(st play.Storage) *table {
	c := *tb
	c.svc = play.New(st, play.Options{})
	return &c
}

// do plays an act of by and takes the game it left.
func (tb *table) do(by play.Seat, act func(context.Context, play.Act) (play.Result, error)) {
	tb.t.Helper()
	tb.at = tb.at.Add(time.Minute)
	res, err := act(ctx, play.Act{By: by.ID, Game: tb.g.ID, Revision: tb.g.Revision, At: tb.at})
	if err != nil {
		tb.t.Fatalf("act of %s at revision %d: %v", by.ID, tb.g.Revision, err)
	}
	tb.g = res.Game
}

func (tb *table) refresh() {
	tb.t.Helper()
	g, err := tb.svc.Game(ctx, tb.g.ID)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.g = g
}

// move plays a random legal move of the side to move.
func (tb *table) move() {
	tb.t.Helper()
	pos, err := tb.g.Position()
	if err != nil {
		tb.t.Fatal(err)
	}
	legal := pos.LegalMoves(nil)
	mv := legal[tb.rng.IntN(len(legal))]
	tb.do(tb.g.ToMove(), func(ctx context.Context, a play.Act) (play.Result, error) {
		return tb.svc.Move(ctx, a, mv.UCI())
	})
}

// moveOn plays a random legal move of the side to move that does not
// end the game, if there is one.
func (tb *table) moveOn() {
	tb.t.Helper()
	pos, err := tb.g.Position()
	if err != nil {
		tb.t.Fatal(err)
	}
	legal := pos.LegalMoves(nil)
	mv := legal[tb.rng.IntN(len(legal))]
	for _, i := range tb.rng.Perm(len(legal)) {
		if next := pos.Apply(legal[i]); !next.Outcome().Over() {
			mv = legal[i]
			break
		}
	}
	tb.do(tb.g.ToMove(), func(ctx context.Context, a play.Act) (play.Result, error) {
		return tb.svc.Move(ctx, a, mv.UCI())
	})
}

func (tb *table) mover() play.Seat   { return tb.g.ToMove() }
func (tb *table) waiting() play.Seat { return tb.g.Seat(tb.g.Turn().Other()) }

// script plays a game of every kind of act — moves up to the first Ice
// Age, offers declined and withdrawn, a takeback — and ends it by a
// resignation; it returns the kind of each revision it made.
func (tb *table) script() []stream.Kind {
	var kinds []stream.Kind
	moves := func(n int) {
		for range n {
			if tb.g.Over() {
				return
			}
			tb.move()
			kinds = append(kinds, stream.Moved)
		}
	}
	moves(4)
	tb.do(tb.mover(), tb.svc.OfferDraw)
	tb.do(tb.waiting(), tb.svc.DeclineDraw)
	kinds = append(kinds, stream.Offered, stream.Declined)
	moves(2)
	tb.do(tb.waiting(), tb.svc.RequestTakeback)
	tb.do(tb.mover(), tb.svc.AcceptTakeback)
	kinds = append(kinds, stream.Offered, stream.TookBack)
	tb.do(tb.mover(), tb.svc.OfferDraw)
	tb.do(tb.mover(), tb.svc.WithdrawDraw)
	kinds = append(kinds, stream.Offered, stream.Withdrawn)
	moves(40 - tb.g.Ply())
	if !tb.g.Over() {
		tb.do(tb.mover(), tb.svc.Resign)
		kinds = append(kinds, stream.Ended)
	}
	return kinds
}

// collect reads a watch's events until the game's revision rev, or
// fails after a while.
func collect(t testing.TB, w *stream.Watch, rev int) []*stream.Event {
	t.Helper()
	var out []*stream.Event
	timeout := time.After(20 * time.Second)
	for len(out) == 0 || out[len(out)-1].Revision < rev {
		select {
		case ev, ok := <-w.Events():
			if !ok {
				t.Fatalf("the watch ended after %d events: %v", len(out), w.Err())
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatalf("%d events, the last at revision %v; want up to %d", len(out), revisions(out), rev)
		}
	}
	return out
}

func revisions(evs []*stream.Event) []int {
	out := make([]int, len(evs))
	for i, ev := range evs {
		out[i] = ev.Revision
	}
	return out
}

// checkKinds checks that evs are the revisions after `after`, one
// each, in order, of kinds.
func checkKinds(t testing.TB, evs []*stream.Event, after int, kinds []stream.Kind) {
	t.Helper()
	if len(evs) != len(kinds) {
		t.Fatalf("%d events (revisions %v), want %d", len(evs), revisions(evs), len(kinds))
	}
	for i, ev := range evs {
		if ev.Revision != after+1+i || ev.Kind != kinds[i] {
			t.Fatalf("event %d is %v at revision %d, want %v at %d", i, ev.Kind, ev.Revision, kinds[i], after+1+i)
		}
	}
}

// checkEvents checks that evs are the revisions after `after`, one
// each, in order, of kinds, and that each tells the game as the record
// has it at the end.
func checkEvents(t testing.TB, evs []*stream.Event, after int, kinds []stream.Kind, final play.Game) {
	t.Helper()
	checkKinds(t, evs, after, kinds)
	checkState(t, evs[len(evs)-1], final)
}

// checkState checks that ev tells the game g as a replay does.
func checkState(t testing.TB, ev *stream.Event, g play.Game) {
	t.Helper()
	m, err := g.Match()
	if err != nil {
		t.Fatal(err)
	}
	if ev.Game != g.ID || ev.Revision != g.Revision || ev.FEN != g.FEN || ev.Outcome != g.Outcome || ev.Plies != g.Ply() ||
		!slices.Equal(ev.SANs, m.SANs()) {
		t.Fatalf("event %+v\ndoes not tell game %d at revision %d: FEN %s, outcome %v, SANs %v", *ev, g.ID, g.Revision, g.FEN, g.Outcome, m.SANs())
	}
	pos, _ := g.Position()
	if ev.IceAgeIn != pos.BlackMovesToIceAge() {
		t.Fatalf("IceAgeIn %d, want %d", ev.IceAgeIn, pos.BlackMovesToIceAge())
	}
}
