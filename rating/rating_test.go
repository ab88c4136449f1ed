package rating

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func established(r float64) Rating { return Rating{r, 60, 0.06} }

func TestGame(t *testing.T) {
	cases := []struct {
		name         string
		white, black Rating
		score        float64
		// the signs of the rating changes
		whiteSign, blackSign int
		// whether White's gain is Black's loss to the hundredth of a point
		zeroSum bool
	}{
		{"a win between equals moves both by the same amount", established(1500), established(1500), 1, 1, -1, true},
		{"a loss between equals moves both by the same amount", established(1500), established(1500), 0, -1, 1, true},
		{"a draw between equals changes no rating", established(1500), established(1500), 0.5, 0, 0, true},
		{"a draw with a weaker player costs the stronger", established(1800), established(1500), 0.5, -1, 1, true},
		{"a draw with a stronger player gains", established(1500), established(1800), 0.5, 1, -1, true},
		{"beating a much stronger player gains more than beating an equal", established(1500), established(1900), 1, 1, -1, true},
		{"a new player moves further than an established one", New(), established(1500), 1, 1, -1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, b := Game(c.white, c.black, c.score)
			dw, db := w.Rating-c.white.Rating, b.Rating-c.black.Rating
			if sign(dw) != c.whiteSign || sign(db) != c.blackSign {
				t.Fatalf("White %+.2f, Black %+.2f; want signs %d and %d", dw, db, c.whiteSign, c.blackSign)
			}
			if c.zeroSum && math.Abs(dw+db) > 0.01 {
				t.Errorf("White %+.4f, Black %+.4f: not zero-sum between equally sure ratings", dw, db)
			}
			if !c.zeroSum && math.Abs(dw) <= math.Abs(db) {
				t.Errorf("the new player moved %+.2f, the established one %+.2f", dw, db)
			}
			// The colours play no part: the same game with the colours
			// swapped rates the same.
			b2, w2 := Game(c.black, c.white, 1-c.score)
			if w2 != w || b2 != b {
				t.Errorf("swapping colours changes the ratings: %v %v, then %v %v", w, b, w2, b2)
			}
			// A game makes both ratings surer.
			if w.Deviation >= c.white.Deviation+1 || b.Deviation >= c.black.Deviation+1 {
				t.Errorf("deviations %.1f→%.1f and %.1f→%.1f", c.white.Deviation, w.Deviation, c.black.Deviation, b.Deviation)
			}
		})
	}
	t.Run("an upset gains more than an expected win", func(t *testing.T) {
		up, _ := Game(established(1500), established(1900), 1)
		exp, _ := Game(established(1500), established(1500), 1)
		if up.Rating-1500 <= exp.Rating-1500 {
			t.Errorf("beating a 1900: %+.1f; beating a 1500: %+.1f", up.Rating-1500, exp.Rating-1500)
		}
	})
	t.Run("a win and a loss are mirror images", func(t *testing.T) {
		win, _ := Game(established(1600), established(1400), 1)
		loss, _ := Game(established(1600), established(1400), 0)
		draw, _ := Game(established(1600), established(1400), 0.5)
		// A win gains (1−E) and a loss costs E of the same step, so the
		// two changes add up to twice the draw's.
		if d := (win.Rating - 1600) + (loss.Rating - 1600) - 2*(draw.Rating-1600); math.Abs(d) > 0.05 {
			t.Errorf("win %+.2f, loss %+.2f, draw %+.2f", win.Rating-1600, loss.Rating-1600, draw.Rating-1600)
		}
	})
}

func sign(x float64) int {
	switch {
	case x > 1e-9:
		return 1
	case x < -1e-9:
		return -1
	}
	return 0
}

func TestUpdateWithoutGamesGrowsOnlyTheDeviation(t *testing.T) {
	r := Rating{1720, 80, 0.06}
	got := Update(r, nil, DefaultTau)
	want := math.Sqrt(80*80 + 0.06*0.06*scale*scale) // step 6, one period
	if got.Rating != r.Rating || got.Volatility != r.Volatility || math.Abs(got.Deviation-want) > 1e-9 {
		t.Errorf("got %+v, want %+v with deviation %.4f", got, r, want)
	}
	if d := Decay(r, 1); d != got {
		t.Errorf("one period of Decay gives %+v, an empty Update %+v", d, got)
	}
}

func TestUpdateMatchesTheAlgorithmWithinTheBounds(t *testing.T) {
	r := Rating{1650, 120, 0.07}
	results := []Result{{Rating{1500, 90, 0.06}, 1}, {Rating{1800, 200, 0.05}, 0.5}, {Rating{1700, 70, 0.06}, 0}}
	if got, want := Update(r, results, 0.5), update(r, results, 0.5, nil); got != want {
		t.Errorf("Update %+v, the paper's algorithm %+v", got, want)
	}
}

