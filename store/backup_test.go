package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// backupTargets lays out, in a fresh folder, a database path and the ways
// another name can reach the same file, and returns the database path and
// the cases: a name for the backup and what the error must say.
func backupTargets(t *testing.T) (db string, cases []backupTarget) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "live")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(dir, "iceage.db")
	link := filepath.Join(root, "link-to-live")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(root, "backups")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	cases = []backupTarget{
		{"the database's own path", db, "is the database file itself"},
		{"the same path through a symbolically linked folder", filepath.Join(link, "iceage.db"), "is the database file itself"},
		{"the same path with a detour through ..", filepath.Join(dir, "..", "live", "iceage.db"), "is the database file itself"},
		{"a symbolic link to the database", filepath.Join(root, "file-link.db"), "is the database file itself"},
		{"a hard link to the database", filepath.Join(root, "hard-link.db"), "is the database file itself"},
		{"an existing folder", folder, "is a folder; name a file in it"},
	}
	return db, cases
}

type backupTarget struct {
	name, path, says string
}

// makeLinks creates the file links of backupTargets once the database
// file exists.
func makeLinks(t *testing.T, db string) {
	t.Helper()
	root := filepath.Dir(filepath.Dir(db))
	if err := os.Symlink(db, filepath.Join(root, "file-link.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(db, filepath.Join(root, "hard-link.db")); err != nil {
		t.Fatal(err)
	}
}

func TestBackupRefusesTheLiveFile(t *testing.T) {
	db, cases := backupTargets(t)
	s, err := Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	makeLinks(t, db)
	if _, err := s.CreateGame(newGame("g", "c", "w", "b", 0)); err != nil {
		t.Fatal(err)
	}
	ref := loadRefGames(t)[0]
	for i, c := range cases {
		t.Run("BackupFile refuses "+c.name+" and the moves after it survive a reopen", func(t *testing.T) {
			_, err := s.BackupFile(c.path)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("BackupFile(%s) = %v, want ErrInvalid saying %q", c.path, err, c.says)
			}
			g, err := s.Game("c")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.PlayMove("c", g.Ply(), ref.moves[i], mover(t, g), t0); err != nil {
				t.Fatal(err)
			}
		})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	again := openAt(t, db, nil)
	g, err := again.Game("c")
	if err != nil {
		t.Fatal(err)
	}
	if g.Ply() != len(cases) {
		t.Fatalf("after reopening the game has %d moves, %d were acknowledged", g.Ply(), len(cases))
	}
}

func TestCopyFileRefusesTheSourceFile(t *testing.T) {
	db, cases := backupTargets(t)
	s, err := Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGame(newGame("g", "c", "w", "b", 0)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	makeLinks(t, db)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	stBefore, _ := os.Stat(db)
	for _, c := range cases {
		t.Run("CopyFile refuses "+c.name, func(t *testing.T) {
			_, err := CopyFile(db, c.path, 0)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("CopyFile(%s) = %v, want ErrInvalid saying %q", c.path, err, c.says)
			}
			after, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			if st, _ := os.Stat(db); !os.SameFile(st, stBefore) || !bytes.Equal(after, before) {
				t.Fatal("the database file was replaced or changed")
			}
		})
	}
	t.Run("CopyFile into a folder that does not exist says so", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "missing", "b.db")
		_, err := CopyFile(db, out, 0)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "does not exist") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("CopyFile to a new name through a linked folder still works", func(t *testing.T) {
		out := filepath.Join(filepath.Dir(filepath.Dir(db)), "link-to-live", "copy.db")
		if _, err := CopyFile(db, out, 0); err != nil {
			t.Fatal(err)
		}
		c := openAt(t, out, nil)
		if _, err := c.Game("c"); err != nil {
			t.Fatal(err)
		}
	})
}
