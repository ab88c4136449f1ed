package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/playtest"
	"github.com/iceagechess/iceage/store"
)

// exact returns the records of st as sorted JSON lines, all of each
// record: a backup keeps even an outbox item's claim.
func exact(t *testing.T, st play.Exporter) []string {
	t.Helper()
	var out []string
	_, err := st.Export(context.Background(), func(r play.Record) error {
		b, err := json.Marshal(r.Value())
		out = append(out, r.String()+" "+string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestABackupRestoredKeepsEveryKind backs up a file that holds every
// kind of record in each way there is (from the running store, to a file
// and to a stream; from the closed file, as iceage backup does), restores
// each (opens it as the database) and finds every record, equal.
func TestABackupRestoredKeepsEveryKind(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "iceage.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx play.Tx) error {
		_, err := playtest.EveryKind(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimOutbox(ctx, "process-1", playtest.T0.Add(time.Hour), time.Minute, 1); err != nil {
		t.Fatal(err)
	}
	want := exact(t, s)
	copies := map[string]string{"BackupFile": filepath.Join(dir, "live.db"), "Backup": filepath.Join(dir, "stream.db"), "CopyFile": filepath.Join(dir, "closed.db")}
	if _, err := s.BackupFile(copies["BackupFile"]); err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	if _, err := s.Backup(&stream); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copies["Backup"], stream.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := store.CopyFile(db, copies["CopyFile"], time.Second); err != nil {
		t.Fatal(err)
	}
	for how, path := range copies {
		restored, err := store.Open(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", how, err)
		}
		if d := playtest.Diff(exact(t, restored), want); d != "" {
			t.Errorf("the copy by %s differs:%s", how, d)
		}
		_ = restored.Close()
	}
}
