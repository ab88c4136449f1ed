package store

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/iceagechess/iceage/game"
)

// MaxDaysPerMove is the longest correspondence time control.
const MaxDaysPerMove = 14

// NewGame describes a game to create.
type NewGame struct {
	Guild       string // "" for a game outside any server
	Channel     string // channel or thread id; at most one active game each
	White       Seat
	Black       Seat
	StartFEN    string // "" for game.StartFEN
	Rated       bool
	DaysPerMove int       // 0: no clock; 1 to MaxDaysPerMove
	At          time.Time // creation time
}

// entry is one key of an index (or the id → channel map).
type entry struct {
	bucket, key, val []byte
}

// gameEntries lists the index entries of a game: those of an active game
// (by id, deadline, reminder, user, guild) or of an archived one (by user
// and guild). The record itself is not among them.
func gameEntries(g *Game, archived bool) []entry {
	var es []entry
	if archived {
		id := u64(g.ID)
		for _, u := range g.players() {
			es = append(es, entry{bucketUserArch, join([]byte(u), id), nil})
		}
		if g.Guild != "" {
			es = append(es, entry{bucketGuildArch, join([]byte(g.Guild), id), nil})
		}
		return es
	}
	ch := []byte(g.Channel)
	es = append(es, entry{bucketGameIDs, u64(g.ID), ch})
	if !g.Deadline.IsZero() {
		es = append(es, entry{bucketDeadlines, append(timeKey(g.Deadline), ch...), nil})
	}
	if !g.RemindAt.IsZero() {
		es = append(es, entry{bucketReminders, append(timeKey(g.RemindAt), ch...), nil})
	}
	for _, u := range g.players() {
		es = append(es, entry{bucketUserGames, join([]byte(u), ch), nil})
	}
	if g.Guild != "" {
		es = append(es, entry{bucketGuildGames, join([]byte(g.Guild), ch), nil})
	}
	return es
}

func putEntries(tx *bolt.Tx, es []entry) error {
	for _, e := range es {
		if e.val == nil {
			e.val = []byte{}
		}
		if err := tx.Bucket(e.bucket).Put(e.key, e.val); err != nil {
			return fmt.Errorf("store: indexing in %s: %w", e.bucket, err)
		}
	}
	return nil
}

func deleteEntries(tx *bolt.Tx, es []entry) error {
	for _, e := range es {
		if err := tx.Bucket(e.bucket).Delete(e.key); err != nil {
			return fmt.Errorf("store: unindexing in %s: %w", e.bucket, err)
		}
	}
	return nil
}

// putActive writes an active game and moves its index entries from those
// of old (nil for a new game) to those of g.
func putActive(tx *bolt.Tx, old, g *Game) error {
	if old != nil {
		if err := deleteEntries(tx, gameEntries(old, false)); err != nil {
			return err
		}
	}
	g.V = recordVersion
	b, err := encode(g)
	if err != nil {
		return fmt.Errorf("store: encoding game %d: %w", g.ID, err)
	}
	if err := tx.Bucket(bucketGames).Put([]byte(g.Channel), b); err != nil {
		return fmt.Errorf("store: writing game %d: %w", g.ID, err)
	}
	return putEntries(tx, gameEntries(g, false))
}

// loadActive reads the active game of a channel.
func loadActive(tx *bolt.Tx, channel string) (*Game, error) {
	v := tx.Bucket(bucketGames).Get([]byte(channel))
	if v == nil {
		return nil, fmt.Errorf("%w: no game is going on in channel %s", ErrNotFound, channel)
	}
	g := new(Game)
	if err := decode("game in channel "+channel, v, g); err != nil {
		return nil, err
	}
	return g, nil
}

func loadArchived(tx *bolt.Tx, id uint64) (*Game, error) {
	v := tx.Bucket(bucketArchive).Get(u64(id))
	if v == nil {
		return nil, fmt.Errorf("%w: no finished game has id %d", ErrNotFound, id)
	}
	g := new(Game)
	if err := decode(fmt.Sprintf("archived game %d", id), v, g); err != nil {
		return nil, err
	}
	return g, nil
}

