package play

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/iceagechess/iceage/game"
)

// Leaderboard page sizes.
const (
	DefaultPageSize = 10
	MaxPageSize     = 50
)

// Standing is one player's line on a leaderboard.
type Standing struct {
	// Rank is 1 for the best player; players whose ratings round to the
	// same number share a rank (1, 2, 2, 4).
	Rank int
	User string
	Name string // the display name at the player's last game
	// Rating is the rating as it stands at the leaderboard's time: its
	// deviation has grown since the last rated game, and Provisional
	// says whether to mark it with "?".
	Rating Rating
	// Tally counts the rated games and their results.
	Tally Tally
}

// WinRate returns the share of the rated games won, in [0, 1].
func (s *Standing) WinRate() float64 {
	if n := s.Tally.Games(); n > 0 {
		return float64(s.Tally.Won) / float64(n)
	}
	return 0
}

// Standings is one page of a leaderboard.
type Standings struct {
	Scope string
	Page  int // from 1 to Pages
	Pages int // at least 1, even for an empty board
	Size  int // players per page
	// Ranked is the number of players on the board, on every page.
	Ranked int
	Rows   []Standing
}

// StandingOf returns the player's line on a leaderboard, without its
// rank: what ReadTx.Standings gives for a player with a rated game.
func StandingOf(p *Player) Standing {
	return Standing{User: p.User, Name: p.Name, Rating: p.Rating, Tally: p.RatedTally}
}

// CompareStandings is the order of a leaderboard, and of ReadTx.Standings:
// the higher rating first, then the one of more rated games
// (Tally.Games()), then the smaller user id.
func CompareStandings(a, b Standing) int {
	if c := cmp.Compare(b.Rating.Rating, a.Rating.Rating); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Tally.Games(), a.Tally.Games()); c != 0 {
		return c
	}
	return cmp.Compare(a.User, b.User)
}

// Leaderboard ranks the players of scope (a guild id, or "" for
// everywhere) by rating and returns page page (from 1) of size players
// each (DefaultPageSize if not positive, at most MaxPageSize). A page
// beyond the last gives the last. On the board are the players with a
// rated game in scope within InactiveAfter before now; a player away
// longer comes back with their next rated game. Players of equal rating
// are ordered by rated games, most first, then by user id
// (CompareStandings).
//
// It walks the scope's standings once, in the order the storage keeps
// them (ReadTx.Standings), counting the players on the board and ranking
// them as it goes, and keeps only the rows of the page: for 10,000
// players it takes about 1 ms on bbolt, whose rating index is in that
// order (store's BenchmarkLeaderboard), and 0.2 ms on the in-memory
// storage, which keeps them sorted until a player changes
// (BenchmarkLeaderboard).
func (s *Service) Leaderboard(ctx context.Context, scope string, page, size int, now time.Time) (Standings, error) {
	switch {
	case size <= 0:
		size = DefaultPageSize
	case size > MaxPageSize:
		size = MaxPageSize
	}
	page = max(page, 1)
	var (
		st Standings
		// rows is the page asked for; last the page being walked before
		// it, which is the answer if the board ends before that page.
		rows, last []Standing
	)
	err := s.st.View(ctx, func(tx ReadTx) error {
		st = Standings{Scope: scope, Size: size}
		rows, last = make([]Standing, 0, size), make([]Standing, 0, size)
		rank, rounded := 0, 0.0
		return tx.Standings(scope, func(r Standing) error {
			if now.Sub(r.Rating.Updated) > InactiveAfter {
				return nil
			}
			n := st.Ranked // the number of players before this one
			st.Ranked++
			if x := math.Round(r.Rating.Rating); n == 0 || x != rounded {
				rank, rounded = n+1, x
			}
			r.Rank = rank
			switch p := n/size + 1; {
			case p == page:
				rows = append(rows, r)
			case p < page:
				if n%size == 0 {
					last = last[:0]
				}
				last = append(last, r)
			}
			return nil
		})
	})
	if err != nil {
		return Standings{}, err
	}
	st.Pages = max(1, (st.Ranked+size-1)/size)
	st.Page = min(page, st.Pages)
	if page > st.Pages {
		rows = last
	}
	if len(rows) > 0 {
		st.Rows = rows
	}
	for i := range st.Rows {
		st.Rows[i].Rating = st.Rows[i].Rating.At(now)
	}
	return st, nil
}

// RatingPoint is a player's rating right after a rated game.
type RatingPoint struct {
	Game      uint64
	At        time.Time // when the game ended
	Rating    float64
	Deviation float64
}

// Favourite is a move a player chose most often, and in how many games.
type Favourite struct {
	Move  string // SAN, "" for none
	Games int
}

