package play

import (
	"encoding/json"
	"errors"
	"fmt"
)

// RecordVersion is the version of the stored form of play's records,
// their "v" field. Every storage keeps records in this one form, so that
// a record written by one reads in another. Versions 1 and 2 were package
// store's own records; 3 is play's: a game has a revision, and its offers
// are objects; 4 keeps a game in a compact binary form (gamerecord.go),
// and the other records as JSON objects as before; 5 adds live time
// controls: a game's clocks and a challenge's time control (a record of
// 4 or before is correspondence); 6 keeps each move's revision (Move.Rev;
// the moves of a record of 5 or before do not know theirs).
const RecordVersion = 6

// ErrNewerRecord: a record was written by a newer version of the program.
// Read without its new fields, it would lose them when written back, so
// it is refused.
var ErrNewerRecord = errors.New("the record was written by a newer version of iceage")

// versioned is a record with a version field.
type versioned interface{ version() *int }

func (g *Game) version() *int      { return &g.V }
func (c *Challenge) version() *int { return &c.V }
func (p *Player) version() *int    { return &p.V }
func (p *Prefs) version() *int     { return &p.V }
func (s *Stats) version() *int     { return &s.V }
func (e *LogEntry) version() *int  { return &e.V }

var _ versioned = (*ServerSettings)(nil)

// EncodeRecord returns the stored form of a record (a *Game, *Challenge,
// *Player, *Prefs, *Stats or *LogEntry), with its version set to
// RecordVersion: a game's binary form, the JSON form of the others.
func EncodeRecord(v any) ([]byte, error) {
	if r, ok := v.(versioned); ok {
		*r.version() = RecordVersion
	}
	if g, ok := v.(*Game); ok {
		return appendGame(nil, g), nil
	}
	return json.Marshal(v)
}

// DecodeRecord reads the stored form of a record into v: a game in its
// binary form or, as versions up to 3 wrote it, as JSON. Errors wrap
// ErrCorrupt (it does not decode, a game's checksum does not match, or a
// game has a time or a count no game can have: see checkGame) or
// ErrNewerRecord (a version above RecordVersion); in JSON, missing
// fields read as zero and unknown ones are ignored.
func DecodeRecord(b []byte, v any) error {
	if g, ok := v.(*Game); ok && isBinaryGame(b) {
		err := decodeGame(b, g)
		if err != nil && !errors.Is(err, ErrNewerRecord) {
			err = fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if r, ok := v.(versioned); ok && *r.version() > RecordVersion {
		return fmt.Errorf("%w: record version %d, this program knows up to %d", ErrNewerRecord, *r.version(), RecordVersion)
	}
	if g, ok := v.(*Game); ok {
		if err := checkGame(g); err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	return nil
}