// normTime drops the monotonic clock reading and the location and keeps
// millisecond precision, the precision of stored moves, so that a Game
// returned by a write equals the same Game read back.
func normTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// CreateGame starts a game in n.Channel and returns it. It fails with
// ErrChannelBusy if the channel has an active game, ErrInvalid if an id,
// the FEN or the time control is unusable.
func (s *Store) CreateGame(n NewGame) (Game, error) {
	var g *Game
	err := s.update(func(tx *bolt.Tx) (err error) {
		g, err = createGame(tx, n)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

func createGame(tx *bolt.Tx, n NewGame) (*Game, error) {
	if n.Guild != "" {
		if err := checkID("guild id", n.Guild); err != nil {
			return nil, refuse(err)
		}
	}
	for _, c := range []struct{ what, id string }{{"channel id", n.Channel}, {"White player's id", n.White.ID}, {"Black player's id", n.Black.ID}} {
		if err := checkID(c.what, c.id); err != nil {
			return nil, refuse(err)
		}
	}
	if n.DaysPerMove < 0 || n.DaysPerMove > MaxDaysPerMove {
		return nil, refuse(fmt.Errorf("%w: %d days per move; the time control is 1 to %d days, or 0 for none", ErrInvalid, n.DaysPerMove, MaxDaysPerMove))
	}
	if n.At.IsZero() {
		// A forgotten time would date the game to the year 1 and put its
		// first deadline two thousand years in the past: lost on time at
		// the scheduler's next look.
		return nil, refuse(fmt.Errorf("%w: the new game in channel %s has no creation time", ErrInvalid, n.Channel))
	}
	if n.StartFEN == "" {
		n.StartFEN = game.StartFEN
	}
	p, err := game.ParseFEN(n.StartFEN)
	if err != nil {
		return nil, refuse(fmt.Errorf("%w: the start position: %v", ErrInvalid, err))
	}
	if o := p.Outcome(); o.Over() {
		return nil, refuse(fmt.Errorf("%w: the start position is already decided (%s)", ErrInvalid, o.Reason))
	}
	if tx.Bucket(bucketGames).Get([]byte(n.Channel)) != nil {
		return nil, refuse(fmt.Errorf("%w: channel %s", ErrChannelBusy, n.Channel))
	}
	id, err := tx.Bucket(bucketMeta).NextSequence()
	if err != nil {
		return nil, fmt.Errorf("store: numbering a new game: %w", err)
	}
	at := normTime(n.At)
	g := &Game{
		V: recordVersion, ID: id, Guild: n.Guild, Channel: n.Channel,
		White: n.White, Black: n.Black,
		StartFEN: n.StartFEN, FEN: p.FEN(), Moves: []Move{},
		Created: at, Updated: at, Rated: n.Rated, DaysPerMove: n.DaysPerMove,
	}
	g.startClock(at)
	return g, putActive(tx, nil, g)
}

// startClock sets the deadline and reminder for the move that is now due.
func (g *Game) startClock(at time.Time) {
	if g.DaysPerMove <= 0 {
		g.Deadline, g.RemindAt = time.Time{}, time.Time{}
		return
	}
	span := time.Duration(g.DaysPerMove) * 24 * time.Hour
	g.Deadline = at.Add(span)
	g.RemindAt = g.Deadline.Add(-reminderLead(span))
}

// reminderLead is how long before the deadline the player to move is
// reminded: a day, or a quarter of the time when it is only one day.
func reminderLead(span time.Duration) time.Duration {
	if span <= 24*time.Hour {
		return span / 4
	}
	return 24 * time.Hour
}

// Game returns the active game of a channel, or ErrNotFound.
func (s *Store) Game(channel string) (Game, error) {
	var g *Game
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		g, err = loadActive(tx, channel)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

// GameByID returns the game with that id, active or archived, or
// ErrNotFound.
func (s *Store) GameByID(id uint64) (Game, error) {
	var g *Game
	err := s.db.View(func(tx *bolt.Tx) (err error) {
		if ch := tx.Bucket(bucketGameIDs).Get(u64(id)); ch != nil {
			g, err = loadActive(tx, string(ch))
		} else {
			g, err = loadArchived(tx, id)
		}
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

// ActiveGames returns the user's active games, ordered by channel id. It
// reads only the user's games, through the per-user index.
func (s *Store) ActiveGames(user string) ([]Game, error) {
	return s.activeBy(bucketUserGames, user)
}

// GuildGames returns the active games of a server, ordered by channel id.
func (s *Store) GuildGames(guild string) ([]Game, error) {
	return s.activeBy(bucketGuildGames, guild)
}

func (s *Store) activeBy(index []byte, owner string) ([]Game, error) {
	var out []Game
	err := s.db.View(func(tx *bolt.Tx) error {
		pre := prefix(owner)
		c := tx.Bucket(index).Cursor()
		for k, _ := c.Seek(pre); k != nil && bytes.HasPrefix(k, pre); k, _ = c.Next() {
			g, err := loadActive(tx, string(k[len(pre):]))
			if err != nil {
				return fmt.Errorf("store: index %s points at a missing game: %w", index, err)
			}
			out = append(out, *g)
		}
		return nil
	})
	return out, err
}

// checkVersion refuses a write made against another ply than the game's.
// AnyPly skips the check.
func checkVersion(g *Game, expectedPly int) error {
	if expectedPly != AnyPly && expectedPly != g.Ply() {
		return refuse(fmt.Errorf("%w: game %d in channel %s is at ply %d, the request was made at ply %d", ErrConflict, g.ID, g.Channel, g.Ply(), expectedPly))
	}
	return nil
}

// AnyPly, as the expected ply, accepts the game at whatever ply it is: for
// changes that stay right whatever was played meanwhile (a resignation, a
// new message id).
const AnyPly = -1

// PlayMove plays uci (e.g. "e2e4", "e7e8q") for the user by in the active
// game of channel, and returns the game after the move, committed to disk.
// expectedPly is the ply the user saw (Game.Ply); if the game has moved on
// since, PlayMove fails with ErrConflict and changes nothing, so of two
// identical clicks exactly one plays. A move that ends the game moves the
// game to the archive and updates the players' and the variant's counts in
// the same transaction.
//
// A move at or after the game's deadline is refused with ErrTimeUp: the
// mover has lost on time (end the game with TimeOut).
//
// Errors: ErrNotFound (no active game), ErrConflict, ErrNotPlayer,
// ErrNotYourTurn, ErrIllegalMove, ErrTimeUp, ErrInvalid, or a wrapped I/O
// error.
func (s *Store) PlayMove(channel string, expectedPly int, uci string, by string, at time.Time) (Game, error) {
	at = normTime(at)
	var g *Game
	err := s.write(func(tx *bolt.Tx) (err error) {
		g, err = playMove(tx, channel, expectedPly, uci, by, at)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

func playMove(tx *bolt.Tx, channel string, expectedPly int, uci string, by string, at time.Time) (*Game, error) {
	g, err := loadActive(tx, channel)
	if err != nil {
		return nil, refuse(err)
	}
	if err := checkVersion(g, expectedPly); err != nil {
		return nil, err
	}
	pos, err := g.Position()
	if err != nil {
		return nil, err
	}
	if _, ok := g.ColorOf(by); !ok {
		return nil, refuse(fmt.Errorf("%w: user %s in game %d", ErrNotPlayer, by, g.ID))
	}
	if g.Seat(pos.Turn()).ID != by {
		return nil, refuse(fmt.Errorf("%w: %s is to move in game %d, not user %s", ErrNotYourTurn, pos.Turn(), g.ID, by))
	}
	// The store takes UCI only: the bot turns what users type into UCI
	// with game.ParseMove, which explains mistakes.
	m, err := game.ParseUCI(uci)
	if err != nil {
		return nil, refuse(fmt.Errorf("%w: %q is not a move in UCI form (e.g. e2e4, e7e8q)", ErrIllegalMove, uci))
	}
	if !pos.IsLegal(m) {
		return nil, refuse(fmt.Errorf("%w: %s in game %d at ply %d", ErrIllegalMove, uci, g.ID, g.Ply()))
	}
	if at.IsZero() {
		return nil, refuse(fmt.Errorf("%w: the move %s in game %d has no time", ErrInvalid, uci, g.ID))
	}
	if !g.Deadline.IsZero() && !at.Before(g.Deadline) {
		// TimeOut would end the game at this instant: a move that comes
		// later, before the scheduler did, must not save the game.
		return nil, refuse(fmt.Errorf("%w: %s's move in game %d was due by %s", ErrTimeUp, pos.Turn(), g.ID, g.Deadline.Format(time.RFC3339)))
	}
	old := g.clone()
	next, ev := pos.ApplyWithEvent(m)
	g.Moves = append(g.Moves, Move{UCI: m.UCI(), At: at})
	if ev != nil {
		g.IceAges = append(g.IceAges, iceAgeRecord(len(g.Moves), ev))
	}
	g.FEN = next.FEN()
	g.Updated = at
	g.Status = next.Outcome()
	// A move answers the opponent's draw offer (declined) and any takeback
	// request; the mover's own offer stands until the opponent replies.
	g.Takeback = ""
	if g.DrawOffer != by {
		g.DrawOffer = ""
	}
	if g.Status.Over() {
		g.Ended = at
		return g, archive(tx, old, g)
	}
	g.startClock(at)
	return g, putActive(tx, old, g)
}

// UpdateGame changes the active game of channel with fn, in one
// transaction: fn gets a copy of the game as stored and edits it (draw
// offers, resignation, messages, reminders…); if fn returns an error,
// nothing is written and that error is returned as is. expectedPly works
// as in PlayMove (AnyPly: no check).
//
// fn must not change what only moves may change: the id, guild, channel,
// players, start position, moves, Ice Ages or position (ErrInvalid). If fn
// ends the game (sets Status), the game is archived and the counts are
// updated; Ended defaults to Updated. fn may run more than once.
func (s *Store) UpdateGame(channel string, expectedPly int, fn func(*Game) error) (Game, error) {
	var g *Game
	err := s.write(func(tx *bolt.Tx) (err error) {
		g, err = updateGame(tx, channel, expectedPly, fn)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	return *g, nil
}

func updateGame(tx *bolt.Tx, channel string, expectedPly int, fn func(*Game) error) (*Game, error) {
	old, err := loadActive(tx, channel)
	if err != nil {
		return nil, refuse(err)
	}
	if err := checkVersion(old, expectedPly); err != nil {
		return nil, err
	}
	g := old.clone()
	if err := fn(g); err != nil {
		return nil, refuse(err)
	}
	if err := checkUpdate(old, g); err != nil {
		return nil, refuse(err)
	}
	g.Updated = normTime(g.Updated)
	g.Deadline = normTime(g.Deadline)
	g.RemindAt = normTime(g.RemindAt)
	if g.Status.Over() {
		if g.Ended.IsZero() {
			g.Ended = g.Updated
		}
		g.Ended = normTime(g.Ended)
		return g, archive(tx, old, g)
	}
	return g, putActive(tx, old, g)
}

// checkUpdate refuses an UpdateGame that changed what only moves change,
// or set an impossible status.
func checkUpdate(old, g *Game) error {
	same := g.ID == old.ID && g.Guild == old.Guild && g.Channel == old.Channel &&
		g.White.ID == old.White.ID && g.Black.ID == old.Black.ID &&
		g.StartFEN == old.StartFEN && g.FEN == old.FEN &&
		len(g.Moves) == len(old.Moves) && len(g.IceAges) == len(old.IceAges)
	for i := 0; same && i < len(g.Moves); i++ {
		same = g.Moves[i] == old.Moves[i]
	}
	if !same {
		return fmt.Errorf("%w: an update of game %d tried to change its identity, players or moves; moves go through PlayMove", ErrInvalid, old.ID)
	}
	if g.DaysPerMove < 0 || g.DaysPerMove > MaxDaysPerMove {
		return fmt.Errorf("%w: game %d in channel %s cannot have %d days per move; the time control is 1 to %d days, or 0 for none", ErrInvalid, old.ID, old.Channel, g.DaysPerMove, MaxDaysPerMove)
	}
	if g.Status.Over() {
		switch {
		case g.Status.Reason == game.Aborted && g.Status.Result == game.NoResult:
		case g.Status.Reason != game.Aborted && g.Status.Result >= game.WhiteWins && g.Status.Result <= game.Draw:
		default:
			return fmt.Errorf("%w: game %d cannot end with result %d and reason %d", ErrInvalid, old.ID, g.Status.Result, g.Status.Reason)
		}
	} else if g.Status.Result != game.NoResult {
		return fmt.Errorf("%w: game %d has a result but no reason", ErrInvalid, old.ID)
	}
	return nil
}

// TimeOut ends the game of channel on time if its deadline has passed at
// now: the side to move loses. It fails with ErrConflict if the game is
// not at expectedPly or its deadline is still ahead (a move came in).
func (s *Store) TimeOut(channel string, expectedPly int, now time.Time) (Game, error) {
	return s.UpdateGame(channel, expectedPly, func(g *Game) error {
		if g.Deadline.IsZero() || g.Deadline.After(now) {
			return fmt.Errorf("%w: game %d in channel %s is not past its deadline at %s", ErrConflict, g.ID, g.Channel, now.UTC().Format(time.RFC3339))
		}
		p, err := g.Position()
		if err != nil {
			return err
		}
		g.Status = game.Outcome{Result: game.WhiteWins, Reason: game.Timeout}
		if p.Turn() == game.White {
			g.Status.Result = game.BlackWins
		}
		g.Updated = now
		return nil
	})
}

// Resign ends the active game of channel by the resignation of user by:
// the opponent wins. A resignation stays right whatever was played
// meanwhile, so there is no expected ply. It fails with ErrNotPlayer, and
// changes nothing, if by does not play in the game, and ErrNotFound if
// the game has already ended.
func (s *Store) Resign(channel, by string, at time.Time) (Game, error) {
	if at.IsZero() {
		return Game{}, fmt.Errorf("%w: the resignation in channel %s has no time", ErrInvalid, channel)
	}
	return s.UpdateGame(channel, AnyPly, func(g *Game) error {
		c, ok := g.ColorOf(by)
		if !ok {
			return fmt.Errorf("%w: user %s cannot resign game %d in channel %s", ErrNotPlayer, by, g.ID, g.Channel)
		}
		g.Status = game.Outcome{Result: game.BlackWins, Reason: game.Resignation}
		if c == game.Black {
			g.Status.Result = game.WhiteWins
		}
		g.Updated = at
		return nil
	})
}
