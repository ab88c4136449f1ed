package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
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
	listener := fs.String("http", "", "the running bot's HTTP listener (default: http.listen of the configuration), asked for the copy when the bot holds the database")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: iceage backup [-config config.yaml | -db iceage.db] -o backup.db")
		return 2
	}
	if *db == "" || *listener == "" {
		c, err := config.Load(*configPath, os.Getenv)
		if err != nil {
			fmt.Fprintln(stderr, "backup:", err)
			return 1
		}
		if *db == "" {
			*db = c.Database.Path
		}
		if *listener == "" {
			*listener = c.HTTP.Listen
		}
	}
	// A shared lock, no migration, nothing written to the source. A
	// running bot holds the exclusive lock: then the bot itself writes the
	// copy, asked through its HTTP listener.
	n, err := store.CopyFile(*db, *out, *timeout)
	from := *db
	if errors.Is(err, store.ErrLocked) && *listener != "" {
		from = "the running bot at " + *listener
		n, err = backupFromBot(*listener, *out)
	}
	if err != nil {
		fmt.Fprintln(stderr, "backup:", err)
		if errors.Is(err, store.ErrLocked) {
			fmt.Fprintln(stderr, "backup: set http.listen in the bot's configuration (e.g. 127.0.0.1:8080), and this command asks the running bot for the copy")
		}
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", from, *out, n)
	return 0
}

// backupFromBot asks a running bot's listener for a consistent copy of its
// database, writes it beside out, checks that it opens as a healthy
// database, and only then renames it over out.
func backupFromBot(listen, out string) (int64, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return 0, fmt.Errorf("the listener %q is no host:port", listen)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1" // bound to every address: ask this machine's
	}
	resp, err := http.Get("http://" + net.JoinHostPort(host, port) + "/backup")
	if err != nil {
		return 0, fmt.Errorf("asking the running bot for a copy: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("the running bot answered %s to a backup", resp.Status)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".iceage-backup-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	n, err := io.Copy(tmp, resp.Body)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("writing the copy: %w", err)
	}
	// The copy must open as a database of this program before it replaces
	// an older backup.
	st, err := store.Open(tmp.Name(), &store.Options{ReadOnly: true})
	if err != nil {
		return 0, fmt.Errorf("the copy the bot sent does not open: %w", err)
	}
	if err := st.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return 0, fmt.Errorf("putting the copy in place: %w", err)
	}
	return n, nil
}
