// Package rating keeps Glicko-2 ratings as lichess keeps them: Mark
// Glickman's algorithm ("Example of the Glicko-2 system", glicko.net),
// volatility iteration included, with each game rated on its own and the
// bounds lichess puts on the numbers.
//
// # Basics
//
// A Rating is a rating, its deviation (how sure the rating is, one
// standard deviation, in rating points) and its volatility (how erratic
// the player is). New players start at New: 1500, deviation 350,
// volatility 0.06, the values Glickman's paper gives for an unrated
// player. A rating is provisional, shown with a "?" by Display, while its
// deviation is above 110, lichess's threshold: the 95 % interval (rating ±
// 2 deviations) is then wider than ±220 points.
//
// Update is one rating period of the paper, steps 1 to 8: a player's
// results against opponents, all rated from the ratings everyone had at
// the start of the period. With no results only step 6 applies: the
// deviation grows and nothing else changes. Game rates one game for both
// players, as lichess does after every rated game.
//
// # Rating periods and time
//
// Glickman rates the games of a period (a month, say) together; lichess,
// and this package, rate each game as a period of its own, so a rating
// moves as soon as a game ends. Time without games still counts: before a
// game, Decay grows a player's deviation by the rating periods since their
// last rated game, sqrt(φ² + t·σ²) with t fractional. Periods converts a
// duration, at lichess's 0.21436 periods a day, chosen there so that a
// typical deviation of 60 grows to 110, provisional again, after a year
// without games (with volatility 0.06: 0.21436·365·0.06² ≈ (110² − 60²) /
// 173.7178²). The game itself, a period, adds one more period's σ'² in
// step 6, as lichess's rating calculator does unless told to skip it.
//
//	w := rating.Decay(white, rating.Periods(now.Sub(whiteLastGame)))
//	b := rating.Decay(black, rating.Periods(now.Sub(blackLastGame)))
//	w, b = rating.Game(w, b, 1) // White won
//
// # Bounds
//
// Glicko-2 itself has no bounds; lichess bounds its ratings so that no
// run of results, however strange, leaves the useful range, and Update,
// Game and Decay do the same, on their inputs and their outputs:
//
//   - the deviation stays within [45, 500]: 45 keeps an established rating
//     able to move (below it a game hardly counts), and 500, lichess's
//     ceiling, is a rating that says next to nothing; a player with a game
//     every few days settles near 60;
//   - the rating stays within [400, 4000], lichess's floor and sanity
//     ceiling;
//   - the volatility stays within [0.01, 0.1]: lichess caps it at 0.1, past
//     which it may never settle again; the floor is ours (step 5 takes its
//     logarithm) and the one lichess's newer rating library uses;
//   - one period moves a rating by at most 700 points, lichess's bound on
//     one game;
//   - a score is clamped to [0, 1] and τ to [0.1, 3]; τ ≤ 0 means
//     DefaultTau, 0.75, lichess's value (Glickman suggests 0.3 to 1.2:
//     smaller τ keeps volatility steadier). Glickman's own example uses
//     τ = 0.5.
//
// Lichess itself starts players at deviation 500 and volatility 0.09, tuned
// on its data; with no such data for Ice Age Chess this package keeps the
// paper's 350 and 0.06, under which a new player is provisional for about
// ten games against established players.
//
// # Caveats
//
// The functions are pure and safe for concurrent use. NaN inputs, which
// no game produces, are replaced (a NaN score counts as a draw, a NaN
// rating field takes New's value), so that no output is ever NaN or
// infinite. The volatility iteration (step 5.4, the Illinois algorithm)
// converges in a few steps for ordinary results and in under 40 at the
// extremes of the bounds; it stops after 100 in any case.
package rating
