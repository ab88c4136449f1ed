package stream_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/iceagechess/iceage/play/stream"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The events a page reads, as JSON: the move that brought the first Ice
// Age of a scripted game, and a declined draw offer.
func TestEventsAsJSON(t *testing.T) {
	st := inProcess[0].open(t)
	h := newHub(t, st, stream.Options{Buffer: 128})
	tb := newTable(t, st, "c1")
	w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
	if err != nil {
		t.Fatal(err)
	}
	tb.script()
	var iceAge, declined *stream.Event
	for _, ev := range collect(t, w, tb.g.Revision) {
		if ev.Kind == stream.Moved && ev.Moves[0].IceAge != nil {
			iceAge = ev
		}
		if ev.Kind == stream.Declined {
			declined = ev
		}
	}
	for name, ev := range map[string]*stream.Event{"iceage.json": iceAge, "declined.json": declined} {
		got, err := json.MarshalIndent(ev, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(append(got, '\n'), want) {
			t.Errorf("%s differs (go test -update rewrites it):\n%s", name, got)
		}
	}
}
