package play

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/bits"
	"slices"
	"sync"
	"time"

	"github.com/iceagechess/iceage/game"
)

// The binary form of a game record (record version 4 and later). A game
// is the one record that piles up — a server keeps every finished game —
// so it is kept small: its moves are indexes among the legal moves, a few
// bits each, their times varint deltas, and the rest a fixed sequence of
// varints and strings after a bitmap that says which optional fields are
// present. A stored record is
//
//	version    one byte, RecordVersion (a JSON record begins with '{')
//	fields     uvarint bitmap (gameHas…), then the fields in the order
//	           of appendGame, each only if its bit is set or it is always
//	           there
//	moves      uvarint count+1 (0: nil), uvarint length of the move bits,
//	           the move bits, then each move's time as a varint delta,
//	           then (gameHasRevs) the moves' revisions
//	checksum   CRC-32C of all the bytes before it, 4 bytes little-endian
//
// Strings are a uvarint length and the bytes; signed integers zig-zag
// varints; a time is its Unix seconds as a varint (relative to Created,
// but for Created itself) and its nanoseconds as a uvarint; a float is
// its 8 IEEE bytes.
//
// Moves. Replayed from the start position, the move of ply i is stored
// as its index among the legal moves of the position before it, in
// ascending order of their game.Move value (from | to<<6 | promotion<<12:
// promotions after every other move, then by the square moved to, then
// by the square moved from), written in bits.Len(n-1) bits where n is the
// number of legal moves (none when only one is legal), least significant
// bit first. The order depends on the rules only, never on the order in
// which game generates moves. About 5 bits a move; decoding replays the
// game and so also gives its current position and each move's SAN,
// which are not stored (the SANs, a string of about 5 bytes a move,
// would double a record). A
// game whose moves do not replay (a damaged record of an older version)
// keeps its moves as UCI text and its position (gameHasRawMoves), so that
// every record encodes and the damage check can report it.
//
// A move's time is kept in milliseconds, as in the JSON form: each is
// stored as its difference d from the time before (Created for the first
// move), zig-zagged, shifted left by one, with the low bit set and d in
// seconds when d is whole seconds.
//
// A move's revision (Move.Rev, version 6) is stored as runs: a uvarint
// count of runs, then each run's first revision and length as uvarints;
// the moves of a run have consecutive revisions, a run of first
// revision 0 is of moves that do not know theirs. A game whose every
// act was a move is one run of 2 or 3 bytes; each offer, decline,
// takeback or conditional reply begins another.
//
// The checksum makes damage to a game record an error when it is read
// (ErrCorrupt), which bbolt's pages, without checksums, would not.

// gameHas… are the bits of the field bitmap.
const (
	gameHasStartFEN   = 1 << iota // StartFEN is not game.StartFEN
	gameHasFEN                    // FEN is stored: it is not the position the moves reach
	gameHasRawMoves               // moves are UCI text (they do not replay)
	gameHasCreated                // Created is not zero
	gameHasUpdated                // Updated is not zero
	gameHasEnded                  // Ended is not zero
	gameHasRated                  // Rated
	gameHasRatings                // Ratings
	gameHasEngine                 // Engine
	gameHasDays                   // DaysPerMove
	gameHasDeadline               // Deadline
	gameHasRemind                 // RemindAt
	gameHasReminded               // Reminded
	gameHasChoose                 // OpponentChooses
	gameHasFlag                   // Flag
	gameHasAwayWhite              // AwayUntil[White]
	gameHasAwayBlack              // AwayUntil[Black]
	gameHasPremoves               // Premoves
	gameHasDrawOffer              // DrawOffer
	gameHasTakeback               // Takeback
	gameHasLastOffer              // LastOffer
	gameHasReminded0              // Reminded is an empty slice, not nil
	gameHasRatings0               // Ratings is an empty slice, not nil
	gameHasPrivate                // Private
	gameHasTournament             // Tournament
	gameHasClock                  // Clock (version 5)
	gameHasRevs                   // a move knows its revision (version 6)
	gameHasAll        = 1<<iota - 1
)

// castagnoli is the CRC-32C table (hardware-accelerated on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errGameRecord is a binary game record that does not decode.
var errGameRecord = errors.New("the binary game record does not decode")

