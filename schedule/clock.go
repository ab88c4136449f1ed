package schedule

import "time"

// Clock is where a Scheduler reads the time and sleeps: System in the
// program, a fake (package clocktest) in tests, which move it by hand.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Timer returns a channel that receives the time once d has passed
	// (at once for d ≤ 0), and a function that stops the timer, as
	// time.Timer's Stop does.
	Timer(d time.Duration) (c <-chan time.Time, stop func() bool)
}

// System is the real clock.
var System Clock = systemClock{}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}
