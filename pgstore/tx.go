package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// txn is a play.Tx on a pgx transaction.
type txn struct {
	ctx      context.Context
	tx       pgx.Tx
	writable bool
	// lost is the first error that says the transaction lost a race; the
	// transaction is aborted then, and Update runs fn again whatever fn
	// made of the error.
	lost error
	// notes are the notifications of the games written, sent once the
	// transaction is committed (feed.go).
	notes []note
}

// check notes an error of a statement and returns it wrapped.
func (t *txn) check(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	if retryable(err) && t.lost == nil {
		t.lost = err
	}
	return fmt.Errorf("pgstore: "+format+": %w", append(args, err)...)
}

// locking returns the clause that locks the rows a read-write
// transaction reads by key, so that what it decides on them holds until
// it commits: another transaction that reads them waits, then sees the
// committed change.
func (t *txn) locking() string {
	if t.writable {
		return " FOR UPDATE"
	}
	return ""
}

func (t *txn) willWrite() error {
	if !t.writable {
		return fmt.Errorf("%w: a write in a read-only transaction", ErrInvalid)
	}
	return nil
}

// NextID returns a new id from the one sequence of games and challenges.
// A sequence is not rolled back: a transaction that fails or runs again
// leaves a gap, and ids of games created at once may commit out of
// order. Ids stay unique, which is what play needs.
func (t *txn) NextID() (uint64, error) {
	if err := t.willWrite(); err != nil {
		return 0, err
	}
	var id int64
	err := t.tx.QueryRow(t.ctx, `SELECT nextval('ids')`).Scan(&id)
	return uint64(id), t.check(err, "numbering")
}

// queryGames runs a query whose rows are (id, rec) of games.
func (t *txn) queryGames(what, sql string, args ...any) ([]play.Game, error) {
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, t.check(err, "%s", what)
	}
	var out []play.Game
	var id int64
	var rec []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &rec}, func() error {
		g, err := decodeGame(uint64(id), rec)
		out = append(out, g)
		return err
	})
	if err != nil {
		return nil, t.check(err, "%s", what)
	}
	return out, nil
}

func decodeGame(id uint64, rec []byte) (play.Game, error) {
	var g play.Game
	if err := decode(fmt.Sprintf("game %d", id), rec, &g); err != nil {
		return g, err
	}
	if g.ID != id {
		return play.Game{}, fmt.Errorf("%w: the record stored as game %d is game %d", ErrCorrupt, id, g.ID)
	}
	return g, nil
}

// Game returns the game with that id, active or finished.
func (t *txn) Game(id uint64) (play.Game, error) {
	gs, err := t.queryGames("reading a game", `SELECT id, rec FROM games WHERE id = $1`+t.locking(), int64(id))
	if err != nil {
		return play.Game{}, err
	}
	if len(gs) == 0 {
		return play.Game{}, fmt.Errorf("%w: no game has id %d", play.ErrNotFound, id)
	}
	return gs[0], nil
}

// GameIn returns the active game of a channel.
func (t *txn) GameIn(channel string) (play.Game, error) {
	var gs []play.Game
	if validID(channel) {
		var err error
		gs, err = t.queryGames("reading the game of a channel", `SELECT id, rec FROM games WHERE channel = $1 AND active`+t.locking(), channel)
		if err != nil {
			return play.Game{}, err
		}
	}
	if len(gs) == 0 {
		return play.Game{}, fmt.Errorf("%w: no game is going on in channel %s", play.ErrNotFound, channel)
	}
	return gs[0], nil
}

// ActiveGames returns the user's active games, oldest first.
func (t *txn) ActiveGames(user string) ([]play.Game, error) {
	if !validID(user) {
		return nil, nil
	}
	return t.queryGames("reading a user's games", `SELECT id, rec FROM games
		WHERE active AND (white = $1 OR black = $1) ORDER BY id`+t.locking(), user)
}

// GuildGames returns a guild's active games, oldest first.
func (t *txn) GuildGames(guild string) ([]play.Game, error) {
	if !validID(guild) {
		return nil, nil
	}
	return t.queryGames("reading a guild's games", `SELECT id, rec FROM games
		WHERE active AND guild = $1 ORDER BY id`+t.locking(), guild)
}

