package pgstore

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// afterMigration holds, by migration number, what the program does after
// that file's SQL, in the same transaction: the conversions SQL cannot do.
var afterMigration = map[int]func(ctx context.Context, tx pgx.Tx) error{
	4: convertGameRows,
}

// convertRowsBatch is how many game rows convertGameRows converts per
// statement.
const convertRowsBatch = 1000

// convertGameRows rewrites every game of schema 2 (rec_json, JSONB) in the
// binary form (rec), then drops rec_json. The records are decoded and
// encoded by play, as every read and write does.
func convertGameRows(ctx context.Context, tx pgx.Tx) error {
	for after := int64(-1 << 63); ; {
		rows, err := tx.Query(ctx, `SELECT id, rec_json FROM games WHERE id > $1 ORDER BY id LIMIT $2`, after, convertRowsBatch)
		if err != nil {
			return err
		}
		var ids []int64
		var recs [][]byte
		var id int64
		var js []byte
		_, err = pgx.ForEachRow(rows, []any{&id, &js}, func() error {
			var g play.Game
			if err := decode(fmt.Sprintf("game %d", id), js, &g); err != nil {
				return err
			}
			b, err := encode(&g)
			if err != nil {
				return fmt.Errorf("game %d: %w", id, err)
			}
			ids, recs = append(ids, id), append(recs, b)
			return nil
		})
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			break
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET rec = v.rec FROM unnest($1::bigint[], $2::bytea[]) AS v(id, rec) WHERE games.id = v.id`, ids, recs); err != nil {
			return err
		}
		after = ids[len(ids)-1]
	}
	_, err := tx.Exec(ctx, `ALTER TABLE games DROP COLUMN rec_json, ALTER COLUMN rec SET NOT NULL`)
	return err
}
