package rating

import "math"

// epsilon is the convergence tolerance of step 5.4, the paper's value.
const epsilon = 0.000001

// maxIterations stops step 5.4 should it not converge; the paper sets no
// limit. Within the bounds it converges in a few iterations for ordinary
// results and in under 40 at their extremes (a 400 drawing dozens of games
// with 4000s in one period). FuzzUpdate checks that it converges.
const maxIterations = 100

// trace records the intermediate values of one update, on the Glicko-2
// scale, for tests against the paper's worked example.
type trace struct {
	mu, phi         float64   // step 2
	muJ, phiJ, g, e []float64 // step 3, per opponent
	v               float64   // step 3
	delta           float64   // step 4
	a, b, fA, fB    float64   // steps 5.1 to 5.3: the bracket [b, a]
	iterations      int       // step 5.4
	root            float64   // step 5.4, the final A
	converged       bool      // step 5.4 ended within epsilon
	sigma           float64   // step 5.5, σ'
	phiStar         float64   // step 6
	muPrime         float64   // step 7
	phiPrime        float64   // step 7
}

// update is Glickman's algorithm exactly, without bounds: one rating
// period of results for r with system constant tau. When tr is not nil it
// records the intermediate values. Callers check that tau is positive and
// the volatility too.
func update(r Rating, results []Result, tau float64, tr *trace) Rating {
	// Step 2: to the Glicko-2 scale.
	mu := (r.Rating - DefaultRating) / scale
	phi := r.Deviation / scale
	sigma := r.Volatility
	if tr != nil {
		tr.mu, tr.phi = mu, phi
	}
	if len(results) == 0 {
		// Step 6 alone: "the rating and volatility parameters remain the
		// same, but the RD increases".
		r.Deviation = grow(phi, sigma, 1) * scale
		return r
	}

	// Step 3: v, the estimated variance of the rating from the game
	// outcomes alone; and the sum of step 4, which step 7 reuses.
	var sumV, sumD float64
	for _, res := range results {
		muJ := (res.Opponent.Rating - DefaultRating) / scale
		phiJ := res.Opponent.Deviation / scale
		g := g(phiJ)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		sumV += g * g * e * (1 - e)
		sumD += g * (res.Score - e)
		if tr != nil {
			tr.muJ = append(tr.muJ, muJ)
			tr.phiJ = append(tr.phiJ, phiJ)
			tr.g = append(tr.g, g)
			tr.e = append(tr.e, e)
		}
	}
	v := 1 / sumV
	// Step 4: Δ, the improvement in rating the outcomes suggest.
	delta := v * sumD

	sigmaPrime := volatility(sigma, phi, v, delta, tau, tr)

	// Step 6: the pre-period deviation grows by one period.
	phiStar := grow(phi, sigmaPrime, 1)
	// Step 7.
	phiPrime := newDeviation(phiStar, v)
	muPrime := mu + phiPrime*phiPrime*sumD
	if tr != nil {
		tr.v, tr.delta, tr.sigma, tr.phiStar, tr.muPrime, tr.phiPrime = v, delta, sigmaPrime, phiStar, muPrime, phiPrime
	}
	// Step 8: back to the Glicko scale.
	return fromGlicko2(muPrime, phiPrime, sigmaPrime)
}

// volatility is step 5: the new volatility σ' from the old one, the
// deviation φ, v and Δ. When tr is not nil it records a, f(A), f(B) and
// the iterations.
func volatility(sigma, phi, v, delta, tau float64, tr *trace) float64 {
	// Step 5.1.
	a := math.Log(sigma * sigma)
	tau2 := tau * tau
	phi2 := phi * phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta*delta-phi2-v-ex)/(2*d*d) - (x-a)/tau2
	}
	// Step 5.2: bracket the root.
	A := a
	var B float64
	if delta*delta > phi2+v {
		B = math.Log(delta*delta - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	// Step 5.3.
	fA, fB := f(A), f(B)
	if tr != nil {
		tr.a, tr.b, tr.fA, tr.fB = a, B, fA, fB
	}
	// Step 5.4: the Illinois algorithm, a regula falsi that halves the
	// value kept at a stale end. The paper's "f(C)f(B) ≤ 0" (not "< 0")
	// also ends the loop when C hits the root exactly.
	n := 0
	for math.Abs(B-A) > epsilon && n < maxIterations {
		n++
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	if tr != nil {
		tr.iterations, tr.root, tr.converged = n, A, math.Abs(B-A) <= epsilon
	}
	// Step 5.5.
	return math.Exp(A / 2)
}

// grow is step 6 for any number of rating periods: the deviation φ* after
// periods without games, on the Glicko-2 scale.
func grow(phi, sigma, periods float64) float64 {
	return math.Sqrt(phi*phi + periods*sigma*sigma)
}

// newDeviation is step 7's φ', from φ* and v.
func newDeviation(phiStar, v float64) float64 {
	return 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
}

// fromGlicko2 is step 8: μ', φ' and σ' on the Glicko scale.
func fromGlicko2(mu, phi, sigma float64) Rating {
	return Rating{Rating: mu*scale + DefaultRating, Deviation: phi * scale, Volatility: sigma}
}

// g is the paper's g(φ), which weighs a game by how sure the opponent's
// rating is.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}
