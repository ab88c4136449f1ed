// Package pgtest starts a throwaway PostgreSQL cluster for the tests of
// one test binary: initdb and pg_ctl in a temporary folder, as an
// unprivileged user when the tests run as root (initdb refuses root),
// listening only on a Unix socket in that folder. Each test gets an
// empty schema of its own.
//
// Call Main from TestMain, so that the cluster is stopped when the tests
// end, and New from each test that needs a database. The cluster starts
// at the first New, so a run that needs none pays nothing.
//
// Without PostgreSQL installed the tests skip, saying how to enable
// them; with CI=true in the environment they fail instead.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Install says how to make the tests run.
const Install = "PostgreSQL is not installed, so the PostgreSQL tests are skipped; " +
	"install it (Debian: apt-get install postgresql) or put initdb and pg_ctl on PATH to run them"

var (
	once     sync.Once
	cluster  *Cluster
	startErr error
	schemas  atomic.Int64
)

// Cluster is a running throwaway cluster.
type Cluster struct {
	dir    string // base folder: data, sock, log
	bin    string // folder of initdb, pg_ctl
	runAs  string // user to run as, "" for the current one
	socket string
}

// Main runs the tests and stops the cluster if one was started; use it
// as os.Exit(pgtest.Main(m)).
func Main(m interface{ Run() int }) int {
	code := m.Run()
	if cluster != nil {
		cluster.Stop()
	}
	return code
}

// New returns the connection string of a new, empty schema in the
// test binary's cluster, starting the cluster the first time. It skips
// the test when PostgreSQL is not installed (fails under CI=true).
func New(t testing.TB) string {
	t.Helper()
	c := Start(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), schemas.Add(1))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL(""))
	if err != nil {
		t.Fatalf("connecting to the test cluster: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("creating schema %s: %v", name, err)
	}
	return c.URL(name)
}

// Start returns the cluster, starting it the first time; it skips or
// fails t as New does.
func Start(t testing.TB) *Cluster {
	t.Helper()
	once.Do(func() { cluster, startErr = start() })
	if errors.Is(startErr, errNotInstalled) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true, and %v: %s", startErr, Install)
		}
		t.Skip(Install)
	}
	if startErr != nil {
		t.Fatalf("starting the test cluster: %v", startErr)
	}
	return cluster
}

// URL returns the connection string of the cluster, with the schema as
// search_path ("" for the default).
func (c *Cluster) URL(schema string) string {
	s := fmt.Sprintf("host=%s port=5432 user=postgres dbname=postgres sslmode=disable", c.socket)
	if schema != "" {
		s += " search_path=" + schema
	}
	return s
}

var errNotInstalled = errors.New("initdb or pg_ctl not found")

// findBin finds the folder of initdb and pg_ctl: PATH first, then
// Debian's /usr/lib/postgresql/<version>/bin, the newest version.
func findBin() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", errNotInstalled
}

func start() (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "iceage-pg")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: bin, socket: filepath.Join(dir, "sock")}
	ok := false
	defer func() {
		if !ok {
			c.Stop()
		}
	}()
	var uid, gid int = -1, -1
	if os.Geteuid() == 0 {
		// initdb refuses to run as root: the cluster belongs to nobody.
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("running as root, and no user nobody to run PostgreSQL as: %w", err)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		c.runAs = "nobody"
		if err := os.Chmod(dir, 0o755); err != nil {
			return nil, err
		}
	}
	for _, sub := range []string{"data", "sock", "log"} {
		p := filepath.Join(dir, sub)
		if err := os.Mkdir(p, 0o700); err != nil {
			return nil, err
		}
		if uid >= 0 {
			if err := os.Chown(p, uid, gid); err != nil {
				return nil, err
			}
		}
	}
	if out, err := c.run("initdb", "-D", filepath.Join(dir, "data"), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c max_connections=300 -c shared_buffers=64MB", c.socket)
	if out, err := c.run("pg_ctl", "-D", filepath.Join(dir, "data"), "-l", filepath.Join(dir, "log", "postgres.log"),
		"-w", "-t", "60", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log", "postgres.log"))
		return nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	ok = true
	return c, nil
}

// run runs one of the cluster's programs, as the cluster's user.
func (c *Cluster) run(prog string, args ...string) ([]byte, error) {
	path := filepath.Join(c.bin, prog)
	var cmd *exec.Cmd
	if c.runAs != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.runAs, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = c.dir
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		err = fmt.Errorf("%s timed out", prog)
	}
	return out, err
}

// Stop stops the cluster at once and removes its folder.
func (c *Cluster) Stop() {
	if _, err := os.Stat(filepath.Join(c.dir, "data", "postmaster.pid")); err == nil {
		if out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop"); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: pg_ctl stop: %v\n%s", err, strings.TrimSpace(string(out)))
		}
	}
	os.RemoveAll(c.dir)
}