// isBinaryGame reports whether b is a game record in the binary form:
// one that does not begin as a JSON object does. (No record version is
// to be 9, 10, 13, 32 or 123, the bytes a JSON object may begin with.)
func isBinaryGame(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	switch b[0] {
	case '{', ' ', '\t', '\n', '\r':
		return false
	}
	return true
}

// GameRecordDerivesFEN reports whether b is a game record in the binary
// form whose position is not stored but is, by construction, the one its
// moves reach: decoding it replays the moves, each one of the legal
// moves, and takes the position from there. A check of stored games need
// not replay those again. It does not decode b.
func GameRecordDerivesFEN(b []byte) bool {
	if !isBinaryGame(b) || len(b) < 2 {
		return false
	}
	has, n := binary.Uvarint(b[1:])
	return n > 0 && has&(gameHasFEN|gameHasRawMoves) == 0
}

// appendGame appends the binary form of g (version RecordVersion).
func appendGame(b []byte, g *Game) []byte {
	start := len(b)
	b = append(b, RecordVersion)
	var has uint64
	set := func(bit uint64, ok bool) {
		if ok {
			has |= bit
		}
	}
	moves, fen, replays := encodeMoves(g)
	set(gameHasStartFEN, g.StartFEN != game.StartFEN)
	set(gameHasFEN, !replays || fen != g.FEN)
	set(gameHasRawMoves, !replays)
	set(gameHasCreated, !g.Created.IsZero())
	set(gameHasUpdated, !g.Updated.IsZero())
	set(gameHasEnded, !g.Ended.IsZero())
	set(gameHasRated, g.Rated)
	set(gameHasPrivate, g.Private)
	set(gameHasRatings, len(g.Ratings) > 0)
	set(gameHasRatings0, g.Ratings != nil && len(g.Ratings) == 0)
	set(gameHasEngine, g.Engine != [2]int{})
	set(gameHasDays, g.DaysPerMove != 0)
	set(gameHasDeadline, !g.Deadline.IsZero())
	set(gameHasRemind, !g.RemindAt.IsZero())
	set(gameHasReminded, len(g.Reminded) > 0)
	set(gameHasReminded0, g.Reminded != nil && len(g.Reminded) == 0)
	set(gameHasChoose, g.OpponentChooses)
	set(gameHasFlag, g.Flag != nil)
	set(gameHasAwayWhite, !g.AwayUntil[game.White].IsZero())
	set(gameHasAwayBlack, !g.AwayUntil[game.Black].IsZero())
	set(gameHasPremoves, g.Premoves != nil)
	set(gameHasDrawOffer, g.DrawOffer != nil)
	set(gameHasTakeback, g.Takeback != nil)
	set(gameHasLastOffer, g.LastOffer != [2]int{})
	set(gameHasTournament, g.Tournament != 0)
	set(gameHasClock, g.Clock != nil)
	set(gameHasRevs, slices.ContainsFunc(g.Moves, func(m Move) bool { return m.Rev != 0 }))
	b = binary.AppendUvarint(b, has)

	b = binary.AppendUvarint(b, g.ID)
	b = binary.AppendVarint(b, int64(g.Revision))
	b = appendString(b, g.Guild)
	b = appendString(b, g.Channel)
	b = appendString(b, g.White.ID)
	b = appendString(b, g.White.Name)
	b = appendString(b, g.Black.ID)
	b = appendString(b, g.Black.Name)
	if has&gameHasStartFEN != 0 {
		b = appendString(b, g.StartFEN)
	}
	if has&gameHasFEN != 0 {
		b = appendString(b, g.FEN)
	}
	b = append(b, byte(g.Outcome.Result), byte(g.Outcome.Reason), byte(g.Last))
	base := int64(0)
	if has&gameHasCreated != 0 {
		b = appendTime(b, 0, g.Created)
		base = g.Created.Unix()
	}
	if has&gameHasUpdated != 0 {
		b = appendTime(b, base, g.Updated)
	}
	if has&gameHasEnded != 0 {
		b = appendTime(b, base, g.Ended)
	}
	if has&gameHasRatings != 0 {
		b = binary.AppendUvarint(b, uint64(len(g.Ratings)))
		for _, r := range g.Ratings {
			b = appendString(b, r.Scope)
			for _, f := range [...]float64{r.Before[0], r.Before[1], r.Deviation[0], r.Deviation[1], r.After[0], r.After[1]} {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
			}
		}
	}
	if has&gameHasEngine != 0 {
		b = binary.AppendVarint(b, int64(g.Engine[0]))
		b = binary.AppendVarint(b, int64(g.Engine[1]))
	}
	if has&gameHasDays != 0 {
		b = binary.AppendVarint(b, int64(g.DaysPerMove))
	}
	if has&gameHasDeadline != 0 {
		b = appendTime(b, base, g.Deadline)
	}
	if has&gameHasRemind != 0 {
		b = appendTime(b, base, g.RemindAt)
	}
	if has&gameHasReminded != 0 {
		b = binary.AppendUvarint(b, uint64(len(g.Reminded)))
		for _, h := range g.Reminded {
			b = binary.AppendVarint(b, int64(h))
		}
	}
	if has&gameHasFlag != 0 {
		b = appendString(b, g.Flag.By)
		b = appendTime(b, base, g.Flag.At)
	}
	if has&gameHasAwayWhite != 0 {
		b = appendTime(b, base, g.AwayUntil[game.White])
	}
	if has&gameHasAwayBlack != 0 {
		b = appendTime(b, base, g.AwayUntil[game.Black])
	}
	if has&gameHasPremoves != 0 {
		b = appendString(b, g.Premoves.By)
		b = appendStrings2(b, g.Premoves.Lines)
	}
	if has&gameHasDrawOffer != 0 {
		b = appendString(b, g.DrawOffer.By)
		b = binary.AppendVarint(b, int64(g.DrawOffer.Ply))
	}
	if has&gameHasTakeback != 0 {
		b = appendString(b, g.Takeback.By)
		b = binary.AppendVarint(b, int64(g.Takeback.Ply))
	}
	if has&gameHasLastOffer != 0 {
		b = binary.AppendVarint(b, int64(g.LastOffer[0]))
		b = binary.AppendVarint(b, int64(g.LastOffer[1]))
	}
	if has&gameHasTournament != 0 {
		b = binary.AppendUvarint(b, g.Tournament)
	}
	if has&gameHasClock != 0 {
		b = appendClock(b, base, g.Clock)
	}

	// The moves: count, then their bits (or UCI text), then their times.
	if g.Moves == nil {
		b = binary.AppendUvarint(b, 0)
	} else {
		b = binary.AppendUvarint(b, uint64(len(g.Moves))+1)
	}
	if replays {
		b = binary.AppendUvarint(b, uint64(len(moves)))
		b = append(b, moves...)
	} else {
		for _, m := range g.Moves {
			b = appendString(b, m.UCI)
		}
	}
	last := g.Created.UnixMilli()
	for _, m := range g.Moves {
		ms := m.At.UnixMilli()
		b = binary.AppendUvarint(b, timeDelta(ms-last))
		last = ms
	}
	if has&gameHasRevs != 0 {
		b = appendRevs(b, g.Moves)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// revRun is a run of moves of consecutive revisions from first (0: of
// moves that do not know theirs).
type revRun struct{ first, n int }

// appendRevs appends the moves' revisions as runs.
func appendRevs(b []byte, moves []Move) []byte {
	var runs []revRun
	for _, m := range moves {
		if k := len(runs) - 1; k >= 0 {
			r := &runs[k]
			if r.first == 0 && m.Rev == 0 || r.first != 0 && m.Rev == r.first+r.n {
				r.n++
				continue
			}
		}
		runs = append(runs, revRun{m.Rev, 1})
	}
	b = binary.AppendUvarint(b, uint64(len(runs)))
	for _, r := range runs {
		b = binary.AppendUvarint(b, uint64(r.first))
		b = binary.AppendUvarint(b, uint64(r.n))
	}
	return b
}

// revs reads what appendRevs wrote into moves.
func (r *gameReader) revs(moves []Move) {
	n := r.count(2, "the moves' revisions")
	i := 0
	for range n {
		first := r.uvarint("a run of revisions")
		k := r.uvarint("a run of revisions")
		if r.err != nil {
			return
		}
		if k == 0 || k > uint64(len(moves)-i) || first > math.MaxInt32+1-k {
			r.fail("a run of revisions")
			return
		}
		for j := range int(k) {
			if first != 0 {
				moves[i].Rev = int(first) + j
			}
			i++
		}
	}
	if i != len(moves) {
		r.fail("the moves' revisions")
	}
}

// appendClock appends a live game's clocks: its time control, each
// side's time left and lag compensation, in milliseconds, and when the
// turn began (a 0 byte when no clock runs yet, else 1 and the time).
func appendClock(b []byte, base int64, k *Clock) []byte {
	for _, d := range [...]time.Duration{k.Limit, k.Increment, k.Left[0], k.Left[1],
		k.Lag[0].Quota, k.Lag[0].Estimate, k.Lag[1].Quota, k.Lag[1].Estimate} {
		b = binary.AppendVarint(b, d.Milliseconds())
	}
	if k.Since.IsZero() {
		return append(b, 0)
	}
	return appendTime(append(b, 1), base, k.Since)
}

// clock reads what appendClock wrote.
func (r *gameReader) clock(base int64) *Clock {
	k := &Clock{}
	for _, d := range [...]*time.Duration{&k.Limit, &k.Increment, &k.Left[0], &k.Left[1],
		&k.Lag[0].Quota, &k.Lag[0].Estimate, &k.Lag[1].Quota, &k.Lag[1].Estimate} {
		ms := r.varint("the clocks")
		if ms < 0 || ms > int64(maxClockTime/time.Millisecond) {
			r.fail("the clocks out of range")
			return k
		}
		*d = time.Duration(ms) * time.Millisecond
	}
	switch r.byte("the clocks' start") {
	case 0:
	case 1:
		k.Since = r.time(base, "the clocks' start")
	default:
		r.fail("the clocks' start")
	}
	return k
}

// maxClockTime bounds every duration of a clock, so that a damaged one
// cannot overflow a time: far above any time control's.
const maxClockTime = 1000 * time.Hour

// timeDelta encodes a difference of milliseconds: zig-zagged, shifted
// left, the low bit set when it is in whole seconds.
func timeDelta(d int64) uint64 {
	if d%1000 == 0 {
		return zigzag(d/1000)<<1 | 1
	}
	return zigzag(d) << 1
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendStrings2 appends lists of strings, each count+1 (0: nil).
func appendStrings2(b []byte, ls [][]string) []byte {
	if ls == nil {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(ls))+1)
	for _, l := range ls {
		if l == nil {
			b = binary.AppendUvarint(b, 0)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(l))+1)
		for _, s := range l {
			b = appendString(b, s)
		}
	}
	return b
}

func appendTime(b []byte, base int64, t time.Time) []byte {
	b = binary.AppendVarint(b, t.Unix()-base)
	return binary.AppendUvarint(b, uint64(t.Nanosecond()))
}

// encodeMoves replays g's moves and returns their bits and the position
// reached; replays is false if they do not replay from g.StartFEN.
func encodeMoves(g *Game) (moves []byte, fen string, replays bool) {
	pos, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return nil, "", false
	}
	var w bitWriter
	w.b = make([]byte, 0, len(g.Moves)*5/8+2)
	var buf [256]game.Move
	for _, m := range g.Moves {
		mv, err := game.ParseUCI(m.UCI)
		if err != nil || uciOf(mv) != m.UCI {
			return nil, "", false
		}
		legal := pos.LegalMoves(buf[:0])
		rank, found := 0, false
		for _, x := range legal {
			if x < mv {
				rank++
			} else if x == mv {
				found = true
			}
		}
		if !found {
			return nil, "", false
		}
		w.write(uint64(rank), bits.Len(uint(len(legal)-1)))
		pos = pos.Apply(mv)
	}
	return w.done(), pos.FEN(), true
}

