package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/store"
)

func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "iceage.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(store.NewGame{Channel: "c", White: store.Seat{ID: "w"}, Black: store.Seat{ID: "b"}, At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}

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
		if got, err := b.Game("c"); err != nil || got.ID != g.ID {
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
	t.Run("a backup onto the database through a linked folder is refused and the file is kept", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
		before, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := dispatch([]string{"backup", "-db", db, "-o", filepath.Join(link, "iceage.db")}, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "is the database file itself") {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		if after, err := os.Stat(db); err != nil || !os.SameFile(before, after) {
			t.Fatalf("the database file was replaced (%v)", err)
		}
	})
	t.Run("a backup onto a folder says to name a file", func(t *testing.T) {
		var out, errb bytes.Buffer
		folder := t.TempDir()
		code := dispatch([]string{"backup", "-db", db, "-o", folder}, &out, &errb)
		want := "backup: -o " + folder + " is a folder: name the backup file, e.g. -o " + filepath.Join(folder, "iceage-backup.db") + "\n"
		if code != 2 || errb.String() != want {
			t.Fatalf("exit %d, stderr %q, want %q", code, errb.String(), want)
		}
	})
	t.Run("a damaged database is not copied, and the error says to restore a backup", func(t *testing.T) {
		damaged := filepath.Join(t.TempDir(), "damaged.db")
		b, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		for i := 2 * 4096; i < len(b); i++ { // every page but the two meta pages
			b[i] = byte(i * 7)
		}
		if err := os.WriteFile(damaged, b, 0o600); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "backup.db")
		var stdout, errb bytes.Buffer
		code := dispatch([]string{"backup", "-db", damaged, "-o", out}, &stdout, &errb)
		if code != 1 || !strings.Contains(errb.String(), "damaged") || !strings.Contains(errb.String(), "Restore a backup") {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatal("a backup of the damaged file was written")
		}
	})
	t.Run("a missing database is an error", func(t *testing.T) {
		var out, errb bytes.Buffer
		if code := dispatch([]string{"backup", "-db", filepath.Join(dir, "none.db"), "-o", filepath.Join(dir, "x.db")}, &out, &errb); code != 1 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
	})
}
