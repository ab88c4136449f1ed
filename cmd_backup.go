package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/store"
)

func init() {
	register("backup", "copy the database to a consistent backup file", runBackup)
}

func runBackup(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", config.DefaultPath, "configuration file naming the database (database.path)")
	db := fs.String("db", "", "database file to back up (default: the one the configuration names)")
	out := fs.String("o", "", "backup file to write (replaced atomically)")
	timeout := fs.Duration("timeout", 2*time.Second, "how long to wait for the database lock")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: iceage backup [-config config.yaml | -db iceage.db] -o backup.db")
		return 2
	}
	if st, err := os.Stat(*out); err == nil && st.IsDir() {
		// The store refuses it too; here the advice can name the flag.
		fmt.Fprintf(stderr, "backup: -o %s is a folder: name the backup file, e.g. -o %s\n", *out, filepath.Join(*out, "iceage-backup.db"))
		return 2
	}
	if *db == "" {
		c, err := config.Load(*configPath, os.Getenv)
		if err != nil {
			fmt.Fprintln(stderr, "backup:", err)
			return 1
		}
		*db = c.Database.Path
	}
	// A shared lock, no migration, nothing written to the source. A
	// running bot holds the exclusive lock, so this waits for the timeout
	// and then says so; the bot backs itself up with Store.BackupFile.
	n, err := store.CopyFile(*db, *out, *timeout)
	if err != nil {
		fmt.Fprintln(stderr, "backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", *db, *out, n)
	return 0
}