// bitWriter packs values least significant bit first.
type bitWriter struct {
	b    []byte
	acc  uint64
	nacc int
}

func (w *bitWriter) write(v uint64, n int) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.b = append(w.b, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) done() []byte {
	if w.nacc > 0 {
		w.b = append(w.b, byte(w.acc))
	}
	return w.b
}

// gameReader reads the fields of a binary record; the first failure
// sticks, and every read after it returns zero.
type gameReader struct {
	b   []byte
	err error
}

func (r *gameReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", errGameRecord, what)
	}
	r.b = nil
}

func (r *gameReader) uvarint(what string) uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *gameReader) varint(what string) int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// int reads a varint that must fit an int of 32 bits.
func (r *gameReader) int(what string) int {
	v := r.varint(what)
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.fail(what + " out of range")
		return 0
	}
	return int(v)
}

func (r *gameReader) bytes(n uint64, what string) []byte {
	if n > uint64(len(r.b)) {
		r.fail(what)
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *gameReader) string(what string) string {
	return string(r.bytes(r.uvarint(what), what))
}

func (r *gameReader) byte(what string) byte {
	if v := r.bytes(1, what); len(v) == 1 {
		return v[0]
	}
	return 0
}

func (r *gameReader) time(base int64, what string) time.Time {
	s := r.varint(what)
	ns := r.uvarint(what)
	if ns >= 1e9 {
		r.fail(what)
		return time.Time{}
	}
	return time.Unix(s+base, int64(ns)).UTC()
}

// count reads a length of a list whose items take at least min bytes
// each, so that a damaged length cannot make the reader allocate more
// than the record could hold.
func (r *gameReader) count(minBytes int, what string) int {
	n := r.uvarint(what)
	if n > uint64(len(r.b)/minBytes) {
		r.fail(what)
		return 0
	}
	return int(n)
}

// nilOrCount reads a count+1 written for a list that may be nil: -1 for
// nil, else the count, bounded as count bounds it.
func (r *gameReader) nilOrCount(minBytes int, what string) int {
	n := r.uvarint(what)
	if n == 0 {
		return -1
	}
	if n-1 > uint64(len(r.b)/minBytes) {
		r.fail(what)
		return -1
	}
	return int(n - 1)
}

// decodeGame reads the binary form of a game record into g.
func decodeGame(b []byte, g *Game) error {
	if len(b) < 1+4 {
		return fmt.Errorf("%w: %d bytes are too few", errGameRecord, len(b))
	}
	if b[0] < 4 {
		return fmt.Errorf("%w: version %d has no binary form", errGameRecord, b[0])
	}
	// The checksum closes every binary version, so it is checked first: a
	// version byte that damage raised past ours is damage, not a record
	// of a newer program.
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return fmt.Errorf("%w: its checksum does not match: it is damaged", errGameRecord)
	}
	if b[0] > RecordVersion {
		return fmt.Errorf("%w: record version %d, this program knows up to %d", ErrNewerRecord, b[0], RecordVersion)
	}
	r := gameReader{b: body[1:]}
	*g = Game{V: int(b[0])}
	has := r.uvarint("the field bitmap")
	if has&^gameHasAll != 0 {
		return fmt.Errorf("%w: unknown fields %#x", errGameRecord, has&^gameHasAll)
	}
	g.ID = r.uvarint("the id")
	g.Revision = r.int("the revision")
	g.Guild = r.string("the guild")
	g.Channel = r.string("the channel")
	g.White.ID = r.string("White's id")
	g.White.Name = r.string("White's name")
	g.Black.ID = r.string("Black's id")
	g.Black.Name = r.string("Black's name")
	g.StartFEN = game.StartFEN
	if has&gameHasStartFEN != 0 {
		g.StartFEN = r.string("the start position")
	}
	if has&gameHasFEN != 0 {
		g.FEN = r.string("the position")
	}
	g.Outcome.Result = game.Result(r.byte("the result"))
	g.Outcome.Reason = game.Reason(r.byte("the reason"))
	g.Last = Event(r.byte("the last event"))
	base := int64(0)
	if has&gameHasCreated != 0 {
		g.Created = r.time(0, "the creation time")
		base = g.Created.Unix()
	}
	if has&gameHasUpdated != 0 {
		g.Updated = r.time(base, "the update time")
	}
	if has&gameHasEnded != 0 {
		g.Ended = r.time(base, "the end time")
	}
	if has&gameHasRatings0 != 0 {
		g.Ratings = []RatingChange{}
	}
	if has&gameHasRatings != 0 {
		n := r.count(1+6*8, "the ratings")
		g.Ratings = make([]RatingChange, n)
		for i := range g.Ratings {
			c := &g.Ratings[i]
			c.Scope = r.string("a rating's scope")
			for _, f := range [...]*float64{&c.Before[0], &c.Before[1], &c.Deviation[0], &c.Deviation[1], &c.After[0], &c.After[1]} {
				if v := r.bytes(8, "a rating"); len(v) == 8 {
					*f = math.Float64frombits(binary.LittleEndian.Uint64(v))
				}
			}
		}
	}
	if has&gameHasEngine != 0 {
		g.Engine[0] = r.int("White's engine")
		g.Engine[1] = r.int("Black's engine")
	}
	if has&gameHasDays != 0 {
		g.DaysPerMove = r.int("the days per move")
	}
	if has&gameHasDeadline != 0 {
		g.Deadline = r.time(base, "the deadline")
	}
	if has&gameHasRemind != 0 {
		g.RemindAt = r.time(base, "the reminder")
	}
	if has&gameHasReminded0 != 0 {
		g.Reminded = []int{}
	}
	if has&gameHasReminded != 0 {
		g.Reminded = make([]int, r.count(1, "the reminders"))
		for i := range g.Reminded {
			g.Reminded[i] = r.int("a reminder")
		}
	}
	g.OpponentChooses = has&gameHasChoose != 0
	g.Rated = has&gameHasRated != 0
	g.Private = has&gameHasPrivate != 0
	if has&gameHasFlag != 0 {
		g.Flag = &Flag{By: r.string("the flag")}
		g.Flag.At = r.time(base, "the flag's time")
	}
	if has&gameHasAwayWhite != 0 {
		g.AwayUntil[game.White] = r.time(base, "White's vacation")
	}
	if has&gameHasAwayBlack != 0 {
		g.AwayUntil[game.Black] = r.time(base, "Black's vacation")
	}
	if has&gameHasPremoves != 0 {
		g.Premoves = &Premoves{By: r.string("the premoves' author")}
		g.Premoves.Lines = r.strings2("the premoves")
	}
	if has&gameHasDrawOffer != 0 {
		g.DrawOffer = &Offer{By: r.string("the draw offer")}
		g.DrawOffer.Ply = r.int("the draw offer's ply")
	}
	if has&gameHasTakeback != 0 {
		g.Takeback = &Offer{By: r.string("the takeback request")}
		g.Takeback.Ply = r.int("the takeback request's ply")
	}
	if has&gameHasLastOffer != 0 {
		g.LastOffer[0] = r.int("White's last offer")
		g.LastOffer[1] = r.int("Black's last offer")
	}
	if has&gameHasTournament != 0 {
		g.Tournament = r.uvarint("the tournament")
	}
	if has&gameHasClock != 0 {
		g.Clock = r.clock(base)
	}

	// Every move takes at least one byte: its time.
	if n := r.nilOrCount(1, "the number of moves"); n >= 0 {
		g.Moves = make([]Move, n)
	}
	if r.err != nil {
		return r.err
	}
	if has&gameHasRawMoves != 0 {
		for i := range g.Moves {
			g.Moves[i].UCI = r.string("a move")
		}
	} else {
		bitsLen := r.uvarint("the length of the moves")
		moveBits := r.bytes(bitsLen, "the moves")
		if r.err != nil {
			return r.err
		}
		fen, err := decodeMoves(g.StartFEN, moveBits, g.Moves)
		if err != nil {
			return err
		}
		if has&gameHasFEN == 0 {
			g.FEN = fen
		}
	}
	last := g.Created.UnixMilli()
	for i := range g.Moves {
		u := r.uvarint("a move's time")
		d := unzigzag(u >> 1)
		if u&1 != 0 {
			d *= 1000
		}
		last += d
		g.Moves[i].At = time.UnixMilli(last).UTC()
	}
	if has&gameHasRevs != 0 {
		r.revs(g.Moves)
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: %d bytes left over", errGameRecord, len(r.b))
	}
	if err := checkGame(g); err != nil {
		return fmt.Errorf("%w: %v", errGameRecord, err)
	}
	return nil
}

