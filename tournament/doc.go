// Package tournament pairs and ranks chess tournaments: Swiss by the
// FIDE Dutch system, round-robins by the Berger tables, standings with
// the FIDE tie-breaks, and FIDE's Tournament Report File (TRF) so that
// arbiters' own programs can check every round. Like play, it knows
// nothing of Discord: players are indexes into a Field and no clock is
// read.
//
// # Basics
//
// A Field is the tournament as pairing sees it: the entrants in
// pairing-number order (index 0 is TPN 1), each with one Game per round
// already paired, the number of rounds and the colour drawn for board 1.
// PairDutch pairs its next round by C.04.3 as in force from 1 February
// 2026 with the general rules of C.04.1 and C.04.2; BergerRound gives a
// round of a single or double round-robin (C.05 Annex 1); Standings ranks
// by score and then by Buchholz, Buchholz cut 1, Sonneborn-Berger, direct
// encounter and wins (C.07), counting unplayed rounds against a virtual
// opponent. ReadTRF and WriteTRF read and write TRF-2016 with the XXR,
// XXC, XXS and XXZ lines that JaVaFo and bbpPairings read (and TRF-2026's
// 142, 152 and 162), the first and last days (042, 052), with FIDE's
// result codes for forfeits (+, -) and byes (U the pairing's, F, H, Z
// the rounds sat out); Tournament.TRF is a tournament's export.
//
// A Tournament is one event's life: sign-up (Join, Withdraw), the start
// by the organiser or at its time (Start), results (Record), the next
// round once the current one is over (Next) and the end; late entries
// join a running Swiss with zero-point byes for the rounds they missed,
// a withdrawn player is not paired again, and a player who never moved
// and lost on time (or by the round's adjudication) lost by forfeit. The top seed's colour in
// round 1 is drawn by lot by the caller (Runner.Lot) and kept with the
// tournament (TopColor); a Swiss's pairing-allocated bye scores what the
// organiser chose (ByeScore: a point, half or none), and a round-robin's
// free player sits the round out without points. Before the first round
// Tournament.Standings is the seeding, unranked; during a round it counts
// the games over, breaks ties by the rounds over and marks those still
// playing. It does no I/O: its caller stores it and passes the time.
//
// Points are half points (a win is 2) and Sonneborn-Berger quarter
// points, so that nothing is rounded.
//
// # How a Swiss round is paired
//
// Brackets are paired from the top score down. Each bracket is one
// maximum-weight matching (blossom.go, Edmonds' algorithm) over every
// player not yet paired — the bracket and everyone below it — so that
// whatever the bracket does the rest of the round can still be paired
// (C4). An edge's weight packs the rules' criteria into bit fields, the
// most important highest (bracket.go): whether the pair is allowed at all
// (C1 no rematch, C3 no clash of absolute colour preferences below the
// top scorers), completion and the bye (C2, C4, C5), then C6 … C21 —
// pairs and scores in this bracket and the next, the bye's unplayed
// games, the colour criteria, repeated floats (C18 … C21 compare the
// floaters' scores from the highest down, a field for each score, not
// their sum). A heavier matching is a better pairing by the rules'
// order. What the criteria leave equal is
// settled in the order in which Article 4 generates candidates: which
// moved-down players are paired, their opponents, the exchanges between
// S1 and S2 of the remainder (fewest, then the smallest difference of
// BSNs, then the highest S1 and lowest S2 players), then the
// transpositions — each decision taken in turn by asking the matching
// whether an equally good pairing allows it. Colours follow C.04.3
// Article 5.
//
// # Speed
//
// A first matching is O(n³) on the players left. Every later one starts
// from the one before (blossom.go, maxWeightPerfectWarm): the duals are
// kept, raised where a weight grew, the pairs that stay tight kept, and
// only the players whose weights changed are paired again, a few
// augmentations of O(n²) each. That holds from one generation-order
// decision to the next and from one bracket to the next, since the top
// criterion lies at the same bits in every bracket of a round. The
// single players' duals are given one parity first, so that no halved
// slack is odd and a warm start never falls back to a matching from
// scratch, and two single players joined by a tight edge are paired
// before the first stage instead of by a stage each. A round's brackets
// share the memory of their weights (a triangle of the pairs), graph,
// matcher and warm starts; a graph's edges name their weights in that
// triangle rather than copy them, and a solve that favours some pairs
// marks their edges instead of changing a weight. Which of the partners
// the rules list in order a player gets (a moved-down player's opponent,
// an S1 player's in the transpositions) is one solve in which each
// candidate's pair gains its rank below every criterion, not a solve for
// each candidate, most of which would fail. A first
// round in which nobody has played is the first candidate of Article 4
// and needs no matching. BenchmarkPairDutchTRF times rounds 1 and 5 of
// 200 and 1,000 players on the files in testdata/bench, the ones the
// endorsed engine is timed on. Run side by side as whole processes, the
// pairing program (cmd/pairings) pairs round 5 of 200 players in 0.13 s
// of CPU and 6.5 MB where bbpPairings takes 0.18 s and 7.4 MB, and of
// 1,000 players in 20 s and 49 MB where it takes 38 s and 83 MB; the
// rounds 1 take no matching (bbpPairings: 0.15 s and 26 s). The
// standings of 200 players take 50 µs (BenchmarkStandings200).
//
// # Caveats
//
// C9 (the bye to the candidate with the fewest unplayed games) is
// compared in the bracket whose one downfloater is the bye: the one where
// the players below are paired among themselves. Forfeited games are not
// games for the pairing: the players may meet again and the round gives
// no colour (C.04.2 3.4). An entrant who sits out a round and was never
// paired takes no pairing number in it, as the pairing programs count:
// the colours of round 1 alternate over those present.
//
// # Proof
//
// The tournaments in testdata/dutch were paired round by round by
// bbpPairings, the engine FIDE endorses, with random results, absences,
// withdrawals, forfeits, late entries and both colours drawn for board 1;
// every round is paired again and must match it game for game
// (reference_test.go says how they are made).
package tournament
