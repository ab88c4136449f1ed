package pgstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/iceagechess/iceage/play"
)

// Errors of the store itself. The records' errors are play's: a missing
// record wraps play.ErrNotFound, a second active game in a channel
// play.ErrChannelBusy, an unreadable record ErrCorrupt (which is a
// play.ErrCorrupt). Test with errors.Is.
var (
	// ErrInvalid means an argument cannot be stored: an empty or
	// malformed id, a game without an id, an unknown index.
	ErrInvalid = errors.New("pgstore: invalid argument")

	// ErrNewerSchema means the database, or one of its records, was
	// written by a newer version of the program; it is refused rather
	// than misread.
	ErrNewerSchema = errors.New("pgstore: the database was written by a newer version of iceage")

	// ErrCorrupt means a stored record could not be decoded.
	// errors.Is(err, play.ErrCorrupt) holds for it too.
	ErrCorrupt = fmt.Errorf("pgstore: %w", play.ErrCorrupt)
)

// checkID reports whether id can be stored: non-empty, at most 256
// bytes, and free of NUL — the rules of package store, so that a
// database can be copied either way (cmd migrate).
func checkID(what, id string) error {
	if id == "" {
		return fmt.Errorf("%w: the %s is empty", ErrInvalid, what)
	}
	if len(id) > 256 {
		return fmt.Errorf("%w: the %s is %d bytes long; at most 256 are allowed", ErrInvalid, what, len(id))
	}
	for i := 0; i < len(id); i++ {
		if id[i] == 0 {
			return fmt.Errorf("%w: the %s %q contains a NUL byte", ErrInvalid, what, id)
		}
	}
	return nil
}

// validID is checkID for lookups: an id that could never be stored finds
// nothing.
func validID(id string) bool { return checkID("", id) == nil }

func checkScope(scope string) error {
	if scope == "" {
		return nil
	}
	return checkID("scope (guild id)", scope)
}

// SQLSTATE codes after which a transaction is run again: it lost a race
// with another one, and running it again on the new state decides
// correctly. A unique violation is among them because the one unique
// index beyond the primary keys, an active game's channel, can be
// violated by a game that another transaction committed after this one
// looked (PutGame looks first and refuses with ErrChannelBusy).
const (
	codeSerialization = "40001"
	codeDeadlock      = "40P01"
	codeUnique        = "23505"
)

func retryable(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case codeSerialization, codeDeadlock, codeUnique:
		return true
	}
	return false
}
