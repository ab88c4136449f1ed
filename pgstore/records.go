package pgstore

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/iceagechess/iceage/play"
)

// queryChallenges runs a query whose rows are (id, rec) of challenges.
func (t *txn) queryChallenges(what, sql string, args ...any) ([]play.Challenge, error) {
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, t.check(err, "%s", what)
	}
	var out []play.Challenge
	var id int64
	var rec []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &rec}, func() error {
		var c play.Challenge
		if err := decode(fmt.Sprintf("challenge %d", id), rec, &c); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, t.check(err, "%s", what)
	}
	return out, nil
}

// Challenge returns the pending challenge with that id.
func (t *txn) Challenge(id uint64) (play.Challenge, error) {
	cs, err := t.queryChallenges("reading a challenge", `SELECT id, rec FROM challenges WHERE id = $1`+t.locking(), int64(id))
	if err != nil {
		return play.Challenge{}, err
	}
	if len(cs) == 0 {
		return play.Challenge{}, fmt.Errorf("%w: no challenge has id %d", play.ErrNotFound, id)
	}
	return cs[0], nil
}

// Challenges returns the pending challenges made by or to the user, by
// id.
func (t *txn) Challenges(user string) ([]play.Challenge, error) {
	if !validID(user) {
		return nil, nil
	}
	return t.queryChallenges("reading a user's challenges", `SELECT id, rec FROM challenges
		WHERE from_user = $1 OR to_user = $1 ORDER BY id`+t.locking(), user)
}

// PutChallenge creates or replaces a challenge.
func (t *txn) PutChallenge(c play.Challenge) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := invalid(c.CheckIDs()); err != nil {
		return err
	}
	b, err := encode(&c)
	if err != nil {
		return fmt.Errorf("pgstore: encoding challenge %d: %w", c.ID, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO challenges (id, from_user, to_user, expires, rec) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (id) DO UPDATE SET from_user = excluded.from_user, to_user = excluded.to_user,
			expires = excluded.expires, rec = excluded.rec`,
		int64(c.ID), c.From.ID, c.To.ID, nanos(c.Expires), b)
	return t.check(err, "writing challenge %d", c.ID)
}

// DeleteChallenge removes a challenge, or returns play.ErrNotFound.
func (t *txn) DeleteChallenge(id uint64) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	tag, err := t.tx.Exec(t.ctx, `DELETE FROM challenges WHERE id = $1`, int64(id))
	if err != nil {
		return t.check(err, "deleting challenge %d", id)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: no challenge has id %d", play.ErrNotFound, id)
	}
	return nil
}

// Player returns the user's record in scope, or play.ErrNotFound.
func (t *txn) Player(scope, user string) (play.Player, error) {
	var p play.Player
	if !validID(user) || checkScope(scope) != nil {
		return p, fmt.Errorf("%w: user %s has no record in scope %q", play.ErrNotFound, user, scope)
	}
	what := fmt.Sprintf("player %s in scope %q", user, scope)
	rec, found, err := t.readRecord("players", scope+" "+user, what,
		`SELECT rec FROM players WHERE scope = $1 AND user_id = $2`+t.locking(), scope, user)
	if err != nil {
		return p, err
	}
	if !found {
		return p, fmt.Errorf("%w: user %s has no record in scope %q", play.ErrNotFound, user, scope)
	}
	return p, decode(what, rec, &p)
}

// Players calls fn for every player record of scope, in user id order.
// The records are all read before fn is called, so that fn may use the
// transaction; an error from fn stops the walk.
func (t *txn) Players(scope string, fn func(play.Player) error) error {
	if checkScope(scope) != nil {
		return nil
	}
	rows, err := t.tx.Query(t.ctx, `SELECT rec FROM players WHERE scope = $1 ORDER BY user_id`, scope)
	if err != nil {
		return t.check(err, "reading the players of %q", scope)
	}
	var ps []play.Player
	var rec []byte
	_, err = pgx.ForEachRow(rows, []any{&rec}, func() error {
		var p play.Player
		if err := decode(fmt.Sprintf("a player of %q", scope), rec, &p); err != nil {
			return err
		}
		ps = append(ps, p)
		return nil
	})
	if err != nil {
		return t.check(err, "reading the players of %q", scope)
	}
	for _, p := range ps {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// PutPlayer writes a player record under its Scope and User.
func (t *txn) PutPlayer(p play.Player) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", p.User); err != nil {
		return err
	}
	if err := checkScope(p.Scope); err != nil {
		return err
	}
	b, err := encode(&p)
	if err != nil {
		return fmt.Errorf("pgstore: encoding player %s: %w", p.User, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO players (scope, user_id, rec, rating, rated_games) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (scope, user_id) DO UPDATE SET rec = excluded.rec, rating = excluded.rating, rated_games = excluded.rated_games`,
		p.Scope, p.User, b, p.Rating.Rating, p.RatedTally.Games())
	return t.check(err, "writing player %s in scope %q", p.User, p.Scope)
}

// standingsBatch is how many standings Standings reads at a time: a page
// of the board needs one read, and fn may use the transaction between
// reads (a connection serves one query at a time).
const standingsBatch = 200

