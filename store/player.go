package store

import (
	"bytes"
	"fmt"

	"github.com/iceagechess/iceage/play"
)

func playerKey(scope, user string) []byte { return join([]byte(scope), []byte(user)) }

func checkScope(scope string) error {
	if scope == "" {
		return nil
	}
	return checkID("scope (guild id)", scope)
}

// Player returns the user's record in scope (a guild id, or "" for the
// global record), or play.ErrNotFound.
func (t *txn) Player(scope, user string) (play.Player, error) {
	var p play.Player
	var v []byte
	if validID(user) && checkScope(scope) == nil {
		v = t.tx.Bucket(bucketPlayers).Get(playerKey(scope, user))
	}
	if v == nil {
		return p, fmt.Errorf("%w: user %s has no record in scope %q", play.ErrNotFound, user, scope)
	}
	err := decode(fmt.Sprintf("player %s in scope %q", user, scope), v, &p)
	return p, err
}

// Players calls fn for every player record of scope, in user id order
// (a leaderboard walks Standings instead, in rating order, without
// decoding records). An error from fn stops the walk.
// In a read-write transaction the records are read first, so that fn may
// write.
func (t *txn) Players(scope string, fn func(play.Player) error) error {
	if checkScope(scope) != nil {
		return nil
	}
	var later []play.Player
	pre := prefix(scope)
	c := t.tx.Bucket(bucketPlayers).Cursor()
	for k, v := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, v = c.Next() {
		var p play.Player
		if err := decode(fmt.Sprintf("player %q", k), v, &p); err != nil {
			return err
		}
		if t.writable {
			later = append(later, p)
			continue
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	for _, p := range later {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// PutPlayer writes a player record under its Scope and User, and moves its
// entry in the rating index.
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
		return fmt.Errorf("store: encoding player %s: %w", p.User, err)
	}
	// The entry of the record replaced in the rating index is found from
	// the record: one that cannot be read cannot be replaced either.
	players, k := t.tx.Bucket(bucketPlayers), playerKey(p.Scope, p.User)
	var oldKey []byte
	if old := players.Get(k); old != nil {
		if oldKey, err = oldStandingKey(p.Scope, p.User, old); err != nil {
			return err
		}
	}
	t.wrote = true
	if err := players.Put(k, b); err != nil {
		return err
	}
	return t.indexPlayer(oldKey, &p)
}

// Stats returns the counts of finished games in a guild, or everywhere for
// scope "". Nothing counted yet gives zero Stats.
func (t *txn) Stats(scope string) (play.Stats, error) {
	var st play.Stats
	if checkScope(scope) != nil {
		return st, nil
	}
	if v := t.tx.Bucket(bucketStats).Get(prefix(scope)); v != nil {
		return st, decode(fmt.Sprintf("stats of %q", scope), v, &st)
	}
	return st, nil
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
		return fmt.Errorf("store: encoding the stats of %q: %w", s.Scope, err)
	}
	t.wrote = true
	return t.tx.Bucket(bucketStats).Put(prefix(s.Scope), b)
}

// Prefs returns the user's settings; zero Prefs if none were saved.
func (t *txn) Prefs(user string) (play.Prefs, error) {
	var p play.Prefs
	if !validID(user) {
		return p, nil
	}
	if v := t.tx.Bucket(bucketPrefs).Get([]byte(user)); v != nil {
		return p, decode("prefs of "+user, v, &p)
	}
	return p, nil
}

// bucketServers holds each server's settings: guild → play.ServerSettings.
// Made by the first server that saves its settings: a file that has
// none reads as zero settings everywhere.
var bucketServers = []byte("servers")

// ServerSettings returns a server's settings; zero if none were saved.
func (t *txn) ServerSettings(guild string) (play.ServerSettings, error) {
	var s play.ServerSettings
	b := t.tx.Bucket(bucketServers)
	if b == nil || !validID(guild) {
		return s, nil
	}
	if v := b.Get([]byte(guild)); v != nil {
		return s, decode("settings of server "+guild, v, &s)
	}
	return s, nil
}

// PutServerSettings writes a server's settings.
func (t *txn) PutServerSettings(guild string, s play.ServerSettings) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("guild id", guild); err != nil {
		return err
	}
	v, err := encode(&s)
	if err != nil {
		return fmt.Errorf("store: encoding the settings of server %s: %w", guild, err)
	}
	b, err := t.tx.CreateBucketIfNotExists(bucketServers)
	if err != nil {
		return fmt.Errorf("store: the servers' settings: %w", err)
	}
	t.wrote = true
	return b.Put([]byte(guild), v)
}

// PutPrefs writes the user's settings.
func (t *txn) PutPrefs(user string, p play.Prefs) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := checkID("user id", user); err != nil {
		return err
	}
	b, err := encode(&p)
	if err != nil {
		return fmt.Errorf("store: encoding the prefs of %s: %w", user, err)
	}
	t.wrote = true
	return t.tx.Bucket(bucketPrefs).Put([]byte(user), b)
}
