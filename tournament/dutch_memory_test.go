package tournament

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestDutchRefusesMorePlayersThanATRFNumbers: the matcher numbers a
// round's pairs in int32, which 9,999 players (a TRF's four digits) fit
// and a field many times larger would overflow.
func TestDutchRefusesMorePlayersThanATRFNumbers(t *testing.T) {
	_, err := PairDutch(newField(maxDutchPlayers+1, 9))
	if err == nil || !strings.Contains(err.Error(), "10000 players") {
		t.Fatalf("err = %v, want a refusal naming the 10000 players", err)
	}
}

// TestDutchAllocatesOneTableOfWeights holds round 5 of the 200-player
// benchmark Swiss to the memory it needs: one table of its pairs'
// weights, which the matcher's graphs name rather than copy, and memory
// that the round's many matchings share (their mates, warm starts and
// graphs). It allocates 2.2 MB; a copy of the weights in each graph, as
// there once was, allocated 0.9 MB more, and a new slice for each
// solve's mates and warm start another 0.5 MB.
func TestDutchAllocatesOneTableOfWeights(t *testing.T) {
	if testing.Short() {
		t.Skip("pairs a 200-player round 5, a fifth of a second")
	}
	text, err := os.ReadFile(benchFile(200, 5))
	if err != nil {
		t.Fatal(err)
	}
	trf, err := ReadTRF(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	// The least of two pairings, so that what another goroutine of the
	// test process allocates meanwhile is not counted.
	least := uint64(1<<64 - 1)
	for range 2 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := PairDutch(&trf.Field); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	const most = 5 << 19 // 2.5 MiB
	if least > most {
		t.Errorf("pairing allocated %d bytes, more than %d", least, most)
	}
}