// Standings calls fn for the players of scope with a rated game, in
// leaderboard order (play.CompareStandings), read through the index of
// that order a batch at a time, so that the top of the board reads only
// the top.
func (t *txn) Standings(scope string, fn func(play.Standing) error) error {
	if checkScope(scope) != nil {
		return nil
	}
	var last *play.Player
	for {
		var (
			rows pgx.Rows
			err  error
		)
		if last == nil {
			rows, err = t.tx.Query(t.ctx, `SELECT rec FROM players WHERE scope = $1 AND rated_games > 0
				ORDER BY rating DESC, rated_games DESC, user_id LIMIT $2`, scope, standingsBatch)
		} else {
			r, g := last.Rating.Rating, last.RatedTally.Games()
			rows, err = t.tx.Query(t.ctx, `SELECT rec FROM players WHERE scope = $1 AND rated_games > 0
				AND (rating < $2 OR rating = $2 AND (rated_games < $3 OR rated_games = $3 AND user_id > $4))
				ORDER BY rating DESC, rated_games DESC, user_id LIMIT $5`, scope, r, g, last.User, standingsBatch)
		}
		if err != nil {
			return t.check(err, "reading the standings of %q", scope)
		}
		var batch []play.Player
		var rec []byte
		_, err = pgx.ForEachRow(rows, []any{&rec}, func() error {
			var p play.Player
			if err := decode(fmt.Sprintf("a player of %q", scope), rec, &p); err != nil {
				return err
			}
			batch = append(batch, p)
			return nil
		})
		if err != nil {
			return t.check(err, "reading the standings of %q", scope)
		}
		for i := range batch {
			p := &batch[i]
			if err := fn(play.Standing{User: p.User, Name: p.Name, Rating: p.Rating, Tally: p.RatedTally}); err != nil {
				return err
			}
		}
		if len(batch) < standingsBatch {
			return nil
		}
		last = &batch[len(batch)-1]
	}
}

// PlayerLog calls fn for the user's log entries in scope, in the order of
// their games' ids. The entries are all read before fn is called, so that
// fn may use the transaction.
func (t *txn) PlayerLog(scope, user string, fn func(play.LogEntry) error) error {
	if !validID(user) || checkScope(scope) != nil {
		return nil
	}
	rows, err := t.tx.Query(t.ctx, `SELECT rec FROM player_log WHERE scope = $1 AND user_id = $2 ORDER BY game`, scope, user)
	if err != nil {
		return t.check(err, "reading the log of %s in %q", user, scope)
	}
	var log []play.LogEntry
	var rec []byte
	_, err = pgx.ForEachRow(rows, []any{&rec}, func() error {
		var e play.LogEntry
		if err := decode(fmt.Sprintf("a log entry of %s in %q", user, scope), rec, &e); err != nil {
			return err
		}
		log = append(log, e)
		return nil
	})
	if err != nil {
		return t.check(err, "reading the log of %s in %q", user, scope)
	}
	for _, e := range log {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// PutLogEntry creates or replaces the entry of (Scope, User, Game).
func (t *txn) PutLogEntry(e play.LogEntry) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", e.User); err != nil {
		return err
	}
	if err := checkScope(e.Scope); err != nil {
		return err
	}
	if e.Game == 0 {
		return fmt.Errorf("%w: a log entry of %s without a game", ErrInvalid, e.User)
	}
	b, err := encode(&e)
	if err != nil {
		return fmt.Errorf("pgstore: encoding a log entry of %s: %w", e.User, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO player_log (scope, user_id, game, rec) VALUES ($1, $2, $3, $4)
		ON CONFLICT (scope, user_id, game) DO UPDATE SET rec = excluded.rec`, e.Scope, e.User, int64(e.Game), b)
	return t.check(err, "writing a log entry of %s in %q", e.User, e.Scope)
}

// Stats returns the counts of scope; zero Stats if none.
func (t *txn) Stats(scope string) (play.Stats, error) {
	var st play.Stats
	if checkScope(scope) != nil {
		return st, nil
	}
	what := fmt.Sprintf("stats of %q", scope)
	rec, found, err := t.readRecord("stats", scope, what, `SELECT rec FROM stats WHERE scope = $1`+t.locking(), scope)
	if err != nil || !found {
		return st, err
	}
	return st, decode(what, rec, &st)
}

// PutStats writes the counts of s.Scope.
func (t *txn) PutStats(s play.Stats) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkScope(s.Scope); err != nil {
		return err
	}
	b, err := encode(&s)
	if err != nil {
		return fmt.Errorf("pgstore: encoding the stats of %q: %w", s.Scope, err)
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO stats (scope, rec) VALUES ($1, $2)
		ON CONFLICT (scope) DO UPDATE SET rec = excluded.rec`, s.Scope, b)
	return t.check(err, "writing the stats of %q", s.Scope)
}

// Prefs returns the user's settings; zero Prefs if none were saved.
func (t *txn) Prefs(user string) (play.Prefs, error) {
	return getKeyed[play.Prefs](t, prefsTable, user, "prefs of "+user)
}

// ServerSettings returns a server's settings; zero if none were saved.
func (t *txn) ServerSettings(guild string) (play.ServerSettings, error) {
	return getKeyed[play.ServerSettings](t, serversTable, guild, "settings of server "+guild)
}

// PutServerSettings writes a server's settings.
func (t *txn) PutServerSettings(guild string, s play.ServerSettings) error {
	return putKeyed(t, serversTable, guild, "settings of server "+guild, &s)
}

// PutPrefs writes the user's settings.
func (t *txn) PutPrefs(user string, p play.Prefs) error {
	return putKeyed(t, prefsTable, user, "prefs of "+user, &p)
}
