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
	register("migrate", "copy a bbolt file into PostgreSQL, or PostgreSQL into a bbolt file, and verify the counts", runMigrate)
}

// counts are the records of a storage, kind by kind, for checking a copy.
type counts struct {
	Games, Finished, Challenges, Players, Stats, Prefs, Servers, Outbox int
}

func (c counts) total() int {
	return c.Games + c.Challenges + c.Players + c.Stats + c.Prefs + c.Servers + c.Outbox
}

func (c counts) String() string {
	text := fmt.Sprintf("%d games (%d finished), %d challenges, %d player records, %d stats, %d prefs",
		c.Games, c.Finished, c.Challenges, c.Players, c.Stats, c.Prefs)
	if c.Servers > 0 {
		text += fmt.Sprintf(", %d server settings", c.Servers)
	}
	if c.Outbox > 0 {
		text += fmt.Sprintf(", %d outbox items", c.Outbox)
	}
	return text
}

// countOf counts the records of a storage.
func countOf(ctx context.Context, st play.Exporter) (counts, error) {
	var c counts
	err := st.Export(ctx, play.Walk{
		Game: func(g play.Game) error {
			c.Games++
			if g.Over() {
				c.Finished++
			}
			return nil
		},
		Challenge: func(play.Challenge) error { c.Challenges++; return nil },
		Player:    func(play.Player) error { c.Players++; return nil },
		Stats:     func(play.Stats) error { c.Stats++; return nil },
		Prefs:     func(string, play.Prefs) error { c.Prefs++; return nil },
		Server:    func(string, play.ServerSettings) error { c.Servers++; return nil },
		Outbox:    func(play.OutboxItem) error { c.Outbox++; return nil },
	})
	return c, err
}

// migrateBatch is how many records one transaction of the copy writes:
// enough that commits do not dominate, few enough that a transaction
// stays small.
const migrateBatch = 500

// copyRecords copies every record of from into to, which must be empty,
// in transactions of migrateBatch records, then checks that to holds as
// many records of each kind as from.
func copyRecords(ctx context.Context, from, to interface {
	play.Storage
	play.Exporter
}) (counts, error) {
	if c, err := countOf(ctx, to); err != nil {
		return counts{}, fmt.Errorf("counting the records of the target: %w", err)
	} else if c.total() > 0 {
		return counts{}, fmt.Errorf("the target is not empty (%v): migrate copies into an empty database only", c)
	}
	var (
		want    counts
		last    uint64
		pending []func(play.Tx) error
	)
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		batch := pending
		pending = nil
		return to.Update(ctx, func(tx play.Tx) error {
			for _, put := range batch {
				if err := put(tx); err != nil {
					return err
				}
			}
			return nil
		})
	}
	add := func(put func(play.Tx) error) error {
		pending = append(pending, put)
		if len(pending) >= migrateBatch {
			return flush()
		}
		return nil
	}
	err := from.Export(ctx, play.Walk{
		LastID: func(id uint64) error { last = id; return nil },
		Game: func(g play.Game) error {
			want.Games++
			if g.Over() {
				want.Finished++
			}
			last = max(last, g.ID)
			return add(func(tx play.Tx) error { return tx.PutGame(g) })
		},
		Challenge: func(c play.Challenge) error {
			want.Challenges++
			last = max(last, c.ID)
			return add(func(tx play.Tx) error { return tx.PutChallenge(c) })
		},
		Player: func(p play.Player) error {
			want.Players++
			return add(func(tx play.Tx) error { return tx.PutPlayer(p) })
		},
		Stats: func(s play.Stats) error {
			want.Stats++
			return add(func(tx play.Tx) error { return tx.PutStats(s) })
		},
		Prefs: func(user string, p play.Prefs) error {
			want.Prefs++
			return add(func(tx play.Tx) error { return tx.PutPrefs(user, p) })
		},
		Server: func(guild string, s play.ServerSettings) error {
			want.Servers++
			return add(func(tx play.Tx) error { return tx.PutServerSettings(guild, s) })
		},
		// What the source still had to deliver, the engine's turns among
		// it, is the copy's to deliver; a claim of the source's processes
		// is not theirs any more.
		Outbox: func(it play.OutboxItem) error {
			want.Outbox++
			return add(func(tx play.Tx) error { return tx.PutOutbox(it) })
		},
	})
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = to.Renumber(ctx, last)
	}
	if err != nil {
		return want, err
	}
	got, err := countOf(ctx, to)
	if err != nil {
		return want, fmt.Errorf("counting the copy: %w", err)
	}
	if got != want {
		return want, fmt.Errorf("the copy holds %v, the source %v", got, want)
	}
	return want, nil
}

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
	var c counts
	if *to == config.DriverPostgres {
		c, err = copyRecords(ctx, bolt, pg)
	} else {
		from, into = into, "the bbolt file "+*db
		c, err = copyRecords(ctx, pg, bolt)
	}
	if err != nil {
		fmt.Fprintln(stderr, "migrate:", err)
		return 1
	}
	fmt.Fprintf(stdout, "copied %s into %s: %v; the counts match\n", from, into, c)
	return 0
}