func TestBounds(t *testing.T) {
	t.Run("the deviation never falls below 45", func(t *testing.T) {
		// 500 games in one period would make the deviation about 15.
		many := make([]Result, 500)
		for i := range many {
			many[i] = Result{established(1500), float64(i % 2)}
		}
		if r := Update(established(1500), many, 0); r.Deviation != MinDeviation {
			t.Errorf("deviation %.2f", r.Deviation)
		}
	})
	t.Run("years without a game end at deviation 500", func(t *testing.T) {
		r := Decay(established(1500), Periods(100*365*24*time.Hour))
		if r.Deviation != MaxDeviation {
			t.Errorf("deviation %.2f", r.Deviation)
		}
		if r := Update(Rating{1500, 2000, 0.06}, nil, 0); r.Deviation != MaxDeviation {
			t.Errorf("a deviation of 2000 is kept as %.2f", r.Deviation)
		}
	})
	t.Run("losing forever stops at 400", func(t *testing.T) {
		r := established(700)
		for range 300 {
			r, _ = Game(r, established(r.Rating+50), 0)
		}
		if r.Rating != MinRating {
			t.Errorf("rating %.2f", r.Rating)
		}
	})
	t.Run("one period moves a rating by at most 700", func(t *testing.T) {
		r := Rating{1500, 500, 0.1}
		var wins []Result
		for range 30 {
			wins = append(wins, Result{Rating{3000, 45, 0.06}, 1})
		}
		if got := Update(r, wins, 0); got.Rating != 1500+MaxChange {
			t.Errorf("30 wins over a 3000 take a 1500 to %.1f", got.Rating)
		}
	})
	t.Run("the volatility stays within [0.01, 0.1]", func(t *testing.T) {
		r := Rating{1500, 300, 0.5}
		results := []Result{{established(1000), 0}, {established(2500), 1}}
		for range 50 {
			r = Update(r, results, MaxTau)
			if r.Volatility < MinVolatility || r.Volatility > MaxVolatility {
				t.Fatalf("volatility %v", r.Volatility)
			}
		}
		if r := Update(Rating{1500, 300, 0.5}, nil, 0); r.Volatility != MaxVolatility {
			t.Errorf("a volatility of 0.5 is kept as %v", r.Volatility)
		}
		if r := Update(Rating{1500, 300, 0}, nil, 0); r.Volatility != MinVolatility {
			t.Errorf("a volatility of 0 is kept as %v", r.Volatility)
		}
	})
}

func TestTau(t *testing.T) {
	r, res := Rating{1500, 150, 0.06}, []Result{{established(2000), 1}}
	def := Update(r, res, DefaultTau)
	for _, tau := range []float64{0, -1, math.NaN(), math.Inf(-1)} {
		if got := Update(r, res, tau); got != def {
			t.Errorf("τ = %v: %+v, want DefaultTau's %+v", tau, got, def)
		}
	}
	if Update(r, res, 1e-9) != Update(r, res, MinTau) || Update(r, res, 1e9) != Update(r, res, MaxTau) {
		t.Error("τ outside [MinTau, MaxTau] is not clamped")
	}
	// A larger τ lets an upset raise the volatility more.
	if lo, hi := Update(r, res, 0.3), Update(r, res, 1.2); !(hi.Volatility > lo.Volatility) {
		t.Errorf("σ' is %v with τ 0.3 and %v with τ 1.2", lo.Volatility, hi.Volatility)
	}
}

func TestDecay(t *testing.T) {
	// PeriodsPerDay is chosen so that a deviation of 60 grows to 110 in a
	// year without games.
	r := Decay(established(1500), Periods(365*24*time.Hour))
	if math.Abs(r.Deviation-110) > 0.5 {
		t.Errorf("after a year: deviation %.2f, want about 110", r.Deviation)
	}
	if r.Rating != 1500 || r.Volatility != 0.06 {
		t.Errorf("Decay changed more than the deviation: %+v", r)
	}
	for _, p := range []float64{0, -3, math.NaN()} {
		if got := Decay(established(1500), p); got != established(1500) {
			t.Errorf("Decay by %v periods: %+v", p, got)
		}
	}
	// Two steps of time add up to one.
	a := Decay(Decay(established(1500), 2), 3)
	b := Decay(established(1500), 5)
	if math.Abs(a.Deviation-b.Deviation) > 1e-9 {
		t.Errorf("2 then 3 periods: %.6f; 5 periods: %.6f", a.Deviation, b.Deviation)
	}
	// A player with a game every three days settles near 60.
	p := New()
	for i := range 300 {
		p = Decay(p, Periods(72*time.Hour))
		p, _ = Game(p, established(1500), float64(i%2))
	}
	if p.Deviation < 55 || p.Deviation > 70 {
		t.Errorf("a game every three days: deviation %.1f", p.Deviation)
	}
}

