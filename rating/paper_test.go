package rating

import (
	"math"
	"testing"
)

// The worked example of Glickman's "Example of the Glicko-2 system": a
// player rated 1500, RD 200, σ 0.06 beats a 1400 (RD 30), loses to a 1550
// (RD 100) and to a 1700 (RD 300), with τ = 0.5.
var (
	paperPlayer  = Rating{1500, 200, 0.06}
	paperResults = []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}
)

const paperTau = 0.5

// roundsTo reports whether got, rounded to the decimals of the printed
// value want, is want.
func roundsTo(got, want float64, decimals int) bool {
	p := math.Pow(10, float64(decimals))
	return math.Round(got*p) == math.Round(want*p)
}

// The paper computes from the start values at full precision as far as
// step 3's g and E, and prints them rounded; those values, and φ', μ' and
// RD', which depend little on what it rounded, come out of the exact
// algorithm digit for digit.
func TestThePaperExampleDigitForDigit(t *testing.T) {
	var tr trace
	got := update(paperPlayer, paperResults, paperTau, &tr)
	check := func(name string, got, want float64, decimals int) {
		t.Helper()
		if !roundsTo(got, want, decimals) {
			t.Errorf("%s = %.*f (%v), the paper prints %.*f", name, decimals, got, got, decimals, want)
		}
	}
	check("μ", tr.mu, 0, 4)
	check("φ", tr.phi, 1.1513, 4)
	for j, want := range []struct{ mu, phi, g, e float64 }{
		{-0.5756, 0.1727, 0.9955, 0.639},
		{0.2878, 0.5756, 0.9531, 0.432},
		{1.1513, 1.7269, 0.7242, 0.303},
	} {
		check("μ"+string(rune('1'+j)), tr.muJ[j], want.mu, 4)
		check("φ"+string(rune('1'+j)), tr.phiJ[j], want.phi, 4)
		check("g(φ"+string(rune('1'+j))+")", tr.g[j], want.g, 4)
		check("E"+string(rune('1'+j)), tr.e[j], want.e, 3)
	}
	check("φ'", tr.phiPrime, 0.8722, 4)
	check("μ'", tr.muPrime, -0.2069, 4)
	check("RD'", got.Deviation, 151.52, 2)
}

// From v on, the paper carries its rounded values (E to three digits)
// into the next step, so its last digits of v, Δ, σ', φ* and r' differ
// from the exact algorithm's. Two checks meet that: steps 5 to 8, fed the
// paper's printed values, print what the paper prints; and the exact
// algorithm gives what an independent implementation (the glicko2 package
// of npm, 1.2.2) gives for the same example, to 12 significant digits.
func TestThePaperExampleStepByStep(t *testing.T) {
	t.Run("step 5 from the printed φ, v and Δ gives σ' = 0.05999", func(t *testing.T) {
		var tr trace
		sigma := volatility(0.06, 1.1513, 1.7785, -0.4834, paperTau, &tr)
		if !roundsTo(tr.a, -5.62682, 5) {
			t.Errorf("a = ln(σ²) = %.5f, want -5.62682", tr.a)
		}
		// Δ² = 0.2337 is not above φ² + v = 3.1040, so B = a − kτ with
		// the first k for which f(a − kτ) ≥ 0: k = 1.
		if !roundsTo(tr.b, -6.12682, 5) || !roundsTo(tr.fA, -0.00053567, 8) || tr.fB < 0 {
			t.Errorf("bracket [B, A] = [%.5f, %.5f] with f(A) = %.8f, f(B) = %.5f; want [-6.12682, -5.62682], f(A) = -0.00053567, f(B) ≥ 0", tr.b, tr.a, tr.fA, tr.fB)
		}
		if !roundsTo(tr.root, -5.62696, 5) {
			t.Errorf("the iteration ends at A = %.5f, want -5.62696", tr.root)
		}
		// The paper cuts σ' = 0.0599960 to five decimals.
		if cut := math.Trunc(sigma*1e5) / 1e5; cut != 0.05999 {
			t.Errorf("σ' = %.7f, printed 0.05999", sigma)
		}
	})
	t.Run("step 6 from the printed φ and σ' gives φ* = 1.152862", func(t *testing.T) {
		if got := grow(1.1513, 0.05999, 1); !roundsTo(got, 1.152862, 6) {
			t.Errorf("φ* = %.6f", got)
		}
	})
	t.Run("step 7 from the printed φ* and v gives φ' = 0.8722", func(t *testing.T) {
		if got := newDeviation(1.152862, 1.7785); !roundsTo(got, 0.8722, 4) {
			t.Errorf("φ' = %.4f", got)
		}
	})
	t.Run("step 8 from the printed μ' and φ' gives r' = 1464.06 and RD' = 151.52", func(t *testing.T) {
		got := fromGlicko2(-0.2069, 0.8722, 0.05999)
		if !roundsTo(got.Rating, 1464.06, 2) || !roundsTo(got.Deviation, 151.52, 2) {
			t.Errorf("r' = %.2f, RD' = %.2f", got.Rating, got.Deviation)
		}
	})
	t.Run("the exact algorithm", func(t *testing.T) {
		var tr trace
		got := update(paperPlayer, paperResults, paperTau, &tr)
		for _, c := range []struct {
			name       string
			got, exact float64 // exact: the independent implementation's
			paper      float64 // what the paper prints, for the record
		}{
			{"r'", got.Rating, 1464.0506705393013, 1464.06},
			{"RD'", got.Deviation, 151.51652412385727, 151.52},
			{"σ'", got.Volatility, 0.059995984286488495, 0.05999},
		} {
			if math.Abs(c.got-c.exact) > 1e-12*math.Abs(c.exact) {
				t.Errorf("%s = %v, want %v (the paper, from rounded values: %v)", c.name, c.got, c.exact, c.paper)
			}
		}
		// v and Δ from unrounded E are 1.7790 and -0.4839; the paper's
		// 1.7785 and -0.4834 are what its E, rounded to three digits, give.
		if !roundsTo(tr.v, 1.7790, 4) || !roundsTo(tr.delta, -0.4839, 4) {
			t.Errorf("v = %.4f, Δ = %.4f; want 1.7790 and -0.4839", tr.v, tr.delta)
		}
		if tr.iterations > 10 {
			t.Errorf("step 5.4 took %d iterations", tr.iterations)
		}
	})
}

// The paper's values, fed through its own formulas with its rounded g
// and E, give its printed v and Δ: the difference above is the paper's
// rounding, not a different formula.
func TestThePaperRoundsBeforeSumming(t *testing.T) {
	g := []float64{0.9955, 0.9531, 0.7242}
	e := []float64{0.639, 0.432, 0.303}
	var sumV, sumD float64
	for j := range g {
		sumV += g[j] * g[j] * e[j] * (1 - e[j])
		sumD += g[j] * (paperResults[j].Score - e[j])
	}
	v := 1 / sumV
	if !roundsTo(v, 1.7785, 4) || !roundsTo(v*sumD, -0.4834, 4) {
		t.Errorf("from the rounded g and E: v = %.4f, Δ = %.4f; the paper prints 1.7785 and -0.4834", v, v*sumD)
	}
}
