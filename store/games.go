package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// placement is what decides where a game is stored and indexed: an active
// game in bucketActive, under its channel, its deadline and reminder, its
// players and its guild; a finished one in bucketArchive, under its
// players and guild.
type placement struct {
	over             bool
	channel, guild   string
	white, black     string
	deadline, remind time.Time
}

func placementOf(g *play.Game, over bool) placement {
	return placement{over: over, channel: g.Channel, guild: g.Guild, white: g.White.ID, black: g.Black.ID,
		deadline: g.Deadline, remind: g.RemindAt}
}

func recordBucket(over bool) []byte {
	if over {
		return bucketArchive
	}
	return bucketActive
}

// entry is one key of an index.
type entry struct {
	bucket, key, val []byte
}

func (e entry) same(o entry) bool {
	return bytes.Equal(e.bucket, o.bucket) && bytes.Equal(e.key, o.key) && bytes.Equal(e.val, o.val)
}

// entries lists the index entries of game id placed at p.
func (p *placement) entries(id uint64) []entry {
	idb := u64(id)
	users := []string{p.white}
	if p.black != p.white {
		users = append(users, p.black)
	}
	var es []entry
	if p.over {
		es = append(es, entry{bucketFinished, idb, nil})
		for _, u := range users {
			es = append(es, entry{bucketUserArch, join([]byte(u), idb), nil})
		}
		if p.guild != "" {
			es = append(es, entry{bucketGuildArch, join([]byte(p.guild), idb), nil})
		}
		return es
	}
	es = append(es, entry{bucketChannels, []byte(p.channel), idb})
	if !p.deadline.IsZero() {
		es = append(es, entry{bucketDeadlines, append(timeKey(p.deadline), idb...), nil})
	}
	if !p.remind.IsZero() {
		es = append(es, entry{bucketReminders, append(timeKey(p.remind), idb...), nil})
	}
	for _, u := range users {
		es = append(es, entry{bucketUserGames, join([]byte(u), idb), nil})
	}
	if p.guild != "" {
		es = append(es, entry{bucketGuildGames, join([]byte(p.guild), idb), nil})
	}
	return es
}

// moveEntries replaces the index entries old by now, touching only those
// that differ. The entry of a channel is removed only while it still
// names the game: it is the one entry that another game could hold.
func (t *txn) moveEntries(old, now []entry) error {
	for _, e := range old {
		if contains(now, e) {
			continue
		}
		b := t.tx.Bucket(e.bucket)
		if e.val != nil && !bytes.Equal(b.Get(e.key), e.val) {
			continue
		}
		if err := b.Delete(e.key); err != nil {
			return fmt.Errorf("store: unindexing in %s: %w", e.bucket, err)
		}
	}
	for _, e := range now {
		if contains(old, e) {
			continue
		}
		v := e.val
		if v == nil {
			v = []byte{}
		}
		if err := t.writeBucket(e.bucket).Put(e.key, v); err != nil {
			return fmt.Errorf("store: indexing in %s: %w", e.bucket, err)
		}
	}
	return nil
}

// archiveFill is how full bbolt fills the pages of the archive and of
// idx.finished when they split: to the brim. Their keys are game ids,
// which grow: most games end in the order they began, so most inserts
// come at the end, where bbolt's default (half full, for inserts
// anywhere) would leave every page it splits half empty for good. (The
// per-player and per-guild indexes keep the default: their inserts come
// at the end of each owner's entries, all over the tree, where full
// pages would split at every insert.)
const archiveFill = 1.0

// writeBucket returns a bucket to write to, its pages filled as its keys
// call for.
func (t *txn) writeBucket(name []byte) *bolt.Bucket {
	b := t.tx.Bucket(name)
	if bytes.Equal(name, bucketArchive) || bytes.Equal(name, bucketFinished) {
		b.FillPercent = archiveFill
	}
	return b
}

func contains(es []entry, e entry) bool {
	for _, x := range es {
		if x.same(e) {
			return true
		}
	}
	return false
}

