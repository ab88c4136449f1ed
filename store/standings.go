package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/iceagechess/iceage/play"
)

// The rating index, bucketRatings, holds one entry per player record with
// a rated game (RatedGames above zero), kept by PutPlayer, so that a
// leaderboard walks it in its order and never decodes a player record.
// The key is
//
//	scope NUL rating (8 bytes) games (4 bytes) user
//
// where rating is the IEEE 754 bits of the rating, ordered so that byte
// order is numeric order and inverted so that the highest comes first
// (-0 as 0, NaN last), and games is the number of rated games
// (RatedTally.Games(), at most 2³²-1) inverted, so that the key order is
// play.CompareStandings'. The value is what a standing needs besides:
//
//	byte 0   standingVersion
//	8 + 8    the deviation and volatility, big-endian IEEE 754 bits
//	varint   when the rating last changed: Unix seconds (zigzag), then
//	uvarint  its nanoseconds
//	varint   the rated games won, lost and drawn (zigzag)
//	rest     the display name
//
// Everything in it is rebuilt from the player records (see migrate3to4).
const standingVersion = 1

// orderedRating maps a rating to bits whose byte order is the order of
// leaderboards: the highest rating first.
func orderedRating(r float64) uint64 {
	var b uint64
	switch {
	case r != r: // NaN: below everything, as cmp.Compare puts it
		b = 0
	case r == 0: // -0 and 0 are equal ratings
		b = 1 << 63
	default:
		b = math.Float64bits(r)
		if b>>63 != 0 {
			b = ^b
		} else {
			b |= 1 << 63
		}
	}
	return ^b
}

func ratingOfOrdered(x uint64) float64 {
	b := ^x
	if b>>63 != 0 {
		b &^= 1 << 63
	} else {
		b = ^b
	}
	return math.Float64frombits(b)
}

// standingKey returns the key of a player's entry in the rating index;
// ok is false for a player who has none (no rated game).
func standingKey(scope, user string, rating float64, ratedGames int, tally play.Tally) (key []byte, ok bool) {
	if ratedGames <= 0 {
		return nil, false
	}
	games := uint32(min(max(tally.Games(), 0), math.MaxUint32))
	b := make([]byte, 0, len(scope)+1+12+len(user))
	b = append(b, scope...)
	b = append(b, 0)
	b = binary.BigEndian.AppendUint64(b, orderedRating(rating))
	b = binary.BigEndian.AppendUint32(b, ^games)
	return append(b, user...), true
}

func standingValue(p *play.Player) []byte {
	b := make([]byte, 0, 1+16+4*binary.MaxVarintLen64+len(p.Name))
	b = append(b, standingVersion)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(p.Rating.Deviation))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(p.Rating.Volatility))
	b = binary.AppendVarint(b, p.Rating.Updated.Unix())
	b = binary.AppendUvarint(b, uint64(p.Rating.Updated.Nanosecond()))
	for _, n := range []int{p.RatedTally.Won, p.RatedTally.Lost, p.RatedTally.Drawn} {
		b = binary.AppendVarint(b, int64(n))
	}
	return append(b, p.Name...)
}

// standingEntry returns a player record's entry in the rating index, if
// it has one.
func standingEntry(p *play.Player) (e entry, ok bool) {
	k, ok := standingKey(p.Scope, p.User, p.Rating.Rating, p.RatedGames, p.RatedTally)
	if !ok {
		return entry{}, false
	}
	return entry{bucketRatings, k, standingValue(p)}, true
}

// decodePlayer decodes the player record v stored under k; its scope and
// user are the key's, which PutPlayer writes from them.
func decodePlayer(k, v []byte) (play.Player, error) {
	var p play.Player
	i := bytes.IndexByte(k, 0)
	if i < 0 {
		return p, fmt.Errorf("%w: a player key %q without its NUL", ErrCorrupt, k)
	}
	err := decode(fmt.Sprintf("player %q", k), v, &p)
	p.Scope, p.User = string(k[:i]), string(k[i+1:])
	return p, err
}

// ratedPart is what a stored player record's entry in the rating index is
// keyed by: PutPlayer reads it from the record it replaces, without
// decoding the rest.
type ratedPart struct {
	V      int `json:"v"`
	Rating struct {
		Rating float64 `json:"r"`
	} `json:"rating"`
	RatedGames int        `json:"rated"`
	RatedTally play.Tally `json:"ratedTally"`
}

