package store

import (
	"errors"
	"fmt"
)

// Sentinel errors. Methods wrap them with the details (which channel, which
// game, which user), so test with errors.Is, never by comparing strings.
var (
	// ErrNotFound means there is no such game, challenge or player.
	ErrNotFound = errors.New("store: not found")

	// ErrConflict means the caller's idea of the game is out of date: the
	// position changed (another move, an offer, the end of the game) since
	// the caller read it. Reload and ask the user again.
	ErrConflict = errors.New("store: the position changed")

	// ErrChannelBusy means the channel already has an active game: a
	// channel (or thread) holds at most one.
	ErrChannelBusy = errors.New("store: a game is already going on in this channel")

	// ErrNotPlayer means the user is not one of the game's two players.
	ErrNotPlayer = errors.New("store: not a player of this game")

	// ErrNotYourTurn means the user plays in the game but it is the
	// opponent's move.
	ErrNotYourTurn = errors.New("store: it is not this player's turn")

	// ErrIllegalMove means the move is not legal in the current position
	// (or is not UCI at all). The bot explains why with game.ParseMove
	// before calling the store; the store checks again inside the
	// transaction because only there is the position certain.
	ErrIllegalMove = errors.New("store: illegal move")

	// ErrTimeUp means the move came at or after the game's deadline: the
	// side to move has lost on time, and TimeOut records it.
	ErrTimeUp = errors.New("store: the time to move has run out")

	// ErrExpired means the challenge's time to answer has passed.
	ErrExpired = errors.New("store: the challenge has expired")

	// ErrInvalid means an argument cannot be stored: an empty or malformed
	// id, a bad FEN, an update that touches what only PlayMove may change.
	ErrInvalid = errors.New("store: invalid argument")

	// ErrLocked means another process holds the database file open.
	ErrLocked = errors.New("store: the database file is in use by another process")

	// ErrNewerSchema means the file was written by a newer version of the
	// program than this one; it is refused rather than misread.
	ErrNewerSchema = errors.New("store: the database file was written by a newer version of iceage")

	// ErrCorrupt means a stored record could not be decoded, or the file
	// is a bbolt database of some other program.
	ErrCorrupt = errors.New("store: corrupt record")

	// ErrDamaged means the database file is damaged: its pages are
	// inconsistent, or reading them faulted. Open refuses such a file,
	// a backup refuses to copy one, and a Store that meets damage while
	// running refuses every write from then on. The error's text says
	// what was found and how to restore a backup.
	ErrDamaged = errors.New("store: the database file is damaged")
)

// checkID reports whether id can be part of a key: non-empty, at most 256
// bytes, and free of NUL, which separates the parts of compound keys.
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
