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
	"strings"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/ops"
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
	timeout := fs.Duration("timeout", 2*time.Second, "how long to wait for the database lock (and to reach a running bot)")
	listener := fs.String("http", "", "the running bot's HTTP listener (default: http.listen of the configuration), asked for the copy when the bot holds the database")
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
	listen, token := *listener, os.Getenv("ICEAGE_HTTP_TOKEN")
	var tokenErr error // a token file that could not be read, told if the bot is asked
	if *db == "" || listen == "" || token == "" {
		c, err := config.Load(*configPath, os.Getenv)
		if err != nil {
			fmt.Fprintln(stderr, "backup:", err)
			return 1
		}
		if *db == "" {
			*db = c.Database.Path
		}
		if listen == "" {
			listen = c.HTTP.Listen
		}
		token = c.HTTP.Token
		if token == "" {
			// The token the bot made at its first start, in the file
			// beside the database unless the configuration names it.
			path := c.HTTP.TokenFile
			if path == filepath.Join(filepath.Dir(c.Database.Path), config.DefaultTokenFile) {
				path = filepath.Join(filepath.Dir(*db), config.DefaultTokenFile)
			}
			var err error
			if token, err = ops.ReadToken(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				tokenErr = err
			}
		}
	}
	// A shared lock, no migration, nothing written to the source. A
	// running bot holds the exclusive lock, so this waits for the timeout;
	// then, if the configuration names the bot's listener, the bot writes
	// the copy (its /backup), else the error says the bot runs.
	n, err := store.CopyFile(*db, *out, *timeout)
	from := *db
	if errors.Is(err, store.ErrLocked) && listen != "" {
		from = "the running bot at " + listen
		n, err = backupFromBot(listen, token, *db, *out, *timeout)
		if err != nil && tokenErr != nil {
			err = fmt.Errorf("%w (and %v)", err, tokenErr)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "backup:", err)
		return 1
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", from, *out, n)
	return 0
}

// backupFromBot fetches a consistent copy of the database db from the
// /backup of the bot listening at listen, and writes it to out as
// store.CopyFile writes a backup: checked for damage, then renamed over
// out. The download goes to a file beside out first, removed afterwards.
// token is the listener's (http.token, or the one in its token file), ""
// if none was found.
// As for any backup, out may not be the live database by any name: the
// bot would go on writing to a file no longer there.
func backupFromBot(listen, token, db, out string, timeout time.Duration) (int64, error) {
	if o, err := os.Stat(out); err == nil {
		if d, err := os.Stat(db); err == nil && os.SameFile(o, d) {
			return 0, fmt.Errorf("%w: the backup %s is the database file itself; write the backup to another file", store.ErrInvalid, out)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".download*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	client := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{Timeout: timeout}).DialContext}}
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return 0, fmt.Errorf("the bot's listener %q is no host:port", listen)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1" // a listener on every address answers here too
	}
	req, err := http.NewRequest(http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/backup", nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("the database is in use and the bot's listener did not answer: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		return 0, fmt.Errorf("the database is in use and the bot's /backup answered %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		return 0, fmt.Errorf("downloading the backup from the bot: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	// A copy cut short or damaged fails here, before out is touched.
	n, err := store.CopyFile(f.Name(), out, timeout)
	if err != nil {
		return 0, fmt.Errorf("the copy that the running bot sent of %s, downloaded to %s: %w", db, f.Name(), err)
	}
	return n, nil
}