// PutGame creates or replaces a game. It compares the game with the
// stored one to move its index entries: an active game holds its channel
// (play.ErrChannelBusy if another active game has it), a finished one
// moves to the archive and frees the channel.
func (t *txn) PutGame(g play.Game) error {
	if err := t.willWrite(); err != nil {
		return err
	}
	if err := invalid(g.CheckIDs()); err != nil {
		return err
	}
	old, found, err := t.placement(g.ID)
	if err != nil {
		return err
	}
	now := placementOf(&g, g.Over())
	if !now.over {
		if v := t.tx.Bucket(bucketChannels).Get([]byte(g.Channel)); v != nil && !bytes.Equal(v, u64(g.ID)) {
			if len(v) != 8 {
				return fmt.Errorf("%w: the channel index entry of %s is %x", ErrCorrupt, g.Channel, v)
			}
			return fmt.Errorf("%w: channel %s has game %d going on, so game %d cannot go on there", play.ErrChannelBusy, g.Channel, binary.BigEndian.Uint64(v), g.ID)
		}
	}
	b, err := encode(&g)
	if err != nil {
		return fmt.Errorf("store: encoding game %d: %w", g.ID, err)
	}
	t.wrote = true
	id := u64(g.ID)
	if found && old.over != now.over {
		if err := t.tx.Bucket(recordBucket(old.over)).Delete(id); err != nil {
			return fmt.Errorf("store: moving game %d: %w", g.ID, err)
		}
	}
	if err := t.writeBucket(recordBucket(now.over)).Put(id, b); err != nil {
		return fmt.Errorf("store: writing game %d: %w", g.ID, err)
	}
	var was []entry
	if found {
		was = old.entries(g.ID)
	}
	if err := t.moveEntries(was, now.entries(g.ID)); err != nil {
		return err
	}
	t.remember(g.ID, now)
	t.feed(&g, b)
	return nil
}

func (t *txn) remember(id uint64, p placement) {
	if !t.writable {
		return
	}
	if t.placed == nil {
		t.placed = map[uint64]placement{}
	}
	t.placed[id] = p
}

// gameHead is the part of a stored game of record version 3 (JSON) that
// places it.
type gameHead struct {
	V        int          `json:"v"`
	ID       uint64       `json:"id"`
	Guild    string       `json:"guild"`
	Channel  string       `json:"channel"`
	White    play.Seat    `json:"white"`
	Black    play.Seat    `json:"black"`
	Outcome  game.Outcome `json:"status"`
	Deadline time.Time    `json:"deadline"`
	RemindAt time.Time    `json:"remind"`
}

// placement returns where game id is stored now; found is false for a new
// game.
func (t *txn) placement(id uint64) (p placement, found bool, err error) {
	if p, ok := t.placed[id]; ok {
		return p, true, nil
	}
	for _, over := range []bool{false, true} {
		v := t.tx.Bucket(recordBucket(over)).Get(u64(id))
		if v == nil {
			continue
		}
		if p, err = placementIn(id, over, v); err != nil {
			return p, false, err
		}
		t.remember(id, p)
		return p, true, nil
	}
	return p, false, nil
}

// placementIn reads where the stored record v of game id places it.
func placementIn(id uint64, over bool, v []byte) (placement, error) {
	if v, ok := jsonRecord(v); ok {
		var h gameHead
		if err := json.Unmarshal(v, &h); err != nil {
			return placement{}, fmt.Errorf("%w: game %d: %v", ErrCorrupt, id, err)
		}
		if h.V > recordVersion {
			return placement{}, fmt.Errorf("%w: game %d has record version %d, this program knows up to %d", ErrNewerSchema, id, h.V, recordVersion)
		}
		return placement{over: over, channel: h.Channel, guild: h.Guild, white: h.White.ID, black: h.Black.ID,
			deadline: h.Deadline, remind: h.RemindAt}, nil
	}
	var g play.Game
	if err := decode(fmt.Sprintf("game %d", id), v, &g); err != nil {
		return placement{}, err
	}
	return placementOf(&g, over), nil
}

// jsonRecord reports whether a stored game is in the JSON form of record
// versions up to 3 (the binary form begins with its version byte).
func jsonRecord(v []byte) ([]byte, bool) {
	return v, len(v) > 0 && (v[0] == '{' || v[0] == ' ' || v[0] == '\t' || v[0] == '\n' || v[0] == '\r')
}

// decodeGame decodes the record of game id found in the active games or
// the archive (over).
func (t *txn) decodeGame(id uint64, over bool, v []byte) (play.Game, error) {
	var g play.Game
	if err := decode(fmt.Sprintf("game %d", id), v, &g); err != nil {
		return play.Game{}, err
	}
	if g.ID != id {
		return play.Game{}, fmt.Errorf("%w: the record stored as game %d is game %d", ErrCorrupt, id, g.ID)
	}
	if _, ok := t.placed[id]; !ok {
		t.remember(id, placementOf(&g, over))
	}
	return g, nil
}

