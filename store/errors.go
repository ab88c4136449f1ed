package store

import (
	"errors"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// Errors of the store itself. The records' errors are play's: a missing
// record wraps play.ErrNotFound, a second active game in a channel
// play.ErrChannelBusy, an unreadable record ErrCorrupt (which is a
// play.ErrCorrupt). Methods wrap them with the details (which channel,
// which game, which user), so test with errors.Is, never by comparing
// strings.
var (
	// ErrInvalid means an argument cannot be stored: an empty or malformed
	// id, a game without an id, an unknown index.
	ErrInvalid = errors.New("store: invalid argument")

	// ErrLocked means another process holds the database file open.
	ErrLocked = errors.New("store: the database file is in use by another process")

	// ErrNewerSchema means the file, or one of its records, was written
	// by a newer version of the program than this one; it is refused
	// rather than misread.
	ErrNewerSchema = errors.New("store: the database file was written by a newer version of iceage")

	// ErrCorrupt means a stored record could not be decoded, an index
	// points at a record that is not there, or the file is a bbolt
	// database of some other program. errors.Is(err, play.ErrCorrupt)
	// holds for it too.
	ErrCorrupt = fmt.Errorf("store: %w", play.ErrCorrupt)

	// ErrDamaged means the database file is damaged: its pages are
	// inconsistent, or reading them faulted. Open refuses such a file,
	// a backup refuses to copy one, and a Store that meets damage while
	// running refuses every write from then on. The error's text says
	// what was found and how to restore a backup.
	ErrDamaged = errors.New("store: the database file is damaged")
)

// checkID reports whether id can be part of a key (play.CheckID: NUL
// separates the parts of compound keys), as ErrInvalid.
func checkID(what, id string) error { return invalid(play.CheckID(what, id)) }

// invalid marks a refusal of play's id rules with ErrInvalid.
func invalid(err error) error {
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return nil
}

// validID is checkID for lookups: an id that could never be stored finds
// nothing.
func validID(id string) bool { return checkID("", id) == nil }