// Finished returns finished games, newest first: the user's (or, with
// user "", the guild's; or, with both "", all), with ids below before (0:
// no bound), at most limit (none for a limit of 0 or less). Each form
// reads one index from before downwards.
func (t *txn) Finished(user, guild string, before uint64, limit int) ([]play.Game, error) {
	if limit <= 0 {
		return nil, nil
	}
	below := int64(before)
	if before == 0 || before > 1<<63-1 {
		below = 1<<63 - 1
	}
	switch {
	case user != "":
		if !validID(user) {
			return nil, nil
		}
		// One index per colour; the union is merged newest first.
		return t.queryGames("reading a user's finished games", `
			(SELECT id, rec FROM games WHERE NOT active AND white = $1 AND id < $2 ORDER BY id DESC LIMIT $3)
			UNION
			(SELECT id, rec FROM games WHERE NOT active AND black = $1 AND id < $2 ORDER BY id DESC LIMIT $3)
			ORDER BY id DESC LIMIT $3`, user, below, limit)
	case guild != "":
		if !validID(guild) {
			return nil, nil
		}
		return t.queryGames("reading a guild's finished games", `SELECT id, rec FROM games
			WHERE NOT active AND guild = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, guild, below, limit)
	}
	return t.queryGames("reading finished games", `SELECT id, rec FROM games
		WHERE NOT active AND id < $1 ORDER BY id DESC LIMIT $2`, below, limit)
}

// PutGame creates or replaces a game with its index columns. An active
// game holds its channel (play.ErrChannelBusy if another active game has
// it); a finished one frees it, and its time columns are cleared.
func (t *txn) PutGame(g play.Game) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := invalid(g.CheckIDs()); err != nil {
		return err
	}
	active := !g.Over()
	if active {
		var other int64
		err := t.tx.QueryRow(t.ctx, `SELECT id FROM games WHERE channel = $1 AND active AND id <> $2`, g.Channel, int64(g.ID)).Scan(&other)
		switch {
		case err == nil:
			return fmt.Errorf("%w: channel %s has game %d going on, so game %d cannot go on there", play.ErrChannelBusy, g.Channel, other, g.ID)
		case !errors.Is(err, pgx.ErrNoRows):
			return t.check(err, "reading the game of channel %s", g.Channel)
		}
	}
	b, err := encode(&g)
	if err != nil {
		return fmt.Errorf("pgstore: encoding game %d: %w", g.ID, err)
	}
	var deadline, remind *int64
	if active {
		deadline, remind = optNanos(g.Deadline), optNanos(g.RemindAt)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO games (id, active, channel, guild, white, black, deadline, remind_at, rec)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET active = excluded.active, channel = excluded.channel, guild = excluded.guild,
			white = excluded.white, black = excluded.black, deadline = excluded.deadline,
			remind_at = excluded.remind_at, rec = excluded.rec`,
		int64(g.ID), active, g.Channel, g.Guild, g.White.ID, g.Black.ID, deadline, remind, b)
	if err == nil {
		t.note(&g, b)
	}
	return t.check(err, "writing game %d", g.ID)
}

// Due returns the entries of a time index due at or before now, earliest
// first, at most limit (none for a limit of 0 or less).
func (t *txn) Due(kind play.DueKind, now time.Time, limit int) ([]play.Due, error) {
	if limit <= 0 {
		if _, err := dueQuery(kind); err != nil {
			return nil, err
		}
		return nil, nil
	}
	q, err := dueQuery(kind)
	if err != nil {
		return nil, err
	}
	rows, err := t.tx.Query(t.ctx, q.due, nanos(now), limit)
	if err != nil {
		return nil, t.check(err, "reading the due items of index %d", kind)
	}
	type entry struct{ id, at int64 }
	var es []entry
	var e entry
	if _, err := pgx.ForEachRow(rows, []any{&e.id, &e.at}, func() error { es = append(es, e); return nil }); err != nil {
		return nil, t.check(err, "reading the due items of index %d", kind)
	}
	out := make([]play.Due, 0, len(es))
	for _, e := range es {
		d, err := t.dueEntry(kind, e.id, e.at)
		if err != nil {
			return nil, err
		}
		if d.At.After(now) {
			continue // a far time clamped to the same value as now
		}
		out = append(out, d)
	}
	return out, nil
}

// NextDue returns the earliest time in a time index; ok is false when
// the index is empty.
func (t *txn) NextDue(kind play.DueKind) (time.Time, bool, error) {
	q, err := dueQuery(kind)
	if err != nil {
		return time.Time{}, false, err
	}
	var id, at int64
	err = t.tx.QueryRow(t.ctx, q.next).Scan(&id, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, t.check(err, "reading the next due item of index %d", kind)
	}
	d, err := t.dueEntry(kind, id, at)
	return d.At, err == nil, err
}

// dueEntry makes an index entry; a time clamped to the range of a
// bigint is read from the record.
func (t *txn) dueEntry(kind play.DueKind, id, at int64) (play.Due, error) {
	d := play.Due{At: time.Unix(0, at).UTC(), ID: uint64(id)}
	if !clamped(at) {
		return d, nil
	}
	if kind == play.DueExpiry {
		c, err := t.Challenge(d.ID)
		d.At = c.Expires
		return d, err
	}
	g, err := t.Game(d.ID)
	d.At = g.Deadline
	if kind == play.DueReminder {
		d.At = g.RemindAt
	}
	return d, err
}

type dueSQL struct{ due, next string }

var dueQueries = map[play.DueKind]dueSQL{
	play.DueDeadline: {
		`SELECT id, deadline FROM games WHERE active AND deadline IS NOT NULL AND deadline <= $1 ORDER BY deadline, id LIMIT $2`,
		`SELECT id, deadline FROM games WHERE active AND deadline IS NOT NULL ORDER BY deadline, id LIMIT 1`,
	},
	play.DueReminder: {
		`SELECT id, remind_at FROM games WHERE active AND remind_at IS NOT NULL AND remind_at <= $1 ORDER BY remind_at, id LIMIT $2`,
		`SELECT id, remind_at FROM games WHERE active AND remind_at IS NOT NULL ORDER BY remind_at, id LIMIT 1`,
	},
	play.DueExpiry: {
		`SELECT id, expires FROM challenges WHERE expires <= $1 ORDER BY expires, id LIMIT $2`,
		`SELECT id, expires FROM challenges ORDER BY expires, id LIMIT 1`,
	},
}

func dueQuery(kind play.DueKind) (dueSQL, error) {
	q, ok := dueQueries[kind]
	if !ok {
		return q, fmt.Errorf("%w: no time index of kind %d", ErrInvalid, kind)
	}
	return q, nil
}
