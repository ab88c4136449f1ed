package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
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

// While the bot holds the database, the backup command asks the bot's
// listener, named by the same configuration, for the copy, and checks it
// as it checks any backup before it replaces anything.
func TestBackupCommandThroughTheBot(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "iceage.db")
	s, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	r, err := play.New(s, play.Options{}).Start(ctx, play.NewGame{Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	serve := func(w http.ResponseWriter) { s.Backup(w) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/backup" {
			http.NotFound(w, r)
			return
		}
		serve(w)
	}))
	defer srv.Close()
	cfg := filepath.Join(dir, "config.yaml")
	yaml := "database:\n  path: " + db + "\nhttp:\n  listen: " + strings.TrimPrefix(srv.URL, "http://") + "\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	backup := func(out string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := dispatch([]string{"backup", "-config", cfg, "-o", out, "-timeout", "50ms"}, &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}

	t.Run("the copy comes from the bot and opens", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "b.db")
		if code, msg := backup(out); code != 0 || !strings.Contains(msg, "the running bot") {
			t.Fatalf("exit %d: %s", code, msg)
		}
		b, err := store.Open(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		if got, err := play.New(b, play.Options{}).GameIn(ctx, "c"); err != nil || got.ID != r.Game.ID {
			t.Fatalf("the copy has game %d, %v", got.ID, err)
		}
	})
	t.Run("onto the live database through a linked folder it is refused", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
		before, _ := os.Stat(db)
		code, msg := backup(filepath.Join(link, "iceage.db"))
		if code != 1 || !strings.Contains(msg, "is the database file itself") {
			t.Fatalf("exit %d: %s", code, msg)
		}
		if after, err := os.Stat(db); err != nil || !os.SameFile(before, after) {
			t.Fatalf("the database file was replaced (%v)", err)
		}
	})
	t.Run("a damaged or cut copy replaces nothing", func(t *testing.T) {
		var whole bytes.Buffer
		if _, err := s.Backup(&whole); err != nil {
			t.Fatal(err)
		}
		for name, body := range map[string][]byte{
			"cut":     whole.Bytes()[:whole.Len()/2],
			"damaged": append(whole.Bytes()[:2*4096:2*4096], bytes.Repeat([]byte{0xA5}, whole.Len()-2*4096)...),
		} {
			serve = func(w http.ResponseWriter) { w.Write(body) }
			out := filepath.Join(t.TempDir(), "b.db")
			if err := os.WriteFile(out, []byte("the previous backup"), 0o600); err != nil {
				t.Fatal(err)
			}
			code, msg := backup(out)
			if code != 1 || !strings.Contains(msg, "the copy that the running bot sent") ||
				name == "damaged" && !strings.Contains(msg, "the database file is damaged") {
				t.Fatalf("%s: exit %d: %s", name, code, msg)
			}
			if b, _ := os.ReadFile(out); string(b) != "the previous backup" {
				t.Fatalf("%s: the previous backup was replaced", name)
			}
			if left, _ := filepath.Glob(out + ".*"); len(left) > 0 {
				t.Fatalf("%s: files left: %v", name, left)
			}
		}
	})
}