// oldStandingKey returns the key of the entry of the stored record v of
// user in scope, nil if it has none. A record of a newer version is not
// to be replaced (its new fields would be lost): ErrNewerSchema.
func oldStandingKey(scope, user string, v []byte) ([]byte, error) {
	var r ratedPart
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, fmt.Errorf("%w: player %s in scope %q: %v", ErrCorrupt, user, scope, err)
	}
	if r.V > recordVersion {
		return nil, fmt.Errorf("%w: player %s in scope %q has record version %d, this program knows up to %d", ErrNewerSchema, user, scope, r.V, recordVersion)
	}
	k, _ := standingKey(scope, user, r.Rating.Rating, r.RatedGames, r.RatedTally)
	return k, nil
}

// standingDecoder decodes the entries of one walk over the rating index.
type standingDecoder struct {
	buf []byte
}

// decode reads the entry k, v whose scope prefix is pre.
func (d *standingDecoder) decode(pre, k, v []byte) (play.Standing, error) {
	var s play.Standing
	if len(k) < len(pre)+12+1 {
		return s, fmt.Errorf("%w: a rating index key %q", ErrCorrupt, k)
	}
	switch {
	case len(v) == 0:
		return s, fmt.Errorf("%w: an empty rating index entry %q", ErrCorrupt, k)
	case v[0] > standingVersion:
		return s, fmt.Errorf("%w: a rating index entry has version %d, this program knows up to %d", ErrNewerSchema, v[0], standingVersion)
	case v[0] == 0 || len(v) < 17:
		return s, fmt.Errorf("%w: a rating index entry %q", ErrCorrupt, k)
	}
	s.Rating.Rating = ratingOfOrdered(binary.BigEndian.Uint64(k[len(pre):]))
	s.Rating.Deviation = math.Float64frombits(binary.BigEndian.Uint64(v[1:]))
	s.Rating.Volatility = math.Float64frombits(binary.BigEndian.Uint64(v[9:]))
	rest := v[17:]
	sec, n := binary.Varint(rest)
	if n <= 0 {
		return s, fmt.Errorf("%w: a rating index entry %q", ErrCorrupt, k)
	}
	rest = rest[n:]
	nsec, n := binary.Uvarint(rest)
	if n <= 0 || nsec >= 1e9 {
		return s, fmt.Errorf("%w: a rating index entry %q", ErrCorrupt, k)
	}
	rest = rest[n:]
	s.Rating.Updated = time.Unix(sec, int64(nsec)).UTC()
	var tally [3]int64
	for i := range tally {
		if tally[i], n = binary.Varint(rest); n <= 0 {
			return s, fmt.Errorf("%w: a rating index entry %q", ErrCorrupt, k)
		}
		rest = rest[n:]
	}
	s.Tally = play.Tally{Won: int(tally[0]), Lost: int(tally[1]), Drawn: int(tally[2])}
	// The user id and the name share one allocation.
	user := k[len(pre)+12:]
	d.buf = append(append(d.buf[:0], user...), rest...)
	both := string(d.buf)
	s.User, s.Name = both[:len(user)], both[len(user):]
	return s, nil
}

// Standings calls fn for the players of scope with a rated game, highest
// rating first (play.CompareStandings), from the rating index. In a
// read-write transaction the entries are read first, so that fn may
// write.
func (t *txn) Standings(scope string, fn func(play.Standing) error) error {
	if checkScope(scope) != nil {
		return nil
	}
	var (
		d     standingDecoder
		later []play.Standing
	)
	pre := prefix(scope)
	c := t.tx.Bucket(bucketRatings).Cursor()
	for k, v := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, v = c.Next() {
		s, err := d.decode(pre, k, v)
		if err != nil {
			return err
		}
		if t.writable {
			later = append(later, s)
			continue
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	for _, s := range later {
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// indexPlayer moves a player's entry in the rating index from old (the
// key of the record replaced, nil if it had none) to the one of p.
func (t *txn) indexPlayer(old []byte, p *play.Player) error {
	idx := t.tx.Bucket(bucketRatings)
	now, has := standingEntry(p)
	if old != nil && (!has || !bytes.Equal(old, now.key)) {
		if err := idx.Delete(old); err != nil {
			return fmt.Errorf("store: unindexing the rating of %s: %w", p.User, err)
		}
	}
	if !has || bytes.Equal(idx.Get(now.key), now.val) {
		return nil
	}
	if err := idx.Put(now.key, now.val); err != nil {
		return fmt.Errorf("store: indexing the rating of %s: %w", p.User, err)
	}
	return nil
}
