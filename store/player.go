package store

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

// Glicko-2 defaults for a new player (Glickman's recommended values).
const (
	DefaultRating     = 1500
	DefaultDeviation  = 350
	DefaultVolatility = 0.06
)

// Rating is a player's Glicko-2 state. The store keeps it; the rating
// package computes it.
type Rating struct {
	Rating     float64   `json:"r"`
	Deviation  float64   `json:"rd"`
	Volatility float64   `json:"vol"`
	Updated    time.Time `json:"at,omitzero"` // end of the last rating period applied
}

// Tally counts finished games.
type Tally struct {
	Won   int `json:"won"`
	Lost  int `json:"lost"`
	Drawn int `json:"drawn"`
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Won + t.Lost + t.Drawn }

// Player is a user's record in one scope: a guild, or "" for everywhere.
type Player struct {
	V      int    `json:"v"`
	Scope  string `json:"scope"` // guild id, "" for the global record
	User   string `json:"user"`
	Name   string `json:"name,omitempty"` // display name at the last game
	Rating Rating `json:"rating"`

	AsWhite Tally `json:"white"`
	AsBlack Tally `json:"black"`

	// Streak is the current run: positive for wins in a row, negative for
	// losses in a row, zero after a draw. Best is the longest winning run.
	Streak     int       `json:"streak"`
	BestStreak int       `json:"best"`
	LastGame   time.Time `json:"last,omitzero"`
}

// Total returns the player's games as White and as Black together.
func (p *Player) Total() Tally {
	return Tally{p.AsWhite.Won + p.AsBlack.Won, p.AsWhite.Lost + p.AsBlack.Lost, p.AsWhite.Drawn + p.AsBlack.Drawn}
}

func newPlayer(scope, user string) *Player {
	return &Player{V: recordVersion, Scope: scope, User: user,
		Rating: Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}}
}

// count adds the finished game g, played with colour c, to the record.
func (p *Player) count(c game.Color, g *Game) {
	t := &p.AsWhite
	if c == game.Black {
		t = &p.AsBlack
	}
	w, decisive := g.Status.Winner()
	switch {
	case !decisive:
		t.Drawn++
		p.Streak = 0
	case w == c:
		t.Won++
		p.Streak = max(p.Streak, 0) + 1
		p.BestStreak = max(p.BestStreak, p.Streak)
	default:
		t.Lost++
		p.Streak = min(p.Streak, 0) - 1
	}
	p.LastGame = g.Ended
}

func playerKey(scope, user string) []byte { return join([]byte(scope), []byte(user)) }

func loadPlayer(tx *bolt.Tx, scope, user string) (*Player, error) {
	v := tx.Bucket(bucketPlayers).Get(playerKey(scope, user))
	if v == nil {
		return nil, fmt.Errorf("%w: user %s has no record in scope %q", ErrNotFound, user, scope)
	}
	p := new(Player)
	return p, decode(fmt.Sprintf("player %s in scope %q", user, scope), v, p)
}

// updatePlayer applies fn to the player's record, creating it if needed.
func updatePlayer(tx *bolt.Tx, scope, user string, fn func(*Player) error) error {
	p, err := loadPlayer(tx, scope, user)
	switch {
	case errors.Is(err, ErrNotFound):
		p = newPlayer(scope, user)
	case err != nil:
		// An unreadable record must not be replaced by a fresh one: that
		// would silently reset the player's rating and counts.
		return err
	}
	if err := fn(p); err != nil {
		return err
	}
	p.V, p.Scope, p.User = recordVersion, scope, user
	b, err := encode(p)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketPlayers).Put(playerKey(scope, user), b)
}

// Player returns the user's record in scope (a guild id, or "" for the
// global record), or ErrNotFound if the user has not finished a game there
// and has no rating yet.
func (s *Store) Player(scope, user string) (Player, error) {
	var p *Player
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		p, err = loadPlayer(tx, scope, user)
		return err
	})
	if err != nil {
		return Player{}, err
	}
	return *p, nil
}

// UpdatePlayer changes the user's record in scope with fn, creating it
// with the default rating if needed, in one transaction (rating updates).
// An error from fn is returned and nothing is written.
func (s *Store) UpdatePlayer(scope, user string, fn func(*Player) error) (Player, error) {
	if scope != "" {
		if err := checkID("guild id", scope); err != nil {
			return Player{}, err
		}
	}
	if err := checkID("user id", user); err != nil {
		return Player{}, err
	}
	var out Player
	err := s.update(func(tx *bolt.Tx) error {
		return updatePlayer(tx, scope, user, func(p *Player) error {
			if err := fn(p); err != nil {
				return refuse(err)
			}
			out = *p
			return nil
		})
	})
	if err != nil {
		return Player{}, err
	}
	out.V, out.Scope, out.User = recordVersion, scope, user
	return out, nil
}

