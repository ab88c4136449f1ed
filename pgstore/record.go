package pgstore

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/iceagechess/iceage/play"
)

// recordVersion is the version written into every record (the "v" field
// of play's records). The records are the JSON objects of package store,
// with its numbering, so that cmd migrate copies them either way
// unchanged; a reader refuses a newer version rather than drop its
// fields when writing the record back.
const recordVersion = 3

func encode(v any) ([]byte, error) {
	switch r := v.(type) {
	case *play.Game:
		r.V = recordVersion
	case *play.Challenge:
		r.V = recordVersion
	case *play.Player:
		r.V = recordVersion
	case *play.Prefs:
		r.V = recordVersion
	case *play.Stats:
		r.V = recordVersion
	case *play.LogEntry:
		r.V = recordVersion
	}
	return json.Marshal(v)
}

func decode(what string, b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, what, err)
	}
	var version int
	switch r := v.(type) {
	case *play.Game:
		version = r.V
	case *play.Challenge:
		version = r.V
	case *play.Player:
		version = r.V
	case *play.Prefs:
		version = r.V
	case *play.Stats:
		version = r.V
	case *play.LogEntry:
		version = r.V
	}
	if version > recordVersion {
		return fmt.Errorf("%w: %s has record version %d, this program knows up to %d", ErrNewerSchema, what, version, recordVersion)
	}
	return nil
}

// The range of times a bigint of Unix nanoseconds holds (1678 to 2262).
// Times outside it are stored at its bounds (clamped) and read back from
// the record.
var (
	minNanoTime = time.Unix(0, math.MinInt64)
	maxNanoTime = time.Unix(0, math.MaxInt64)
)

// nanos returns t as Unix nanoseconds, clamped to the range of int64.
func nanos(t time.Time) int64 {
	switch {
	case t.Before(minNanoTime):
		return math.MinInt64
	case t.After(maxNanoTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// clamped reports whether n may stand for a time outside the range.
func clamped(n int64) bool { return n == math.MinInt64 || n == math.MaxInt64 }

// optNanos is nanos for a column that is NULL for the zero time.
func optNanos(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := nanos(t)
	return &n
}
