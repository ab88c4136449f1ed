package pgstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// queryTournaments reads (id, guild, finished, body) rows and the games
// of each.
func (t *txn) queryTournaments(what, sql string, args ...any) ([]play.TournamentRecord, error) {
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, t.check(err, "%s", what)
	}
	var out []play.TournamentRecord
	var r play.TournamentRecord
	var id int64
	_, err = pgx.ForEachRow(rows, []any{&id, &r.Guild, &r.Finished, &r.Body}, func() error {
		r.ID = uint64(id)
		out = append(out, r.Clone())
		return nil
	})
	if err != nil {
		return nil, t.check(err, "%s", what)
	}
	for i := range out {
		rows, err := t.tx.Query(t.ctx, `SELECT game FROM tournament_games WHERE tournament = $1 ORDER BY game`, int64(out[i].ID))
		if err != nil {
			return nil, t.check(err, "reading the games of tournament %d", out[i].ID)
		}
		var g int64
		_, err = pgx.ForEachRow(rows, []any{&g}, func() error {
			out[i].Games = append(out[i].Games, uint64(g))
			return nil
		})
		if err != nil {
			return nil, t.check(err, "reading the games of tournament %d", out[i].ID)
		}
	}
	return out, nil
}

// Tournament returns the tournament with that id.
func (t *txn) Tournament(id uint64) (play.TournamentRecord, error) {
	rs, err := t.queryTournaments("reading a tournament", `SELECT id, guild, finished, body FROM tournaments WHERE id = $1`+t.locking(), int64(id))
	if err != nil {
		return play.TournamentRecord{}, err
	}
	if len(rs) == 0 {
		return play.TournamentRecord{}, fmt.Errorf("%w: no tournament has id %d", play.ErrNotFound, id)
	}
	return rs[0], nil
}

// Tournaments returns a guild's tournaments, newest first.
func (t *txn) Tournaments(guild string) ([]play.TournamentRecord, error) {
	return t.queryTournaments("reading a guild's tournaments", `SELECT id, guild, finished, body FROM tournaments WHERE guild = $1 ORDER BY id DESC`, guild)
}

// TournamentOf returns the tournament whose round started the game.
func (t *txn) TournamentOf(game uint64) (uint64, error) {
	var id int64
	err := t.tx.QueryRow(t.ctx, `SELECT tournament FROM tournament_games WHERE game = $1`, int64(game)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("%w: no tournament started game %d", play.ErrNotFound, game)
	}
	if err != nil {
		return 0, t.check(err, "reading the tournament of game %d", game)
	}
	return uint64(id), nil
}

// PutTournament creates or replaces a tournament and indexes its games.
func (t *txn) PutTournament(r play.TournamentRecord) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := r.CheckIDs(); err != nil {
		return invalid(err)
	}
	for _, g := range r.Games {
		if other, err := t.TournamentOf(g); err == nil && other != r.ID {
			return fmt.Errorf("%w: game %d belongs to tournament %d already", ErrInvalid, g, other)
		} else if err != nil && !errors.Is(err, play.ErrNotFound) {
			return err
		}
	}
	var guild string
	err := t.tx.QueryRow(t.ctx, `SELECT guild FROM tournaments WHERE id = $1 FOR UPDATE`, int64(r.ID)).Scan(&guild)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return t.check(err, "reading tournament %d", r.ID)
	case guild != r.Guild:
		return fmt.Errorf("%w: tournament %d cannot move from guild %s to %s", ErrInvalid, r.ID, guild, r.Guild)
	}
	body := r.Body
	if body == nil {
		body = []byte{}
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO tournaments (id, guild, finished, body) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET finished = excluded.finished, body = excluded.body`, int64(r.ID), r.Guild, r.Finished, body)
	if err := t.check(err, "writing tournament %d", r.ID); err != nil {
		return err
	}
	for _, g := range r.Games {
		_, err := t.tx.Exec(t.ctx, `INSERT INTO tournament_games (game, tournament) VALUES ($1, $2) ON CONFLICT (game) DO NOTHING`, int64(g), int64(r.ID))
		if err := t.check(err, "indexing game %d of tournament %d", g, r.ID); err != nil {
			return err
		}
	}
	t.noteTournament(r.ID)
	return nil
}
