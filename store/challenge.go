package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

// Challenge is an invitation to a game, waiting for an answer until it
// expires.
type Challenge struct {
	V       int    `json:"v"`
	ID      uint64 `json:"id"`
	Guild   string `json:"guild"`
	Channel string `json:"channel"` // where it was posted; the game goes there (or in a thread)
	From    Seat   `json:"from"`
	To      Seat   `json:"to"` // ID "" for an open challenge anyone may accept

	// Color is the colour the challenger asked for: "white", "black", or
	// "" for random (drawn by the caller of AcceptChallenge).
	Color       string    `json:"color,omitempty"`
	StartFEN    string    `json:"start,omitempty"`
	Rated       bool      `json:"rated,omitempty"`
	DaysPerMove int       `json:"days,omitempty"`
	Created     time.Time `json:"created"`
	Expires     time.Time `json:"expires"`
	Message     string    `json:"message,omitempty"` // the bot's message with the buttons
}

func challengeEntries(c *Challenge) []entry {
	id := u64(c.ID)
	es := []entry{{bucketExpiries, append(timeKey(c.Expires), id...), nil}}
	es = append(es, entry{bucketChallUsers, join([]byte(c.From.ID), id), nil})
	if c.To.ID != "" && c.To.ID != c.From.ID {
		es = append(es, entry{bucketChallUsers, join([]byte(c.To.ID), id), nil})
	}
	return es
}

// CreateChallenge stores c with a new id (c.ID is ignored) and returns it.
// It fails with ErrInvalid for a missing id, an unknown colour, a bad time
// control, a bad FEN or an expiry not after the creation time.
func (s *Store) CreateChallenge(c Challenge) (Challenge, error) {
	if err := checkChallenge(&c); err != nil {
		return Challenge{}, err
	}
	c.Created, c.Expires = normTime(c.Created), normTime(c.Expires)
	err := s.update(func(tx *bolt.Tx) error {
		id, err := tx.Bucket(bucketChallenges).NextSequence()
		if err != nil {
			return err
		}
		c.ID, c.V = id, recordVersion
		b, err := encode(&c)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketChallenges).Put(u64(id), b); err != nil {
			return err
		}
		return putEntries(tx, challengeEntries(&c))
	})
	if err != nil {
		return Challenge{}, err
	}
	return c, nil
}

func checkChallenge(c *Challenge) error {
	if c.Guild != "" {
		if err := checkID("guild id", c.Guild); err != nil {
			return err
		}
	}
	if err := checkID("channel id", c.Channel); err != nil {
		return err
	}
	if err := checkID("challenger's id", c.From.ID); err != nil {
		return err
	}
	if c.To.ID != "" {
		if err := checkID("challenged user's id", c.To.ID); err != nil {
			return err
		}
	}
	switch c.Color {
	case "", "white", "black":
	default:
		return fmt.Errorf("%w: colour %q; it is \"white\", \"black\" or \"\" for random", ErrInvalid, c.Color)
	}
	if c.DaysPerMove < 0 || c.DaysPerMove > MaxDaysPerMove {
		return fmt.Errorf("%w: %d days per move; the time control is 1 to %d days, or 0 for none", ErrInvalid, c.DaysPerMove, MaxDaysPerMove)
	}
	if c.StartFEN != "" {
		if _, err := game.ParseFEN(c.StartFEN); err != nil {
			return fmt.Errorf("%w: the start position: %v", ErrInvalid, err)
		}
	}
	if !c.Expires.After(c.Created) {
		return fmt.Errorf("%w: the challenge expires (%s) no later than it is made (%s)", ErrInvalid, c.Expires.Format(time.RFC3339), c.Created.Format(time.RFC3339))
	}
	return nil
}

func loadChallenge(tx *bolt.Tx, id uint64) (*Challenge, error) {
	v := tx.Bucket(bucketChallenges).Get(u64(id))
	if v == nil {
		return nil, fmt.Errorf("%w: no challenge has id %d (answered, withdrawn or expired)", ErrNotFound, id)
	}
	c := new(Challenge)
	return c, decode(fmt.Sprintf("challenge %d", id), v, c)
}

func deleteChallenge(tx *bolt.Tx, c *Challenge) error {
	if err := tx.Bucket(bucketChallenges).Delete(u64(c.ID)); err != nil {
		return err
	}
	return deleteEntries(tx, challengeEntries(c))
}

