package store

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

// recordVersion is the version of the records this code stores: play's
// (play.RecordVersion). A reader accepts any version up to it and treats
// missing fields as zero; migrations rewrite older records when a change
// is more than an added field.
const recordVersion = play.RecordVersion

// encode and decode are the only places records meet JSON, in play's one
// form for every storage (play.EncodeRecord). JSON because the records
// are small, read far more often than written, and must stay readable by
// tools (bbolt's CLI, jq) and by later versions of this program.
func encode(v any) ([]byte, error) { return play.EncodeRecord(v) }

// decode refuses a record of a newer version than recordVersion
// (ErrNewerSchema): its new fields would be dropped unseen, and lost for
// good when this program wrote the record back.
//
// The record is copied out of bbolt's memory map first: on a page
// damaged since the open, reading it can fault, and the fault must come
// here, in this package, where the transaction's guard knows it for
// damage, not in play's decoder, whose panics are not the file's.
func decode(what string, b []byte, v any) error {
	err := play.DecodeRecord(bytes.Clone(b), v)
	switch {
	case errors.Is(err, play.ErrNewerRecord):
		return fmt.Errorf("%w: %s has %v", ErrNewerSchema, what, err)
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, what, err)
	}
	return nil
}