// Profile is a player's statistics in one scope.
type Profile struct {
	// Player is the user's record in scope: the rating, the results as
	// White and as Black (Total for both), the current and longest
	// winning streaks, the games lost to a frozen king. A user with no
	// finished game there gets NewPlayer's record.
	Player Player
	// History is the rating after each rated game, in the order the games
	// ended, for a chart: the scope's own ratings, correspondence.
	History []RatingPoint
	// BySpeed is the same for each live speed's ratings (RatingScope);
	// nil for a speed without a rated game.
	BySpeed map[Speed][]RatingPoint
	// Openings are the user's favourite first moves in games from the ice
	// start position, as White and as Black: [game.White] and
	// [game.Black]. Of two moves played equally often, the one played
	// more recently is the favourite.
	Openings [2]Favourite
	// Versus is the user's record against the other user PlayerStats was
	// asked about, from the user's side (zero if none).
	Versus Tally
	// Logged is the number of the user's finished games in the log.
	Logged int
}

// PlayerStats returns the statistics of user in scope (a guild id, or ""
// for everywhere), with the head-to-head record against vs ("" for none).
// It reads the player's record and walks their log once: for a player of
// 5,000 games it takes about half a millisecond, on the in-memory storage
// (BenchmarkPlayerStats) as on bbolt (store's).
func (s *Service) PlayerStats(ctx context.Context, scope, user, vs string) (Profile, error) {
	var pr Profile
	type count struct {
		n    int
		last uint64
	}
	var firsts [2]map[string]count
	err := s.st.View(ctx, func(tx ReadTx) error {
		pr = Profile{}
		firsts = [2]map[string]count{{}, {}}
		p, err := tx.Player(scope, user)
		switch {
		case errors.Is(err, ErrNotFound):
			p = NewPlayer(scope, user)
		case err != nil:
			return err
		}
		pr.Player = p
		return tx.PlayerLog(scope, user, func(e LogEntry) error {
			pr.Logged++
			if e.Rated {
				pt := RatingPoint{Game: e.Game, At: e.Ended, Rating: e.Rating, Deviation: e.Deviation}
				if e.Speed == Correspondence { // the chart of the scope's own ratings
					pr.History = append(pr.History, pt)
				} else {
					if pr.BySpeed == nil {
						pr.BySpeed = map[Speed][]RatingPoint{}
					}
					pr.BySpeed[e.Speed] = append(pr.BySpeed[e.Speed], pt)
				}
			}
			if e.First != "" && e.Color <= game.Black {
				c := firsts[e.Color][e.First]
				firsts[e.Color][e.First] = count{c.n + 1, max(c.last, e.Game)}
			}
			if vs != "" && vs != user && e.Opponent == vs {
				pr.Versus.add(e.Color, e.Outcome)
			}
			return nil
		})
	})
	if err != nil {
		return Profile{}, err
	}
	byTime := func(a, b RatingPoint) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.Game, b.Game)) }
	if !slices.IsSortedFunc(pr.History, byTime) {
		slices.SortStableFunc(pr.History, byTime)
	}
	for _, h := range pr.BySpeed {
		if !slices.IsSortedFunc(h, byTime) {
			slices.SortStableFunc(h, byTime)
		}
	}
	for c, moves := range firsts {
		best := count{}
		for mv, n := range moves {
			if n.n > best.n || n.n == best.n && n.last > best.last {
				best = n
				pr.Openings[c] = Favourite{Move: mv, Games: n.n}
			}
		}
	}
	return pr, nil
}

// Shares returns the shares of White's wins, Black's wins and draws among
// the games counted (aborted ones aside), each in [0, 1]; zeros if none.
func (st *Stats) Shares() (white, black, draws float64) {
	n := float64(st.Games())
	if n == 0 {
		return 0, 0, 0
	}
	return float64(st.WhiteWins) / n, float64(st.BlackWins) / n, float64(st.Draws) / n
}

// IceAgesPerGame returns the average number of Ice Ages in a game counted.
func (st *Stats) IceAgesPerGame() float64 {
	if n := st.Games(); n > 0 {
		return float64(st.IceAges) / float64(n)
	}
	return 0
}

// Ending is how many games ended one way.
type Ending struct {
	Reason game.Reason
	Games  int
}

// Endings returns how the games counted ended, the most frequent first
// (ties in the order of game.Reason's numbers), ways no game ended left
// out.
func (st *Stats) Endings() []Ending {
	var out []Ending
	for r, n := range st.ByReason {
		if n > 0 && r != game.Aborted {
			out = append(out, Ending{r, n})
		}
	}
	slices.SortFunc(out, func(a, b Ending) int { return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.Reason, b.Reason)) })
	return out
}

// VariantStats returns the counts of the finished games of scope (a guild
// id, or "" for everywhere): White's wins, Black's, draws, aborted games,
// how they ended and their Ice Ages. Shares, Endings and IceAgesPerGame
// put them as the variant's statistics page does.
func (s *Service) VariantStats(ctx context.Context, scope string) (Stats, error) {
	var st Stats
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		st, err = tx.Stats(scope)
		return err
	})
	st.Scope = scope
	return st, err
}

// Player returns the user's record in scope (a guild id, or "" for
// everywhere): NewPlayer's for a user with no finished game there.
func (s *Service) Player(ctx context.Context, scope, user string) (Player, error) {
	var p Player
	err := s.st.View(ctx, func(tx ReadTx) (err error) {
		p, err = tx.Player(scope, user)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return NewPlayer(scope, user), nil
	}
	return p, err
}