// Players calls fn with every player record of scope, in user id order
// (leaderboards sort them as they need). An error from fn stops the walk.
func (s *Store) Players(scope string, fn func(Player) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		pre := prefix(scope)
		c := tx.Bucket(bucketPlayers).Cursor()
		for k, v := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, v = c.Next() {
			var p Player
			if err := decode(fmt.Sprintf("player %q", k), v, &p); err != nil {
				return err
			}
			if err := fn(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// Prefs are a user's settings, the same in every server. The zero value
// means "the defaults": the bot fills them in.
type Prefs struct {
	V             int    `json:"v"`
	Language      string `json:"lang,omitempty"`   // BCP 47 tag: "en", "fr", "ru", "nb", "es", "nl"
	Notifications string `json:"notify,omitempty"` // e.g. "mention", "dm", "none"
	Orientation   string `json:"orient,omitempty"` // "auto" (side to move), "white", "black"
	Theme         string `json:"theme,omitempty"`
	Vacation      bool   `json:"vacation,omitempty"`
}

// Prefs returns the user's settings; zero Prefs if none were saved.
func (s *Store) Prefs(user string) (Prefs, error) {
	var p Prefs
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketPrefs).Get([]byte(user)); v != nil {
			return decode("prefs of "+user, v, &p)
		}
		return nil
	})
	return p, err
}

// SetPrefs changes the user's settings with fn in one transaction and
// returns them. An error from fn is returned and nothing is written.
func (s *Store) SetPrefs(user string, fn func(*Prefs) error) (Prefs, error) {
	if err := checkID("user id", user); err != nil {
		return Prefs{}, err
	}
	var p Prefs
	err := s.update(func(tx *bolt.Tx) error {
		p = Prefs{}
		b := tx.Bucket(bucketPrefs)
		if v := b.Get([]byte(user)); v != nil {
			if err := decode("prefs of "+user, v, &p); err != nil {
				return err
			}
		}
		if err := fn(&p); err != nil {
			return refuse(err)
		}
		p.V = recordVersion
		v, err := encode(&p)
		if err != nil {
			return err
		}
		return b.Put([]byte(user), v)
	})
	if err != nil {
		return Prefs{}, err
	}
	return p, nil
}

// Stats are the variant-wide counts of finished games, for one guild or
// for everywhere.
type Stats struct {
	V         int `json:"v"`
	WhiteWins int `json:"white"`
	BlackWins int `json:"black"`
	Draws     int `json:"draws"`
	Aborted   int `json:"aborted"`
	// ByReason counts games by how they ended, keyed by game.Reason.
	ByReason map[game.Reason]int `json:"byReason,omitempty"`
}

// Games returns the number of games decided or drawn (aborted ones aside).
func (st *Stats) Games() int { return st.WhiteWins + st.BlackWins + st.Draws }

func (st *Stats) count(o game.Outcome) {
	switch o.Result {
	case game.WhiteWins:
		st.WhiteWins++
	case game.BlackWins:
		st.BlackWins++
	case game.Draw:
		st.Draws++
	default:
		st.Aborted++
	}
	if st.ByReason == nil {
		st.ByReason = map[game.Reason]int{}
	}
	st.ByReason[o.Reason]++
}

func updateStats(tx *bolt.Tx, scope string, fn func(*Stats)) error {
	b := tx.Bucket(bucketStats)
	key := prefix(scope)
	var st Stats
	if v := b.Get(key); v != nil {
		if err := decode(fmt.Sprintf("stats of %q", scope), v, &st); err != nil {
			return err
		}
	}
	fn(&st)
	st.V = recordVersion
	v, err := encode(&st)
	if err != nil {
		return err
	}
	return b.Put(key, v)
}

// Stats returns the counts of finished games in a guild, or everywhere for
// scope "". Nothing counted yet gives zero Stats.
func (s *Store) Stats(scope string) (Stats, error) {
	var st Stats
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketStats).Get(prefix(scope)); v != nil {
			return decode(fmt.Sprintf("stats of %q", scope), v, &st)
		}
		return nil
	})
	return st, err
}
