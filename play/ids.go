package play

import (
	"errors"
	"fmt"
)

// ErrBadID: a record that no storage keeps — an id that is empty, longer
// than MaxIDLength bytes or holds a NUL byte (storages build compound keys
// with NUL between their parts), or a record id of zero or above the
// largest signed 64-bit number.
var ErrBadID = errors.New("an id that cannot be stored")

// MaxIDLength is the longest id (a user's, channel's or guild's) a record
// may hold, in bytes; Discord's snowflakes have 20 digits at most.
const MaxIDLength = 256

// CheckID says whether id can be stored; what names it in the error.
func CheckID(what, id string) error {
	if id == "" {
		return fmt.Errorf("%w: the %s is empty", ErrBadID, what)
	}
	if len(id) > MaxIDLength {
		return fmt.Errorf("%w: the %s is %d bytes long; at most %d are allowed", ErrBadID, what, len(id), MaxIDLength)
	}
	for i := 0; i < len(id); i++ {
		if id[i] == 0 {
			return fmt.Errorf("%w: the %s %q contains a NUL byte", ErrBadID, what, id)
		}
	}
	return nil
}

func checkRecordID(what string, id uint64) error {
	if id == 0 || id > 1<<63-1 {
		return fmt.Errorf("%w: a %s without an id (take one from NextID)", ErrBadID, what)
	}
	return nil
}

// CheckIDs says whether a game's ids can be stored (ErrBadID if not).
func (g *Game) CheckIDs() error {
	if err := checkRecordID("game", g.ID); err != nil {
		return err
	}
	for _, c := range []struct{ what, id string }{{"channel id", g.Channel}, {"White player's id", g.White.ID}, {"Black player's id", g.Black.ID}} {
		if err := CheckID(c.what, c.id); err != nil {
			return fmt.Errorf("game %d: %w", g.ID, err)
		}
	}
	if g.Guild != "" {
		if err := CheckID("guild id", g.Guild); err != nil {
			return fmt.Errorf("game %d: %w", g.ID, err)
		}
	}
	return nil
}

// CheckIDs says whether a challenge's ids can be stored (ErrBadID if not).
func (c *Challenge) CheckIDs() error {
	if err := checkRecordID("challenge", c.ID); err != nil {
		return err
	}
	if err := CheckID("channel id", c.Channel); err != nil {
		return fmt.Errorf("challenge %d: %w", c.ID, err)
	}
	if err := CheckID("challenger's id", c.From.ID); err != nil {
		return fmt.Errorf("challenge %d: %w", c.ID, err)
	}
	for _, x := range []struct{ what, id string }{{"guild id", c.Guild}, {"challenged user's id", c.To.ID}} {
		if x.id == "" {
			continue // a challenge outside a server, or an open one
		}
		if err := CheckID(x.what, x.id); err != nil {
			return fmt.Errorf("challenge %d: %w", c.ID, err)
		}
	}
	return nil
}
