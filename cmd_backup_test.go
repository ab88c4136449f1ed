package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "iceage.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := play.New(s, play.Options{}).Start(ctx, play.NewGame{Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game

	t.Run("a database in use is reported, not waited for", func(t *testing.T) {
		var out, errb bytes.Buffer
		code := dispatch([]string{"backup", "-db", db, "-o", filepath.Join(dir, "b.db"), "-timeout", "50ms"}, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "locked") {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
	})
	s.Close()

	t.Run("a closed database is copied and the copy opens", func(t *testing.T) {
		var out, errb bytes.Buffer
		backup := filepath.Join(dir, "backup.db")
		if code := dispatch([]string{"backup", "-db", db, "-o", backup}, &out, &errb); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		b, err := store.Open(backup, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if got, err := play.New(b, play.Options{}).GameIn(ctx, "c"); err != nil || got.ID != g.ID {
			t.Fatalf("the copy has game %d, %v", got.ID, err)
		}
		if err := b.Check(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("without -db the database named by the configuration is copied", func(t *testing.T) {
		cfg := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(cfg, []byte("database:\n  path: iceage.db\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := dispatch([]string{"backup", "-config", cfg, "-o", filepath.Join(dir, "from-config.db")}, &out, &errb); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		if !strings.Contains(out.String(), db) {
			t.Errorf("output %q does not name %s", out.String(), db)
		}
	})
	t.Run("a missing output flag is a usage error", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := dispatch([]string{"backup", "-db", db}, &out, &errb); code != 2 {
			t.Fatalf("exit %d", code)
		}
	})
	t.Run("a missing database is an error", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := dispatch([]string{"backup", "-db", filepath.Join(dir, "none.db"), "-o", filepath.Join(dir, "x.db")}, &out, &errb); code != 1 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
	})
}
