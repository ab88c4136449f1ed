package pgstore

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/iceagechess/iceage/play"
)

// encode and decode read and write play's records in the one JSON form
// every storage keeps (play.EncodeRecord), so that cmd migrate copies
// them either way unchanged; a newer record is refused (ErrNewerSchema)
// rather than losing its new fields when written back.
func encode(v any) ([]byte, error) { return play.EncodeRecord(v) }

func decode(what string, b []byte, v any) error {
	err := play.DecodeRecord(b, v)
	switch {
	case errors.Is(err, play.ErrNewerRecord):
		return fmt.Errorf("%w: %s has %v", ErrNewerSchema, what, err)
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, what, err)
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
