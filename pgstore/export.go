package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

var _ play.Exporter = (*Store)(nil)

// Export calls walk for every record, kind by kind in play.RecordKinds'
// order, from one read-only snapshot, streaming the rows.
func (s *Store) Export(ctx context.Context, walk play.Walk) (lastID uint64, err error) {
	ptx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, fmt.Errorf("pgstore: beginning an export: %w", err)
	}
	defer ptx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a read-only transaction: nothing is lost if its end fails
	// An export reads every record in one statement per kind, for as
	// long as the whole database takes.
	if _, err := ptx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
		return 0, fmt.Errorf("pgstore: lifting the statement timeout for an export: %w", err)
	}
	var last int64
	var called bool
	if err := ptx.QueryRow(ctx, `SELECT last_value, is_called FROM ids`).Scan(&last, &called); err != nil {
		return 0, fmt.Errorf("pgstore: reading the id sequence: %w", err)
	}
	if called {
		lastID = uint64(last)
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
	for _, kind := range play.RecordKinds() {
		var err error
		switch kind {
		case play.KindGame:
			err = each("games", `SELECT id::text, rec FROM games ORDER BY id`, func(k string, rec []byte) error {
				var g play.Game
				if err := decode("game "+k, rec, &g); err != nil {
					return err
				}
				return walk(play.Record{Game: &g})
			})
		case play.KindChallenge:
			err = each("challenges", `SELECT id::text, rec FROM challenges ORDER BY id`, func(k string, rec []byte) error {
				var c play.Challenge
				if err := decode("challenge "+k, rec, &c); err != nil {
					return err
				}
				return walk(play.Record{Challenge: &c})
			})
		case play.KindPlayer:
			err = each("players", `SELECT user_id, rec FROM players ORDER BY scope, user_id`, func(k string, rec []byte) error {
				var p play.Player
				if err := decode("player "+k, rec, &p); err != nil {
					return err
				}
				return walk(play.Record{Player: &p})
			})
		case play.KindLogEntry:
			err = each("the players' logs", `SELECT user_id, rec FROM player_log ORDER BY scope, user_id, game`, func(k string, rec []byte) error {
				var e play.LogEntry
				if err := decode("a log entry of "+k, rec, &e); err != nil {
					return err
				}
				return walk(play.Record{LogEntry: &e})
			})
		case play.KindStats:
			err = each("stats", `SELECT scope, rec FROM stats ORDER BY scope`, func(k string, rec []byte) error {
				var st play.Stats
				if err := decode(fmt.Sprintf("stats of %q", k), rec, &st); err != nil {
					return err
				}
				return walk(play.Record{Stats: &st})
			})
		case play.KindPrefs:
			err = each("prefs", `SELECT user_id, rec FROM prefs ORDER BY user_id`, func(k string, rec []byte) error {
				var p play.Prefs
				if err := decode("prefs of "+k, rec, &p); err != nil {
					return err
				}
				return walk(play.Record{Prefs: &p, User: k})
			})
		case play.KindServer:
			err = each("servers", `SELECT guild_id, rec FROM servers ORDER BY guild_id`, func(k string, rec []byte) error {
				var s play.ServerSettings
				if err := decode("settings of server "+k, rec, &s); err != nil {
					return err
				}
				return walk(play.Record{Server: &s, Guild: k})
			})
		case play.KindTournament:
			err = exportTournaments(ctx, ptx, walk)
		case play.KindOutbox:
			err = exportOutbox(ctx, ptx, func(it play.OutboxItem) error { return walk(play.Record{Outbox: &it}) })
		case play.KindPuzzler, play.KindPuzzleStats, play.KindDailyPuzzle:
			err = exportPuzzles(kind, each, walk)
		case play.KindLessons:
			err = each("lesson progress", `SELECT user_id, rec FROM lessons ORDER BY user_id`, func(k string, rec []byte) error {
				var p play.LessonProgress
				if err := decode("lesson progress of "+k, rec, &p); err != nil {
					return err
				}
				return walk(play.Record{Lessons: &p, User: k})
			})
		default:
			err = play.UnknownKind("pgstore", kind)
		}
		if err != nil {
			return lastID, err
		}
	}
	return lastID, nil
}

// exportTournaments walks the tournaments, each with every game its
// index lists.
func exportTournaments(ctx context.Context, ptx pgx.Tx, walk play.Walk) error {
	rows, err := ptx.Query(ctx, `SELECT game, tournament FROM tournament_games ORDER BY tournament, game`)
	if err != nil {
		return fmt.Errorf("pgstore: exporting the tournaments' games: %w", err)
	}
	games := map[uint64][]uint64{}
	var g, t int64
	if _, err := pgx.ForEachRow(rows, []any{&g, &t}, func() error {
		games[uint64(t)] = append(games[uint64(t)], uint64(g))
		return nil
	}); err != nil {
		return fmt.Errorf("pgstore: exporting the tournaments' games: %w", err)
	}
	rows, err = ptx.Query(ctx, `SELECT id, guild, finished, body FROM tournaments ORDER BY id`)
	if err != nil {
		return fmt.Errorf("pgstore: exporting the tournaments: %w", err)
	}
	var r play.TournamentRecord
	var id int64
	_, err = pgx.ForEachRow(rows, []any{&id, &r.Guild, &r.Finished, &r.Body}, func() error {
		r.ID = uint64(id)
		c := r.Clone()
		c.Games = games[c.ID]
		return walk(play.Record{Tournament: &c})
	})
	if err != nil {
		return fmt.Errorf("pgstore: exporting the tournaments: %w", err)
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
