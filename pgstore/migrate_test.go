package pgstore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
)

// A database of schema 2, its games JSONB, is migrated to the binary form
// of the games: every row converted, every game read as before. The games
// are those of store's schema-4 fixture, as the program of that time read
// them.
func TestMigrateGameRecordsToBinary(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "store", "testdata", "schema4.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct{ Games []play.Game }
	if err := json.Unmarshal(b, &fixture); err != nil {
		t.Fatal(err)
	}
	url := pgtest.New(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// Schema 2 as its migrations made it, and the games as its program
	// wrote them.
	if _, err := conn.Exec(ctx, `CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"0001_records.sql", "0002_ratings.sql"} {
		sql, err := os.ReadFile(filepath.Join("migrations", name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, string(sql)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO schema_version (version, name) VALUES ($1, $2)`, i+1, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range fixture.Games {
		rec, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Exec(ctx, `INSERT INTO games (id, active, channel, guild, white, black, rec) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			int64(g.ID), !g.Over(), g.Channel, g.Guild, g.White.ID, g.Black.ID, string(rec))
		if err != nil {
			t.Fatal(err)
		}
	}

	s, err := pgstore.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var kind string
	if err := conn.QueryRow(ctx, `SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'games' AND column_name = 'rec'`).Scan(&kind); err != nil || kind != "bytea" {
		t.Fatalf("games.rec is %q (%v), want bytea", kind, err)
	}
	var left int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'games' AND column_name = 'rec_json'`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("rec_json is still there (%v)", err)
	}
	err = s.View(ctx, func(tx play.ReadTx) error {
		for _, want := range fixture.Games {
			g, err := tx.Game(want.ID)
			if err != nil {
				return err
			}
			g.V = want.V
			// The fixture's games carry no SANs: reading the binary
			// form finds each move's as it replays the moves.
			m, err := g.Match()
			if err != nil {
				return err
			}
			for i, san := range m.SANs() {
				if g.Moves[i].SAN != san {
					t.Errorf("game %d: move %d reads as %q, a replay says %q", want.ID, i+1, g.Moves[i].SAN, san)
				}
				g.Moves[i].SAN = ""
			}
			a, _ := json.Marshal(g)
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Errorf("game %d reads as\n%s\nwas\n%s", want.ID, a, b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
