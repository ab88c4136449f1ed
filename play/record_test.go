package play_test

import (
	"errors"
	"testing"

	"github.com/iceagechess/iceage/play"
)

func TestRecordsReadBackAndNewerOnesAreRefused(t *testing.T) {
	b, err := play.EncodeRecord(&play.Stats{Scope: "g", WhiteWins: 2})
	if err != nil {
		t.Fatal(err)
	}
	var st play.Stats
	if err := play.DecodeRecord(b, &st); err != nil || st.V != play.RecordVersion || st.WhiteWins != 2 {
		t.Fatalf("read back %+v, %v", st, err)
	}
	var g play.Game
	if err := play.DecodeRecord([]byte(`{"v": 99, "id": 4}`), &g); !errors.Is(err, play.ErrNewerRecord) {
		t.Errorf("a record of version 99: %v, want ErrNewerRecord", err)
	}
	if err := play.DecodeRecord([]byte(`{"v": `), &g); !errors.Is(err, play.ErrCorrupt) {
		t.Errorf("a cut record: %v, want ErrCorrupt", err)
	}
}
