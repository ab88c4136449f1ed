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

// checkID reports whether id can be stored (play.CheckID: the rules of
// every storage, so that a database can be copied either way by cmd
// migrate), as ErrInvalid.
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
