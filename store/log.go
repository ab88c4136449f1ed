package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// A player's log is kept in bucketLog, one key per scope, user and game:
// scope NUL user NUL id (8 bytes, big-endian), so that one prefix seek
// walks a player's log in game order. A statistics page walks thousands
// of entries, so the value is a compact binary record, not JSON:
//
//	byte 0   logVersion
//	byte 1   the colour the user played (game.Color)
//	byte 2   the result (game.Result), byte 3 the reason (game.Reason)
//	byte 4   flags: 1 rated, 2 the rating and deviation follow
//	varint   when the game ended: Unix seconds (zigzag), then
//	uvarint  its nanoseconds
//	uvarint  the length of the opponent's id, then the id
//	uvarint  the length of the first move (SAN), then the move
//	8 + 8    if flag 2: the rating and deviation after the game, as
//	         big-endian IEEE 754 bits
//
// A reader refuses a version above its own (ErrNewerSchema); a later
// version may append fields, which older code never sees.
const logVersion = 1

const (
	logRated     = 1 << 0
	logHasRating = 1 << 1
)

// logPrefix is the seek prefix of the log of user in scope.
func logPrefix(scope, user string) []byte {
	b := make([]byte, 0, len(scope)+len(user)+2+8)
	b = append(b, scope...)
	b = append(b, 0)
	b = append(b, user...)
	return append(b, 0)
}

func logKey(e *play.LogEntry) []byte {
	return binary.BigEndian.AppendUint64(logPrefix(e.Scope, e.User), e.Game)
}

// encodeLogEntry writes an entry's value (not its scope, user and game,
// which are in the key).
func encodeLogEntry(e *play.LogEntry) []byte {
	b := make([]byte, 0, 5+2*binary.MaxVarintLen64+2+len(e.Opponent)+len(e.First)+16)
	var flags byte
	if e.Rated {
		flags |= logRated
	}
	if e.Rating != 0 || e.Deviation != 0 {
		flags |= logHasRating
	}
	b = append(b, logVersion, byte(e.Color), byte(e.Outcome.Result), byte(e.Outcome.Reason), flags)
	b = binary.AppendVarint(b, e.Ended.Unix())
	b = binary.AppendUvarint(b, uint64(e.Ended.Nanosecond()))
	b = binary.AppendUvarint(b, uint64(len(e.Opponent)))
	b = append(b, e.Opponent...)
	b = binary.AppendUvarint(b, uint64(len(e.First)))
	b = append(b, e.First...)
	if flags&logHasRating != 0 {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(e.Rating))
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(e.Deviation))
	}
	return b
}

// logDecoder decodes the values of one walk over a log. Opponents and
// first moves repeat from game to game, so it keeps one string of each
// instead of allocating one per entry.
type logDecoder struct {
	strs map[string]string
}

func (d *logDecoder) str(b []byte) string {
	if s, ok := d.strs[string(b)]; ok {
		return s
	}
	if d.strs == nil {
		d.strs = map[string]string{}
	}
	s := string(b)
	if len(d.strs) < 4096 {
		d.strs[s] = s
	}
	return s
}

// decode fills e from a value; e's scope, user and game come from the key.
func (d *logDecoder) decode(v []byte, e *play.LogEntry) error {
	if len(v) < 5 {
		return fmt.Errorf("%w: a log entry of %d bytes", ErrCorrupt, len(v))
	}
	switch {
	case v[0] > logVersion:
		return fmt.Errorf("%w: a log entry has version %d, this program knows up to %d", ErrNewerSchema, v[0], logVersion)
	case v[0] == 0:
		return fmt.Errorf("%w: a log entry of version 0", ErrCorrupt)
	}
	e.V = int(v[0])
	e.Color, e.Outcome = game.Color(v[1]), game.Outcome{Result: game.Result(v[2]), Reason: game.Reason(v[3])}
	flags := v[4]
	e.Rated = flags&logRated != 0
	rest := v[5:]
	sec, n := binary.Varint(rest)
	if n <= 0 {
		return fmt.Errorf("%w: a log entry's end time", ErrCorrupt)
	}
	rest = rest[n:]
	nsec, n := binary.Uvarint(rest)
	if n <= 0 || nsec >= 1e9 {
		return fmt.Errorf("%w: a log entry's end time", ErrCorrupt)
	}
	rest = rest[n:]
	e.Ended = time.Unix(sec, int64(nsec)).UTC()
	var strs [2][]byte
	for i := range strs {
		l, n := binary.Uvarint(rest)
		if n <= 0 || l > uint64(len(rest)-n) {
			return fmt.Errorf("%w: a log entry's text", ErrCorrupt)
		}
		strs[i], rest = rest[n:n+int(l)], rest[n+int(l):]
	}
	e.Opponent, e.First = d.str(strs[0]), d.str(strs[1])
	e.Rating, e.Deviation = 0, 0
	if flags&logHasRating != 0 {
		if len(rest) < 16 {
			return fmt.Errorf("%w: a log entry's rating", ErrCorrupt)
		}
		e.Rating = math.Float64frombits(binary.BigEndian.Uint64(rest))
		e.Deviation = math.Float64frombits(binary.BigEndian.Uint64(rest[8:]))
	}
	return nil
}

// PlayerLog calls fn for every entry of the user's log in scope, in
// increasing order of game id. In a read-write transaction the entries
// are read first, so that fn may write.
func (t *txn) PlayerLog(scope, user string, fn func(play.LogEntry) error) error {
	if !validID(user) || checkScope(scope) != nil {
		return nil
	}
	var (
		d     logDecoder
		later []play.LogEntry
	)
	pre := logPrefix(scope, user)
	c := t.tx.Bucket(bucketLog).Cursor()
	for k, v := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, v = c.Next() {
		if len(k) != len(pre)+8 {
			return fmt.Errorf("%w: a log key %q", ErrCorrupt, k)
		}
		e := play.LogEntry{Scope: scope, User: user, Game: binary.BigEndian.Uint64(k[len(pre):])}
		if err := d.decode(v, &e); err != nil {
			return fmt.Errorf("the log of %s in scope %q, game %d: %w", user, scope, e.Game, err)
		}
		if t.writable {
			later = append(later, e)
			continue
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	for _, e := range later {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// PutLogEntry creates or replaces the entry of e.Game in the log of e.User
// in e.Scope.
func (t *txn) PutLogEntry(e play.LogEntry) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", e.User); err != nil {
		return err
	}
	if err := checkScope(e.Scope); err != nil {
		return err
	}
	if e.Game == 0 {
		return fmt.Errorf("%w: a log entry of %s without a game id", ErrInvalid, e.User)
	}
	t.wrote = true
	if err := t.tx.Bucket(bucketLog).Put(logKey(&e), encodeLogEntry(&e)); err != nil {
		return fmt.Errorf("store: writing the log of %s: %w", e.User, err)
	}
	return nil
}