func TestNewPlayersAreProvisionalForAboutTenGames(t *testing.T) {
	p := New()
	n := 0
	for p.Provisional() {
		n++
		p, _ = Game(p, established(1500), float64(n%2))
	}
	if n < 8 || n > 12 {
		t.Errorf("provisional for %d games", n)
	}
}

func TestProvisionalAndDisplay(t *testing.T) {
	cases := []struct {
		r           Rating
		provisional bool
		display     string
	}{
		{New(), true, "1500?"},
		{Rating{1500, 110, 0.06}, false, "1500"},
		{Rating{1500, 110.01, 0.06}, true, "1500?"},
		{Rating{1873.5, 60, 0.06}, false, "1874"},
		{Rating{1873.49, 60, 0.06}, false, "1873"},
		{Rating{-0.3, 60, 0.06}, false, "0"},
		{Rating{2201.7, 45, 0.06}, false, "2202"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v/%v", c.r.Rating, c.r.Deviation), func(t *testing.T) {
			if got := c.r.Provisional(); got != c.provisional {
				t.Errorf("Provisional() = %v", got)
			}
			if got := c.r.Display(); got != c.display {
				t.Errorf("Display() = %q, want %q", got, c.display)
			}
		})
	}
}

func TestPeriods(t *testing.T) {
	if got := Periods(24 * time.Hour); got != PeriodsPerDay {
		t.Errorf("a day is %v periods", got)
	}
	if got := Periods(0); got != 0 {
		t.Errorf("no time is %v periods", got)
	}
}

// FuzzUpdate: whatever the numbers, even NaN and infinities, Update and
// Game return finite ratings within the bounds.
func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 0.06, 1.0, 1700.0, 300.0, 0.06, 0.0, uint8(3), 0.5)
	f.Add(400.0, 45.0, 0.01, 4000.0, 45.0, 0.01, 1.0, 4000.0, 45.0, 0.1, 1.0, uint8(255), 3.0)
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(0), 0.0)
	f.Add(1e308, -1e308, 1e-308, -1e308, 1e308, 1e308, 2.0, 5e-324, 1e-300, 1e300, -1.0, uint8(40), 1e-300)
	f.Add(2000.0, 500.0, 0.1, 400.0, 45.0, 0.01, 0.0, 400.0, 45.0, 0.01, 0.0, uint8(100), 0.1)
	f.Fuzz(func(t *testing.T, r, rd, vol, r1, rd1, vol1, s1, r2, rd2, vol2, s2 float64, n uint8, tau float64) {
		me := Rating{r, rd, vol}
		var results []Result
		for i := range int(n) % 64 {
			if i%2 == 0 {
				results = append(results, Result{Rating{r1, rd1, vol1}, s1})
			} else {
				results = append(results, Result{Rating{r2, rd2, vol2}, s2})
			}
		}
		var tr trace
		checkRating(t, "Update", rate(me, results, tau, &tr))
		if len(results) > 0 && !tr.converged {
			t.Fatalf("step 5.4 did not converge in %d iterations", tr.iterations)
		}
		w, b := Game(me, Rating{r1, rd1, vol1}, s1)
		checkRating(t, "Game's White", w)
		checkRating(t, "Game's Black", b)
		checkRating(t, "Decay", Decay(me, rd2))
	})
}

func checkRating(t *testing.T, what string, r Rating) {
	t.Helper()
	for _, x := range []float64{r.Rating, r.Deviation, r.Volatility} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%s returned %+v", what, r)
		}
	}
	if r.Rating < MinRating || r.Rating > MaxRating || r.Deviation < MinDeviation || r.Deviation > MaxDeviation ||
		r.Volatility < MinVolatility || r.Volatility > MaxVolatility {
		t.Fatalf("%s returned %+v, outside the bounds", what, r)
	}
}

func BenchmarkGame(b *testing.B) {
	w, bl := New(), established(1620)
	for b.Loop() {
		w, bl = Game(w, bl, 1)
		w, bl = bl, w
	}
}

// BenchmarkUpdate rates a period of n games, as a server rating in bulk
// (a monthly recomputation, say) would.
func BenchmarkUpdate(b *testing.B) {
	for _, n := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			results := make([]Result, n)
			for i := range results {
				results[i] = Result{Rating{1300 + float64(i%7)*80, 50 + float64(i%5)*40, 0.06}, float64(i%3) / 2}
			}
			r := Rating{1550, 120, 0.06}
			b.ReportAllocs()
			for b.Loop() {
				Update(r, results, DefaultTau)
			}
		})
	}
}

func BenchmarkDecay(b *testing.B) {
	r := established(1500)
	for b.Loop() {
		r = Decay(r, 0.01)
		r.Deviation = 60
	}
}