// Challenge returns the challenge with that id, or ErrNotFound.
func (s *Store) Challenge(id uint64) (Challenge, error) {
	var c *Challenge
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		c, err = loadChallenge(tx, id)
		return err
	})
	if err != nil {
		return Challenge{}, err
	}
	return *c, nil
}

// DeleteChallenge removes a challenge (declined, withdrawn, expired) and
// returns it, or fails with ErrNotFound: of two answers at once, one wins.
func (s *Store) DeleteChallenge(id uint64) (Challenge, error) {
	var c *Challenge
	err := s.update(func(tx *bolt.Tx) (err error) {
		if c, err = loadChallenge(tx, id); err != nil {
			return err
		}
		return deleteChallenge(tx, c)
	})
	if err != nil {
		return Challenge{}, err
	}
	return *c, nil
}

// DeclineChallenge removes a challenge at the word of user by: its
// challenger withdrawing it, or the user it is addressed to declining it.
// Anyone else, including anyone but the challenger for an open challenge,
// gets ErrNotPlayer and the challenge stays. It fails with ErrNotFound if
// the challenge was already answered. (DeleteChallenge, which asks no one,
// is for the scheduler's expiries.)
func (s *Store) DeclineChallenge(id uint64, by string) (Challenge, error) {
	var c *Challenge
	err := s.update(func(tx *bolt.Tx) (err error) {
		if c, err = loadChallenge(tx, id); err != nil {
			return err
		}
		if by != c.From.ID && (c.To.ID == "" || by != c.To.ID) {
			return fmt.Errorf("%w: user %s cannot decline challenge %d, from %s to %s", ErrNotPlayer, by, id, c.From.ID, orAnyone(c.To.ID))
		}
		return deleteChallenge(tx, c)
	})
	if err != nil {
		return Challenge{}, err
	}
	return *c, nil
}

func orAnyone(id string) string {
	if id == "" {
		return "anyone"
	}
	return id
}

// Challenges returns the challenges made by or to the user, oldest first.
func (s *Store) Challenges(user string) ([]Challenge, error) {
	var out []Challenge
	err := s.db.View(func(tx *bolt.Tx) error {
		pre := prefix(user)
		c := tx.Bucket(bucketChallUsers).Cursor()
		for k, _ := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
			ch, err := loadChallenge(tx, binary.BigEndian.Uint64(k[len(pre):]))
			if err != nil {
				return fmt.Errorf("store: the challenge index points at a missing challenge: %w", err)
			}
			out = append(out, *ch)
		}
		return nil
	})
	return out, err
}

// Accept is the answer that accepts a challenge.
type Accept struct {
	By      Seat      // who accepts
	Channel string    // where the game goes ("" for the challenge's channel)
	White   bool      // whether the challenger gets White (the caller draws it for Color "")
	At      time.Time // when
}

// AcceptChallenge turns a challenge into a game, in one transaction: the
// challenge is gone and the game exists, or neither happened. It fails
// with ErrNotFound (already answered), ErrExpired, ErrNotPlayer (the
// challenge is for someone else, or is the user's own), ErrChannelBusy.
func (s *Store) AcceptChallenge(id uint64, a Accept) (Game, error) {
	var g *Game
	err := s.update(func(tx *bolt.Tx) error {
		c, err := loadChallenge(tx, id)
		if err != nil {
			return err
		}
		if !a.At.Before(c.Expires) {
			return fmt.Errorf("%w: challenge %d expired at %s", ErrExpired, id, c.Expires.Format(time.RFC3339))
		}
		if a.By.ID == c.From.ID {
			return fmt.Errorf("%w: user %s cannot accept their own challenge %d", ErrNotPlayer, a.By.ID, id)
		}
		if c.To.ID != "" && c.To.ID != a.By.ID {
			return fmt.Errorf("%w: challenge %d is for user %s, not %s", ErrNotPlayer, id, c.To.ID, a.By.ID)
		}
		white := a.White
		switch c.Color {
		case "white":
			white = true
		case "black":
			white = false
		}
		n := NewGame{Guild: c.Guild, Channel: a.Channel, StartFEN: c.StartFEN, Rated: c.Rated, DaysPerMove: c.DaysPerMove, At: a.At}
		if n.Channel == "" {
			n.Channel = c.Channel
		}
		if white {
			n.White, n.Black = c.From, a.By
		} else {
			n.White, n.Black = a.By, c.From
		}
		if g, err = createGame(tx, n); err != nil {
			return err
		}
		return deleteChallenge(tx, c)
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}
