package store

import (
	"encoding/json"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// recordVersion is the version written into every record this code stores
// (the "v" field of play's records). A reader accepts any version up to
// its own and treats missing fields as zero; migrations rewrite older
// records when a change is more than an added field.
//
//	1, 2  the records of package store (schemas 1 and 2).
//	3     play's records: a game has a revision, and its draw offer and
//	      takeback request are objects ({"by", "ply"}), no longer ids.
const recordVersion = 3

// encode and decode are the only places records meet JSON. JSON is the
// stored format because the records are small, read far more often than
// written, and must stay readable by tools (bbolt's CLI, jq) and by later
// versions of this program: unknown fields are ignored and missing ones
// read as zero, so most schema changes need no rewrite. Each sets or
// checks the record version.
func encode(v any) ([]byte, error) {
	switch r := v.(type) {
	case *play.Game:
		r.V = recordVersion
	case *play.Challenge:
		r.V = recordVersion
	case *play.Player:
		r.V = recordVersion
	case *play.Prefs:
		r.V = recordVersion
	case *play.Stats:
		r.V = recordVersion
	}
	return json.Marshal(v)
}

// decode refuses a record of a newer version than recordVersion: its new
// fields would be dropped unseen, and lost for good when this program
// wrote the record back.
func decode(what string, b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, what, err)
	}
	var version int
	switch r := v.(type) {
	case *play.Game:
		version = r.V
	case *play.Challenge:
		version = r.V
	case *play.Player:
		version = r.V
	case *play.Prefs:
		version = r.V
	case *play.Stats:
		version = r.V
	}
	if version > recordVersion {
		return fmt.Errorf("%w: %s has record version %d, this program knows up to %d", ErrNewerSchema, what, version, recordVersion)
	}
	return nil
}
