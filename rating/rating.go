package rating

import (
	"math"
	"strconv"
	"time"
)

// The start of every rating: Glickman's values for an unrated player.
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
)

// DefaultTau is the system constant τ that Game uses and that Update uses
// for a τ ≤ 0: lichess's value.
const DefaultTau = 0.75

// ProvisionalDeviation is the deviation above which a rating is
// provisional, lichess's threshold.
const ProvisionalDeviation = 110.0

// The bounds of Update, Game and Decay (see the package documentation).
const (
	MinRating     = 400.0
	MaxRating     = 4000.0
	MinDeviation  = 45.0
	MaxDeviation  = 500.0
	MinVolatility = 0.01
	MaxVolatility = 0.1
	MaxChange     = 700.0 // rating points in one period
	MinTau        = 0.1
	MaxTau        = 3.0
)

// PeriodsPerDay is how many rating periods a day of inactivity counts
// for, lichess's value.
const PeriodsPerDay = 0.21436

// scale converts between the Glicko scale (what players see) and the
// Glicko-2 scale: μ = (r − 1500)/scale, φ = RD/scale.
const scale = 173.7178

// Rating is a Glicko-2 rating on the Glicko scale that players see.
type Rating struct {
	Rating     float64 // 1500 at the start
	Deviation  float64 // RD: one standard deviation of the rating, in points
	Volatility float64 // σ: how erratic the player's results are
}

// New returns the rating of a player who has played no rated game.
func New() Rating {
	return Rating{DefaultRating, DefaultDeviation, DefaultVolatility}
}

// Result is one game of a rating period, seen from the rated player:
// Score is 1 for a win, 0.5 for a draw, 0 for a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// Provisional reports whether the rating is not yet reliable: its
// deviation is above ProvisionalDeviation.
func (r Rating) Provisional() bool {
	return r.Deviation > ProvisionalDeviation
}

// Display returns the rating rounded to an integer, with a "?" when it is
// provisional: "1500?", "1873".
func (r Rating) Display() string {
	v := math.Round(r.Rating)
	if v == 0 {
		v = 0 // no "-0"
	}
	s := strconv.FormatFloat(v, 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Update rates one rating period: the player's results, every opponent at
// the rating they had when the period began. With no results the
// deviation grows by one period (the paper's step 6) and nothing else
// changes. τ ≤ 0 means DefaultTau. Inputs and output are kept within the
// package's bounds.
func Update(r Rating, results []Result, tau float64) Rating {
	return rate(r, results, tau, nil)
}

// rate is Update, recording the algorithm's steps in tr when it is not nil.
func rate(r Rating, results []Result, tau float64, tr *trace) Rating {
	r = bound(r)
	switch {
	case !(tau > 0): // also NaN
		tau = DefaultTau
	case tau < MinTau:
		tau = MinTau
	case tau > MaxTau:
		tau = MaxTau
	}
	// Copy the results only when one of them needs bounding.
	rs := results
	for _, res := range results {
		if boundResult(res) != res {
			rs = make([]Result, len(results))
			for j, res := range results {
				rs[j] = boundResult(res)
			}
			break
		}
	}
	out := update(r, rs, tau, tr)
	out.Rating = math.Max(r.Rating-MaxChange, math.Min(r.Rating+MaxChange, out.Rating))
	return bound(out)
}

// Game rates one game for both players, each against the other's rating
// before the game, with DefaultTau. score is White's: 1 when White wins,
// 0.5 for a draw, 0 when Black wins.
func Game(white, black Rating, score float64) (newWhite, newBlack Rating) {
	if score != score {
		score = 0.5
	}
	newWhite = Update(white, []Result{{black, score}}, DefaultTau)
	newBlack = Update(black, []Result{{white, 1 - score}}, DefaultTau)
	return newWhite, newBlack
}

// Decay returns the rating after periods rating periods without a game
// (see Periods): the deviation grows to sqrt(φ² + periods·σ²) on the
// Glicko-2 scale, up to MaxDeviation; rating and volatility stay. Zero or
// negative periods change nothing but the bounds.
func Decay(r Rating, periods float64) Rating {
	r = bound(r)
	if !(periods > 0) {
		return r
	}
	phi := r.Deviation / scale
	r.Deviation = grow(phi, r.Volatility, periods) * scale
	return bound(r)
}

// Periods converts time without a rated game into rating periods for
// Decay, at PeriodsPerDay.
func Periods(d time.Duration) float64 {
	return d.Hours() / 24 * PeriodsPerDay
}

// boundResult bounds the opponent's rating and clamps the score to [0, 1];
// a NaN score counts as a draw.
func boundResult(res Result) Result {
	return Result{bound(res.Opponent), clamp(res.Score, 0, 1, 0.5)}
}

// bound clamps a rating into the package's bounds; a NaN field takes New's
// value.
func bound(r Rating) Rating {
	return Rating{
		Rating:     clamp(r.Rating, MinRating, MaxRating, DefaultRating),
		Deviation:  clamp(r.Deviation, MinDeviation, MaxDeviation, DefaultDeviation),
		Volatility: clamp(r.Volatility, MinVolatility, MaxVolatility, DefaultVolatility),
	}
}

func clamp(x, lo, hi, nan float64) float64 {
	switch {
	case x != x:
		return nan
	case x < lo:
		return lo
	case x > hi:
		return hi
	}
	return x
}