// The times a game can have: none before the Unix epoch (every time of a
// game comes from a clock of its days), none after the year 9999 (the
// last that RFC 3339, and so JSON, can write).
var (
	earliestTime = time.Unix(0, 0).UTC()
	latestTime   = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

// checkGame refuses, as damage, a decoded game with a time or a count no
// game can have: a time outside earliestTime–latestTime (the zero time
// stands for none), a negative revision, time control, ply or hour, more
// ratings than scopes, a rating that is not a number, or more
// conditional moves than Premove takes. A record is checked as it is
// read rather than when it is written, so that what could not be read
// back is never mistaken for a game.
func checkGame(g *Game) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("game %d: %s", g.ID, fmt.Sprintf(format, a...))
	}
	badTime := func(t time.Time) bool {
		return !t.IsZero() && (t.Before(earliestTime) || t.After(latestTime))
	}
	for _, t := range []struct {
		what string
		t    time.Time
	}{{"creation time", g.Created}, {"update time", g.Updated}, {"end time", g.Ended}, {"deadline", g.Deadline},
		{"reminder time", g.RemindAt}, {"White's vacation", g.AwayUntil[game.White]}, {"Black's vacation", g.AwayUntil[game.Black]}} {
		if badTime(t.t) {
			return bad("its %s, %d seconds since 1970, is no time of a game", t.what, t.t.Unix())
		}
	}
	if g.Clock != nil && badTime(g.Clock.Since) {
		return bad("its clocks' start, %d seconds since 1970, is no time of a game", g.Clock.Since.Unix())
	}
	if k := g.Clock; k != nil && (!k.TimeControl.Live() || !k.TimeControl.Valid()) {
		return bad("a time control of %v+%v", k.Limit, k.Increment)
	}
	if g.Flag != nil && badTime(g.Flag.At) {
		return bad("its flag's time, %d seconds since 1970, is no time of a game", g.Flag.At.Unix())
	}
	for i, m := range g.Moves {
		if badTime(m.At) {
			return bad("move %d's time, %d seconds since 1970, is no time of a game", i+1, m.At.Unix())
		}
	}
	if g.Revision < 0 {
		return bad("revision %d", g.Revision)
	}
	if g.DaysPerMove < 0 {
		return bad("%d days a move", g.DaysPerMove)
	}
	if len(g.Ratings) > 2 {
		return bad("%d rating changes, for at most 2 scopes", len(g.Ratings))
	}
	for _, c := range g.Ratings {
		for _, f := range [...]float64{c.Before[0], c.Before[1], c.Deviation[0], c.Deviation[1], c.After[0], c.After[1]} {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return bad("a rating of %v", f)
			}
		}
	}
	for _, o := range []*Offer{g.DrawOffer, g.Takeback} {
		if o != nil && o.Ply < 0 {
			return bad("an offer at ply %d", o.Ply)
		}
	}
	if g.LastOffer[0] < 0 || g.LastOffer[1] < 0 {
		return bad("last offers %v", g.LastOffer)
	}
	for _, h := range g.Reminded {
		if h < 0 || h > MaxReminderHours {
			return bad("a reminder %d hours before the deadline", h)
		}
	}
	if g.Premoves != nil {
		if len(g.Premoves.Lines) > MaxPremoveLines {
			return bad("%d lines of conditional moves", len(g.Premoves.Lines))
		}
		for _, l := range g.Premoves.Lines {
			if len(l) > MaxPremovePlies {
				return bad("a line of %d conditional moves", len(l))
			}
		}
	}
	return nil
}