// Game returns the game with that id, active or finished.
func (t *txn) Game(id uint64) (play.Game, error) {
	for _, over := range []bool{false, true} {
		if v := t.tx.Bucket(recordBucket(over)).Get(u64(id)); v != nil {
			return t.decodeGame(id, over, v)
		}
	}
	return play.Game{}, fmt.Errorf("%w: no game has id %d", play.ErrNotFound, id)
}

// activeGame reads the active game that an index entry names.
func (t *txn) activeGame(index []byte, idb []byte) (play.Game, error) {
	if len(idb) != 8 {
		return play.Game{}, fmt.Errorf("%w: an entry of %s ends in %x, not a game id", ErrCorrupt, index, idb)
	}
	id := binary.BigEndian.Uint64(idb)
	v := t.tx.Bucket(bucketActive).Get(idb)
	if v == nil {
		return play.Game{}, fmt.Errorf("%w: %s names game %d, which is not among the active games", ErrCorrupt, index, id)
	}
	return t.decodeGame(id, false, v)
}

// GameIn returns the active game of a channel.
func (t *txn) GameIn(channel string) (play.Game, error) {
	var v []byte
	if validID(channel) {
		v = t.tx.Bucket(bucketChannels).Get([]byte(channel))
	}
	if v == nil {
		return play.Game{}, fmt.Errorf("%w: no game is going on in channel %s", play.ErrNotFound, channel)
	}
	g, err := t.activeGame(bucketChannels, v)
	if err == nil && g.Channel != channel {
		// A damaged entry must not hand one channel another's game.
		return play.Game{}, fmt.Errorf("%w: %s names game %d for channel %s, but that game is in channel %s", ErrCorrupt, bucketChannels, g.ID, channel, g.Channel)
	}
	return g, err
}

// ActiveGames returns the user's active games, oldest first, through the
// per-user index: the cost is the user's games, not all games.
func (t *txn) ActiveGames(user string) ([]play.Game, error) {
	return t.activeBy(bucketUserGames, user)
}

// GuildGames returns a guild's active games, oldest first.
func (t *txn) GuildGames(guild string) ([]play.Game, error) {
	return t.activeBy(bucketGuildGames, guild)
}

func (t *txn) activeBy(index []byte, owner string) ([]play.Game, error) {
	if !validID(owner) {
		return nil, nil
	}
	var out []play.Game
	pre := prefix(owner)
	c := t.tx.Bucket(index).Cursor()
	for k, _ := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
		g, err := t.activeGame(index, k[len(pre):])
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// Finished returns finished games, newest first: the user's (or, with
// user "", the guild's; or, with both "", all), with ids below before (0:
// no bound), at most limit (none for a limit of 0 or less). It walks one
// index backwards from before, so a page costs its own games only.
func (t *txn) Finished(user, guild string, before uint64, limit int) ([]play.Game, error) {
	if limit <= 0 {
		return nil, nil
	}
	index, owner := bucketFinished, ""
	switch {
	case user != "":
		index, owner = bucketUserArch, user
	case guild != "":
		index, owner = bucketGuildArch, guild
	}
	var pre []byte
	if owner != "" {
		if !validID(owner) {
			return nil, nil
		}
		pre = prefix(owner)
	}
	c := t.tx.Bucket(index).Cursor()
	// Seek to the first key at or after owner NUL before, or after all of
	// the owner's keys (owner 0x01 sorts after every owner NUL id), then
	// walk backwards.
	var k []byte
	switch {
	case before != 0:
		k, _ = c.Seek(append(pre[:len(pre):len(pre)], u64(before)...))
	case owner != "":
		k, _ = c.Seek(append([]byte(owner), 1))
	}
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	var out []play.Game
	archive := t.tx.Bucket(bucketArchive)
	for ; k != nil && bytes.HasPrefix(k, pre) && len(out) < limit; k, _ = c.Prev() {
		idb := k[len(pre):]
		if len(idb) != 8 {
			return nil, fmt.Errorf("%w: an entry of %s ends in %x, not a game id", ErrCorrupt, index, idb)
		}
		id := binary.BigEndian.Uint64(idb)
		v := archive.Get(idb)
		if v == nil {
			return nil, fmt.Errorf("%w: %s names game %d, which is not in the archive", ErrCorrupt, index, id)
		}
		g, err := t.decodeGame(id, true, v)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}
