package playtest

import (
	"testing"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

func TestMemoryStorage(t *testing.T) {
	RunStorageSuite(t, func(*testing.T) play.Storage { return memstore.New() })
}