func (r *gameReader) strings2(what string) [][]string {
	n := r.nilOrCount(1, what)
	if n < 0 {
		return nil
	}
	ls := make([][]string, n)
	for i := range ls {
		m := r.nilOrCount(1, what)
		if m < 0 {
			continue
		}
		ls[i] = make([]string, m)
		for j := range ls[i] {
			ls[i][j] = r.string(what)
		}
	}
	return ls
}

// decodeMoves replays the move bits from the start position into moves
// (their UCI) and returns the FEN reached.
func decodeMoves(startFEN string, moveBits []byte, moves []Move) (string, error) {
	pos, err := game.ParseFEN(startFEN)
	if err != nil {
		return "", fmt.Errorf("%w: its start position does not read: %v", errGameRecord, err)
	}
	rd := bitReader{b: moveBits}
	var buf [256]game.Move
	var set [64]uint64
	// The SANs, written as the moves are replayed, share one string.
	sans := make([]byte, 0, len(moves)*5)
	ends := make([]int, len(moves))
	for i := range moves {
		legal := pos.LegalMoves(buf[:0])
		if len(legal) == 0 {
			return "", fmt.Errorf("%w: move %d has no legal move to be", errGameRecord, i+1)
		}
		k, ok := rd.read(bits.Len(uint(len(legal) - 1)))
		if !ok || k >= uint64(len(legal)) {
			return "", fmt.Errorf("%w: move %d is not among the legal moves", errGameRecord, i+1)
		}
		mv := nthLegal(legal, int(k), &set)
		moves[i].UCI = uciOf(mv)
		next := pos.Apply(mv)
		sans = pos.AppendSAN(sans, mv, legal, &next)
		ends[i] = len(sans)
		pos = next
	}
	if !rd.rest() {
		return "", fmt.Errorf("%w: bits left after the moves", errGameRecord)
	}
	all, start := string(sans), 0
	for i, end := range ends {
		moves[i].SAN = all[start:end]
		start = end
	}
	return pos.FEN(), nil
}

