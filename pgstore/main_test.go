package pgstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/playtest"
)

var ctx = context.Background()

func TestMain(m *testing.M) {
	if crashChild() {
		return
	}
	os.Exit(pgtest.Main(m))
}

// openTest opens a store on a new, empty schema and closes it on cleanup.
func openTest(t testing.TB, opts *pgstore.Options) (*pgstore.Store, string) {
	t.Helper()
	url := pgtest.New(t)
	s, err := pgstore.Open(ctx, url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(s.Close)
	return s, url
}

func TestStorageSuite(t *testing.T) {
	playtest.RunStorageSuite(t, func(t *testing.T) play.Storage { s, _ := openTest(t, nil); return s })
}

// TestCapsHoldAcrossProcesses: two stores on one database, as two
// processes behind a load balancer would have, share each user's caps:
// 12 challenges at once, 6 through each, store exactly the cap of 5.
func TestCapsHoldAcrossProcesses(t *testing.T) {
	a, url := openTest(t, nil)
	b, err := pgstore.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	playtest.RunCapsAtOnce(t, a, b)
}

// TestCrossingAsksAcrossProcesses: two players asking each other at the
// same instant through two stores on one database, as two processes
// would, start one game: the second ask waits for the first, then
// accepts its challenge.
func TestCrossingAsksAcrossProcesses(t *testing.T) {
	a, url := openTest(t, nil)
	b, err := pgstore.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	playtest.RunCrossingAtOnce(t, a, b)
}
