package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

var _ play.Exporter = (*Store)(nil)

// Export calls w's functions for every record, from one read-only
// snapshot, streaming the rows.
func (s *Store) Export(ctx context.Context, w play.Walk) error {
	ptx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return fmt.Errorf("pgstore: beginning an export: %w", err)
	}
	defer ptx.Rollback(context.WithoutCancel(ctx))
	// An export reads every record in one statement per kind, for as
	// long as the whole database takes.
	if _, err := ptx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
		return fmt.Errorf("pgstore: lifting the statement timeout for an export: %w", err)
	}
	if w.LastID != nil {
		var last int64
		var called bool
		if err := ptx.QueryRow(ctx, `SELECT last_value, is_called FROM ids`).Scan(&last, &called); err != nil {
			return fmt.Errorf("pgstore: reading the id sequence: %w", err)
		}
		if !called {
			last = 0
		}
		if err := w.LastID(uint64(last)); err != nil {
			return err
		}
	}
	each := func(what, sql string, fn func(key string, rec []byte) error) error {
		rows, err := ptx.Query(ctx, sql)
		if err != nil {
			return fmt.Errorf("pgstore: exporting %s: %w", what, err)
		}
		var key string
		var rec []byte
		_, err = pgx.ForEachRow(rows, []any{&key, &rec}, func() error { return fn(key, rec) })
		return err
	}
	if w.Game != nil {
		err := each("games", `SELECT id::text, rec FROM games ORDER BY id`, func(k string, rec []byte) error {
			var g play.Game
			if err := decode("game "+k, rec, &g); err != nil {
				return err
			}
			return w.Game(g)
		})
		if err != nil {
			return err
		}
	}
	if w.Challenge != nil {
		err := each("challenges", `SELECT id::text, rec FROM challenges ORDER BY id`, func(k string, rec []byte) error {
			var c play.Challenge
			if err := decode("challenge "+k, rec, &c); err != nil {
				return err
			}
			return w.Challenge(c)
		})
		if err != nil {
			return err
		}
	}
	if w.Player != nil {
		err := each("players", `SELECT user_id, rec FROM players ORDER BY scope, user_id`, func(k string, rec []byte) error {
			var p play.Player
			if err := decode("player "+k, rec, &p); err != nil {
				return err
			}
			return w.Player(p)
		})
		if err != nil {
			return err
		}
	}
	if w.Stats != nil {
		err := each("stats", `SELECT scope, rec FROM stats ORDER BY scope`, func(k string, rec []byte) error {
			var st play.Stats
			if err := decode(fmt.Sprintf("stats of %q", k), rec, &st); err != nil {
				return err
			}
			return w.Stats(st)
		})
		if err != nil {
			return err
		}
	}
	if w.Server != nil {
		err := each("servers", `SELECT guild_id, rec FROM servers ORDER BY guild_id`, func(k string, rec []byte) error {
			var s play.ServerSettings
			if err := decode("settings of server "+k, rec, &s); err != nil {
				return err
			}
			return w.Server(k, s)
		})
		if err != nil {
			return err
		}
	}
	if w.Outbox != nil {
		if err := exportOutbox(ctx, ptx, w.Outbox); err != nil {
			return err
		}
	}
	if w.Prefs != nil {
		err := each("prefs", `SELECT user_id, rec FROM prefs ORDER BY user_id`, func(k string, rec []byte) error {
			var p play.Prefs
			if err := decode("prefs of "+k, rec, &p); err != nil {
				return err
			}
			return w.Prefs(k, p)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Renumber makes NextID return ids above last (it never goes back).
func (s *Store) Renumber(ctx context.Context, last uint64) error {
	if last == 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, `SELECT setval('ids', greatest($1, (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ids)))`, int64(last))
	if err != nil {
		return fmt.Errorf("pgstore: renumbering: %w", err)
	}
	return nil
}