// nthLegal returns the k-th smallest of the legal moves (k < len(legal)),
// without sorting them: the moves other than promotions are below 4096,
// one bit each in a set of 64 words (set, all zero, left all zero);
// promotions, after them, are few.
func nthLegal(legal []game.Move, k int, set *[64]uint64) game.Move {
	var used uint64 // the words of set in use
	for _, m := range legal {
		if m < 4096 {
			set[m>>6] |= 1 << (m & 63)
			used |= 1 << (m >> 6)
		}
	}
	found := game.NullMove
	for ; used != 0; used &= used - 1 {
		w := bits.TrailingZeros64(used)
		word := set[w]
		set[w] = 0
		if found != game.NullMove {
			continue
		}
		if c := bits.OnesCount64(word); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			word &= word - 1
		}
		found = game.Move(w<<6 | bits.TrailingZeros64(word))
	}
	if found != game.NullMove {
		return found
	}
	// Among the promotions: the k-th smallest by insertion sort.
	var buf [64]game.Move
	p := buf[:0]
	for _, m := range legal {
		if m >= 4096 && len(p) < len(buf) {
			p = append(p, m)
		}
	}
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j] < p[j-1]; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	if k >= len(p) {
		return game.NullMove
	}
	return p[k]
}

// bitReader reads what bitWriter wrote.
type bitReader struct {
	b    []byte
	acc  uint64
	nacc int
}

func (r *bitReader) read(n int) (uint64, bool) {
	for r.nacc < n {
		if len(r.b) == 0 {
			return 0, false
		}
		r.acc |= uint64(r.b[0]) << r.nacc
		r.b = r.b[1:]
		r.nacc += 8
	}
	v := r.acc & (1<<n - 1)
	r.acc >>= n
	r.nacc -= n
	return v, true
}

// rest reports whether nothing but the zero padding of the last byte is
// left: bits a writer did not write mean damage.
func (r *bitReader) rest() bool { return len(r.b) == 0 && r.acc == 0 }

// uciOf returns m's UCI text without allocating for the usual moves:
// every from-to pair's text is a slice of one string built once.
func uciOf(m game.Move) string {
	if m >= 4096 {
		return m.UCI()
	}
	uciOnce.Do(func() {
		b := make([]byte, 0, 4096*4)
		for i := range 4096 {
			b = append(b, game.Move(i).UCI()...)
		}
		uciTable = string(b)
	})
	return uciTable[int(m)*4 : int(m)*4+4]
}

var (
	uciOnce  sync.Once
	uciTable string
)
