package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

func init() {
	register("migrate", "copy a bbolt file into PostgreSQL, or PostgreSQL into a bbolt file, and check that the copy holds the same records", runMigrate)
}

// migrateBatch is how many records one transaction of the copy writes:
// enough that commits do not dominate, few enough that a transaction
// stays small.
const migrateBatch = 500

func runMigrate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", config.DefaultPath, "configuration file naming the databases (database.path, database.url)")
	db := fs.String("db", "", "the bbolt file (default: database.path of the configuration)")
	url := fs.String("url", "", "the PostgreSQL database (default: database.url or ICEAGE_DATABASE_URL)")
	to := fs.String("to", config.DriverPostgres, "the direction: postgres copies the bbolt file into PostgreSQL, bbolt the other way")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *to != config.DriverPostgres && *to != config.DriverBolt {
		fmt.Fprintln(stderr, "usage: iceage migrate [-config config.yaml] [-db iceage.db] [-url postgres://…] [-to postgres|bbolt]")
		return 2
	}
	if *db == "" || *url == "" {
		c, err := config.Load(*configPath, os.Getenv)
		if err != nil {
			fmt.Fprintln(stderr, "migrate:", err)
			return 1
		}
		if *db == "" {
			*db = c.Database.Path
			if *db == "" {
				*db = "iceage.db"
			}
		}
		if *url == "" {
			*url = c.Database.URL
		}
	}
	if *url == "" {
		fmt.Fprintln(stderr, "migrate: no PostgreSQL database: give -url, or set ICEAGE_DATABASE_URL or database.url")
		return 2
	}
	if *to == config.DriverBolt {
		if _, err := os.Stat(*db); err == nil {
			fmt.Fprintf(stderr, "migrate: %s exists; name a new file with -db, so that nothing is overwritten\n", *db)
			return 1
		}
	} else if _, err := os.Stat(*db); err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	ctx := context.Background()
	bolt, err := store.Open(*db, &store.Options{Timeout: 2 * time.Second})
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	defer bolt.Close()
	// Batches of records, not acts: no interaction waits on them.
	pg, err := pgstore.Open(ctx, *url, &pgstore.Options{TxTimeout: time.Minute})
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	defer pg.Close()
	from, into := "the bbolt file "+*db, "PostgreSQL"
	var c play.Counts
	if *to == config.DriverPostgres {
		c, err = play.Copy(ctx, bolt, pg, migrateBatch)
	} else {
		from, into = into, "the bbolt file "+*db
		c, err = play.Copy(ctx, pg, bolt, migrateBatch)
	}
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	fmt.Fprintf(stdout, "copied %s into %s; the copy holds the same records, kind by kind:\n", from, into)
	for _, line := range c.Lines() {
		fmt.Fprintln(stdout, "  "+line)
	}
	return 0
}
